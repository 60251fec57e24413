package decoder

import (
	"fmt"
	"maps"
	"math"
	"slices"
)

// Lattice is the word graph of a finished search: every word exit the
// search kept (its back-pointer table, the peer's -bestpath input), each a
// node (word, start frame, end frame) with the word's acoustic score,
// linked to every node that ends on the frame before its start. A path
// through it is a sentence hypothesis; [Lattice.Rescore] finds the best
// one under the full trigram at a chosen language weight and word
// insertion penalty, with posterior confidences.
//
// A node's acoustic score is the score the search gave the word from its
// entry to its exit, less the language score it applied; it is kept for
// every predecessor (the left context of the word's first phone is the
// one of the search's own best predecessor, as in the peer). What a
// predecessor loses by the right context of the successor's first phone
// is kept per node and phone.
type Lattice struct {
	d      *Decoder
	frames int
	nci    int
	nodes  []latNode
	// frameEnd[f+1] is the first node ending at frame f (the start node,
	// index 0, "ends" at frame -1); len frames+2.
	frameEnd []int32
	// rc[i*nci+p] is what node i's exit into a successor whose first
	// phone is p scores below its best exit (-Inf: no such exit).
	rc []float32
	// last is the frame of the final nodes (the last frame with exits
	// into silence), -2 when the search kept none.
	last int32
	// boost is the per-call LM bonus of the search, weighted at the
	// search's language weight.
	boost map[int32]float32
	lw    float32 // the language weight of the search
	// prev is the word before the start node's in the search's history
	// (Options.History), -1 when none.
	prev int32
}

type latNode struct {
	text       string
	lmid       int32
	start, end int32 // frames, end inclusive
	first      int16 // first phone
	filler     bool
	sil        bool
	ascr       float64
}

// lattice returns the word graph of the finished search s.
func (s *search) lattice() *Lattice {
	lx := s.lx
	d := s.d
	bp := s.bp
	l := &Lattice{d: d, frames: len(s.frameBP) - 2, nci: lx.nci, boost: s.boost, lw: s.lw, last: -2,
		nodes:    make([]latNode, len(bp)),
		frameEnd: slices.Clone(s.frameBP),
		rc:       make([]float32, len(bp)*lx.nci),
	}
	abs := func(e int32) float64 { return float64(bp[e].score) + bp[e].norm }
	l.nodes[0] = latNode{start: -1, end: -1, lmid: bp[0].real, first: lx.sil}
	l.prev = bp[0].prevReal
	for e := 1; e < len(bp); e++ {
		b := &bp[e]
		w := &lx.words[b.word]
		p := &bp[b.pred]
		n := &l.nodes[e]
		*n = latNode{text: w.text, lmid: w.lmid, start: p.frame + 1, end: b.frame, first: w.phones[0],
			filler: w.filler, sil: b.word == lx.silWord}
		// The score the search applied on entering the word.
		var applied float64
		switch {
		case n.sil:
			applied = float64(d.silPen)
		case n.filler:
			applied = float64(d.fillPen)
		default:
			applied = float64(s.lw*s.lmProb(w.lmid, p.real, p.prevReal)+s.logWip) + float64(s.boost[w.lmid])
		}
		entered := float64(s.rcPool[p.rc+int32(n.first)]) + p.norm
		if b.pred == 0 {
			entered = 0
		}
		n.ascr = abs(int32(e)) - entered - applied
	}
	for e := range bp {
		rcs := s.rcPool[bp[e].rc : bp[e].rc+int32(lx.nci)]
		for f, v := range rcs {
			l.rc[e*lx.nci+f] = v - bp[e].score
		}
		if e == 0 {
			clear(l.rc[:lx.nci])
		}
	}
	for f := len(s.frameBP) - 2; f >= 1 && l.last < -1; f-- {
		for e := s.frameBP[f]; e < s.frameBP[f+1]; e++ {
			if !math.IsInf(float64(s.rcPool[bp[e].rc+int32(lx.sil)]), -1) {
				l.last = int32(f - 1)
				break
			}
		}
	}
	if l.last >= -1 {
		l.prune(s)
	}
	return l
}

// latticeBeam is the beam (nats at the search's language weight) of the
// nodes a lattice keeps: those on a path into "</s>" that scores within
// it of the best. Most word exits of a search lead nowhere.
var latticeBeam = 100.0

// prune drops the nodes of l whose best complete path (the search's own
// score up to the node, and the best continuation with the search's
// language weight and each node's Viterbi history) scores more than
// latticeBeam below the best path.
func (l *Lattice) prune(s *search) {
	bp := s.bp
	lx := s.lx
	n := len(l.nodes)
	nci := l.nci
	// Nodes by start frame (of their first frame), to find successors.
	byStart := make([]int32, l.last+3)
	for e := 1; e < n; e++ {
		if st := l.nodes[e].start; st <= l.last+1 {
			byStart[st+1]++
		}
	}
	for f := 1; f < len(byStart); f++ {
		byStart[f] += byStart[f-1]
	}
	succ := make([]int32, byStart[len(byStart)-1])
	fill := slices.Clone(byStart)
	for e := 1; e < n; e++ {
		if st := l.nodes[e].start; st <= l.last+1 {
			succ[fill[st]] = int32(e)
			fill[st]++
		}
	}
	bwd := make([]float64, n)
	for i := range bwd {
		bwd[i] = math.Inf(-1)
	}
	d := s.d
	for e := l.frameEnd[l.last+1]; e < l.frameEnd[l.last+2]; e++ {
		rcd := float64(l.rc[int(e)*nci+int(lx.sil)])
		if math.IsInf(rcd, -1) {
			continue
		}
		b := &bp[e]
		bwd[e] = rcd + float64(s.lw*s.lmProb(lx.finish, b.real, b.prevReal))
	}
	for p := l.frameEnd[l.last+1] - 1; p >= 0; p-- {
		end := l.nodes[p].end
		for _, e := range succ[byStart[end+1]:byStart[end+2]] {
			if math.IsInf(bwd[e], -1) {
				continue
			}
			m := &l.nodes[e]
			rcd := float64(l.rc[int(p)*nci+int(m.first)])
			if math.IsInf(rcd, -1) {
				continue
			}
			v := rcd + m.ascr + bwd[e]
			switch {
			case m.sil:
				v += float64(d.silPen)
			case m.filler:
				v += float64(d.fillPen)
			default:
				v += float64(s.lmScore(bp[e].word, p))
			}
			bwd[p] = max(bwd[p], v)
		}
	}
	abs := func(e int) float64 { return float64(bp[e].score) + bp[e].norm }
	best := bwd[0]
	keep := make([]int32, n) // new index + 1, 0 = dropped
	kept := int32(1)
	keep[0] = 1
	for e := 1; e < n; e++ {
		if abs(e)+bwd[e] >= best-latticeBeam {
			kept++
			keep[e] = kept
		}
	}
	nodes := make([]latNode, 0, kept)
	rc := make([]float32, 0, int(kept)*nci)
	frameEnd := make([]int32, len(l.frameEnd))
	for e := range n {
		if keep[e] == 0 {
			continue
		}
		nodes = append(nodes, l.nodes[e])
		rc = append(rc, l.rc[e*nci:(e+1)*nci]...)
	}
	// A node range of frameEnd maps to the kept nodes before its bounds.
	before := make([]int32, n+1)
	for e := range n {
		before[e+1] = before[e]
		if keep[e] != 0 {
			before[e+1]++
		}
	}
	for i, e := range l.frameEnd {
		frameEnd[i] = before[e]
	}
	l.nodes, l.rc, l.frameEnd = nodes, rc, frameEnd
}

// Nodes returns the number of word nodes of the lattice.
func (l *Lattice) Nodes() int { return len(l.nodes) - 1 }

// latState is a node of the lattice expanded by its language-model
// history: the last two real words of the paths reaching it.
type latState struct {
	node   int32
	w1, w2 int32 // last real word of the path through the node, the one before (-1: none)
	score  float64
	pred   int32 // best predecessor state
	alpha  float64
	beta   float64
}

type latEdge struct {
	from, to int32
	w        float32
}

// Pruning of Rescore, on path scores at the search's own language weight
// (scaled with the rescoring's): the states of a frame more than
// rescoreBeam nats below the best ending there are dropped, and a node
// keeps at most rescoreStates histories.
var (
	rescoreBeam   = 80.0
	rescoreStates = 8
)

// lmSlots sizes the LM score cache of Rescore.
const lmSlots = 1 << 14

// Rescore returns the best path through the lattice with the trigram at
// language weight lw and word insertion probability wip (0: the search's
// own values), into "</s>" after the last frame with exits. Every node is
// expanded by its two-word history, so the trigram is exact on every
// path the pruning keeps: states far below the best ending at the same
// frame are dropped, and a node keeps its few best histories. Word
// confidences are lattice posteriors: forward-backward over the same
// graph with path scores scaled by 1/lw, the probability of the paths
// that have the word's spelling at the middle frame of the word.
func (l *Lattice) Rescore(lw, wip float64) *Result {
	return l.rescore(lw, wip, l.d.lm1Log, l.d.lm2Log, 1)
}

// RescoreSettings are settings of [Lattice.RescoreWith]; a zero field
// keeps the decoder's (Rescore's) value.
type RescoreSettings struct {
	// LanguageWeight and WordInsertion are Rescore's lw and wip.
	LanguageWeight, WordInsertion float64
	// LM2Weight replaces Config.LM2Weight, λ, in (0, 1); ignored without
	// Config.LM2.
	LM2Weight float64
	// PosteriorScale multiplies the 1/lw that scales path scores in the
	// posteriors (and so the confidences and the consensus); positive.
	PosteriorScale float64
}

// RescoreWith is Rescore with the settings s: the same lattice rescored
// at other weights, so that a caller can compare settings of the
// rescoring on one decoding.
func (l *Lattice) RescoreWith(s RescoreSettings) (*Result, error) {
	lm1Log, lm2Log := l.d.lm1Log, l.d.lm2Log
	if s.LM2Weight != 0 {
		if !(s.LM2Weight > 0 && s.LM2Weight < 1) {
			return nil, fmt.Errorf("decoder: second model weight %g not in (0, 1)", s.LM2Weight)
		}
		lm1Log, lm2Log = math.Log1p(-s.LM2Weight), math.Log(s.LM2Weight)
	}
	ps := 1.0
	if s.PosteriorScale != 0 {
		if !(s.PosteriorScale > 0 && !math.IsInf(s.PosteriorScale, 1)) {
			return nil, fmt.Errorf("decoder: posterior scale %g not positive", s.PosteriorScale)
		}
		ps = s.PosteriorScale
	}
	if !(s.LanguageWeight >= 0 && !math.IsInf(s.LanguageWeight, 1)) || !(s.WordInsertion >= 0 && s.WordInsertion <= 1) {
		return nil, fmt.Errorf("decoder: language weight %g, word insertion %g", s.LanguageWeight, s.WordInsertion)
	}
	return l.rescore(s.LanguageWeight, s.WordInsertion, lm1Log, lm2Log, ps), nil
}

// rescore is Rescore with the interpolation weights ln(1-λ), ln λ of the
// second model (Decoder.mixLM) and the posterior scale ps.
func (l *Lattice) rescore(lw, wip, lm1Log, lm2Log, ps float64) *Result {
	d := l.d
	res := &Result{Frames: l.frames}
	if l.last < -1 {
		return res
	}
	if lw <= 0 {
		lw = float64(l.lw)
	}
	logWip := float64(d.logWip) * lw / float64(d.lw) // the peer's scaling
	if wip > 0 {
		logWip = math.Log(wip)
	}
	beam := rescoreBeam * lw / float64(l.lw)
	maxBoost := 0.0
	for _, v := range l.boost {
		maxBoost = max(maxBoost, float64(v)*lw/float64(l.lw))
	}
	type lmSlot struct {
		key uint64
		v   float64
	}
	cache := make([]lmSlot, lmSlots)
	lmScore := func(w, w1, w2 int32) float64 {
		key := uint64(uint32(w)) | uint64(uint32(w1))<<21 | uint64(uint32(w2+1))<<42
		slot := &cache[(key*0x9E3779B97F4A7C15)>>(64-14)]
		if slot.key == key+1 {
			return slot.v
		}
		v := lw*d.mixLM(w, w1, w2, lm1Log, lm2Log) + logWip + float64(l.boost[w])*lw/float64(l.lw)
		*slot = lmSlot{key + 1, v}
		return v
	}
	silPen, fillPen := float64(d.silPen), float64(d.fillPen)
	states := []latState{{node: 0, w1: l.nodes[0].lmid, w2: l.prev, pred: -1}}
	first := make([]int32, len(l.nodes)+1) // states of node i: first[i]:first[i+1]
	first[1] = 1
	var edges []latEdge
	slot := map[uint64]int32{}
	var scratch []float64
	nci := int32(l.nci)
	for f := int32(0); f <= l.last; f++ {
		lo, hi := l.frameEnd[f+1], l.frameEnd[f+2]
		frameFirst := int32(len(states))
		frameEdges := len(edges)
		frameBest := math.Inf(-1)
		for e := lo; e < hi; e++ {
			n := &l.nodes[e]
			clear(slot)
			nodeFirst := int32(len(states))
			bound := logWip + maxBoost // the most an LM score adds
			switch {
			case n.sil:
				bound = silPen
			case n.filler:
				bound = fillPen
			}
			plo, phi := l.frameEnd[n.start], l.frameEnd[n.start+1]
			for p := plo; p < phi; p++ {
				rcd := float64(l.rc[p*nci+int32(n.first)])
				if math.IsInf(rcd, -1) {
					continue
				}
				for si := first[p]; si < first[p+1]; si++ {
					ps := &states[si]
					v := rcd + n.ascr
					if math.IsInf(ps.score, -1) || ps.score+v+bound < frameBest-beam {
						continue
					}
					w1, w2 := ps.w1, ps.w2
					switch {
					case n.sil:
						v += silPen
					case n.filler:
						v += fillPen
					default:
						v += lmScore(n.lmid, ps.w1, ps.w2)
						w1, w2 = n.lmid, ps.w1
					}
					t := ps.score + v
					if t < frameBest-beam {
						continue
					}
					frameBest = max(frameBest, t)
					k := uint64(uint32(w1)) | uint64(uint32(w2+1))<<32
					i, ok := slot[k]
					if !ok {
						i = int32(len(states))
						slot[k] = i
						states = append(states, latState{node: e, w1: w1, w2: w2, score: math.Inf(-1), pred: -1})
					}
					edges = append(edges, latEdge{si, i, float32(v)})
					if t > states[i].score {
						states[i].score, states[i].pred = t, si
					}
				}
			}
			first[e+1] = int32(len(states))
			if ns := len(states) - int(nodeFirst); ns > rescoreStates {
				scratch = scratch[:0]
				for _, st := range states[nodeFirst:] {
					scratch = append(scratch, st.score)
				}
				slices.Sort(scratch)
				kth := scratch[ns-rescoreStates]
				for i := range states[nodeFirst:] {
					if states[nodeFirst+int32(i)].score < kth {
						states[nodeFirst+int32(i)].score = math.Inf(-1)
					}
				}
			}
		}
		// Beam over the states ending at this frame; dropped states keep
		// their slot (score -Inf) so node ranges stay valid.
		for i := frameFirst; i < int32(len(states)); i++ {
			if states[i].score < frameBest-beam {
				states[i].score = math.Inf(-1)
			}
		}
		j := frameEdges
		for _, ed := range edges[frameEdges:] {
			if !math.IsInf(states[ed.to].score, -1) {
				edges[j] = ed
				j++
			}
		}
		edges = edges[:j]
	}
	// Final states: the nodes of the last frame, into silence and "</s>".
	finalW := make(map[int32]float64)
	bestS, best := int32(-1), math.Inf(-1)
	for e := l.frameEnd[l.last+1]; e < l.frameEnd[l.last+2]; e++ {
		rcd := float64(l.rc[e*nci+int32(l.d.lx.sil)])
		if math.IsInf(rcd, -1) {
			continue
		}
		for si := first[e]; si < first[e+1]; si++ {
			st := &states[si]
			if math.IsInf(st.score, -1) {
				continue
			}
			v := rcd + lw*d.mixLM(d.lx.finish, st.w1, st.w2, lm1Log, lm2Log)
			finalW[si] = v
			if st.score+v > best {
				best, bestS = st.score+v, si
			}
		}
	}
	if bestS < 0 {
		return res
	}
	res.Score = best
	post := l.posteriors(states, edges, finalW, lw/ps)
	var path []int32
	for si := bestS; si > 0; si = states[si].pred {
		path = append(path, si)
	}
	slices.Reverse(path)
	prev := 0.0
	var pivot []int32
	for _, si := range path {
		st := &states[si]
		n := &l.nodes[st.node]
		res.Words = append(res.Words, Word{Text: n.text, Start: int(n.start), End: int(n.end) + 1, Filler: n.filler,
			Score: st.score - prev, Confidence: l.confidence(post, n)})
		pivot = append(pivot, st.node)
		prev = st.score
	}
	if l.d.consensus {
		res.Network = l.network(post, pivot, res.Words)
		res.Words = ConsensusWords(res.Network)
	}
	return res
}

// consensus returns the words of a confusion network built on the best
// path (the pivot, whose nodes are pivot and words words): see
// [Lattice.network] and [ConsensusWords].
func (l *Lattice) consensus(post []float64, pivot []int32, words []Word) []Word {
	return ConsensusWords(l.network(post, pivot, words))
}

// Slot is a slot of a confusion network: a word of the best path (the
// pivot) and the spellings competing with it, each with its posterior
// probability. The probability that the slot holds no word is one less
// the sum of its arcs' (a filler pivot word is no word).
type Slot struct {
	Pivot Word  // the best path's word
	Arcs  []Arc // by spelling, no two alike
}

// Arc is a spelling of a [Slot]: its posterior (the sum over the lattice
// nodes of that spelling put in the slot) and the times of its most
// probable node (frames, End exclusive).
type Arc struct {
	Text       string
	P          float64
	Start, End int
}

// network returns the confusion network built on the best path (the
// pivot, whose nodes are pivot and words words): every lattice node but
// the fillers is put in the slot of the pivot word it overlaps most in
// time, and the posteriors of each spelling in a slot are summed.
func (l *Lattice) network(post []float64, pivot []int32, words []Word) []Slot {
	type cand struct {
		p    float64
		node int32 // the node of the spelling with the largest posterior
	}
	slots := make([]map[string]*cand, len(pivot))
	for i := range slots {
		slots[i] = map[string]*cand{}
	}
	for e := 1; e < len(l.nodes); e++ {
		n := &l.nodes[e]
		if n.filler || post[e] < 1e-6 {
			continue
		}
		best, bestOv := -1, int32(0)
		for i, pe := range pivot {
			pn := &l.nodes[pe]
			if pn.start > n.end {
				break
			}
			if ov := min(pn.end, n.end) - max(pn.start, n.start) + 1; ov > bestOv {
				best, bestOv = i, ov
			}
		}
		if best < 0 {
			continue
		}
		c := slots[best][n.text]
		if c == nil {
			c = &cand{node: int32(e)}
			slots[best][n.text] = c
		}
		if post[e] > post[c.node] {
			c.node = int32(e)
		}
		c.p += post[e]
	}
	out := make([]Slot, len(words))
	for i, w := range words {
		out[i].Pivot = w
		for _, t := range slices.Sorted(maps.Keys(slots[i])) { // in order: sums are reproducible
			c := slots[i][t]
			n := &l.nodes[c.node]
			out[i].Arcs = append(out[i].Arcs, Arc{Text: t, P: c.p, Start: int(n.start), End: int(n.end) + 1})
		}
	}
	return out
}

// ConsensusWords returns the words of a confusion network: each slot
// gives its most probable spelling (the first in the order of its arcs
// among equals), or nothing when the probability that the slot holds no
// word (one less the sum of its arcs) is larger; a filler pivot word
// stays where its slot gives no word. This picks the hypothesis with
// the fewest expected word errors slot by slot rather than the likeliest
// sentence (consensus decoding). A filler slot of the pivot can so gain
// a word, and a word slot lose its word. A word keeps the pivot's times
// and score when it is the pivot's spelling, and takes its arc's times
// otherwise; its confidence is its arc's posterior (at most 1).
func ConsensusWords(net []Slot) []Word {
	var out []Word
	for _, sl := range net {
		w := sl.Pivot
		var sum float64
		top := -1
		for i, a := range sl.Arcs {
			sum += a.P
			if top < 0 || a.P > sl.Arcs[top].P {
				top = i
			}
		}
		if top < 0 || sl.Arcs[top].P < 1-sum {
			if w.Filler {
				out = append(out, w)
			}
			continue
		}
		a := sl.Arcs[top]
		if !w.Filler && w.Text == a.Text {
			w.Confidence = min(1, a.P)
			out = append(out, w)
			continue
		}
		out = append(out, Word{Text: a.Text, Start: a.Start, End: a.End, Confidence: min(1, a.P)})
	}
	return out
}

// posteriors returns each node's posterior probability: forward-backward
// over the states and edges, with path scores scaled by 1/lw.
func (l *Lattice) posteriors(states []latState, edges []latEdge, finalW map[int32]float64, lw float64) []float64 {
	k := 1 / lw
	for i := range states {
		states[i].alpha, states[i].beta = math.Inf(-1), math.Inf(-1)
	}
	states[0].alpha = 0
	for _, ed := range edges { // edges are in topological order of their targets
		states[ed.to].alpha = logAdd(states[ed.to].alpha, states[ed.from].alpha+float64(ed.w)*k)
	}
	total := math.Inf(-1)
	for si, v := range finalW {
		states[si].beta = v * k
		total = logAdd(total, states[si].alpha+v*k)
	}
	for i := len(edges) - 1; i >= 0; i-- {
		ed := &edges[i]
		states[ed.from].beta = logAdd(states[ed.from].beta, states[ed.to].beta+float64(ed.w)*k)
	}
	post := make([]float64, len(l.nodes))
	for i := range states {
		st := &states[i]
		if v := st.alpha + st.beta - total; v > -50 {
			post[st.node] += math.Exp(v)
		}
	}
	return post
}

// confidence is the posterior probability of n's spelling at n's middle
// frame: the sum over the nodes of that spelling spanning the frame.
func (l *Lattice) confidence(post []float64, n *latNode) float64 {
	mid := (n.start + n.end) / 2
	var c float64
	// Nodes spanning mid end at mid or later and start at mid or
	// earlier; words are at most a few hundred frames long.
	for f := mid; f <= l.last && f < mid+300; f++ {
		for e := l.frameEnd[f+1]; e < l.frameEnd[f+2]; e++ {
			m := &l.nodes[e]
			if m.start <= mid && m.text == n.text {
				c += post[e]
			}
		}
	}
	return min(1, c)
}

func logAdd(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(b, -1) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// startsPerEnd returns how many (spelling, end frame) pairs the lattice
// holds, and how many of them have more than one start frame.
func (l *Lattice) startsPerEnd() (pairs, multi int) {
	type key struct {
		text string
		end  int32
	}
	starts := map[key]map[int32]bool{}
	for _, n := range l.nodes[1:] {
		k := key{n.text, n.end}
		if starts[k] == nil {
			starts[k] = map[int32]bool{}
		}
		starts[k][n.start] = true
	}
	for _, s := range starts {
		pairs++
		if len(s) > 1 {
			multi++
		}
	}
	return pairs, multi
}

// Oracle returns the fewest word errors (substitutions, deletions and
// insertions against ref, spellings compared as they are) of any path
// of l from its start to a node ending at its last frame: the lattice's
// graph error count, what a perfect choice among its paths would give.
// Fillers cost nothing. A node follows the nodes ending on the frame
// before its start that have an exit into its first phone, and a path
// ends in a node of the last frame with an exit into silence, as in
// [Lattice.Rescore]. It returns -1 when no path ends the lattice.
func (l *Lattice) Oracle(ref []string) int {
	const inf = math.MaxInt32
	r := len(ref)
	nci := l.nci
	// rows[k][i]: the fewest errors of a path through node k that has
	// used the first i reference words (deletions after k included).
	rows := make([][]int32, len(l.nodes))
	rows[0] = make([]int32, r+1)
	for i := range rows[0] {
		rows[0][i] = int32(i) // the first i reference words deleted
	}
	usable := func(k int32, phone int16) bool {
		return rows[k] != nil && !math.IsInf(float64(l.rc[int(k)*nci+int(phone)]), -1)
	}
	// The best row over the nodes ending at frame f that may be followed
	// by a word starting with phone ph, once per (f, ph): every node
	// ending at f is done before any node starting after it.
	type key struct {
		f  int32
		ph int16
	}
	merged := map[key][]int32{}
	into := func(f int32, ph int16) []int32 {
		if m, ok := merged[key{f, ph}]; ok {
			return m
		}
		var m []int32
		for p := l.frameEnd[f+1]; p < l.frameEnd[f+2]; p++ {
			if !usable(p, ph) {
				continue
			}
			if m == nil {
				m = slices.Clone(rows[p])
				continue
			}
			for i, v := range rows[p] {
				m[i] = min(m[i], v)
			}
		}
		merged[key{f, ph}] = m
		return m
	}
	for k := 1; k < len(l.nodes); k++ {
		n := &l.nodes[k]
		from := into(n.start-1, n.first)
		if from == nil {
			continue
		}
		row := make([]int32, r+1)
		for i := range row {
			row[i] = inf
		}
		for i, v := range from {
			if v == inf {
				continue
			}
			if n.filler {
				row[i] = min(row[i], v)
				continue
			}
			row[i] = min(row[i], v+1) // inserted
			if i < r {
				c := v
				if ref[i] != n.text {
					c++
				}
				row[i+1] = min(row[i+1], c) // matched or substituted
			}
		}
		for i := range r {
			row[i+1] = min(row[i+1], row[i]+1) // deleted after the node
		}
		rows[k] = row
	}
	var sil int16
	if l.d != nil && l.d.lx != nil {
		sil = l.d.lx.sil
	}
	best := int32(inf)
	if l.last >= 0 {
		for k := l.frameEnd[l.last+1]; k < l.frameEnd[l.last+2]; k++ {
			if usable(k, sil) {
				best = min(best, rows[k][r])
			}
		}
	}
	if best == inf {
		return -1
	}
	return int(best)
}
