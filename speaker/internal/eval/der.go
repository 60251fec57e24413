package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/speaker"
)

// Threshold is the verification threshold whose error rates are reported
// (v8's; run sets the fused method's when it measures that).
var Threshold = speaker.VerifyThreshold

// ShortThreshold is the threshold documented for 3-second clips.
var ShortThreshold = speaker.ShortClipThreshold

// derResult holds the parts of a diarization error rate, in seconds.
type derResult struct {
	ref, miss, fa, conf float64
}

func (d derResult) rate() float64 { return (d.miss + d.fa + d.conf) / d.ref }

// der scores hyp against ref on a 10 ms grid: frames within collar seconds
// of a reference turn boundary are not scored; overlapping reference
// speech is scored (a frame with two reference speakers and one
// hypothesis speaker misses one). Speakers are mapped one-to-one to
// maximise the time they agree on.
func der(ref, hyp []speaker.Turn, collar float64) derResult {
	const step = 0.01
	end := 0.0
	for _, t := range append(append([]speaker.Turn{}, ref...), hyp...) {
		end = math.Max(end, t.End)
	}
	n := int(math.Ceil(end/step)) + 1
	ids := func(turns []speaker.Turn) (map[string]int, [][]int) {
		m := map[string]int{}
		fr := make([][]int, n)
		for _, t := range turns {
			id, ok := m[t.Speaker]
			if !ok {
				id = len(m)
				m[t.Speaker] = id
			}
			for i := int(math.Round(t.Start / step)); i < int(math.Round(t.End/step)) && i < n; i++ {
				fr[i] = append(fr[i], id)
			}
		}
		return m, fr
	}
	rm, rf := ids(ref)
	hm, hf := ids(hyp)
	skip := make([]bool, n)
	for _, t := range ref {
		for _, b := range []float64{t.Start, t.End} {
			for i := int(math.Round((b - collar) / step)); i < int(math.Round((b+collar)/step)); i++ {
				if i >= 0 && i < n {
					skip[i] = true
				}
			}
		}
	}
	// Agreement matrix and the best one-to-one mapping (speakers are few).
	agree := make([][]float64, len(rm))
	for i := range agree {
		agree[i] = make([]float64, len(hm))
	}
	for i := range n {
		if skip[i] {
			continue
		}
		for _, r := range rf[i] {
			for _, h := range hf[i] {
				agree[r][h] += step
			}
		}
	}
	mapping := bestMapping(agree)
	var d derResult
	for i := range n {
		if skip[i] {
			continue
		}
		nr, nh := len(rf[i]), len(hf[i])
		correct := 0
		for _, r := range rf[i] {
			for _, h := range hf[i] {
				if mapping[r] == h {
					correct++
				}
			}
		}
		d.ref += float64(nr) * step
		d.miss += float64(max(0, nr-nh)) * step
		d.fa += float64(max(0, nh-nr)) * step
		d.conf += float64(min(nr, nh)-correct) * step
	}
	return d
}

// bestMapping maps each reference speaker to a distinct hypothesis speaker
// (or -1) maximising the summed agreement, by exhaustive search.
func bestMapping(agree [][]float64) []int {
	nr := len(agree)
	nh := 0
	if nr > 0 {
		nh = len(agree[0])
	}
	best, bestSum := make([]int, nr), -1.0
	cur := make([]int, nr)
	used := make([]bool, nh)
	var rec func(r int, sum float64)
	rec = func(r int, sum float64) {
		if r == nr {
			if sum > bestSum {
				bestSum = sum
				copy(best, cur)
			}
			return
		}
		cur[r] = -1
		rec(r+1, sum)
		for h := range nh {
			if !used[h] {
				used[h], cur[r] = true, h
				rec(r+1, sum+agree[r][h])
				used[h] = false
			}
		}
	}
	rec(0, 0)
	return best
}

// timelineNotes says how the timeline's estimate of the number of
// speakers was chosen; the figures are from the dev sets only.
const timelineNotes = `The number of speakers is estimated on two dev sets, never on the sealed meeting: the 8 synthetic conversations of earlier rounds (clean files of 2-3 speakers joined turn by turn, each turn from another recording) and 12 dev meetings made to look like a real one (meetings.go: 1-4 speakers, each speaker's turns read in order from their own recordings, log-normal turn lengths with back-channels, pauses and overlaps, one room with echoes for all, steady noise at 12-30 dB SNR; reference speech from an energy gate of each clean turn). How (this round): (1) the windows' embeddings are **centred** on the recording's mean embedding before clustering, so that what every window shares (room, microphone, noise) does not decide the similarity: with the number given, DER on the dev meetings 33.7 -> 13.9 %% (synthetic 8.5 -> 8.4 %%); (2) the number comes from the **normalised maximum eigengap** of a p-neighbour affinity graph (NME-SC, Park et al. 2019; speaker/count.go) instead of a similarity threshold: windows that pool the same blocks are not linked. Dev meetings, number estimated: former threshold 0.23, uncentred: 34.0 %% DER, right count in 3 of 12 (it said 1 for most meetings of 3-4 speakers and 4-5 for some of 2); centred threshold 0.1 / 0.0: 42 %% / worse, counts 4-7 everywhere (a centred similarity has no fixed scale, which is why a threshold does not carry over); NME uncentred: 37.1 %%, 5 of 12; NME centred, neighbouring windows linked: 33.7 %%, 6 of 12; NME centred, neighbours not linked (kept): 18.5 %%, 9 of 12. On the synthetic conversations the kept estimator is worse than the former threshold (18.6 against 12.9 %% DER, 5 of 8 right against 6 of 8): it overestimates there, as each speaker's turns come from up to three different recordings, which the centring separates; real meetings have one session per speaker. (3) As a safety net, groups whose pooled speech scores at least 0.55 as an (uncentred) verification trial are joined; 0.45 joined different speakers of one room (dev meetings 23.1 %%), 0.55 changed nothing on either dev set and keeps the two halves of one recording together (unit test). Groups of under 5 s still join their nearest group. Sealed meeting, looked at once after (1)+(2) and once after (3): the count is right (2) and the estimated DER went from 47.3 to 25.3 %%; with the number given it went from 20.2 to 25.3 %% (the centring costs this one 30 s meeting what it gains on the dev meetings). (4) Next round (sphinx-mllr-v3 embeddings unchanged): a third dev set, 12 **short dev meetings** closer to excerpts of recorded meetings (meetings.go, its own seed: 30-60 s, 2-4 speakers with one clearly leading, talkers further from the microphone, direct-to-reverberant ratio -6..+3 dB, rooms of 0.3-0.7 s decay, noise 10-25 dB); before this round it scored 20.6 %% DER with the number given, 25.9 %% estimated (right count in 4 of 12). The recording's mean leans towards whoever talks most, so centring on it removes part of that speaker's voice; three ways round it were measured on the three dev sets (synthetic / dev meetings / short dev meetings, DER given / estimated, against 8.4 / 18.6, 13.9 / 18.7, 20.6 / 25.9 %%): no centring 8.5 / 21.4, 33.7 / 33.0, 25.8 / 27.2 %%; partial centring, the mean times n / (n + n0) for n windows, n0 60 / 200: 8.5 / 18.7, 18.4 / 25.2, 17.1 / 29.8 %% and 8.4 / 18.5, 26.3 / 32.2, 16.7 / 26.5 %% (it helps the short meetings and costs the longer ones: not kept); **two passes (kept)**: cluster as before, then centre on the mean of the groups' means (every group weighs the same) and cluster again into as many groups: 8.6 / 17.0, 13.8 / 19.5, 19.9 / 25.6 %%; the same with the number estimated again after the second centring: 8.6 / 20.0, 13.8 / 19.4, 19.9 / 32.9 %%; a third pass: 8.4 / 20.2, 16.7 / 19.6, 19.8 / 27.5 %%. Of the estimated figures, most of what is left is the count, and the verification-score safety net of (3) costs part of it now: without it 17.0 / 17.1 / 22.3 %% estimated, but then the unit test's two halves of one recording (0.65 apart as a trial) stay two speakers, and different speakers of one simulated room score 0.58-0.62, so no fixed threshold tells them apart; a test relative to each group's own halves (join when the groups are as alike as the halves of either) joined the same wrong pairs in small groups and not the right one: the net is kept as it was. Counting from longer windows than the clustering uses (4.5 s, windows within 4 s of each other not linked; measured, not kept): 21.7 / 24.6 / 29.9 %% estimated (synthetic / dev meetings / short dev meetings, against 17.0 / 19.5 / 25.6 %%), right counts 3 / 7 / 3 (against 5 / 8 / 4): the longer windows mix speakers more than they steady the similarity. Sealed meeting, looked at once after the choice: 25.3 -> 21.9 %% with the number given and estimated (count right, 2). (5) Session 11 (embeddings unchanged; figures below are synthetic / dev meetings / short dev meetings, number estimated, against 17.0 / 19.5 / 25.6 %% DER, right counts 5 / 8 / 4): most wrong counts in the meetings of 3-4 speakers came from two places. The eigengap's search over p started at one link per window, where the graph falls apart into small pieces whatever the speakers and their number (up to the maximum) shows as a clean gap (a short 2-speaker meeting was counted 8 from p = 1, then 3 after the small groups were absorbed); the search now starts at 3 links (speaker/count.go, minLinks; a unit test of 30 seeded 2-speaker cases fails with 1). Estimates before the clean-up steps, right in 4 / 9 / 4 -> 4 / 9 / 6; from 2 links 4 / 9 / 5; from 4 links, or with the largest p at a sixth, an eighth or a third of the windows instead of a quarter, within one recording of 3 links (a plateau). Also measured on the same estimates, not kept: links weighted by the similarity 2 / 8 / 3; the normalised Laplacian 3 / 7 / 4 (with 3 links); counting from the second gap on (never 1 from the graph, leaving 1 to the safety net) 4 / 7 / 6, with the 1-speaker meetings counted 2-8. Second, the safety net of (3) made exactly two joins on the three dev sets, both wrong: a dev meeting of 3 joined at 0.582 then 0.625, a short meeting of 4 (counted 3) at 0.604 then 0.570; with 3 links the unit test's two recordings are counted 2 by the eigengap itself, so the net's threshold goes from 0.55 to 0.63, above every join seen on dev and below the two halves of one recording (0.65). Both together: 17.0 / 17.1 / 20.3 %% DER, right counts 5 / 9 / 6 (3 links alone: 17.0 / 19.5 / 23.6 %%, 5 / 8 / 6). Remaining count errors: a 2- and a 3-speaker dev meeting counted 1, short meetings of 3 counted 4 twice, of 4 counted 1-3 four times (one speaker leads them, the others have little speech). Sealed meeting, looked at once after the choice: 21.9 -> 21.9 %% with the number given and estimated (count right, 2: unchanged). Looked at after the choice, dev only: the three meetings of 2-4 speakers counted 1 cannot be told from the three real 1-speaker meetings by the graph's spectrum at the chosen p (the largest gap from the second eigenvalue on, relative to the first gap: 0.29-0.34 against 0.30-0.44), so no rule on these eigenvalues would fix them without breaking the 1-speaker ones; what is left needs window embeddings that separate voices of one room better.`

// diarization scores speaker timelines on every recording with a
// reference RTTM, with the number of speakers given and estimated.
func diarization(ctx context.Context, e *evaluator, rep *strings.Builder) error {
	d, ok := e.b.(speaker.Diarizer)
	if !ok {
		return nil
	}
	files, err := filepath.Glob(filepath.Join(e.dir, "*.rttm"))
	if err != nil {
		return err
	}
	fmt.Fprintf(rep, "## Speaker timelines (diarization)\n\n")
	fmt.Fprintf(rep, "DER with a 0.25 s collar around every reference boundary, overlapping speech scored, speakers mapped one-to-one. ")
	fmt.Fprintf(rep, "The only real recording with a reference RTTM (the AMI meeting excerpt) is in the sealed part (internal/holdout of its name), ")
	fmt.Fprintf(rep, "so the timeline was developed on synthetic conversations built from the files of speakers.tsv (seeded; see synth.go): ")
	fmt.Fprintf(rep, "their reference marks each piece whole as speech, so pauses inside pieces count as missed speech there. ")
	fmt.Fprintf(rep, timelineNotes+"\n\n")
	fmt.Fprintf(rep, "| recording | part | speakers | DER | miss | false alarm | confusion | speakers found |\n|---|---|---|---|---|---|---|---|\n")
	for _, known := range []bool{true, false} {
		if known && only == "synth" && clusterThr != 0 {
			continue
		}
		r, right, err := synthDER(ctx, e, d, known)
		if err != nil {
			return err
		}
		label := "estimated"
		if known {
			label = "given"
		}
		fmt.Fprintf(rep, "| 8 synthetic conversations (2–3 speakers of speakers.tsv, 12 turns of 2–8 s) | dev | %s | %.1f %% | %.1f %% | %.1f %% | %.1f %% | right number in %d of 8 |\n",
			label, 100*r.rate(), 100*r.miss/r.ref, 100*r.fa/r.ref, 100*r.conf/r.ref, right)
		fmt.Fprintf(os.Stderr, "DER synthetic %s: %.2f%% (miss %.1f fa %.1f conf %.1f) right %d/8\n", label, 100*r.rate(),
			100*r.miss/r.ref, 100*r.fa/r.ref, 100*r.conf/r.ref, right)
	}
	for _, set := range meetingSets {
		for _, known := range []bool{true, false} {
			r, right, counts, err := meetingDER(ctx, e, d, set, known)
			if err != nil {
				return err
			}
			label := "estimated"
			if known {
				label = "given"
			}
			fmt.Fprintf(rep, "| %s | dev | %s | %.1f %% | %.1f %% | %.1f %% | %.1f %% | right number in %d of %d |\n",
				set.label, label, 100*r.rate(), 100*r.miss/r.ref, 100*r.fa/r.ref, 100*r.conf/r.ref, right, set.n)
			fmt.Fprintf(os.Stderr, "DER %s %s: %.2f%% (miss %.1f fa %.1f conf %.1f) right %d/%d [%s]\n", set.name, label, 100*r.rate(),
				100*r.miss/r.ref, 100*r.fa/r.ref, 100*r.conf/r.ref, right, set.n, counts)
		}
	}
	if only == "synth" {
		return nil
	}
	for _, f := range files {
		rf, err := os.Open(f)
		if err != nil {
			return err
		}
		ref, err := speaker.ParseRTTM(rf)
		rf.Close()
		if err != nil {
			return err
		}
		base := strings.TrimSuffix(filepath.Base(f), ".rttm")
		a, _, err := audio.DecodeFile(ctx, filepath.Join(e.dir, base+"_16k.wav"), audio.Options{Channel: "mix"})
		if err != nil {
			return err
		}
		nref := map[string]bool{}
		for _, t := range ref {
			nref[t.Speaker] = true
		}
		for _, known := range []bool{true, false} {
			o := speaker.TimelineOptions{}
			label := "estimated"
			if known {
				o.Speakers = len(nref)
				label = fmt.Sprintf("given (%d)", len(nref))
			}
			tl, err := d.Timeline(ctx, sotto.Audio{Samples: a.Samples, SampleRate: sotto.SampleRate}, o)
			if err != nil {
				return err
			}
			r := der(ref, tl.Turns, 0.25)
			fmt.Fprintf(rep, "| %s | sealed | %s | %.1f %% | %.1f %% | %.1f %% | %.1f %% | %d |\n", base, label, 100*r.rate(),
				100*r.miss/r.ref, 100*r.fa/r.ref, 100*r.conf/r.ref, len(tl.Speakers))
			fmt.Fprintf(os.Stderr, "DER %s %s: %.2f%% (miss %.1f fa %.1f conf %.1f) speakers %d\n", base, label, 100*r.rate(),
				100*r.miss/r.ref, 100*r.fa/r.ref, 100*r.conf/r.ref, len(tl.Speakers))
		}
	}
	fmt.Fprintf(rep, "\n")
	return nil
}
