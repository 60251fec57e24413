package decoder

import "math"

// bestPath rescores the word graph of a finished search (its back-pointer
// table: every word exit with its start and end frames) with the trigram
// at language weight lw and returns the best path's final entry, its
// score, and each entry's predecessor and path score on the rescored
// paths (the peer's
// -bestpath pass, which rescores the lattice of its last pass at
// -bestpathlw 9.5).
//
// Each entry's acoustic score is its exit score less the score it was
// entered with and the language score the search applied; it is kept
// for any predecessor ending where the entry's Viterbi predecessor did
// (the left context of the first phone is not recomputed, as in the
// peer). A predecessor is scored for the entry's first phone as right
// context. The history of an entry is that of its best rescored
// predecessor (one history per entry, as in the search).
func (s *search) bestPath(lw float32) (int32, float64, []int32, []float64) {
	d := s.d
	lx := s.lx
	bp := s.bp
	n := len(bp)
	if n <= 1 {
		return -1, math.Inf(-1), nil, nil
	}
	wip := s.logWip * lw / s.lw // scaled as the peer scales it
	abs := func(e int32) float64 { return float64(bp[e].score) + bp[e].norm }
	first := func(e int32) int32 { return int32(lx.words[bp[e].word].phones[0]) }
	// exitFor is the absolute exit score of entry p into phone f.
	exitFor := func(p, f int32) float64 { return float64(s.rcPool[bp[p].rc+f]) + bp[p].norm }
	applied := func(e int32) float64 {
		w := &lx.words[bp[e].word]
		switch {
		case bp[e].word == lx.silWord:
			return float64(d.silPen)
		case w.filler:
			return float64(d.fillPen)
		}
		p := &bp[bp[e].pred]
		var sc float32
		if p.prevReal >= 0 {
			sc = d.lang.Score(w.lmid, p.real, p.prevReal)
		} else {
			sc = d.lang.Score(w.lmid, p.real)
		}
		return float64(s.lw*sc+s.logWip) + float64(s.boost[w.lmid])
	}
	score := make([]float64, n)
	pred := make([]int32, n)
	real := make([]int32, n)
	prev := make([]int32, n)
	ascr := make([]float64, n)
	real[0], prev[0] = lx.start, -1
	for e := int32(1); e < int32(n); e++ {
		score[e] = math.Inf(-1)
		ascr[e] = abs(e) - exitFor(bp[e].pred, first(e)) - applied(e)
	}
	for e := int32(1); e < int32(n); e++ {
		b := &bp[e]
		w := &lx.words[b.word]
		f := first(e)
		sf := bp[b.pred].frame // predecessors end here
		lo, hi := int32(0), int32(1)
		if sf >= 0 {
			lo, hi = s.frameBP[sf+1], s.frameBP[sf+2]
		}
		best, arg := math.Inf(-1), int32(-1)
		for p := lo; p < hi; p++ {
			if math.IsInf(score[p], -1) && p != 0 {
				continue
			}
			v := score[p]
			if p != 0 {
				v += exitFor(p, f) - abs(p) // right context f
			}
			if math.IsInf(v, -1) {
				continue
			}
			switch {
			case b.word == lx.silWord:
				v += float64(d.silPen)
			case w.filler:
				v += float64(d.fillPen)
			default:
				var sc float32
				if prev[p] >= 0 {
					sc = d.lang.Score(w.lmid, real[p], prev[p])
				} else {
					sc = d.lang.Score(w.lmid, real[p])
				}
				v += float64(lw*sc+wip) + float64(s.boost[w.lmid]*lw/s.lw)
			}
			if v > best {
				best, arg = v, p
			}
		}
		if arg < 0 {
			continue
		}
		score[e], pred[e] = best+ascr[e], arg
		if w.filler {
			real[e], prev[e] = real[arg], prev[arg]
		} else {
			real[e], prev[e] = w.lmid, real[arg]
		}
	}
	bestE, best := int32(-1), math.Inf(-1)
	for f := len(s.frameBP) - 2; f >= 1 && bestE < 0; f-- {
		for e := s.frameBP[f]; e < s.frameBP[f+1]; e++ {
			if math.IsInf(score[e], -1) {
				continue
			}
			v := score[e] + exitFor(e, int32(lx.sil)) - abs(e)
			if math.IsInf(v, -1) {
				continue
			}
			var sc float32
			if prev[e] >= 0 {
				sc = d.lang.Score(lx.finish, real[e], prev[e])
			} else {
				sc = d.lang.Score(lx.finish, real[e])
			}
			v += float64(lw * sc)
			if v > best {
				best, bestE = v, e
			}
		}
	}
	return bestE, best, pred, score
}
