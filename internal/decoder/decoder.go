package decoder

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/sottolabs/sotto/internal/lm"
	"github.com/sottolabs/sotto/internal/sphinx"
)

// Config tunes the search. The zero value uses the peer's defaults
// (pocketsphinx 5prealpha: -beam 1e-48 -wbeam 7e-29 -pbeam 1e-48 -lpbeam
// 1e-40 -maxhmmpf 30000 -lw 6.5 -wip 0.65 -silprob 0.005 -fillprob 1e-8).
// Beams are probability ratios, as the peer's options are.
type Config struct {
	Beam           float64 // HMM beam; 0 = 1e-48
	WordBeam       float64 // word-exit beam; 0 = 7e-29
	PhoneBeam      float64 // beam for moving to the next phone; 0 = 1e-48
	LastPhoneBeam  float64 // beam for entering a word's last phone; 0 = 1e-40
	MaxActive      int     // most HMMs evaluated per frame; 0 = 30000, < 0 = no limit
	LanguageWeight float64 // 0 = 6.5
	WordInsertion  float64 // word insertion probability; 0 = 0.65
	SilenceProb    float64 // 0 = 0.005
	FillerProb     float64 // 0 = 1e-8
	// FlatLanguageWeight is the language weight of the second pass; 0 =
	// 8.5 (the peer's -fwdflatlw).
	FlatLanguageWeight float64
	// Flat adds the second, flat-lexicon pass (the peer's fwdflat). It
	// is off in the zero Config; on the dev recordings of
	// docs/bench/asr.md it lowers the WER from 0.426 to 0.410 for about
	// 1.2 times the CPU of the tree pass alone.
	Flat bool
	// FlatBeam is the HMM beam of the second pass, applied to phone and
	// word transitions as well; 0 = 1e-64 (the peer's -fwdflatbeam).
	FlatBeam float64
	// FlatWordBeam is the word-exit beam of the second pass; 0 = 7e-29
	// (the peer's -fwdflatwbeam).
	FlatWordBeam float64
	// BestPath rescores the word lattice of the last pass with the
	// trigram at BestPathLanguageWeight (the peer's -bestpath); see
	// [Lattice.Rescore].
	BestPath bool
	// BestPathLanguageWeight is the language weight of the rescoring; 0
	// = 9.5 (the peer's -bestpathlw).
	BestPathLanguageWeight float64
	// BestPathWordInsertion is the word insertion probability of the
	// rescoring; 0 = WordInsertion scaled as the peer scales it (its log
	// times BestPathLanguageWeight / LanguageWeight).
	BestPathWordInsertion float64
	// Consensus takes, with BestPath, the words of the confusion network
	// of the rescored lattice (consensus decoding: the fewest expected
	// word errors) instead of its best path; see [Lattice.Rescore].
	Consensus bool
	// KeepLattice returns the word lattice of the last pass with every
	// result (Result.Lattice), for a caller that rescores it.
	KeepLattice bool
	// FlatMinEnds is how many frames the exits of a first-pass word
	// from one start must span for the second pass to search it there;
	// 0 = 4 (the peer's -fwdflatefwid), < 0 = every word.
	FlatMinEnds int
	// FlatWindow is how many frames from a first-pass start a word may
	// start in the second pass; 0 = 25.
	FlatWindow int
	// FlatListBeam, when positive, widens the word list of the second
	// pass without changing the tree pass's own search: every exit of a
	// word from its last phone within this beam (a probability ratio,
	// wider than WordBeam to matter) of the frame's best exit counts
	// toward the word's span from its start (FlatMinEnds), whatever the
	// exit's predecessor and whether or not the word beam kept it in the
	// back-pointer table. 0 = off: the table's exits only.
	FlatListBeam float64
	// FlatStartCluster, when positive, gives a word of the second pass
	// several chains of HMMs (copies of the word), so that Viterbi does
	// not merge its starts inside the word: start frame t goes to chain
	// (t / FlatStartCluster) mod FlatChains. The pass then records, for a
	// word ending at a frame, one exit per chain with its own start frame
	// and LM history, and its lattice offers those starts as alternatives
	// to the rescoring. 0 = one chain per word (Viterbi keeps one start
	// per word and end frame).
	FlatStartCluster int
	// FlatChains is the most chains per word with FlatStartCluster; 0 =
	// 8.
	FlatChains int
	// FlatPredBuckets, when above 1 (at most 16), gives each chain of a
	// word of the second pass that many copies, one per bucket of the
	// predecessor's last real word (LM id mod FlatPredBuckets): a
	// word-conditioned search, whose lattice keeps a word's exits after
	// different predecessors apart. It works with or without
	// FlatStartCluster.
	FlatPredBuckets int
	// LM2 is a second language model for the lattice rescoring
	// (BestPath): each trigram probability there, and in the lattice
	// posteriors and consensus, becomes the linear interpolation
	// λ·P2(w|h) + (1-λ)·P(w|h) with the decoder's model, λ = LM2Weight.
	// Words are matched by spelling; a word LM2 lacks counts as its
	// "<unk>" (or keeps the first model's probability alone when LM2 has
	// none). The searches themselves use the first model only. nil: off.
	LM2 *lm.Model
	// LM2Weight is λ, in (0, 1); ignored without LM2.
	LM2Weight float64
	// LM2Flat uses the interpolation of LM2 in the flat pass's search
	// too (its word entries, and so its word list for the lattice).
	LM2Flat bool
}

// Decoder recognises continuous speech with an acoustic model, its
// dictionary and an n-gram language model. It is read-only after New and
// safe for concurrent use by multiple goroutines; each Decode uses its own
// search state (pooled).
type Decoder struct {
	am          *sphinx.Model
	lang        *lm.Model
	lx          *lexicon
	beam        float32
	wbeam       float32
	pbeam       float32
	lpbeam      float32
	maxActive   int
	lw          float32
	logWip      float32
	silPen      float32
	fillPen     float32
	pool        sync.Pool
	noFlat      bool
	flatLw      float32
	flatWindow  int32
	flatMinEnds int32
	bestPath    bool
	bestPathLw  float32
	bestPathWip float64
	keepLattice bool
	consensus   bool
	flatBeam    float32
	flatWbeam   float32
	flatChains  chains
	listBeam    float32 // Config.FlatListBeam as a negative log ratio; 0 = off
	// lm2 is Config.LM2 (nil: off), lm2ids maps the first model's word
	// ids to its ids (-1: none), lm2Log and lm1Log are ln λ and ln(1-λ).
	lm2            *lm.Model
	lm2ids         []int32
	lm2Log, lm1Log float64
	lm2Flat        bool
}

func orDefault(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}

// New builds the search network (a prefix tree over every dictionary word
// the language model knows) and returns a decoder.
func New(am *sphinx.Model, lang *lm.Model, cfg Config) (*Decoder, error) {
	lx, err := buildLexicon(am, lang, float32(orDefault(cfg.LanguageWeight, 6.5)))
	if err != nil {
		return nil, err
	}
	neg := func(p, def float64) float32 {
		p = orDefault(p, def)
		if p <= 0 || p > 1 {
			return float32(-math.Log(def))
		}
		return float32(-math.Log(p))
	}
	d := &Decoder{am: am, lang: lang, lx: lx,
		beam:      neg(cfg.Beam, 1e-48),
		wbeam:     neg(cfg.WordBeam, 7e-29),
		pbeam:     neg(cfg.PhoneBeam, 1e-48),
		lpbeam:    neg(cfg.LastPhoneBeam, 1e-40),
		maxActive: cfg.MaxActive,
		lw:        float32(orDefault(cfg.LanguageWeight, 6.5)),
		logWip:    float32(math.Log(orDefault(cfg.WordInsertion, 0.65))),
		silPen:    float32(math.Log(orDefault(cfg.SilenceProb, 0.005))),
		fillPen:   float32(math.Log(orDefault(cfg.FillerProb, 1e-8))),
	}
	d.flatBeam = neg(cfg.FlatBeam, 1e-64)
	d.flatWbeam = neg(cfg.FlatWordBeam, 7e-29)
	d.noFlat = !cfg.Flat
	if b := cfg.FlatListBeam; b > 0 && b < 1 && cfg.Flat {
		d.listBeam = float32(-math.Log(b))
	}
	d.flatLw = float32(orDefault(cfg.FlatLanguageWeight, 8.5))
	d.flatWindow = int32(cfg.FlatWindow)
	d.bestPath = cfg.BestPath
	d.bestPathLw = float32(orDefault(cfg.BestPathLanguageWeight, 9.5))
	if p := cfg.BestPathWordInsertion; p > 0 && p <= 1 {
		d.bestPathWip = p
	}
	d.keepLattice = cfg.KeepLattice
	d.consensus = cfg.Consensus
	d.flatMinEnds = int32(cfg.FlatMinEnds)
	if d.flatMinEnds == 0 {
		d.flatMinEnds = 4
	} else if d.flatMinEnds < 0 {
		d.flatMinEnds = 0
	}
	if d.flatWindow <= 0 {
		d.flatWindow = 25
	}
	if cfg.FlatStartCluster > 0 {
		d.flatChains = chains{cluster: int32(cfg.FlatStartCluster), max: int32(cfg.FlatChains)}
		if d.flatChains.max <= 0 {
			d.flatChains.max = 8
		}
	}
	if b := cfg.FlatPredBuckets; b > 1 {
		d.flatChains.pred = int32(min(b, 16))
	}
	if d.maxActive == 0 {
		d.maxActive = 30000
	}
	if cfg.LM2 != nil {
		if err := d.setLM2(cfg.LM2, cfg.LM2Weight); err != nil {
			return nil, err
		}
		d.lm2Flat = cfg.LM2Flat
	}
	return d, nil
}

// setLM2 sets the second model of the rescoring (Config.LM2) with weight
// lambda.
func (d *Decoder) setLM2(m *lm.Model, lambda float64) error {
	if lambda <= 0 || lambda >= 1 {
		return fmt.Errorf("decoder: LM2Weight %g: want a number in (0, 1)", lambda)
	}
	d.lm2 = m
	d.lm2Log, d.lm1Log = math.Log(lambda), math.Log1p(-lambda)
	unk, ok := m.ID("<unk>")
	if !ok {
		unk = -1
	}
	d.lm2ids = make([]int32, d.lang.Len())
	for i := range d.lm2ids {
		id, ok := m.ID(d.lang.Word(int32(i)))
		if !ok {
			id = unk
		}
		d.lm2ids[i] = id
	}
	return nil
}

// rescoreLM returns ln P(w | w1 w2) of the lattice rescoring (ids of the
// decoder's model; w2 < 0: after w1 alone): the decoder's model's, or with
// Config.LM2 its interpolation with the second model.
func (d *Decoder) rescoreLM(w, w1, w2 int32) float64 {
	return d.mixLM(w, w1, w2, d.lm1Log, d.lm2Log)
}

// mixLM is rescoreLM with the interpolation weights ln(1-λ) and ln λ
// given (lm1Log, lm2Log); they matter only with Config.LM2.
func (d *Decoder) mixLM(w, w1, w2 int32, lm1Log, lm2Log float64) float64 {
	var s float32
	if w2 >= 0 {
		s = d.lang.Score(w, w1, w2)
	} else {
		s = d.lang.Score(w, w1)
	}
	if d.lm2 == nil {
		return float64(s)
	}
	v, v1 := d.lm2ids[w], d.lm2ids[w1]
	if v < 0 {
		return float64(s)
	}
	var s2 float32
	switch v2 := int32(-1); {
	case v1 < 0:
		s2 = d.lm2.Score(v)
	case w2 >= 0:
		if v2 = d.lm2ids[w2]; v2 >= 0 {
			s2 = d.lm2.Score(v, v1, v2)
		} else {
			s2 = d.lm2.Score(v, v1)
		}
	default:
		s2 = d.lm2.Score(v, v1)
	}
	return logAdd(lm1Log+float64(s), lm2Log+float64(s2))
}

// Word is one recognised word. Start and End are frame indices (End
// exclusive; a frame is 10 ms for the Debian model).
type Word struct {
	Text   string
	Start  int
	End    int
	Filler bool // silence or noise
	// Confidence is the word's posterior probability in [0,1], from the
	// word lattice of the search.
	Confidence float64
	// Score is the path score of the word (acoustic plus weighted LM),
	// nats.
	Score float64
}

// Result is the outcome of decoding one utterance.
type Result struct {
	Words  []Word // in time order, fillers included
	Frames int
	Score  float64 // best path score, nats
	Stats  Stats
	// Lattice is the word lattice of the last pass, with
	// Config.KeepLattice.
	Lattice *Lattice
	// Network is the confusion network of the rescored lattice whose
	// words are Words ([ConsensusWords]), with Config.Consensus; nil
	// when the result is not a consensus.
	Network []Slot
}

// Text returns the recognised words without fillers, joined by spaces.
func (r *Result) Text() string {
	var b []byte
	for _, w := range r.Words {
		if w.Filler {
			continue
		}
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = append(b, w.Text...)
	}
	return string(b)
}

// Decode recognises the speech in n frames of features (Model.Features
// output, frames × 39). An utterance with no surviving path returns an
// empty result. Cancelling ctx stops the search and returns ctx.Err().
func (d *Decoder) Decode(ctx context.Context, feats []float32, n int) (*Result, error) {
	if n == 0 {
		return &Result{}, nil
	}
	if len(feats)%n != 0 {
		return nil, fmt.Errorf("decoder: %d feature values for %d frames", len(feats), n)
	}
	dim := len(feats) / n
	return d.DecodeFrames(ctx, func(t int) []float32 { return feats[t*dim : (t+1)*dim] }, n)
}

// DecodeFrames is Decode with the features of frame t returned by frame(t)
// (valid until the next call; frames are read twice).
//
// The first pass searches the lexicon tree of the whole vocabulary. The
// second (with Config.Flat) searches again over the words the first
// pass found, each with its own phones, applying the full trigram score
// when a word is entered from each predecessor and letting a word start
// only near where the first pass started it (the peer's fwdflat pass).
func (d *Decoder) DecodeFrames(ctx context.Context, frame func(t int) []float32, n int) (*Result, error) {
	return d.DecodeWith(ctx, frame, n, Options{})
}

// Options are per-call settings of [Decoder.DecodeWith]. The zero value
// decodes as DecodeFrames does.
type Options struct {
	// Bias lists words (language-model spellings, lower case for the
	// Debian model) to favour, such as the words of a prompt: each gets
	// BiasFactor times its LM probability wherever it is scored. Words the
	// model does not know are ignored.
	Bias []string
	// BiasFactor multiplies the probability of the Bias words; 0 = 10.
	BiasFactor float64
	// History lists the words spoken just before the frames (LM
	// spellings, oldest first), such as the end of the previous speech
	// region of the same recording: the search starts after its last two
	// words instead of after "<s>", so the first words of the frames get
	// their trigram scores in that context. Give "<s>" as the older word
	// when the history is a sentence's first word. Only the words after
	// the last one the model does not know count ("</s>" counts as
	// unknown); nil, or no known last word, starts after "<s>".
	History []string
	// Cache is a unigram cache of the recording (cache LM adaptation):
	// words (LM spellings) with their counts, for example the confident
	// words an earlier pass found elsewhere in the same recording; words
	// the LM does not know are ignored. Each known word w with count c of
	// N (the known words' counts) gets, wherever it is scored,
	// its LM probability P(w|h) replaced by the interpolation
	// (1-λ)·P(w|h) + λ·c/N, with the unigram P(w) standing in for P(w|h)
	// in the ratio (the search's LM bonus does not depend on the
	// history): a factor 1-λ+λ·(c/N)/P(w). Words outside the cache keep
	// their probability (no renormalisation). Ignored when CacheWeight is
	// 0.
	Cache map[string]float64
	// CacheWeight is λ, in [0, 1).
	CacheWeight float64
	// Acoustic, when not nil, scores the frames instead of the decoder's
	// model: the same model with other Gaussians, such as the speaker-
	// adapted means of sphinx.Model.WithMeans (its mdef must be the
	// decoder's).
	Acoustic *sphinx.Model
	// FlatLanguageWeight, when positive, is the language weight of this
	// call's flat pass instead of Config.FlatLanguageWeight (its word
	// insertion penalty scaled alike).
	FlatLanguageWeight float64
}

// DecodeWith is DecodeFrames with per-call options.
func (d *Decoder) DecodeWith(ctx context.Context, frame func(t int) []float32, n int, opts Options) (*Result, error) {
	fp, err := d.DecodeFirst(ctx, frame, n, opts)
	if err != nil || d.noFlat {
		return fp.result(), err
	}
	return d.DecodeSecond(ctx, frame, fp, opts)
}

// FirstPass is the outcome of the tree pass of [Decoder.DecodeFirst]:
// its best path, and what the flat pass needs (the words it found and
// where they started), without the search state.
type FirstPass struct {
	// Result is the tree pass's best path (with Config.BestPath, of its
	// rescored word graph).
	Result *Result
	n      int
	// The words the flat pass searches (tree lexicon indices, ascending)
	// and the frames each may start at: those of vocab[k] are
	// frames[off[k]:off[k+1]]. Packed, not a map: a caller may hold the
	// first passes of every region of a long file.
	vocab  []int32
	off    []int32
	frames []int32
}

func (fp *FirstPass) result() *Result {
	if fp == nil {
		return nil
	}
	return fp.Result
}

// DecodeFirst runs the tree pass alone over n frames. A caller may then
// run the flat pass with [Decoder.DecodeSecond], on the same features or
// on transformed ones (speaker adaptation between the passes);
// DecodeWith does both.
func (d *Decoder) DecodeFirst(ctx context.Context, frame func(t int) []float32, n int, opts Options) (*FirstPass, error) {
	if opts.Acoustic != nil && opts.Acoustic.Mdef != d.am.Mdef {
		return nil, fmt.Errorf("decoder: Options.Acoustic has another model definition than the decoder's")
	}
	s, _ := d.pool.Get().(*search)
	if s == nil {
		s = newSearch(d, d.lx)
	}
	defer d.pool.Put(s)
	s.setBoost(d.boosts(opts))
	s.acoustic = opts.Acoustic
	s.startReal, s.startPrev = d.history(opts.History)
	s.listBeam = d.listBeam
	if _, _, err := s.run(ctx, frame, n); err != nil {
		return nil, err
	}
	fp := &FirstPass{Result: d.finish(s, n, d.noFlat), n: n}
	if !d.noFlat {
		vocab, starts := s.firstPassWords(d.flatMinEnds)
		fp.vocab = vocab
		fp.off = make([]int32, 0, len(vocab)+1)
		var total int
		for _, w := range vocab {
			total += len(starts[w])
		}
		fp.frames = make([]int32, 0, total)
		for _, w := range vocab {
			fp.off = append(fp.off, int32(len(fp.frames)))
			fp.frames = append(fp.frames, starts[w]...)
		}
		fp.off = append(fp.off, int32(len(fp.frames)))
	}
	return fp, nil
}

// Words returns the number of words fp hands to the flat pass and their
// start frames, all told.
func (fp *FirstPass) Words() (words, starts int) {
	if fp == nil {
		return 0, 0
	}
	return len(fp.vocab), len(fp.frames)
}

// Union returns a first pass whose word list is the union of fp's and
// o's: every word either found, with the start frames of both (each
// once), so the flat pass chooses among the candidates of both. Its
// Result is fp's. Both must come from the same decoder over the same
// frames.
func (fp *FirstPass) Union(o *FirstPass) (*FirstPass, error) {
	if fp.n != o.n {
		return nil, fmt.Errorf("decoder: union of first passes over %d and %d frames", fp.n, o.n)
	}
	u := &FirstPass{Result: fp.Result, n: fp.n,
		vocab:  make([]int32, 0, max(len(fp.vocab), len(o.vocab))),
		off:    make([]int32, 0, max(len(fp.vocab), len(o.vocab))+1),
		frames: make([]int32, 0, max(len(fp.frames), len(o.frames)))}
	starts := func(p *FirstPass, k int) []int32 { return p.frames[p.off[k]:p.off[k+1]] }
	i, j := 0, 0
	for i < len(fp.vocab) || j < len(o.vocab) {
		u.off = append(u.off, int32(len(u.frames)))
		switch {
		case j == len(o.vocab) || (i < len(fp.vocab) && fp.vocab[i] < o.vocab[j]):
			u.vocab = append(u.vocab, fp.vocab[i])
			u.frames = append(u.frames, starts(fp, i)...)
			i++
		case i == len(fp.vocab) || o.vocab[j] < fp.vocab[i]:
			u.vocab = append(u.vocab, o.vocab[j])
			u.frames = append(u.frames, starts(o, j)...)
			j++
		default: // the same word: merge the sorted start frames
			u.vocab = append(u.vocab, fp.vocab[i])
			a, b := starts(fp, i), starts(o, j)
			for len(a) > 0 || len(b) > 0 {
				var f int32
				switch {
				case len(b) == 0 || (len(a) > 0 && a[0] < b[0]):
					f, a = a[0], a[1:]
				case len(a) == 0 || b[0] < a[0]:
					f, b = b[0], b[1:]
				default:
					f, a, b = a[0], a[1:], b[1:]
				}
				u.frames = append(u.frames, f)
			}
			i++
			j++
		}
	}
	u.off = append(u.off, int32(len(u.frames)))
	return u, nil
}

// DecodeSecond runs the flat pass over the words fp found (Config.Flat
// must be set; without it DecodeSecond returns fp's result). frame may
// return other features than the first pass saw, for example adapted
// ones. When the flat pass loses every path, the first pass's result is
// returned.
func (d *Decoder) DecodeSecond(ctx context.Context, frame func(t int) []float32, fp *FirstPass, opts Options) (*Result, error) {
	if d.noFlat || len(fp.vocab) == 0 {
		return fp.Result, nil
	}
	if opts.Acoustic != nil && opts.Acoustic.Mdef != d.am.Mdef {
		return nil, fmt.Errorf("decoder: Options.Acoustic has another model definition than the decoder's")
	}
	n := fp.n
	starts := make(map[int32][]int32, len(fp.vocab))
	for k, w := range fp.vocab {
		starts[w] = fp.frames[fp.off[k]:fp.off[k+1]]
	}
	flat := buildFlat(d.am.Mdef, d.lx, fp.vocab, starts, n, d.flatWindow, d.flatChains)
	s2 := newSearch(d, flat)
	if lw := float32(opts.FlatLanguageWeight); lw > 0 {
		s2.lw, s2.logWip = lw, d.logWip*lw/d.lw
	}
	s2.setBoost(d.boosts(opts))
	s2.acoustic = opts.Acoustic
	s2.startReal, s2.startPrev = d.history(opts.History)
	if _, _, err := s2.run(ctx, frame, n); err != nil {
		return nil, err
	}
	r := d.finish(s2, n, true)
	st := fp.Result.Stats
	r.Stats.FirstPass = &st
	if len(r.Words) == 0 { // the narrower search lost every path
		r = fp.Result
	}
	return r, nil
}

// finish returns the result of a finished search: its best path, or, in
// the last pass (last) with Config.BestPath, the best path of its
// rescored lattice.
func (d *Decoder) finish(s *search, n int, last bool) *Result {
	if !last || !(d.bestPath || d.keepLattice) {
		return s.result(n)
	}
	l := s.lattice()
	var r *Result
	if d.bestPath {
		r = l.Rescore(float64(d.bestPathLw), d.bestPathWip)
		r.Stats = s.stats
	}
	if r == nil || len(r.Words) == 0 {
		r = s.result(n)
	}
	if d.keepLattice {
		r.Lattice = l
	}
	return r
}

// firstPassWords returns the words (tree lexicon indices) the second
// pass searches and the frames at which each may start: a word and a
// start frame of the first pass's back-pointer table (and of its wider
// list of exits, Config.FlatListBeam) count when the word's exits from
// that start span at least minEnds frames (last end minus first; the
// peer's -fwdflatefwid, which drops words the tree pass only brushed
// past).
func (s *search) firstPassWords(minEnds int32) ([]int32, map[int32][]int32) {
	type span struct{ first, last int32 }
	type key struct{ word, start int32 }
	spans := map[key]span{}
	add := func(word, start, end int32) {
		k := key{word, start}
		if sp, ok := spans[k]; ok {
			spans[k] = span{min(sp.first, end), max(sp.last, end)}
		} else {
			spans[k] = span{end, end}
		}
	}
	for e := 1; e < len(s.bp); e++ {
		b := &s.bp[e]
		if s.lx.words[b.word].filler {
			continue
		}
		add(b.word, s.bp[b.pred].frame+1, b.frame)
	}
	for _, x := range s.listExits {
		add(x.word, x.start, x.end)
	}
	starts := map[int32][]int32{}
	var vocab []int32
	for k, sp := range spans {
		if sp.last-sp.first < minEnds {
			continue
		}
		if _, ok := starts[k.word]; !ok {
			vocab = append(vocab, k.word)
		}
		starts[k.word] = append(starts[k.word], k.start)
	}
	slices.Sort(vocab) // map order must not reach the search
	for _, fs := range starts {
		slices.Sort(fs)
	}
	return vocab, starts
}

// result backtraces the best path of a finished search.
func (s *search) result(n int) *Result {
	bp := s.bp
	lx := s.lx
	res := &Result{Frames: n, Stats: s.stats}
	bestE, best := s.bestFinal()
	if bestE < 0 {
		return res
	}
	res.Score = best
	abs := func(e int32) float64 { return float64(bp[e].score) + bp[e].norm }
	var rev []Word
	for e := bestE; e > 0; e = bp[e].pred {
		b := &bp[e]
		p := b.pred
		w := &lx.words[b.word]
		rev = append(rev, Word{Text: w.text, Start: int(bp[p].frame) + 1, End: int(b.frame) + 1, Filler: w.filler,
			Score: abs(e) - abs(p), Confidence: s.endPosterior(e)})
	}
	for i := len(rev) - 1; i >= 0; i-- {
		res.Words = append(res.Words, rev[i])
	}
	return res
}

// bestFinal returns the back-pointer entry that ends the best path (-1
// if none) and the path's score: the last frame with word exits, scored
// for a following silence and "</s>".
func (s *search) bestFinal() (int32, float64) {
	bp := s.bp
	lx := s.lx
	bestE, best := int32(-1), math.Inf(-1)
	for f := len(s.frameBP) - 2; f >= 1 && bestE < 0; f-- {
		for e := s.frameBP[f]; e < s.frameBP[f+1]; e++ {
			b := &bp[e]
			v := float64(s.rcPool[b.rc+int32(lx.sil)])
			if math.IsInf(v, -1) {
				continue
			}
			v += float64(s.lw*s.lmProb(lx.finish, b.real, b.prevReal)) + b.norm
			if v > best {
				best, bestE = v, e
			}
		}
	}
	return bestE, best
}

// endPosterior is the confidence of the word of entry e: its share of the
// probability mass of every word exit of the search at the same frame
// (exit scores scaled by 1/lw, the usual acoustic scale of posteriors),
// counting exits of the same spelling from any start frame. It is a
// word-end posterior over the back-pointer table, not a full lattice
// forward-backward.
func (s *search) endPosterior(e int32) float64 {
	b := &s.bp[e]
	f := int(b.frame) + 1 // frameBP index of the entry's frame
	lo, hi := s.frameBP[f], s.frameBP[f+1]
	scale := 1 / float64(s.lw)
	best := math.Inf(-1)
	for i := lo; i < hi; i++ {
		best = max(best, float64(s.bp[i].score))
	}
	text := s.lx.words[b.word].text
	var num, den float64
	for i := lo; i < hi; i++ {
		p := math.Exp((float64(s.bp[i].score) - best) * scale)
		den += p
		if s.lx.words[s.bp[i].word].text == text {
			num += p
		}
	}
	if den == 0 {
		return 0
	}
	return min(1, num/den)
}

// history returns the LM ids of the start entry's history for
// Options.History: its last word and the one before (-1: none), "<s>"
// and -1 when there is no usable history.
func (d *Decoder) history(words []string) (real, prev int32) {
	real, prev = d.lx.start, -1
	known := func(w string) (int32, bool) {
		id, ok := d.lang.ID(w)
		return id, ok && id != d.lx.finish
	}
	n := len(words)
	if n == 0 {
		return
	}
	last, ok := known(words[n-1])
	if !ok || last == d.lx.start {
		return
	}
	real = last
	if n >= 2 {
		if p, ok := known(words[n-2]); ok {
			prev = p
		}
	}
	return real, prev
}

// boosts maps the LM ids of opts.Bias to their weighted log bonus.
func (d *Decoder) boosts(opts Options) map[int32]float32 {
	var m map[int32]float32
	if f := orDefault(opts.BiasFactor, 10); len(opts.Bias) > 0 && f > 0 {
		bonus := d.lw * float32(math.Log(f))
		m = map[int32]float32{}
		for _, w := range opts.Bias {
			if id, ok := d.lang.ID(w); ok && id != d.lx.start && id != d.lx.finish {
				m[id] = bonus
			}
		}
	}
	if lambda := opts.CacheWeight; lambda > 0 && lambda < 1 && len(opts.Cache) > 0 {
		ids := make(map[int32]float64, len(opts.Cache))
		var total float64
		for w, c := range opts.Cache {
			if id, ok := d.lang.ID(w); ok && c > 0 && id != d.lx.start && id != d.lx.finish {
				ids[id] += c
				total += c
			}
		}
		for id, c := range ids {
			uni := math.Exp(float64(d.lang.Score(id)))
			f := 1 - lambda + lambda*(c/total)/uni
			if m == nil {
				m = map[int32]float32{}
			}
			m[id] += d.lw * float32(math.Log(f))
		}
	}
	return m
}
