#!/bin/bash
# synthcohort.sh DIR writes the synthetic cohort of the score-normalisation
# experiment (go run ./speaker/internal/eval -normexp real,DIR) into DIR:
# 39 espeak-ng voice variants (accent, pitch and rate varied) and 4 flite
# voices at two speaking rates, each reading one of three passages
# written for this purpose. It needs espeak-ng and flite on the PATH.

set -e
mkdir -p "$1"
cd "$1"
T1="The little boat drifted past the old mill while the children counted the geese on the far bank. Nobody had told them that the river would rise before evening, so they kept on walking."
T2="Please bring the blue folder from my desk and leave the letters by the door. I will read them after lunch, when the office is quiet and the phones have stopped ringing."
T3="At the end of the road there was a small shop that sold bread, candles and warm socks. In winter the owner opened it early, and a line of neighbours waited in the snow."
texts=("$T1" "$T2" "$T3")
variants=(m1 m2 m3 m4 m5 m6 m7 m8 f1 f2 f3 f4 f5 adam Alex Andy anika antonio aunty belinda benjamin boris caleb david ed edward Gene iven john linda Lee max Mike michel norbert paul pablo steph Storm)
accents=(en-us en-gb en-gb-scotland en-gb-x-rp en-029 en-gb-x-gbclan)
i=0
for v in "${variants[@]}"; do
  a=${accents[$((i % ${#accents[@]}))]}
  p=$((30 + (i * 7) % 41))
  s=$((140 + (i * 11) % 50))
  t=${texts[$((i % 3))]}
  espeak-ng -v "$a+$v" -p $p -s $s -w es_${i}_$v.wav "$t" 2>/dev/null || echo "fail $v"
  i=$((i+1))
done
for v in kal awb rms slt; do
  for st in 0.9 1.1; do
    flite -voice $v --setf duration_stretch=$st -t "${texts[$((i % 3))]}" -o fl_${v}_$st.wav
    i=$((i+1))
  done
done
