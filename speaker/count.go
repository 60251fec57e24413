package speaker

import (
	"math"
	"slices"
)

// nearBlocks: windows whose blocks are this close pool some of the same
// speech, so their similarity says little; they are not linked when
// counting (on the dev meetings, linking them made the count 1 for 4 of
// the 9 meetings of several speakers).
const nearBlocks = 2 * ctxBlocks

// minLinks is the fewest links per window the count is read from: with
// one or two, the graph falls apart into small pieces whatever the
// speakers, and their number (up to maxK) showed as a clean eigengap
// (dev: 8 for a short meeting of 2 speakers).
const minLinks = 3

// maxCountWindows bounds the windows the speaker count is estimated from.
const maxCountWindows = 200

// estimateSpeakers estimates the number of speakers (1..maxK) among n
// windows from their n×n cosine similarities, by the normalised maximum
// eigengap of a pruned affinity graph (NME-SC: Park, Han, Kumar and
// Narayanan, "Auto-tuning spectral clustering for speaker diarization
// using normalized maximum eigengap", IEEE SPL 2019). For each pruning
// level p, every window keeps links of weight 1 to its p most similar
// windows and none to the rest; the graph is symmetrised and the smallest
// eigenvalues of its Laplacian are computed. The largest gap between
// consecutive eigenvalues, relative to the largest eigenvalue, says how
// cleanly the graph falls into that many parts; the p with the smallest
// ratio p / gap is the one trusted (few links, clear gap), and its gap's
// position is the number of speakers.
func estimateSpeakers(sim []float64, n, maxK int, pos []int) int {
	if n < 3 {
		return 1
	}
	idx := make([]int, 0, n)
	step := (n + maxCountWindows - 1) / maxCountWindows
	for i := 0; i < n; i += step {
		idx = append(idx, i)
	}
	m := len(idx)
	maxK = min(maxK, m-1)
	pMax := max(1, m/4)
	pStep := max(1, pMax/40)
	order := make([][]int, m) // each window's others, most similar first
	for i := range m {
		o := make([]int, 0, m-1)
		for j := range m {
			if d := pos[idx[i]] - pos[idx[j]]; j != i && (d > nearBlocks || d < -nearBlocks) {
				o = append(o, j)
			}
		}
		slices.SortStableFunc(o, func(a, b int) int {
			sa, sb := sim[idx[i]*n+idx[a]], sim[idx[i]*n+idx[b]]
			switch {
			case sa > sb:
				return -1
			case sa < sb:
				return 1
			}
			return 0
		})
		order[i] = o
	}
	bestK, bestR := 1, math.Inf(1)
	lap := make([]float64, m*m)
	for i := range m {
		pMax = min(pMax, len(order[i]))
	}
	for p := min(minLinks, pMax); p <= pMax; p += pStep {
		clear(lap)
		for i := range m {
			for _, j := range order[i][:p] {
				lap[i*m+j] -= 0.5
				lap[j*m+i] -= 0.5
			}
		}
		for i := range m {
			var deg float64
			for j := range m {
				if j != i {
					deg -= lap[i*m+j]
				}
			}
			lap[i*m+i] = deg
		}
		lam, top := symEigenvalues(lap, m, maxK+1)
		k, gap := 1, math.Inf(-1)
		for i := 0; i+1 < len(lam); i++ {
			if g := lam[i+1] - lam[i]; g > gap {
				k, gap = i+1, g
			}
		}
		if gap <= 0 || top <= 0 {
			continue
		}
		if r := float64(p) / (gap / top); r < bestR {
			bestK, bestR = k, r
		}
	}
	return bestK
}
