package asr

import (
	"slices"
)

// Segmentation constants, in 10 ms frames.
const (
	vadPre       = 20   // padding before speech (the peer's -vad_prespeech)
	vadPost      = 50   // padding after speech (-vad_postspeech)
	vadMinSpeech = 10   // shortest speech run that opens a region (-vad_startspeech)
	vadMaxLen    = 3000 // longest region (30 s); longer ones split at the quietest frame
	vadMinSplit  = 1000 // a split leaves at least 10 s on each side
	vadThresh    = 2.0  // c0 above the noise floor that counts as speech (-vad_threshold, in c0 units)
)

// speechRegions returns the frame ranges [start, end) of speech in the
// cepstra (nc values per frame): frames whose c0 (log energy) exceeds the
// noise floor (the 5th percentile of c0) by vadThresh, in runs of at least
// vadMinSpeech frames, padded by vadPre and vadPost frames, merged when
// they overlap and split to at most vadMaxLen frames at the quietest frame.
func speechRegions(cep []float32, nc int) [][2]int {
	return speechRegionsSkip(cep, nc, nil)
}

// speechRegionsSkip is speechRegions with the frames marked in skip (nil:
// none) left out: they are not speech, do not count toward the noise
// floor, and the padding of a region stops at them.
func speechRegionsSkip(cep []float32, nc int, skip []bool) [][2]int {
	n := len(cep) / nc
	if n == 0 {
		return nil
	}
	c0 := make([]float32, n)
	sorted := make([]float32, 0, n)
	for t := range n {
		c0[t] = cep[t*nc]
		if skip == nil || !skip[t] {
			sorted = append(sorted, c0[t])
		}
	}
	if len(sorted) == 0 {
		return nil
	}
	slices.Sort(sorted)
	floor := sorted[len(sorted)/20]
	var regions [][2]int
	run := 0
	for t := 0; t <= n; t++ {
		if t < n && c0[t] > floor+vadThresh && (skip == nil || !skip[t]) {
			run++
			continue
		}
		if run >= vadMinSpeech {
			s, e := max(0, t-run-vadPre), min(n, t+vadPost)
			for k := t - run - 1; skip != nil && k >= s; k-- {
				if skip[k] {
					s = k + 1
					break
				}
			}
			for k := t; skip != nil && k < e; k++ {
				if skip[k] {
					e = k
					break
				}
			}
			if k := len(regions); k > 0 && s <= regions[k-1][1] {
				regions[k-1][1] = e
			} else {
				regions = append(regions, [2]int{s, e})
			}
		}
		run = 0
	}
	// Split long regions at the quietest frame away from the edges.
	var out [][2]int
	for _, r := range regions {
		for r[1]-r[0] > vadMaxLen {
			lo, hi := r[0]+vadMinSplit, min(r[1]-vadMinSplit, r[0]+vadMaxLen)
			if hi <= lo {
				lo, hi = r[0]+vadMaxLen/2, r[0]+vadMaxLen/2+1
			}
			cut := lo
			for t := lo; t < hi; t++ {
				if c0[t] < c0[cut] {
					cut = t
				}
			}
			out = append(out, [2]int{r[0], cut})
			r[0] = cut
		}
		out = append(out, r)
	}
	return out
}
