package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/speaker"
)

// devMeetings builds the development set for estimating the number of
// speakers: recordings that look like a meeting in one room rather than a
// row of clean files. Each meeting has 1–4 speakers of speakers.tsv (each
// speaker's turns are read in order from that speaker's files, so a
// speaker keeps one session as in a real meeting) and:
//
//   - turn lengths drawn from a log-normal (median 2.5 s, 0.6–12 s) with
//     about one turn in five a short back-channel (0.3–1.0 s);
//   - a speaker who talks more than the others (turn-taking weights);
//   - pauses between turns of 0.1–1.2 s, and one turn in five starting
//     0.2–1.0 s before the previous one ends (overlapped speech);
//   - one room per meeting: the same sparse echo pattern (decay time
//     0.2–0.6 s) for everyone, each speaker at their own distance (level
//     ±6 dB, direct-to-reverberant ratio -3..+9 dB);
//   - steady background noise (white through a one-pole low-pass) at
//     12–30 dB under the meeting's speech power, through pauses too.
//
// The reference marks the speech of each turn (10 ms frames within 35 dB
// of the turn's loudest, pauses under 0.3 s bridged) with its speaker, so
// overlaps are scored as overlapped speech. The set is seeded and the same
// on every run. The sealed AMI meeting was not used to design it.
//
// Two sets are made (meetingSets): the first as above, and a second of
// short meetings closer to excerpts of recorded meetings: 30–60 s,
// 2–4 speakers with one clearly leading, talkers further from the
// microphone (direct-to-reverberant ratio -6..+3 dB) in rooms of
// 0.3–0.7 s decay, noise at 10–25 dB.
func devMeetings(e *evaluator, set meetingSet) ([]synthConv, error) {
	bySpk, err := filesBySpeaker(e.dir)
	if err != nil {
		return nil, err
	}
	// A speaker's material: their files joined, at least 20 s.
	material := map[string][]float32{}
	var spk []string
	for s, files := range bySpk {
		slices.Sort(files)
		var m []float32
		for _, fn := range files {
			x, err := e.load(fn)
			if err != nil {
				return nil, err
			}
			m = append(m, x...)
		}
		if len(m) >= 20*sotto.SampleRate {
			material[s] = m
			spk = append(spk, s)
		}
	}
	slices.Sort(spk)
	r := rand.New(rand.NewPCG(2026, set.seed))
	var out []synthConv
	for c := range set.n {
		n := set.minSpk + c%(set.maxSpk-set.minSpk+1)
		perm := r.Perm(len(spk))[:n]
		conv := synthConv{name: fmt.Sprintf("%s%d", set.name, c), speakers: n}
		// The room: sparse echoes with an exponential decay.
		rt := set.rt[0] + (set.rt[1]-set.rt[0])*r.Float64()
		type tap struct {
			d int
			g float64
		}
		var taps []tap
		var tapE float64
		for range 40 {
			d := 0.004 + r.Float64()*rt*0.5
			g := math.Exp(-6.9*d/rt) * r.NormFloat64()
			taps = append(taps, tap{int(d * sotto.SampleRate), g})
			tapE += g * g
		}
		type voice struct{ level, direct, echo float64 }
		voices := make([]voice, n)
		weights := make([]float64, n)
		for i := range n {
			drr := set.drr[0] + (set.drr[1]-set.drr[0])*r.Float64()
			dg := math.Pow(10, drr/20)
			voices[i] = voice{
				level:  math.Pow(10, (-6+12*r.Float64())/20),
				direct: dg / math.Sqrt(dg*dg+1),
				echo:   1 / math.Sqrt(dg*dg+1) / math.Sqrt(tapE),
			}
			weights[i] = 0.5 + r.Float64()
		}
		weights[r.IntN(n)] += set.lead // someone leads the meeting
		pos := make([]int, n)          // read position in each speaker's material
		for i := range n {
			pos[i] = r.IntN(len(material[spk[perm[i]]]) / 2)
		}
		target := (set.dur[0] + (set.dur[1]-set.dur[0])*r.Float64()) * sotto.SampleRate
		var mix []float64
		at, prev := int(0.5*sotto.SampleRate), -1
		for float64(at) < target {
			// The next speaker: not the one who just spoke.
			who := prev
			for who == prev {
				x := r.Float64() * sum(weights)
				for who = 0; who < n-1 && x > weights[who]; who++ {
					x -= weights[who]
				}
				if n == 1 {
					break
				}
			}
			var dur float64
			if r.IntN(5) == 0 {
				dur = 0.3 + 0.7*r.Float64()
			} else {
				dur = min(12, max(0.6, 2.5*math.Exp(0.7*r.NormFloat64())))
			}
			m := material[spk[perm[who]]]
			ln := int(dur * sotto.SampleRate)
			if pos[who]+ln > len(m) {
				pos[who] = 0
			}
			piece := m[pos[who]:min(len(m), pos[who]+ln)]
			pos[who] += len(piece)
			// Through the room.
			v := voices[who]
			wet := make([]float64, len(piece)+int((0.004+rt*0.5)*sotto.SampleRate)+2)
			for i, x := range piece {
				wet[i] += v.direct * float64(x)
				for _, tp := range taps {
					wet[i+tp.d] += v.echo * tp.g * float64(x)
				}
			}
			for len(mix) < at+len(wet) {
				mix = append(mix, 0)
			}
			for i, x := range wet {
				mix[at+i] += v.level * x
			}
			for _, seg := range speechSpans(piece) {
				conv.ref = append(conv.ref, speaker.Turn{
					Start:   float64(at)/sotto.SampleRate + seg[0],
					End:     float64(at)/sotto.SampleRate + seg[1],
					Speaker: spk[perm[who]],
				})
			}
			end := at + len(piece)
			if r.IntN(5) == 0 && prev >= 0 {
				at = end - min(len(piece)/2, int((0.2+0.8*r.Float64())*sotto.SampleRate))
			} else {
				at = end + int((0.1+1.1*r.Float64())*sotto.SampleRate)
			}
			at = max(at, 0)
			prev = who
		}
		for len(mix) < at+sotto.SampleRate/2 {
			mix = append(mix, 0)
		}
		// Background noise against the mean power of the speech.
		var p float64
		for _, x := range mix {
			p += x * x
		}
		p /= float64(len(mix))
		snr := set.snr[0] + (set.snr[1]-set.snr[0])*r.Float64()
		noise := make([]float64, len(mix))
		var np, lp float64
		a := 0.3 + 0.6*r.Float64()
		for i := range noise {
			lp = a*lp + (1-a)*r.NormFloat64()
			noise[i] = lp
			np += lp * lp
		}
		np /= float64(len(noise))
		g := math.Sqrt(p / math.Pow(10, snr/10) / np)
		conv.samples = make([]float32, len(mix))
		for i := range mix {
			conv.samples[i] = float32(mix[i] + g*noise[i])
		}
		slices.SortFunc(conv.ref, func(a, b speaker.Turn) int { return cmpF(a.Start, b.Start) })
		out = append(out, conv)
	}
	return out, nil
}

// meetingSet describes one seeded set of dev meetings: how many, the
// number of speakers (minSpk + i mod the range, so every count occurs),
// and the ranges the rooms, voices and lengths are drawn from.
type meetingSet struct {
	name           string
	label          string // for the report
	seed           uint64
	n              int
	minSpk, maxSpk int
	dur            [2]float64 // seconds
	rt             [2]float64 // echo decay, seconds
	drr            [2]float64 // direct-to-reverberant ratio, dB
	snr            [2]float64 // dB under the speech power
	lead           float64    // turn-taking weight added to one speaker
}

// meetingSets are the dev meeting sets; the first is the set of earlier
// rounds, unchanged.
var meetingSets = []meetingSet{
	{name: "meeting", label: "12 dev meetings (1–4 speakers in one room, 45–90 s, noise, overlaps; meetings.go)",
		seed: 15, n: 12, minSpk: 1, maxSpk: 4, dur: [2]float64{45, 90}, rt: [2]float64{0.2, 0.6},
		drr: [2]float64{-3, 9}, snr: [2]float64{12, 30}, lead: 1.5},
	{name: "short", label: "12 short dev meetings (2–4 speakers, one leading, 30–60 s, far talkers; meetings.go)",
		seed: 16, n: 12, minSpk: 2, maxSpk: 4, dur: [2]float64{30, 60}, rt: [2]float64{0.3, 0.7},
		drr: [2]float64{-6, 3}, snr: [2]float64{10, 25}, lead: 3},
}

func sum(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// speechSpans returns the spans (seconds) of a clean piece that hold
// speech: 10 ms frames within 35 dB of its loudest frame, pauses under
// 0.3 s bridged, bursts under 0.1 s dropped.
func speechSpans(s []float32) [][2]float64 {
	const fr = sotto.SampleRate / 100
	nf := len(s) / fr
	if nf == 0 {
		return nil
	}
	e := make([]float64, nf)
	top := 0.0
	for i := range nf {
		for _, x := range s[i*fr : (i+1)*fr] {
			e[i] += float64(x) * float64(x)
		}
		top = max(top, e[i])
	}
	thr := top * math.Pow(10, -3.5)
	var spans [][2]float64
	i := 0
	for i < nf {
		if e[i] < thr {
			i++
			continue
		}
		j := i
		for j < nf && e[j] >= thr {
			j++
		}
		if n := len(spans); n > 0 && float64(i)/100-spans[n-1][1] < 0.3 {
			spans[n-1][1] = float64(j) / 100
		} else {
			spans = append(spans, [2]float64{float64(i) / 100, float64(j) / 100})
		}
		i = j
	}
	return slices.DeleteFunc(spans, func(sp [2]float64) bool { return sp[1]-sp[0] < 0.1 })
}

// meetingDER scores timelines on the dev meetings; it also returns how
// many meetings got the right number of speakers, and the found and true
// counts per meeting.
func meetingDER(ctx context.Context, e *evaluator, d speaker.Diarizer, set meetingSet, known bool) (derResult, int, string, error) {
	convs, err := devMeetings(e, set)
	if err != nil {
		return derResult{}, 0, "", err
	}
	var tot derResult
	right := 0
	var counts []string
	for _, c := range convs {
		o := speaker.TimelineOptions{Threshold: clusterThr}
		if known {
			o.Speakers = c.speakers
		}
		tl, err := d.Timeline(ctx, sotto.Audio{Samples: c.samples, SampleRate: sotto.SampleRate}, o)
		if err != nil {
			return tot, 0, "", err
		}
		if len(tl.Speakers) == c.speakers {
			right++
		}
		counts = append(counts, fmt.Sprintf("%d/%d", len(tl.Speakers), c.speakers))
		r := der(c.ref, tl.Turns, 0.25)
		tot.ref += r.ref
		tot.miss += r.miss
		tot.fa += r.fa
		tot.conf += r.conf
	}
	return tot, right, strings.Join(counts, " "), nil
}
