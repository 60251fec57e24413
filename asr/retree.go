package asr

import (
	"context"
	"fmt"
	"strconv"

	"github.com/sottolabs/sotto/internal/decoder"
)

// Option keys of the flat pass's word list: which words the tree pass
// hands on, and where each may start. See docs/bench/asr.md.
const (
	// OptRetree is "off" (the default), "replace" or "union": with
	// speaker adaptation (OptAdapt tree), run the tree pass again on the
	// adapted features before the flat pass, and give the flat pass that
	// pass's word list (replace) or the union of both tree passes' lists
	// (union: every word either found, with the start frames of both).
	// It costs a second tree pass per region.
	OptRetree = "retree"
	// OptFlatListBeam is a word-exit beam (a probability ratio in (0, 1),
	// e.g. 1e-40) for the flat pass's word list only: every exit of a
	// word in the tree pass within it of the frame's best exit counts
	// toward the word's span from its start (OptFlatMinEnds), whatever
	// its predecessor, while the tree pass's own search keeps its word
	// beam (7e-29). Default: off (the tree pass's kept exits only); see
	// decoder.Config.FlatListBeam. The flat pass's own word beam
	// (OptFlatWordBeam) drops most of the added words again.
	OptFlatListBeam = "flat_list_beam"
	// OptFlatMinEnds is how many frames a word's exits from one start in
	// the tree pass must span for the flat pass to search it there
	// (default 4, the peer's -fwdflatefwid; 0: every exit counts).
	OptFlatMinEnds = "flat_min_ends"
	// OptFlatWindow is how many frames from a tree-pass start a word may
	// start in the flat pass (default 25).
	OptFlatWindow = "flat_window"
	// OptFlatWordBeam is the flat pass's word-exit beam, a probability
	// ratio in (0, 1) (default 7e-29, the tree pass's and the peer's
	// -fwdflatwbeam): words of a wider list (OptFlatListBeam) that the
	// tree pass's word beam dropped mostly fall outside it again.
	OptFlatWordBeam = "flat_wbeam"
)

// OptRetree's values.
const (
	retreeOff = iota
	retreeReplace
	retreeUnion
)

// parseRetree reads OptRetree.
func parseRetree(o map[string]string) (int, error) {
	switch v := o[OptRetree]; v {
	case "", "off":
		return retreeOff, nil
	case "replace":
		return retreeReplace, nil
	case "union":
		return retreeUnion, nil
	default:
		return 0, fmt.Errorf("asr: option %s %q: want off, replace or union", OptRetree, v)
	}
}

// parseWordList reads OptFlatListBeam, OptFlatWordBeam, OptFlatMinEnds
// and OptFlatWindow into cfg.
func parseWordList(o map[string]string, cfg *decoder.Config) error {
	for _, kv := range []struct {
		key string
		dst *float64
	}{{OptFlatListBeam, &cfg.FlatListBeam}, {OptFlatWordBeam, &cfg.FlatWordBeam}} {
		if v := o[kv.key]; v != "" {
			b, err := strconv.ParseFloat(v, 64)
			if err != nil || !(b > 0 && b < 1) {
				return fmt.Errorf("asr: option %s %q: want a probability ratio in (0, 1), e.g. 1e-40", kv.key, v)
			}
			*kv.dst = b
		}
	}
	if v := o[OptFlatMinEnds]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 1000 {
			return fmt.Errorf("asr: option %s %q: want frames in [0, 1000]", OptFlatMinEnds, v)
		}
		cfg.FlatMinEnds = n
		if n == 0 {
			cfg.FlatMinEnds = -1 // the decoder's "every word"
		}
	}
	if v := o[OptFlatWindow]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			return fmt.Errorf("asr: option %s %q: want frames in [1, 1000]", OptFlatWindow, v)
		}
		cfg.FlatWindow = n
	}
	return nil
}

// retreeFirst returns the first pass the flat pass of a region starts
// from with OptRetree: fp itself when the option is off; otherwise the
// tree pass run again on the adapted features frame (n frames, the
// call's options dopts), alone (replace) or with fp's words added
// (union). The adapted tree pass's best path is the fallback result
// either way. When the file was not adapted (same, no transform and no
// other model) the tree pass would only repeat itself, and fp is
// returned.
func (s *sphinxASR) retreeFirst(ctx context.Context, frame func(t int) []float32, n int, fp *decoder.FirstPass, same bool, dopts decoder.Options) (*decoder.FirstPass, error) {
	if s.retree == retreeOff || same {
		return fp, nil
	}
	fp2, err := s.dec.DecodeFirst(ctx, frame, n, dopts)
	if err != nil || s.retree == retreeReplace {
		return fp2, err
	}
	return fp2.Union(fp)
}
