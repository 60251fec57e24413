package decoder

import (
	"fmt"
	"math"

	"github.com/sottolabs/sotto/internal/lm"
	"github.com/sottolabs/sotto/internal/sphinx"
)

// word is one pronunciation in the search vocabulary.
type word struct {
	text   string // dictionary spelling without the variant suffix
	lmid   int32  // language-model id; -1 for fillers
	phones []int16
	filler bool
	fan    int32   // first final-phone channel
	nfan   int32   // channels: one per distinct triphone over right contexts
	rcMap  []uint8 // right-context CI phone → channel offset
	rep    []int16 // a right context of each channel (single-phone words)
}

// node is one tree HMM: a non-final phone shared by every pronunciation
// with the same phones so far.
type node struct {
	base   int16
	next   int16 // following phone (the right context)
	pid    int32 // triphone; -1 for roots, whose left context is chosen at entry
	kids   []int32
	ends   []int32 // words whose final phone follows this node
	parent int32
	// la is the language-model lookahead: the weighted unigram score of
	// the likeliest word below the node. A token pays it on entry (the
	// difference to the parent's inside the tree) and gets it back when
	// the word's full LM score is applied at the final phone, so partial
	// words compete with finished ones on a fair footing.
	la float32
}

type fanKey struct {
	base, left int16
	pos        sphinx.WordPos
}

type fanGroups struct {
	pids  []int32
	rcMap []uint8
	rep   []int16
}

// lexicon is the search network: a prefix tree over the pronunciations of
// every dictionary word the language model knows, plus the final-phone
// channels of each word, the single-phone words and the fillers.
type lexicon struct {
	nodes   []node
	roots   []int32 // nodes at the first phone
	words   []word  // all pronunciations (tree words, singles, fillers)
	singles []int32 // single-phone words
	fillers []int32 // filler words (silence and noises)
	chanPid []int32 // fixed triphone of each final channel (-1: chosen at entry)
	chanW   []int32 // word of each final channel
	silWord int32   // the "<sil>" filler
	finish  int32   // LM id of "</s>"
	start   int32   // LM id of "<s>"
	nci     int
	sil     int16
	tmat    [][12]float32 // per matrix: [from][to], to in 0..3
	// A flat lexicon (the second pass) gives every word its own phones,
	// applies the LM when a word is entered, and lets a word start only at
	// the frames listed in starts.
	flat   bool
	rootOf []int32   // word → its first node, -1 for single-phone words and fillers
	starts [][]int32 // frame → words allowed to start there
	// predCopies, when not nil, maps a word listed in starts to its
	// copies by predecessor bucket (chains.pred), itself the first.
	predCopies map[int32][]int32
}

// chains says how buildFlat splits the start frames of a word into
// chains (HMM sequences of its own): a start frame t goes to chain
// (t/cluster) mod max, so two starts share a chain (and Viterbi keeps
// only the better of them inside the word) when they fall in the same
// block of cluster frames, or in blocks max·cluster frames apart. The
// zero value gives every word one chain.
type chains struct {
	cluster int32 // frames per block; ≤ 0: one chain per word
	max     int32 // chains per word; ≤ 0: 1
	// pred, when above 1, gives each chain pred copies, one per bucket
	// of the predecessor's last real word (its LM id mod pred), so that
	// paths with different histories stay apart inside the word too.
	pred int32
}

// chainOf returns the chain index of start frame t.
func (c chains) chainOf(t int32) int32 {
	if c.cluster <= 0 || c.max <= 1 {
		return 0
	}
	return (t / c.cluster) % c.max
}

// buildFlat builds the second-pass lexicon over the words of base listed
// in vocab, each allowed to start at the frames of starts (indexed by
// base word; frames sorted) and within window frames of them. With ch,
// a word's start frames are split among several copies of the word
// (chains), so the search keeps words that end at the same frame from
// different starts apart: each copy exits with its own start and history
// and the lattice of the pass holds them all.
func buildFlat(md *sphinx.Mdef, base *lexicon, vocab []int32, startFrames map[int32][]int32, nFrames int, window int32, ch chains) *lexicon {
	lx := &lexicon{nci: base.nci, sil: base.sil, silWord: -1, finish: base.finish, start: base.start, tmat: base.tmat, flat: true,
		starts: make([][]int32, nFrames+1)}
	addWord := func(bw int32) int32 {
		w := base.words[bw]
		id := int32(len(lx.words))
		nw := w
		nw.fan = int32(len(lx.chanPid))
		for g := range w.nfan {
			lx.chanPid = append(lx.chanPid, base.chanPid[w.fan+g])
			lx.chanW = append(lx.chanW, id)
		}
		lx.words = append(lx.words, nw)
		lx.rootOf = append(lx.rootOf, -1)
		return id
	}
	for _, f := range base.fillers {
		id := addWord(f)
		lx.fillers = append(lx.fillers, id)
		if f == base.silWord {
			lx.silWord = id
		}
	}
	// addChain adds one copy of base word bw with its own HMMs.
	addChain := func(bw int32) int32 {
		w := base.words[bw]
		id := addWord(bw)
		L := len(w.phones)
		if L == 1 {
			lx.singles = append(lx.singles, id)
			return id
		}
		parent := int32(-1)
		for j := 0; j <= L-2; j++ {
			pid := int32(-1)
			if j > 0 {
				pid = int32(md.Triphone(int(w.phones[j]), int(w.phones[j-1]), int(w.phones[j+1]), sphinx.PosInternal))
			}
			nd := node{base: w.phones[j], next: w.phones[j+1], pid: pid, parent: parent}
			n := int32(len(lx.nodes))
			lx.nodes = append(lx.nodes, nd)
			if parent >= 0 {
				lx.nodes[parent].kids = append(lx.nodes[parent].kids, n)
			} else {
				lx.roots = append(lx.roots, n)
				lx.rootOf[id] = n
			}
			parent = n
		}
		lx.nodes[parent].ends = []int32{id}
		return id
	}
	nChains := max(ch.max, 1)
	if ch.cluster <= 0 {
		nChains = 1
	}
	ids := make([]int32, nChains)
	for _, bw := range vocab {
		for i := range ids {
			ids[i] = -1
		}
		// Allowed start frames: within window of a first-pass start.
		last := int32(-1 << 30)
		for _, f := range startFrames[bw] {
			lo, hi := max(f-window, last+1, 0), min(f+window, int32(nFrames))
			for t := lo; t <= hi; t++ {
				c := ch.chainOf(t)
				if ids[c] < 0 {
					ids[c] = addChain(bw)
					if ch.pred > 1 {
						if lx.predCopies == nil {
							lx.predCopies = map[int32][]int32{}
						}
						cp := []int32{ids[c]}
						for range ch.pred - 1 {
							cp = append(cp, addChain(bw))
						}
						lx.predCopies[ids[c]] = cp
					}
				}
				lx.starts[t] = append(lx.starts[t], ids[c])
			}
			last = max(last, hi)
		}
		if ids[0] < 0 && len(startFrames[bw]) == 0 {
			addChain(bw) // no start: the word is in the lexicon but never entered
		}
	}
	return lx
}

// buildLexicon builds the network for am's dictionary restricted to the
// words of lang.
func buildLexicon(am *sphinx.Model, lang *lm.Model, lw float32) (*lexicon, error) {
	md := am.Mdef
	if md.NEmit != 3 {
		return nil, fmt.Errorf("decoder: %d-state HMMs unsupported", md.NEmit)
	}
	if md.Sil < 0 {
		return nil, fmt.Errorf("decoder: the acoustic model has no SIL phone")
	}
	lx := &lexicon{nci: len(md.CIName), sil: int16(md.Sil), silWord: -1}
	var ok bool
	if lx.finish, ok = lang.ID("</s>"); !ok {
		return nil, fmt.Errorf("decoder: the language model has no </s>")
	}
	if lx.start, ok = lang.ID("<s>"); !ok {
		return nil, fmt.Errorf("decoder: the language model has no <s>")
	}
	lx.tmat = make([][12]float32, md.NTmat)
	for t := range lx.tmat {
		for i := range 3 {
			for j := range 4 {
				v := float32(math.Inf(-1))
				if j >= i && j <= i+2 {
					v = am.Tmat.At(t, i, j)
				}
				lx.tmat[t][i*4+j] = v
			}
		}
	}
	fans := map[fanKey]*fanGroups{}
	groups := func(base, left int16, pos sphinx.WordPos) *fanGroups {
		k := fanKey{base, left, pos}
		if g, ok := fans[k]; ok {
			return g
		}
		g := &fanGroups{rcMap: make([]uint8, lx.nci)}
		// Channels are told apart by senone sequence, not triphone id:
		// many triphones share one.
		idx := map[int32]uint8{}
		for rc := range lx.nci {
			pid := int32(md.Triphone(int(base), int(left), rc, pos))
			i, ok := idx[md.Phones[pid].SSeq]
			if !ok {
				i = uint8(len(g.pids))
				idx[md.Phones[pid].SSeq] = i
				g.pids = append(g.pids, pid)
				g.rep = append(g.rep, int16(rc))
			}
			g.rcMap[rc] = i
		}
		fans[k] = g
		return g
	}
	type childKey struct {
		parent     int32
		base, next int16
	}
	child := map[childKey]int32{}
	getNode := func(parent int32, base, next, left int16) int32 {
		k := childKey{parent, base, next}
		if id, ok := child[k]; ok {
			return id
		}
		pid := int32(-1)
		if parent >= 0 {
			pid = int32(md.Triphone(int(base), int(left), int(next), sphinx.PosInternal))
		}
		id := int32(len(lx.nodes))
		lx.nodes = append(lx.nodes, node{base: base, next: next, pid: pid, parent: parent})
		child[k] = id
		if parent < 0 {
			lx.roots = append(lx.roots, id)
		} else {
			lx.nodes[parent].kids = append(lx.nodes[parent].kids, id)
		}
		return id
	}
	addChannels := func(w *word, g *fanGroups, fixed bool) {
		w.fan = int32(len(lx.chanPid))
		w.nfan = int32(len(g.pids))
		w.rcMap = g.rcMap
		w.rep = g.rep
		for _, p := range g.pids {
			if !fixed {
				p = -1
			}
			lx.chanPid = append(lx.chanPid, p)
			lx.chanW = append(lx.chanW, int32(len(lx.words)))
		}
	}
	for id := range int32(lang.Len()) {
		text := lang.Word(id)
		if text == "<s>" || text == "</s>" {
			continue
		}
		if am.Dict.IsFiller(text) {
			continue
		}
		for _, pron := range am.Dict.Lookup(text) {
			w := word{text: text, lmid: id, phones: pron}
			L := len(pron)
			if L == 1 {
				addChannels(&w, groups(pron[0], lx.sil, sphinx.PosSingle), false)
				lx.singles = append(lx.singles, int32(len(lx.words)))
				lx.words = append(lx.words, w)
				continue
			}
			// Tree phones 0 … L-2; the final phone gets its own channels.
			n := getNode(-1, pron[0], pron[1], -1)
			for j := 1; j <= L-2; j++ {
				n = getNode(n, pron[j], pron[j+1], pron[j-1])
			}
			addChannels(&w, groups(pron[L-1], pron[L-2], sphinx.PosEnd), true)
			lx.nodes[n].ends = append(lx.nodes[n].ends, int32(len(lx.words)))
			lx.words = append(lx.words, w)
		}
	}
	for _, f := range am.Dict.Fillers() {
		if f == "<s>" || f == "</s>" {
			continue
		}
		prons := am.Dict.Lookup(f)
		if len(prons) == 0 || len(prons[0]) != 1 {
			continue
		}
		ph := prons[0][0]
		w := word{text: f, lmid: -1, phones: prons[0], filler: true, fan: int32(len(lx.chanPid)), nfan: 1,
			rcMap: make([]uint8, lx.nci), rep: []int16{lx.sil}}
		lx.chanPid = append(lx.chanPid, int32(ph))
		lx.chanW = append(lx.chanW, int32(len(lx.words)))
		if f == sphinx.SilenceWord {
			lx.silWord = int32(len(lx.words))
		}
		lx.fillers = append(lx.fillers, int32(len(lx.words)))
		lx.words = append(lx.words, w)
	}
	// Lookahead: children come after their parents in lx.nodes.
	for i := range lx.nodes {
		lx.nodes[i].la = negInf
	}
	for i := len(lx.nodes) - 1; i >= 0; i-- {
		nd := &lx.nodes[i]
		for _, w := range nd.ends {
			nd.la = max(nd.la, lw*lang.Score(lx.words[w].lmid))
		}
		for _, k := range nd.kids {
			nd.la = max(nd.la, lx.nodes[k].la)
		}
	}
	if lx.silWord < 0 {
		return nil, fmt.Errorf("decoder: the noise dictionary has no %s", sphinx.SilenceWord)
	}
	if len(lx.roots) == 0 && len(lx.singles) == 0 {
		return nil, fmt.Errorf("decoder: no dictionary word is in the language model")
	}
	return lx, nil
}
