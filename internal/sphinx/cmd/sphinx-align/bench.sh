#!/bin/sh
# Reproduces the long-file figures of docs/bench/engine.md: builds one
# 10.8-minute utterance from the shared English test files (12 repetitions of
# 7 files), force-aligns it with the Go engine (sphinx-align) and with
# pocketsphinx_batch + a one-sentence JSGF grammar, and prints speed, peak
# memory and the word-boundary agreement of the two.
# Usage: sh internal/sphinx/cmd/sphinx-align/bench.sh [SOTTO_TESTDATA]
set -eu
S=${1:-${SOTTO_TESTDATA:-../shared/testdata}}/speech
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
FILES="en_jfk en_ls_1089-134686-0000 en_ls_1089-134691-0001 en_ls_2412-153948-0000 en_ps_sense0870 en_ps_sense0880 en_ps_sense0890"
ARGS=""
for f in $FILES; do ARGS="$ARGS $S/${f}_16k.wav $S/$f.txt"; done
go build -o "$W/sphinx-align" ./internal/sphinx/cmd/sphinx-align
# Go engine: 3 runs.
for i in 1 2 3; do "$W/sphinx-align" -repeat 12 $ARGS; done
"$W/sphinx-align" -repeat 12 -ctm $ARGS | grep -v '<sil>' | grep '^utt' > "$W/go.ctm"
# Peer: the same audio as one headerless raw file and the same words.
mkdir -p "$W/utt"
: > "$W/text"
for r in $(seq 12); do for f in $FILES; do
  sox "$S/${f}_16k.wav" -t raw -e signed -b 16 -c 1 -r 16000 - >> "$W/utt/long.raw"
  tr 'A-Z' 'a-z' < "$S/$f.txt" | tr -d '.,!?;:"' >> "$W/text"; echo >> "$W/text"
done; done
printf '#JSGF V1.0;\ngrammar g;\npublic <utt> = %s;\n' "$(tr '\n' ' ' < "$W/text")" > "$W/g.gram"
echo long > "$W/long.ctl"
for i in 1 2 3; do
  /usr/bin/time -f 'peer: wall %e s, peak RSS %M kB' pocketsphinx_batch \
    -hmm /usr/share/pocketsphinx/model/en-us/en-us -dict /usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict \
    -remove_silence no -ctl "$W/long.ctl" -cepdir "$W/utt" -cepext .raw -adcin yes -adchdr 0 \
    -jsgf "$W/g.gram" -ctm "$W/peer.ctm" -hyp "$W/peer.hyp" 2>&1 | grep -E 'peer:|batch.c.*seconds speech'
done
# Agreement of word boundaries (peer CTM end is inclusive: + 10 ms).
grep -v '<sil>' "$W/peer.ctm" | awk '$5 !~ /^[[+<]/' > "$W/peer.words"
paste "$W/go.ctm" "$W/peer.words" | awk '{
  gs=$3; ge=$3+$4; ps=$8; pe=$8+$9+0.01
  for (k=0;k<2;k++) { d = (k==0) ? gs-ps : ge-pe; if (d<0) d=-d; n++; if (d<=0.0101) a++; if (d<=0.0201) b++ }
} END { printf "agreement: %d boundaries, %.1f%% within 10 ms, %.1f%% within 20 ms\n", n, 100*a/n, 100*b/n }'
