package asr

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/sottolabs/sotto/internal/decoder"
	"github.com/sottolabs/sotto/internal/sphinx"
)

// OptCombine lists second-pass variants whose confusion networks are
// combined with the default system's (system combination, as ROVER or
// confusion-network combination): variants joined by "+", each one of
//
//   - "vtln": the flat pass on features warped by the file's VTLN factor
//     (see OptVTLN), with the fMLLR transform estimated on them;
//   - "means": MLLR of the Gaussian means on top of the fMLLR transform
//     (OptAdaptSpace both, one class);
//   - "plain": the flat pass on the unadapted features;
//   - "lwX": the flat pass at language weight X (such as lw7 or lw8.5).
//
// Every region is decoded once per system after the shared tree pass
// (regions and systems in parallel on the workers); the confusion
// network of each system's rescored lattice is aligned with the default
// system's, slot by slot, posteriors are averaged with equal weights,
// and each slot gives its most probable word (decoder.ConsensusWords).
// It needs consensus decoding (OptConsensus, passes 3) and OptAdapt tree.
// Default: empty, no combination. See docs/bench/asr.md.
const OptCombine = "combine"

// variant is a second-pass system of OptCombine.
type variant struct {
	vtln   bool    // warped features
	means  bool    // MLLR of the means after the fMLLR
	plain  bool    // no adaptation
	flatLW float64 // language weight of the flat pass; 0: the decoder's
}

// parseCombine reads OptCombine.
func parseCombine(v string) ([]variant, error) {
	if v == "" {
		return nil, nil
	}
	var out []variant
	for _, name := range strings.Split(v, "+") {
		var vr variant
		switch {
		case name == "vtln":
			vr.vtln = true
		case name == "means":
			vr.means = true
		case name == "plain":
			vr.plain = true
		case strings.HasPrefix(name, "lw"):
			lw, err := strconv.ParseFloat(name[2:], 64)
			if err != nil || !(lw > 0 && lw < 100) {
				return nil, fmt.Errorf("asr: option %s: variant %q: want lw and a language weight in (0, 100)", OptCombine, name)
			}
			vr.flatLW = lw
		default:
			return nil, fmt.Errorf("asr: option %s: variant %q: want vtln, means, plain or lwX", OptCombine, name)
		}
		if slices.Contains(out, vr) {
			return nil, fmt.Errorf("asr: option %s %q: variant %q twice", OptCombine, v, name)
		}
		out = append(out, vr)
	}
	return out, nil
}

// system is what one system of a combination decodes a file's regions
// with.
type system struct {
	cep    []float32      // normalised cepstra of the file
	xf     *sphinx.Affine // feature transform (nil: none)
	am     *sphinx.Model  // adapted means (nil: the decoder's)
	flatLW float64        // 0: the decoder's
	same   int            // index of an identical earlier system, or -1
}

// variantSystems returns the systems of s.combine for a file whose
// default system is base (its model already the flat pass's, see
// secondModel); cep0 are the file's unwarped cepstra and aligned the
// tree pass's aligned speech frames.
func (s *sphinxASR) variantSystems(ctx context.Context, samples, cep0 []float32, nc int, regions [][2]int, aligned [][]alignedFrame, base system) ([]system, error) {
	var out []system
	for _, v := range s.combine {
		sy := system{cep: base.cep, xf: base.xf, am: base.am, same: -1}
		switch {
		case v.flatLW > 0:
			sy.flatLW = v.flatLW
		case v.plain:
			sy.cep, sy.xf, sy.am = cep0, nil, nil
			if base.xf == nil && base.am == nil && !s.vtln {
				sy.same = 0 // the default system was not adapted either
			}
		case v.means:
			alt := *s
			alt.mllr = mllrConfig{features: s.mllr.features, means: true, classes: 1, prior: s.mllr.prior}
			cep := base.cep
			xf, am, err := alt.adaptation(ctx, cep, nc, regions, aligned)
			if err != nil {
				return nil, err
			}
			sy.xf, sy.am = xf, am
			if am == nil || s.mllr.means {
				sy.same = 0 // no mean transform, or the default system's own
			}
		case v.vtln:
			if s.vtln {
				sy.same = 0
				break
			}
			w, err := s.chooseWarp(ctx, samples, regions, aligned)
			if err != nil {
				return nil, err
			}
			if w == 1 {
				sy.same = 0
				break
			}
			cep, _, err := s.cepstra(ctx, samples, w)
			if err != nil {
				return nil, err
			}
			xf, am, err := s.adaptation(ctx, cep, nc, regions, aligned)
			if err != nil {
				return nil, err
			}
			sy.cep, sy.xf, sy.am = cep, xf, am
		}
		if sy.same < 0 && sy.am != base.am {
			sy.am = s.secondModel(sy.am) // OptTopN, as the default system's
		}
		out = append(out, sy)
	}
	return out, nil
}

// decodeCombined decodes every region with every system (the default
// first) after its tree pass first[i], combines each region's networks
// and hands the result to emit in region order.
func (s *sphinxASR) decodeCombined(ctx context.Context, systems []system, nc int, regions [][2]int, first []*decoder.FirstPass, caches []map[string]float64, hists [][]string, opts Options, emit func(i int, o regionOut) error) error {
	k := len(systems)
	results := make([]*decoder.Result, k)
	return eachRegion(ctx, s.workers, len(regions)*k, func(ctx context.Context, j int) (regionOut, error) {
		i, sy := j/k, systems[j%k]
		if sy.same >= 0 {
			return regionOut{}, nil
		}
		cache, hist := regionContext(caches, hists, i)
		return s.decodeSystem(ctx, sy, nc, regions[i], first[i], cache, hist, opts)
	}, func(j int, o regionOut) error {
		results[j%k] = o.res
		if sy := systems[j%k]; sy.same >= 0 {
			results[j%k] = results[sy.same]
		}
		if j%k < k-1 {
			return nil
		}
		nets := make([][]decoder.Slot, k)
		some := false
		for m, r := range results {
			nets[m] = networkOf(r)
			some = some || r != nil && r.Network != nil
		}
		if !some { // every system fell back to a best path: keep the default's
			return emit(j/k, regionOut{res: results[0]})
		}
		res := &decoder.Result{Frames: results[0].Frames, Score: results[0].Score, Stats: results[0].Stats,
			Words: decoder.ConsensusWords(combineNetworks(nets))}
		return emit(j/k, regionOut{res: res})
	})
}

// decodeSystem runs the flat pass of region r with system sy after the
// tree pass fp, with the unigram cache cache and the LM history hist
// (as decodeRegion's phaseSecond).
func (s *sphinxASR) decodeSystem(ctx context.Context, sy system, nc int, r [2]int, fp *decoder.FirstPass, cache map[string]float64, hist []string, opts Options) (regionOut, error) {
	c := sy.cep[r[0]*nc : r[1]*nc]
	buf := make([]float32, 3*nc)
	frame := func(t int) []float32 { return sphinx.FeatureAt(buf, c, nc, t) }
	if sy.xf != nil {
		out := make([]float32, 3*nc)
		frame = func(t int) []float32 { return sy.xf.Apply(out, sphinx.FeatureAt(buf, c, nc, t)) }
	}
	dopts := decoder.Options{Bias: promptWords(opts.Prompt), Cache: cache, CacheWeight: s.cacheLM, Acoustic: sy.am,
		History: hist, FlatLanguageWeight: sy.flatLW}
	res, err := s.dec.DecodeSecond(ctx, frame, fp, dopts)
	return regionOut{res: res}, err
}

// networkOf returns the confusion network of res, or, when it has none
// (a search that fell back to its best path), one slot per word whose
// only arc is the word at posterior 1: the best path votes for its
// words as a system of its own (alone, its words come back unchanged).
func networkOf(res *decoder.Result) []decoder.Slot {
	if res == nil {
		return nil
	}
	if res.Network != nil {
		return res.Network
	}
	net := make([]decoder.Slot, len(res.Words))
	for i, w := range res.Words {
		net[i].Pivot = w
		if !w.Filler {
			net[i].Arcs = []decoder.Arc{{Text: w.Text, P: 1, Start: w.Start, End: w.End}}
		}
	}
	return net
}

// combineNetworks returns the combination of the confusion networks of
// several systems on the slots of the first's (of the first non-empty
// one): every slot of the others joins, with its arcs, the slot of the
// first network whose pivot word its pivot word overlaps most in time
// (the nearest one when it overlaps none), and each
// spelling's posterior in a slot becomes the mean over the systems of
// the posteriors they give it there (a system that gives it none counts
// 0). An arc keeps the times of the system that gave it the largest
// posterior (the first among equals). Identical networks combine into
// that network.
func combineNetworks(nets [][]decoder.Slot) []decoder.Slot {
	if len(nets) == 0 {
		return nil
	}
	pi := 0
	for pi < len(nets)-1 && len(nets[pi]) == 0 {
		pi++ // the default system found nothing: align on another
	}
	pivot := nets[pi]
	type acc struct {
		p    float64
		best decoder.Arc // the contribution with the largest posterior
	}
	slots := make([]map[string]*acc, len(pivot))
	for i := range slots {
		slots[i] = map[string]*acc{}
	}
	w := 1 / float64(len(nets))
	for m, net := range nets {
		for j, sl := range net {
			i := j
			if m != pi {
				i = nearestSlot(pivot, sl.Pivot.Start, sl.Pivot.End)
			}
			for _, a := range sl.Arcs {
				c := slots[i][a.Text]
				if c == nil {
					c = &acc{best: a}
					slots[i][a.Text] = c
				} else if a.P > c.best.P {
					c.best = a
				}
				c.p += w * a.P
			}
		}
	}
	out := make([]decoder.Slot, len(pivot))
	for i, sl := range pivot {
		out[i].Pivot = sl.Pivot
		for _, t := range slices.Sorted(maps.Keys(slots[i])) {
			c := slots[i][t]
			out[i].Arcs = append(out[i].Arcs, decoder.Arc{Text: t, P: c.p, Start: c.best.Start, End: c.best.End})
		}
	}
	return out
}

// nearestSlot returns the slot of net whose pivot word overlaps frames
// [start, end) most, or the nearest one when none overlaps (-1: net is
// empty).
func nearestSlot(net []decoder.Slot, start, end int) int {
	best, bestOv := -1, -1<<62
	for i, sl := range net {
		// Overlap in frames; negative: minus the gap between the two.
		ov := min(sl.Pivot.End, end) - max(sl.Pivot.Start, start)
		if ov > bestOv {
			best, bestOv = i, ov
		}
	}
	return best
}
