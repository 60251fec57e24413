package decoder

import (
	"context"
	"math"

	"github.com/sottolabs/sotto/internal/sphinx"
)

var debugSearch = false // per-frame trace on stderr, for development

var negInf = float32(math.Inf(-1))

// hmm is the state of one HMM instance: three emitting states with their
// path scores (relative to the best score of the last frame), back-pointers
// and triphones (a root or single-phone word chooses its triphone when a
// token enters it, so the states may differ), and the token waiting to
// enter state 0 at the next frame.
type hmm struct {
	s      [3]float32
	bp     [3]int32
	pid    [3]int32
	in     float32
	inBP   int32
	inPid  int32
	alive  int32 // frame whose scores s holds
	listed int32 // frame for which it is on the active list
}

func (h *hmm) reset() {
	h.s = [3]float32{negInf, negInf, negInf}
	h.in = negInf
}

// bpEntry is a word ending at a frame: the back-pointer table row.
type bpEntry struct {
	frame     int32
	word      int32
	pred      int32
	score     float32 // best exit score, relative to the frame's best state
	rc        int32   // offset of the per-right-context exit scores
	real      int32   // last LM word of the path (for the history)
	prevReal  int32   // the one before it, or -1
	lastPhone int16
	norm      float64 // cumulative normalisation of the frame (absolute score = score + norm)
}

// search is the per-goroutine state of a decode; reused between calls.
type search struct {
	d  *Decoder
	lx *lexicon
	lw float32 // language weight of this pass
	// logWip is the log word insertion penalty of this pass.
	logWip float32
	// The beams of this pass (negative log ratios) and its histogram
	// limit (≤ 0: none).
	beam, wbeam, pbeam, lpbeam float32
	maxActive                  int
	nodeH                      []hmm
	chanH                      []hmm
	curN                       []int32
	nextN                      []int32
	curC                       []int32
	nextC                      []int32
	senScore                   []float32
	senStamp                   []int32
	bp                         []bpEntry
	rcPool                     []float32
	exitSlot                   []int32 // word → index into frame exits (valid when exitStamp == t)
	exitStmp                   []int32
	frameBP                    []int32           // first bp entry of each frame (len frames+1)
	lmCache                    []lmSlot          // direct-mapped cache of weighted LM scores
	boost                      map[int32]float32 // LM id → weighted log bonus (Options.Bias)
	acoustic                   *sphinx.Model     // Options.Acoustic, or nil: the decoder's model
	maxBoost                   float32           // largest value of boost, or 0
	predCache                  []predSlot        // predecessor choices (bestPredecessor)
	gen                        uint32            // decodes run by this search, to tell cache entries apart
	bestRC                     []float32
	argRC                      []int32
	pidCache                   []int32 // [base][left][right] begin triphones, -2 = unknown
	sglCache                   []int32
	hist                       []int32 // histogram pruning scratch
	curFirst                   int32   // first bp entry of the frame being decoded
	// The LM history of the start entry (Options.History): its last
	// real word ("<s>" without a history) and the one before (-1: none).
	startReal, startPrev int32
	// listBeam is the beam of the tree pass's wider word list
	// (Config.FlatListBeam; 0: off), listExits that list, and listCand
	// the frame's candidates for it (with their exit scores).
	listBeam  float32
	listExits []listExit
	listCand  []listCand
	stats     Stats
}

// listExit is a word's exit from its last phone in the tree pass, kept
// for the flat pass's word list: the word, its start frame and the
// frame it ends at.
type listExit struct{ word, start, end int32 }

// listCand is a candidate listExit of the frame being decoded with its
// exit score, before the frame's best exit is known.
type listCand struct {
	x     listExit
	score float32
}

func newSearch(d *Decoder, lx *lexicon) *search {
	s := &search{d: d, lx: lx, lw: d.lw, logWip: d.logWip, startReal: lx.start, startPrev: -1,
		beam: d.beam, wbeam: d.wbeam, pbeam: d.pbeam, lpbeam: d.lpbeam, maxActive: d.maxActive,
		nodeH:     make([]hmm, len(lx.nodes)),
		chanH:     make([]hmm, len(lx.chanPid)),
		senScore:  make([]float32, d.am.Mdef.NSen),
		senStamp:  make([]int32, d.am.Mdef.NSen),
		exitSlot:  make([]int32, len(lx.words)),
		exitStmp:  make([]int32, len(lx.words)),
		lmCache:   make([]lmSlot, 1<<lmCacheBits),
		predCache: make([]predSlot, 1<<predCacheBits),
		bestRC:    make([]float32, lx.nci),
		argRC:     make([]int32, lx.nci),
		pidCache:  make([]int32, lx.nci*lx.nci*lx.nci),
		sglCache:  make([]int32, lx.nci*lx.nci*lx.nci),
	}
	if lx.flat {
		// The peer's fwdflat pass prunes with one HMM beam everywhere
		// (phone and word transitions alike) and a word-exit beam, and
		// has no histogram limit.
		s.lw = d.flatLw
		// The peer scales its weighted LM scores, insertion penalty
		// included, by the ratio of the two language weights.
		s.logWip = d.logWip * d.flatLw / d.lw
		s.beam, s.pbeam, s.lpbeam = d.flatBeam, d.flatBeam, d.flatBeam
		s.wbeam = d.flatWbeam
		s.maxActive = -1
	}
	for i := range s.pidCache {
		s.pidCache[i] = -2
		s.sglCache[i] = -2
	}
	return s
}

func (s *search) resetAll() {
	for i := range s.nodeH {
		s.nodeH[i].reset()
		s.nodeH[i].alive, s.nodeH[i].listed = -10, -10
	}
	for i := range s.chanH {
		s.chanH[i].reset()
		s.chanH[i].alive, s.chanH[i].listed = -10, -10
	}
	for i := range s.senStamp {
		s.senStamp[i] = -1
	}
	for i := range s.exitStmp {
		s.exitStmp[i] = -1
	}
	s.curN, s.nextN, s.curC, s.nextC = s.curN[:0], s.nextN[:0], s.curC[:0], s.nextC[:0]
	s.bp, s.rcPool, s.frameBP = s.bp[:0], s.rcPool[:0], s.frameBP[:0]
	s.listExits, s.listCand = s.listExits[:0], s.listCand[:0]
	s.stats = Stats{}
	s.gen++
}

// beginPid returns the first-phone triphone of a tree root.
func (s *search) beginPid(base, left, right int16) int32 {
	nci := s.lx.nci
	i := (int(base)*nci+int(left))*nci + int(right)
	if p := s.pidCache[i]; p != -2 {
		return p
	}
	p := int32(s.d.am.Mdef.Triphone(int(base), int(left), int(right), sphinx.PosBegin))
	s.pidCache[i] = p
	return p
}

func (s *search) singlePid(base, left, right int16) int32 {
	nci := s.lx.nci
	i := (int(base)*nci+int(left))*nci + int(right)
	if p := s.sglCache[i]; p != -2 {
		return p
	}
	p := int32(s.d.am.Mdef.Triphone(int(base), int(left), int(right), sphinx.PosSingle))
	s.sglCache[i] = p
	return p
}

// lmSlot is one entry of the LM score cache: key+1 of the (word, history)
// triple (0 = empty) and the weighted score.
type lmSlot struct {
	key uint64
	v   float32
}

// predSlot caches the predecessor choice of a word for one start frame
// within one decode (run).
type predSlot struct {
	key uint64
	gen uint32
	e   int32
	v   float32
}

const predCacheBits = 16

// lmCacheBits sizes the LM score cache (2^18 slots, 4 MB per search): the
// last-phone predecessor choice asks for a score per word exit of a frame
// and candidate word, mostly the same ones frame after frame.
const lmCacheBits = 18

// lmScore is the weighted LM score of word w after the history of entry e,
// with the word insertion penalty.
func (s *search) lmScore(w int32, e int32) float32 {
	lmid := s.lx.words[w].lmid
	b := &s.bp[e]
	key := uint64(uint32(lmid)) | uint64(uint32(b.real))<<21 | uint64(uint32(b.prevReal+1))<<42
	slot := &s.lmCache[(key*0x9E3779B97F4A7C15)>>(64-lmCacheBits)]
	if slot.key == key+1 {
		return slot.v + s.boost[lmid]
	}
	v := s.lw*s.lmProb(lmid, b.real, b.prevReal) + s.logWip
	*slot = lmSlot{key + 1, v}
	return v + s.boost[lmid]
}

// lmProb is ln P(w | w1 w2) as this search scores it (w2 < 0: after w1
// alone): the decoder's model, or in a flat pass with Config.LM2Flat its
// interpolation with Config.LM2.
func (s *search) lmProb(w, w1, w2 int32) float32 {
	if s.lx.flat && s.d.lm2Flat {
		return float32(s.d.rescoreLM(w, w1, w2))
	}
	if w2 >= 0 {
		return s.d.lang.Score(w, w1, w2)
	}
	return s.d.lang.Score(w, w1)
}

// senone returns the score of senone sen at frame t.
func (s *search) senone(sc *sphinx.Scorer, sen uint16, t int32) float32 {
	if s.senStamp[sen] != t {
		s.senStamp[sen] = t
		s.senScore[sen] = sc.Senone(int(sen))
		s.stats.SenoneEvals++
	}
	return s.senScore[sen]
}

// eval advances h by frame t and returns its best state score.
func (s *search) eval(h *hmm, sc *sphinx.Scorer, t int32) float32 {
	md := s.d.am.Mdef
	lx := s.lx
	if h.alive != t-1 {
		h.s = [3]float32{negInf, negInf, negInf}
	}
	h.alive = t
	p0, p1, p2 := h.s[0], h.s[1], h.s[2]
	tm0 := &lx.tmat[md.Phones[h.pid[0]].Tmat]
	tm1 := &lx.tmat[md.Phones[h.pid[1]].Tmat]
	tm2 := &lx.tmat[md.Phones[h.pid[2]].Tmat]
	// State 2.
	v2, b2, q2 := p2+tm2[2*4+2], h.bp[2], h.pid[2]
	if v := p1 + tm1[1*4+2]; v > v2 {
		v2, b2, q2 = v, h.bp[1], h.pid[1]
	}
	if v := p0 + tm0[0*4+2]; v > v2 {
		v2, b2, q2 = v, h.bp[0], h.pid[0]
	}
	// State 1.
	v1, b1, q1 := p1+tm1[1*4+1], h.bp[1], h.pid[1]
	if v := p0 + tm0[0*4+1]; v > v1 {
		v1, b1, q1 = v, h.bp[0], h.pid[0]
	}
	// State 0.
	v0, b0, q0 := p0+tm0[0], h.bp[0], h.pid[0]
	if h.in > v0 {
		v0, b0, q0 = h.in, h.inBP, h.inPid
	}
	h.in = negInf
	best := negInf
	if v0 > negInf {
		v0 += s.senone(sc, md.SSeq[int(md.Phones[q0].SSeq)*3], t)
		best = v0
	}
	if v1 > negInf {
		v1 += s.senone(sc, md.SSeq[int(md.Phones[q1].SSeq)*3+1], t)
		best = max(best, v1)
	}
	if v2 > negInf {
		v2 += s.senone(sc, md.SSeq[int(md.Phones[q2].SSeq)*3+2], t)
		best = max(best, v2)
	}
	h.s = [3]float32{v0, v1, v2}
	h.bp = [3]int32{b0, b1, b2}
	h.pid = [3]int32{q0, q1, q2}
	return best
}

// exit returns the score and back-pointer of leaving h.
func (s *search) exit(h *hmm) (float32, int32) {
	lx := s.lx
	md := s.d.am.Mdef
	v1 := h.s[1] + lx.tmat[md.Phones[h.pid[1]].Tmat][1*4+3]
	v2 := h.s[2] + lx.tmat[md.Phones[h.pid[2]].Tmat][2*4+3]
	if v1 > v2 {
		return v1, h.bp[1]
	}
	return v2, h.bp[2]
}

// enter offers a token to h for frame t+1.
func enter(h *hmm, t int32, v float32, bp, pid int32) bool {
	if h.alive != t {
		h.s = [3]float32{negInf, negInf, negInf}
		h.alive = t
	}
	if v > h.in {
		h.in, h.inBP, h.inPid = v, bp, pid
		return true
	}
	return false
}

func (s *search) listNode(i int32, t int32) {
	h := &s.nodeH[i]
	if h.listed != t+1 {
		h.listed = t + 1
		s.nextN = append(s.nextN, i)
	}
}

func (s *search) listChan(i int32, t int32) {
	h := &s.chanH[i]
	if h.listed != t+1 {
		h.listed = t + 1
		s.nextC = append(s.nextC, i)
	}
}

// Stats reports the work of a decode.
type Stats struct {
	Frames       int
	SenoneEvals  int
	HMMEvals     int
	MaxActive    int
	WordExits    int
	Backpointers int
	// FirstPass holds the figures of the tree pass when the result comes
	// from the second pass.
	FirstPass *Stats `json:",omitempty"`
}

// run decodes n frames; frame(t) returns the features of frame t.
func (s *search) run(ctx context.Context, frame func(t int) []float32, n int) ([]bpEntry, int32, error) {
	d := s.d
	lx := s.lx
	s.resetAll()
	am := d.am
	if s.acoustic != nil {
		am = s.acoustic
	}
	sc := am.NewScorer()
	// The start entry: "<s>" (or the history of Options.History) ending
	// just before frame 0, silence context.
	rc := len(s.rcPool)
	for range lx.nci {
		s.rcPool = append(s.rcPool, 0)
	}
	s.bp = append(s.bp, bpEntry{frame: -1, word: -1, pred: -1, rc: int32(rc), real: s.startReal, prevReal: s.startPrev, lastPhone: lx.sil})
	s.frameBP = append(s.frameBP, 0)
	s.transitions(-1, 0, 1)
	s.curN, s.nextN = s.nextN, s.curN[:0]
	s.curC, s.nextC = s.nextC, s.curC[:0]
	norm := 0.0
	for t := int32(0); t < int32(n); t++ {
		if t%50 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, 0, err
			}
		}
		sc.SetFrame(frame(int(t)))
		best, bestC := negInf, negInf
		for _, i := range s.curN {
			best = max(best, s.eval(&s.nodeH[i], sc, t))
		}
		for _, i := range s.curC {
			bestC = max(bestC, s.eval(&s.chanH[i], sc, t))
		}
		best = max(best, bestC)
		s.stats.HMMEvals += len(s.curN) + len(s.curC)
		s.stats.MaxActive = max(s.stats.MaxActive, len(s.curN)+len(s.curC))
		if best == negInf {
			break // nothing survived
		}
		thr := s.threshold(best)
		norm += float64(best)
		first := len(s.bp)
		s.curFirst = int32(first)
		// Channels: word exits, within the word beam of the best
		// last-phone state (as the peer's newword_thresh).
		wthr := bestC - best - s.wbeam
		lthr := bestC - best - s.listBeam
		for _, i := range s.curC {
			h := &s.chanH[i]
			hb := max(h.s[0], h.s[1], h.s[2])
			if hb < thr {
				h.s = [3]float32{negInf, negInf, negInf}
				continue
			}
			for k := range h.s {
				h.s[k] -= best
			}
			s.listChan(i, t)
			v, bp := s.exit(h)
			if s.listBeam > 0 && v >= lthr && v > negInf {
				if w := lx.chanW[i]; !lx.words[w].filler {
					s.listCand = append(s.listCand, listCand{listExit{w, s.bp[bp].frame + 1, t}, v})
				}
			}
			if v < wthr {
				continue
			}
			s.wordExit(lx.chanW[i], i, v, bp, t, norm)
		}
		// Tree nodes.
		for _, i := range s.curN {
			h := &s.nodeH[i]
			hb := max(h.s[0], h.s[1], h.s[2])
			if hb < thr {
				h.s = [3]float32{negInf, negInf, negInf}
				continue
			}
			for k := range h.s {
				h.s[k] -= best
			}
			s.listNode(i, t)
			v, bp := s.exit(h)
			if v < -s.pbeam {
				continue
			}
			nd := &lx.nodes[i]
			for _, k := range nd.kids {
				if enter(&s.nodeH[k], t, v+lx.nodes[k].la-nd.la, bp, lx.nodes[k].pid) {
					s.listNode(k, t)
				}
			}
			for _, w := range nd.ends {
				cand, from := v, bp // a flat lexicon applied the LM at the word's entry
				if !lx.flat {
					var gain float32
					gain, from = s.bestPredecessor(w, bp)
					cand += gain - nd.la
				}
				if cand < -s.lpbeam {
					continue
				}
				wd := &lx.words[w]
				for g := range wd.nfan {
					c := wd.fan + g
					if enter(&s.chanH[c], t, cand, from, lx.chanPid[c]) {
						s.listChan(c, t)
					}
				}
			}
		}
		// Prune word exits with the word beam, relative to the best exit.
		bestExit := s.pruneExits(first)
		if len(s.listCand) > 0 {
			if bestExit == negInf { // no exit within the word beam: the best candidate
				for _, c := range s.listCand {
					bestExit = max(bestExit, c.score)
				}
			}
			for _, c := range s.listCand {
				if c.score >= bestExit-s.listBeam {
					s.listExits = append(s.listExits, c.x)
				}
			}
			s.listCand = s.listCand[:0]
		}
		s.frameBP = append(s.frameBP, int32(first))
		s.stats.WordExits += len(s.bp) - first
		if debugSearch {
			println("t", t, "best", best, "bestC", bestC-best, "thr", thr-best, "nodes", len(s.curN), "chans", len(s.curC), "exits", len(s.bp)-first, "next", len(s.nextN), len(s.nextC))
		}
		s.transitions(t, first, len(s.bp))
		s.curN, s.nextN = s.nextN, s.curN[:0]
		s.curC, s.nextC = s.nextC, s.curC[:0]
		s.stats.Frames++
	}
	s.frameBP = append(s.frameBP, int32(len(s.bp)))
	s.stats.Backpointers = len(s.bp)
	return s.bp, int32(n), nil
}

// bestPredecessor returns the best predecessor of word w among all word
// exits of the frame of entry bp (the token's own predecessor, chosen in
// the tree by acoustics alone), and its gain over bp: the difference of
// their exit scores into w's first phone plus w's trigram score after the
// chosen one. The peer's fwdtree pass does this when a word enters its
// last phone (last_phone_transition).
func (s *search) bestPredecessor(w, bp int32) (float32, int32) {
	f := int32(s.lx.words[w].phones[0])
	fr := s.bp[bp].frame
	base := s.rcPool[s.bp[bp].rc+f]
	// The choice depends only on the word and the frame (whose exits are
	// final): a word enters its last phone from the same start frame in
	// many consecutive frames.
	key := uint64(uint32(w))<<32 | uint64(uint32(fr+1))
	slot := &s.predCache[(key*0x9E3779B97F4A7C15)>>(64-predCacheBits)]
	if slot.key == key && slot.gen == s.gen {
		return slot.v - base, slot.e
	}
	lo := s.frameBP[fr+1]
	hi := s.curFirst
	if int(fr)+2 < len(s.frameBP) {
		hi = s.frameBP[fr+2]
	}
	best, arg := base+s.lmScore(w, bp), bp
	// An LM score is at most the insertion penalty plus the bias bonus:
	// exits too far below the best so far cannot win.
	slack := s.logWip + s.maxBoost
	for e := lo; e < hi; e++ {
		v := s.rcPool[s.bp[e].rc+f]
		if v+slack <= best || e == bp {
			continue
		}
		if v += s.lmScore(w, e); v > best {
			best, arg = v, e
		}
	}
	*slot = predSlot{key: key, gen: s.gen, v: best, e: arg}
	return best - base, arg
}

// wordExit records that word w (channel c) ends at frame t.
func (s *search) wordExit(w, c int32, v float32, pred, t int32, norm float64) {
	lx := s.lx
	wd := &lx.words[w]
	var e *bpEntry
	if s.exitStmp[w] == t {
		e = &s.bp[s.exitSlot[w]]
		if v > e.score {
			// A better predecessor: its history becomes the entry's.
			p := &s.bp[pred]
			e.score, e.pred = v, pred
			if wd.filler {
				e.real, e.prevReal = p.real, p.prevReal
			} else {
				e.prevReal = p.real
			}
		}
	} else {
		s.exitStmp[w] = t
		s.exitSlot[w] = int32(len(s.bp))
		rc := int32(len(s.rcPool))
		for range lx.nci {
			s.rcPool = append(s.rcPool, negInf)
		}
		p := &s.bp[pred]
		real, prev := p.real, p.prevReal
		if !wd.filler {
			real, prev = wd.lmid, p.real
		}
		s.bp = append(s.bp, bpEntry{frame: t, word: w, pred: pred, score: v, rc: rc, real: real, prevReal: prev,
			lastPhone: wd.phones[len(wd.phones)-1], norm: norm})
		e = &s.bp[len(s.bp)-1]
	}
	g := uint8(c - wd.fan)
	rcs := s.rcPool[e.rc : e.rc+int32(lx.nci)]
	for r := range rcs {
		if wd.filler || wd.rcMap[r] == g {
			rcs[r] = max(rcs[r], v)
		}
	}
}

// pruneExits drops the word exits of this frame below the word beam and
// returns the best exit's score (-Inf: none).
func (s *search) pruneExits(first int) float32 {
	best := negInf
	for _, e := range s.bp[first:] {
		best = max(best, e.score)
	}
	j := first
	for i := first; i < len(s.bp); i++ {
		if s.bp[i].score >= best-s.wbeam {
			s.bp[j] = s.bp[i]
			j++
		}
	}
	s.bp = s.bp[:j]
	return best
}

// threshold returns the pruning threshold for frame scores with best
// best: the beam, tightened by histogram pruning to at most MaxActive HMMs.
func (s *search) threshold(best float32) float32 {
	thr := best - s.beam
	n := len(s.curN) + len(s.curC)
	if s.maxActive <= 0 || n <= s.maxActive {
		return thr
	}
	const bins = 256
	if len(s.hist) < bins {
		s.hist = make([]int32, bins)
	}
	clear(s.hist)
	scale := float32(bins) / s.beam
	add := func(h *hmm) {
		v := max(h.s[0], h.s[1], h.s[2])
		if v < thr {
			return
		}
		b := int((best - v) * scale)
		if b >= bins {
			b = bins - 1
		}
		s.hist[b]++
	}
	for _, i := range s.curN {
		add(&s.nodeH[i])
	}
	for _, i := range s.curC {
		add(&s.chanH[i])
	}
	cum := int32(0)
	for b, c := range s.hist {
		cum += c
		if int(cum) > s.maxActive {
			return best - float32(b)/scale
		}
	}
	return thr
}

// transitions enters the tokens of the word exits bp[first:last] of frame
// t into the word-initial HMMs for frame t+1: tree roots (by first phone,
// with the triphone for the best predecessor's last phone), single-phone
// words (with their LM score) and fillers.
func (s *search) transitions(t int32, first, last int) {
	if first == last {
		return
	}
	d := s.d
	lx := s.lx
	for f := range s.bestRC {
		s.bestRC[f] = negInf
		s.argRC[f] = -1
	}
	for e := first; e < last; e++ {
		rcs := s.rcPool[s.bp[e].rc : s.bp[e].rc+int32(lx.nci)]
		for f, v := range rcs {
			if v > s.bestRC[f] {
				s.bestRC[f], s.argRC[f] = v, int32(e)
			}
		}
	}
	thr := -s.beam
	if lx.flat {
		s.flatTransitions(t, first, last)
		return
	}
	for _, r := range lx.roots {
		nd := &lx.nodes[r]
		v := s.bestRC[nd.base] + nd.la
		if v < thr {
			continue
		}
		e := s.argRC[nd.base]
		pid := s.beginPid(nd.base, s.bp[e].lastPhone, nd.next)
		if enter(&s.nodeH[r], t, v, e, pid) {
			s.listNode(r, t)
		}
	}
	for _, w := range lx.singles {
		wd := &lx.words[w]
		f := wd.phones[0]
		if s.bestRC[f] < thr {
			continue
		}
		for e := int32(first); e < int32(last); e++ {
			v := s.rcPool[s.bp[e].rc+int32(f)]
			if v < thr {
				continue
			}
			v += s.lmScore(w, e)
			if v < -s.lpbeam {
				continue
			}
			for g := range wd.nfan {
				c := wd.fan + g
				pid := s.singlePid(f, s.bp[e].lastPhone, wd.rep[g])
				if enter(&s.chanH[c], t, v, e, pid) {
					s.listChan(c, t)
				}
			}
		}
	}
	for _, w := range lx.fillers {
		wd := &lx.words[w]
		f := wd.phones[0]
		v := s.bestRC[f]
		if v < thr {
			continue
		}
		if w == lx.silWord {
			v += d.silPen
		} else {
			v += d.fillPen
		}
		if enter(&s.chanH[wd.fan], t, v, s.argRC[f], lx.chanPid[wd.fan]) {
			s.listChan(wd.fan, t)
		}
	}
}

// flatTransitions enters the words of a flat lexicon allowed to start at
// frame t+1, each from the predecessor that is best for it with its full
// LM score (the peer's fwdflat pass), and the fillers.
func (s *search) flatTransitions(t int32, first, last int) {
	d := s.d
	lx := s.lx
	thr := -s.beam
	if int(t+1) < len(lx.starts) {
		for _, w := range lx.starts[t+1] {
			wd := &lx.words[w]
			f := wd.phones[0]
			if s.bestRC[f] < thr {
				continue
			}
			if cp := lx.predCopies[w]; cp != nil {
				s.enterByPred(t, w, cp, first, last)
				continue
			}
			bestV, bestE := negInf, int32(-1)
			for e := int32(first); e < int32(last); e++ {
				v := s.rcPool[s.bp[e].rc+int32(f)]
				if v < thr {
					continue
				}
				if v += s.lmScore(w, e); v > bestV {
					bestV, bestE = v, e
				}
			}
			s.enterFlat(t, w, bestV, bestE)
		}
	}
	for _, w := range lx.fillers {
		wd := &lx.words[w]
		f := wd.phones[0]
		v := s.bestRC[f]
		if v < thr {
			continue
		}
		if w == lx.silWord {
			v += d.silPen
		} else {
			v += d.fillPen
		}
		if enter(&s.chanH[wd.fan], t, v, s.argRC[f], lx.chanPid[wd.fan]) {
			s.listChan(wd.fan, t)
		}
	}
}

// enterFlat enters word w of a flat lexicon for frame t+1 from exit e
// with score v (e < 0: none).
func (s *search) enterFlat(t, w int32, v float32, e int32) {
	lx := s.lx
	if e < 0 || v < -s.lpbeam {
		return
	}
	wd := &lx.words[w]
	f := wd.phones[0]
	left := s.bp[e].lastPhone
	if r := lx.rootOf[w]; r >= 0 {
		if enter(&s.nodeH[r], t, v, e, s.beginPid(f, left, wd.phones[1])) {
			s.listNode(r, t)
		}
		return
	}
	for g := range wd.nfan {
		c := wd.fan + g
		if enter(&s.chanH[c], t, v, e, s.singlePid(f, left, wd.rep[g])) {
			s.listChan(c, t)
		}
	}
}

// enterByPred enters the copies cp of word w, one per predecessor
// bucket, each from the best exit of frame t whose last real word falls
// in its bucket.
func (s *search) enterByPred(t, w int32, cp []int32, first, last int) {
	f := int32(s.lx.words[w].phones[0])
	thr := -s.beam
	var bestV [16]float32
	var bestE [16]int32
	nb := min(len(cp), len(bestV))
	for i := range nb {
		bestV[i], bestE[i] = negInf, -1
	}
	for e := int32(first); e < int32(last); e++ {
		v := s.rcPool[s.bp[e].rc+f]
		if v < thr {
			continue
		}
		b := int(uint32(s.bp[e].real) % uint32(nb))
		if v += s.lmScore(w, e); v > bestV[b] {
			bestV[b], bestE[b] = v, e
		}
	}
	for i := range nb {
		s.enterFlat(t, cp[i], bestV[i], bestE[i])
	}
}

// setBoost sets the per-call LM bonuses (Options.Bias).
func (s *search) setBoost(b map[int32]float32) {
	s.boost, s.maxBoost = b, 0
	for _, v := range b {
		s.maxBoost = max(s.maxBoost, v)
	}
}
