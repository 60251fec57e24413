package asr

import (
	"fmt"
	"math"
	"strconv"

	"github.com/sottolabs/sotto/internal/decoder"
)

// OptRegionHistory is the longest pause, in seconds, across which the
// language-model history carries from one speech region to the next
// (with speaker adaptation, OptAdapt tree; "0": never). Each region's
// flat pass and lattice rescoring then start after the last two words
// that the tree pass found before it (decoder.Options.History) instead
// of after "<s>": a short pause inside a sentence does not restart it.
// A longer pause is taken as a sentence break. The regions' tree passes
// run in parallel and start after "<s>". See docs/bench/asr.md.
const OptRegionHistory = "region_history"

// defaultRegionHistory is OptRegionHistory's default, seconds.
const defaultRegionHistory = 0.0

// parseRegionHistory reads OptRegionHistory, in frames.
func parseRegionHistory(o map[string]string) (int, error) {
	sec := defaultRegionHistory
	if v := o[OptRegionHistory]; v != "" {
		var err error
		if sec, err = strconv.ParseFloat(v, 64); err != nil || !(sec >= 0 && sec <= 3600) {
			return 0, fmt.Errorf("asr: option %s %q: want seconds in [0, 3600]", OptRegionHistory, v)
		}
	}
	return int(math.Round(sec * 100)), nil
}

// histories returns the LM history of each region's flat pass for
// OptRegionHistory (maxGap frames; ≤ 0: nil, none): the last two words
// (no fillers) of the tree passes first of the regions before it that
// follow one another with pauses shorter than maxGap frames, with "<s>"
// before them when those regions hold fewer than two words. A region
// after a longer pause, or the file's first, gets nil (it starts after
// "<s>").
func histories(regions [][2]int, first []*decoder.FirstPass, maxGap int) [][]string {
	if maxGap <= 0 {
		return nil
	}
	out := make([][]string, len(regions))
	for i := 1; i < len(regions); i++ {
		var rev []string // newest first
		j := i - 1
		for ; j >= 0 && len(rev) < 2 && regions[j+1][0]-regions[j][1] < maxGap; j-- {
			if first[j] == nil || first[j].Result == nil {
				continue
			}
			ws := first[j].Result.Words
			for k := len(ws) - 1; k >= 0 && len(rev) < 2; k-- {
				if !ws[k].Filler {
					rev = append(rev, ws[k].Text)
				}
			}
		}
		if len(rev) == 0 {
			continue
		}
		if len(rev) < 2 {
			rev = append(rev, "<s>")
		}
		out[i] = []string{rev[1], rev[0]}
	}
	return out
}
