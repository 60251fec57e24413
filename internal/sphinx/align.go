package sphinx

import (
	"context"
	"fmt"
	"math"

	"github.com/sottolabs/sotto"
)

// DefaultBeam is the default Viterbi beam in nats: states whose path score
// falls this far below the best state of the frame are dropped. It is wider
// than the peer's decoding beam (1e-48, 110 nats), since alignment has few
// competitors per frame.
const DefaultBeam = 200

// DefaultSilencePenalty is the log probability (nats) charged for each
// optional silence the aligner inserts: the peer's -silprob 0.005 scaled by
// its language weight 6.5, as its FSG search does.
const DefaultSilencePenalty = -34.4

// SilenceWord is the label of inserted or explicit silences in alignments.
const SilenceWord = "<sil>"

// AlignOptions tune a forced alignment. The zero value inserts optional
// silences and uses the default beam and silence penalty.
type AlignOptions struct {
	// NoSilence disables the optional silence between words and at both
	// ends; silence can still be forced by putting "<sil>" in the words.
	NoSilence bool
	// Beam is the pruning beam in nats; 0 means DefaultBeam.
	Beam float64
	// SilencePenalty is the log probability (≤ 0, nats) of each optional
	// silence; 0 means DefaultSilencePenalty.
	SilencePenalty float64
	// Garbage, when < 0, lets the path begin and end in a garbage model
	// that stands for speech or noise the words do not cover: audio before
	// the first word and after the last, so a transcript of part of the
	// audio is placed where it was said instead of being stretched over
	// all of it. The garbage model scores each frame by its best
	// context-independent senone (a phone loop free to change phone every
	// frame); Garbage is the log probability (nats) charged per frame on
	// top of that, so the words must match their frames within that much
	// of the best phone to keep them. 0 (the default) builds no garbage.
	Garbage float64
	// GarbageScores, when not nil, holds the garbage model's score of
	// every frame (at least as many as are aligned), as [Model.BestCI]
	// computes it, so a caller can compute them in parallel and reuse
	// them; nil computes them during the search.
	GarbageScores []float32
}

// GarbageWord labels the stretches of an alignment that the garbage loop
// ([AlignOptions.Garbage]) took: audio at either end that no word covers.
const GarbageWord = "<garbage>"

// Segment is one aligned unit: a word (or "<sil>"), a phone or an HMM state.
// Start and End are frame indices (End exclusive; a frame is 1/FrameRate s).
type Segment struct {
	Label string
	Start int
	End   int
	// Score is the segment's log-likelihood in nats: its senone scores plus
	// the transition log probabilities inside and into it.
	Score float64
	// Parent indexes the enclosing word (for phones) or phone (for states);
	// for words it is the index of the word in the input, or -1 for an
	// inserted silence.
	Parent int
	// Senone is the senone scored in a state (States only; 0 in Words
	// and Phones), for callers that gather statistics per senone such as
	// [FMLLRStats].
	Senone int
}

// Alignment is the result of a forced alignment. Times are in frames of
// 1/FrameRate seconds.
type Alignment struct {
	Words     []Segment
	Phones    []Segment
	States    []Segment
	Frames    int        // frames aligned
	FrameRate int        // frames per second
	Score     float64    // total path log-likelihood, nats
	Stats     AlignStats // search effort
}

// Seconds converts a frame index to seconds.
func (a *Alignment) Seconds(frame int) float64 { return float64(frame) / float64(a.FrameRate) }

// Align force-aligns words (dictionary spellings, case-insensitive; "<sil>"
// and noise words such as "[NOISE]" are allowed) to samples (16 kHz mono,
// values in [-1,1]). It returns word, phone and state boundaries with
// scores. Unknown words give a *sotto.Error of kind ErrInvalidRequest (code
// "bad_request", param "text"); an empty word list or audio too short for the
// words gives ErrUnsatisfiable with code "alignment_failed". Cancelling ctx
// stops the work and returns ctx.Err(). Align is safe for concurrent use.
func (m *Model) Align(ctx context.Context, samples []float32, words []string, opts AlignOptions) (*Alignment, error) {
	if err := m.checkWords(words); err != nil {
		return nil, err
	}
	cep, n, err := m.Cepstra(ctx, samples)
	if err != nil {
		return nil, err
	}
	// Features are computed frame by frame from the cepstra, so a long
	// file never holds the 39-dimensional matrix.
	nc := m.Params.NCep
	buf := make([]float32, 3*nc)
	frame := func(t int) []float32 { return FeatureAt(buf, cep, nc, t) }
	a, _, err := m.alignFrames(ctx, frame, n, words, opts)
	return a, err
}

func alignFailed(reason, format string, args ...any) error {
	e := sotto.Unsatisfiable("alignment_failed", "", "sphinx: align: "+format, args...)
	e.Detail = map[string]any{"reason": reason, "search_path": "whole_audio", "retry_recommended": reason == "no_path"}
	return e
}

func (m *Model) checkWords(words []string) error {
	if len(words) == 0 {
		return alignFailed("no_words", "no words to align")
	}
	for _, w := range words {
		if w == SilenceWord {
			continue
		}
		if len(m.Dict.Lookup(w)) == 0 {
			return sotto.Invalid("bad_request", "text", "sphinx: align: word %q is not in the pronouncing dictionary", w)
		}
	}
	return nil
}

// hmmNode is one phone HMM in the alignment graph.
type hmmNode struct {
	pid     int32
	sen     [3]uint16
	tmat    int32
	unit    int32 // index into the word list, or -1 for an optional silence or garbage
	variant int16
	phone   int16 // position in the pronunciation
	left    int16 // CI left context this copy was built for (-1: any)
	right   int16 // CI right context (-1: any)
	succ    []int32
	penalty float32 // added when the node is entered
	final   bool
	start   bool
	garbage bool // a garbage node (AlignOptions.Garbage): emits the frame's garbage score
}

type alignGraph struct {
	nodes []hmmNode
	units []string
	prons [][][]int16
}

// buildGraph expands words into a graph of triphone HMMs with cross-word
// contexts and optional silences.
func (m *Model) buildGraph(words []string, opts AlignOptions) (*alignGraph, error) {
	md := m.Mdef
	if md.NEmit != 3 {
		return nil, fmt.Errorf("sphinx: align: %d-state HMMs unsupported", md.NEmit)
	}
	sil := int16(md.Sil)
	if sil < 0 {
		return nil, fmt.Errorf("sphinx: align: model has no SIL phone")
	}
	silPen := float32(opts.SilencePenalty)
	if silPen == 0 {
		silPen = DefaultSilencePenalty
	}
	g := &alignGraph{units: words}
	U := len(words)
	filler := make([]bool, U)
	for i, w := range words {
		if w == SilenceWord {
			g.prons = append(g.prons, [][]int16{{sil}})
			filler[i] = true
			continue
		}
		p := m.Dict.Lookup(w)
		g.prons = append(g.prons, p)
		filler[i] = m.Dict.IsFiller(w)
	}
	optSil := func(i int) bool { // optional silence between unit i-1 and i (i in 0..U)
		if opts.NoSilence {
			return false
		}
		if i > 0 && filler[i-1] || i < U && filler[i] {
			return false
		}
		return true
	}
	addNode := func(pid int, unit, variant, phone, l, r int16) int32 {
		n := hmmNode{pid: int32(pid), tmat: md.Phones[pid].Tmat, unit: int32(unit), variant: variant, phone: phone, left: l, right: r}
		copy(n.sen[:], md.Senones(pid))
		g.nodes = append(g.nodes, n)
		return int32(len(g.nodes) - 1)
	}
	set := func(xs ...int16) []int16 {
		var out []int16
		for _, x := range xs {
			dup := false
			for _, y := range out {
				dup = dup || y == x
			}
			if !dup {
				out = append(out, x)
			}
		}
		return out
	}
	// first[i] / last[i]: node ids of first-phone / last-phone copies of unit i.
	first := make([][]int32, U)
	last := make([][]int32, U)
	for i := range U {
		var lctx, rctx []int16
		if i == 0 {
			lctx = []int16{sil}
		} else {
			for _, p := range g.prons[i-1] {
				lctx = set(append(lctx, p[len(p)-1])...)
			}
			if optSil(i) {
				lctx = set(append(lctx, sil)...)
			}
		}
		if i == U-1 {
			rctx = []int16{sil}
		} else {
			for _, p := range g.prons[i+1] {
				rctx = set(append(rctx, p[0])...)
			}
			if optSil(i + 1) {
				rctx = set(append(rctx, sil)...)
			}
		}
		for v, pron := range g.prons[i] {
			if filler[i] {
				id := addNode(int(pron[0]), int16(i), int16(v), 0, -1, -1)
				first[i] = append(first[i], id)
				last[i] = append(last[i], id)
				continue
			}
			k := len(pron)
			var prev []int32
			for j := range k {
				ls, rs := []int16{-2}, []int16{-2}
				if j == 0 {
					ls = lctx
				}
				if j == k-1 {
					rs = rctx
				}
				pos := PosInternal
				switch {
				case k == 1:
					pos = PosSingle
				case j == 0:
					pos = PosBegin
				case j == k-1:
					pos = PosEnd
				}
				var cur []int32
				for _, l := range ls {
					for _, r := range rs {
						ll, rr := l, r
						if j > 0 {
							ll = pron[j-1]
						}
						if j < k-1 {
							rr = pron[j+1]
						}
						pid := md.Triphone(int(pron[j]), int(ll), int(rr), pos)
						sl, sr := int16(-1), int16(-1)
						if j == 0 {
							sl = ll
						}
						if j == k-1 {
							sr = rr
						}
						id := addNode(pid, int16(i), int16(v), int16(j), sl, sr)
						cur = append(cur, id)
						if j == 0 {
							first[i] = append(first[i], id)
						}
						if j == k-1 {
							last[i] = append(last[i], id)
						}
					}
				}
				for _, a := range prev {
					g.nodes[a].succ = append(g.nodes[a].succ, cur...)
				}
				prev = cur
			}
		}
	}
	lastPhone := func(id int32) int16 {
		n := &g.nodes[id]
		p := g.prons[n.unit][n.variant]
		return p[len(p)-1]
	}
	firstPhone := func(id int32) int16 {
		n := &g.nodes[id]
		return g.prons[n.unit][n.variant][0]
	}
	matches := func(ctx, phone int16) bool { return ctx == -1 || ctx == phone }
	silNode := func() int32 {
		id := addNode(int(sil), -1, 0, 0, -1, -1)
		g.nodes[id].penalty = silPen
		return id
	}
	// Start.
	for _, f := range first[0] {
		if matches(g.nodes[f].left, sil) {
			g.nodes[f].start = true
		}
	}
	if optSil(0) {
		s := silNode()
		g.nodes[s].start = true
		for _, f := range first[0] {
			if matches(g.nodes[f].left, sil) {
				g.nodes[s].succ = append(g.nodes[s].succ, f)
			}
		}
	}
	// Between units.
	for i := 0; i+1 < U; i++ {
		for _, a := range last[i] {
			for _, b := range first[i+1] {
				if matches(g.nodes[a].right, firstPhone(b)) && matches(g.nodes[b].left, lastPhone(a)) {
					g.nodes[a].succ = append(g.nodes[a].succ, b)
				}
			}
		}
		if optSil(i + 1) {
			s := silNode()
			for _, a := range last[i] {
				if matches(g.nodes[a].right, sil) {
					g.nodes[a].succ = append(g.nodes[a].succ, s)
				}
			}
			for _, b := range first[i+1] {
				if matches(g.nodes[b].left, sil) {
					g.nodes[s].succ = append(g.nodes[s].succ, b)
				}
			}
		}
	}
	// End.
	var fin []int32
	for _, a := range last[U-1] {
		if matches(g.nodes[a].right, sil) {
			g.nodes[a].final = true
			fin = append(fin, a)
		}
	}
	endSil := int32(-1)
	if optSil(U) {
		endSil = silNode()
		g.nodes[endSil].final = true
		for _, a := range fin {
			g.nodes[a].succ = append(g.nodes[a].succ, endSil)
		}
	}
	if opts.Garbage < 0 {
		g.addGarbage(md, sil, fin, endSil)
	}
	return g, nil
}

// addGarbage adds the two garbage nodes of AlignOptions.Garbage: one the
// path may start in and leave for the first word (through the optional
// leading silence or directly, into the copies built for a silence on the
// left), one it may enter after the last word (or the trailing silence)
// and end in. Each is a three-state HMM with SIL's transitions whose
// states all emit the frame's garbage score, and loops to itself; the two
// are separate, so the words are still aligned once, in order.
func (g *alignGraph) addGarbage(md *Mdef, sil int16, fin []int32, endSil int32) {
	node := func() int32 {
		g.nodes = append(g.nodes, hmmNode{pid: int32(sil), tmat: md.Phones[sil].Tmat, unit: -1, garbage: true})
		id := int32(len(g.nodes) - 1)
		g.nodes[id].succ = []int32{id}
		return id
	}
	var entry []int32
	for id := range g.nodes {
		if g.nodes[id].start {
			entry = append(entry, int32(id))
		}
	}
	lead := node()
	g.nodes[lead].start = true
	g.nodes[lead].succ = append(g.nodes[lead].succ, entry...)
	tail := node()
	g.nodes[tail].final = true
	for _, a := range fin {
		g.nodes[a].succ = append(g.nodes[a].succ, tail)
	}
	if endSil >= 0 {
		g.nodes[endSil].succ = append(g.nodes[endSil].succ, tail)
	}
}

// BestCI returns, for each of the n frames whose feature vectors frame(t)
// returns, the score of its best context-independent senone: the garbage
// model of [AlignOptions.Garbage], and the denominator of goodness-of-pronunciation
// confidences. Frames where need is false (need may be nil: all) are
// left 0. It evaluates every CI codebook of every frame, so callers with
// several cores split the frames between goroutines.
func (m *Model) BestCI(ctx context.Context, frame func(t int) []float32, lo, hi int, need []bool, out []float32) error {
	sc := m.NewScorer()
	nci := m.Mdef.NCISen
	for t := lo; t < hi; t++ {
		if (t-lo)%256 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if need != nil && !need[t] {
			continue
		}
		sc.SetFrame(frame(t))
		b := float32(math.Inf(-1))
		for s := range nci {
			b = max(b, sc.Senone(s))
		}
		out[t] = b
	}
	return nil
}

// backpointers is the sparse trellis: one record per state entry that
// survived the beam, garbage-collected to those reachable from active states.
type backpointers struct {
	prev    []int32
	state   []int32
	start   []int32
	fromAbs []float64 // path score just before entering
	live    int       // records kept by the last collection
	peak    int       // most records held at once
	keep    []int32   // scratch for collect
}

func (bp *backpointers) add(prev, state, start int32, from float64) int32 {
	bp.prev = append(bp.prev, prev)
	bp.state = append(bp.state, state)
	bp.start = append(bp.start, start)
	bp.fromAbs = append(bp.fromAbs, from)
	bp.peak = max(bp.peak, len(bp.prev))
	return int32(len(bp.prev) - 1)
}

// collect keeps the records reachable from roots and rewrites roots.
func (bp *backpointers) collect(roots []int32) {
	n := len(bp.prev)
	if cap(bp.keep) < n {
		bp.keep = make([]int32, n, n+n/2)
	}
	keep := bp.keep[:n]
	for i := range keep {
		keep[i] = -1
	}
	for _, r := range roots {
		for r >= 0 && keep[r] == -1 {
			keep[r] = 0
			r = bp.prev[r]
		}
	}
	j := int32(0)
	for i := range n {
		if keep[i] == -1 {
			continue
		}
		keep[i] = j
		p := bp.prev[i]
		if p >= 0 {
			p = keep[p]
		}
		bp.prev[j], bp.state[j], bp.start[j], bp.fromAbs[j] = p, bp.state[i], bp.start[i], bp.fromAbs[i]
		j++
	}
	bp.prev, bp.state, bp.start, bp.fromAbs = bp.prev[:j], bp.state[:j], bp.start[:j], bp.fromAbs[:j]
	for i, r := range roots {
		if r >= 0 {
			roots[i] = keep[r]
		}
	}
	bp.live = int(j)
}

// AlignStats reports the work an alignment did: the graph size, the active
// states per frame, the peak number of back-pointer records and the number
// of senone evaluations.
type AlignStats struct {
	Nodes, States     int // graph size
	MaxActive         int // most states alive in one frame
	MeanActive        float64
	PeakBackpointers  int // most trellis records held at once
	SenoneEvaluations int
}

// AlignFeatures is Align on precomputed features (n frames of
// Model.Features output).
func (m *Model) AlignFeatures(ctx context.Context, feats []float32, n int, words []string, opts AlignOptions) (*Alignment, error) {
	a, _, err := m.alignFeatures(ctx, feats, n, words, opts)
	return a, err
}

func (m *Model) alignFeatures(ctx context.Context, feats []float32, n int, words []string, opts AlignOptions) (*Alignment, AlignStats, error) {
	if n <= 0 || len(feats)%n != 0 {
		if err := m.checkWords(words); err != nil {
			return nil, AlignStats{}, err
		}
		return nil, AlignStats{}, alignFailed("no_path", "no audio frames to align")
	}
	dim := len(feats) / n
	return m.alignFrames(ctx, func(t int) []float32 { return feats[t*dim : (t+1)*dim] }, n, words, opts)
}

// alignFrames runs the Viterbi search over n frames whose feature vectors
// frame(t) returns (valid until the next call).
func (m *Model) alignFrames(ctx context.Context, frame func(t int) []float32, n int, words []string, opts AlignOptions) (*Alignment, AlignStats, error) {
	var st AlignStats
	if err := m.checkWords(words); err != nil {
		return nil, st, err
	}
	if n <= 0 {
		return nil, st, alignFailed("no_path", "no audio frames to align")
	}
	g, err := m.buildGraph(words, opts)
	if err != nil {
		return nil, st, err
	}
	beam := float32(opts.Beam)
	if beam <= 0 {
		beam = DefaultBeam
	}
	garbage := float32(min(opts.Garbage, 0))
	garbageScores := opts.GarbageScores
	if garbage < 0 && len(garbageScores) < n {
		garbageScores = make([]float32, n)
		if err := m.BestCI(ctx, frame, 0, n, nil, garbageScores); err != nil {
			return nil, st, err
		}
	}
	tm := m.Tmat
	ns := len(g.nodes) * 3
	st.Nodes, st.States = len(g.nodes), ns
	negInf := float32(math.Inf(-1))

	// Current frame (after emission) and candidate arrays, indexed by state.
	score := make([]float32, ns)
	hist := make([]int32, ns)
	active := make([]int32, 0, 256)
	cScore := make([]float32, ns)
	cHist := make([]int32, ns)
	cNew := make([]bool, ns)
	cFrom := make([]float32, ns)
	cStamp := make([]int32, ns)
	for i := range cStamp {
		cStamp[i] = -1
	}
	cand := make([]int32, 0, 256)
	exitScore := make([]float32, len(g.nodes))
	exitHist := make([]int32, len(g.nodes))
	exitStamp := make([]int32, len(g.nodes))
	for i := range exitStamp {
		exitStamp[i] = -1
	}
	exits := make([]int32, 0, 64)
	var bp backpointers
	offset := 0.0
	sc := m.NewScorer()
	senCache := make([]float32, m.Mdef.NSen)
	senStamp := make([]int32, m.Mdef.NSen)
	for i := range senStamp {
		senStamp[i] = -1
	}

	relax := func(t int32, s int32, v float32, h int32, isNew bool, from float32) {
		if cStamp[s] != t {
			cStamp[s] = t
			cScore[s] = negInf
			cand = append(cand, s)
		}
		if v > cScore[s] {
			cScore[s], cHist[s], cNew[s], cFrom[s] = v, h, isNew, from
		}
	}
	trans := func(node int32, i, j int) float32 {
		return tm.At(int(g.nodes[node].tmat), i, j)
	}
	// exitsOf computes the exit scores of nodes holding active states.
	exitsOf := func(t int32) {
		exits = exits[:0]
		for _, s := range active {
			nd, i := s/3, int(s%3)
			if i == 0 {
				continue // state 0 cannot reach the exit of a 3-state HMM in one step
			}
			v := score[s] + trans(nd, i, 3)
			if exitStamp[nd] != t {
				exitStamp[nd] = t
				exitScore[nd] = negInf
				exits = append(exits, nd)
			}
			if v > exitScore[nd] {
				exitScore[nd], exitHist[nd] = v, hist[s]
			}
		}
	}
	var sumActive int
	var roots []int32
	for t := int32(0); t < int32(n); t++ {
		if t%100 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, st, err
			}
		}
		cand = cand[:0]
		if t == 0 {
			for id := range g.nodes {
				if g.nodes[id].start {
					relax(t, int32(id)*3, g.nodes[id].penalty, -1, true, 0)
				}
			}
		} else {
			for _, s := range active {
				nd, i := s/3, int(s%3)
				v := score[s]
				h := hist[s]
				relax(t, s, v+trans(nd, i, i), h, false, 0)
				if i+1 < 3 {
					relax(t, s+1, v+trans(nd, i, i+1), h, true, v)
				}
				if i+2 < 3 {
					relax(t, s+2, v+trans(nd, i, i+2), h, true, v)
				}
			}
			exitsOf(t - 1)
			for _, nd := range exits {
				v := exitScore[nd]
				for _, nx := range g.nodes[nd].succ {
					relax(t, nx*3, v+g.nodes[nx].penalty, exitHist[nd], true, v)
				}
			}
		}
		// Emission. The beam is measured from the best state that is not
		// in a garbage loop: a free phone loop outscores forced words
		// wherever they fit the audio less than perfectly, and would
		// otherwise push every path through the words out of the beam.
		sc.SetFrame(frame(int(t)))
		best, bestAny := negInf, negInf
		for _, s := range cand {
			if g.nodes[s/3].garbage {
				cScore[s] += garbageScores[t] + garbage
				bestAny = max(bestAny, cScore[s])
				continue
			}
			sen := g.nodes[s/3].sen[s%3]
			if senStamp[sen] != t {
				senStamp[sen] = t
				senCache[sen] = sc.Senone(int(sen))
				st.SenoneEvaluations++
			}
			cScore[s] += senCache[sen]
			bestAny = max(bestAny, cScore[s])
			best = max(best, cScore[s])
		}
		if best == negInf {
			best = bestAny
		}
		// Prune, record entries, normalise.
		active = active[:0]
		thr := best - beam
		for _, s := range cand {
			// Garbage states are never pruned (there are six): a path
			// through well-matching words can outscore the leading
			// garbage by more than the beam before the words the
			// transcript really starts with are reached.
			if cScore[s] < thr && !g.nodes[s/3].garbage {
				continue
			}
			h := cHist[s]
			if cNew[s] {
				h = bp.add(h, s, t, float64(cFrom[s])+offset)
			}
			score[s] = cScore[s] - best
			hist[s] = h
			active = append(active, s)
		}
		offset += float64(best)
		st.MaxActive = max(st.MaxActive, len(active))
		sumActive += len(active)
		if len(bp.prev) > 2*bp.live+4096 {
			roots = roots[:0]
			for _, s := range active {
				roots = append(roots, hist[s])
			}
			bp.collect(roots)
			for i, s := range active {
				hist[s] = roots[i]
			}
		}
	}
	st.MeanActive = float64(sumActive) / float64(n)
	st.PeakBackpointers = bp.peak
	// Best final exit after the last frame.
	exitsOf(int32(n))
	bestFinal, bestHist := negInf, int32(-1)
	for _, nd := range exits {
		if g.nodes[nd].final && exitScore[nd] > bestFinal {
			bestFinal, bestHist = exitScore[nd], exitHist[nd]
		}
	}
	if bestHist < 0 {
		return nil, st, alignFailed("no_path", "no path reaches the end of the %d words in %d frames (audio too short, or beam %.0f too narrow)", len(words), n, beam)
	}
	total := float64(bestFinal) + offset
	// Backtrace.
	var recs []int32
	for r := bestHist; r >= 0; r = bp.prev[r] {
		recs = append(recs, r)
	}
	a := &Alignment{Frames: n, FrameRate: m.Params.FrameRate, Score: total, Stats: st}
	md := m.Mdef
	prevNode, prevState := int32(-1), -1
	for k := len(recs) - 1; k >= 0; k-- {
		r := recs[k]
		end, endAbs := int32(n), total
		if k > 0 {
			end, endAbs = bp.start[recs[k-1]], bp.fromAbs[recs[k-1]]
		}
		s := bp.state[r]
		node, state := s/3, int(s%3)
		nd := &g.nodes[node]
		seg := Segment{Start: int(bp.start[r]), End: int(end), Score: endAbs - bp.fromAbs[r]}
		base := md.CIName[md.Phones[nd.pid].Base]
		if nd.garbage {
			base = GarbageWord
		}
		if node != prevNode || state <= prevState {
			inGarbage := nd.garbage && prevNode >= 0 && g.nodes[prevNode].garbage
			if nd.phone == 0 && !inGarbage {
				label := SilenceWord
				if nd.garbage {
					label = GarbageWord
				}
				if nd.unit >= 0 {
					label = words[nd.unit]
					if nd.variant > 0 {
						label = fmt.Sprintf("%s(%d)", label, nd.variant+1)
					}
				}
				a.Words = append(a.Words, Segment{Label: label, Start: seg.Start, Parent: int(nd.unit)})
			}
			a.Phones = append(a.Phones, Segment{Label: base, Start: seg.Start, Parent: len(a.Words) - 1})
		}
		prevNode, prevState = node, state
		seg.Label = fmt.Sprintf("%s.%d", base, state)
		seg.Senone = int(nd.sen[state])
		seg.Parent = len(a.Phones) - 1
		a.States = append(a.States, seg)
		p := &a.Phones[len(a.Phones)-1]
		p.End, p.Score = seg.End, p.Score+seg.Score
		w := &a.Words[len(a.Words)-1]
		w.End, w.Score = seg.End, w.Score+seg.Score
	}
	return a, st, nil
}
