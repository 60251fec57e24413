package align

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/sphinx"
	"github.com/sottolabs/sotto/segment"
)

// The pure-Go driver: the CMU Sphinx English acoustic model read by
// internal/sphinx, pronunciations from its dictionary with a
// grapheme-to-phoneme fallback, and the Viterbi forced alignment of the
// engine. Sotto/Lattice-1 also serves Chinese and German from its language
// packs (continuous Sphinx models, each with its own dictionary).

func init() {
	Register(Driver{Name: "go", Open: openLattice})
}

// Options keys of backend.Config understood by the "go" driver.
const (
	// OptAcousticDir is the directory of the acoustic model (mdef, means …).
	OptAcousticDir = "acoustic_dir"
	// OptDict is the pronouncing dictionary.
	OptDict = "dict"
	// OptModel is the catalog ID the driver serves; it decides the
	// language rules.
	OptModel = "model"
	// OptPackDir, OptPackDict and OptPackMissing are prefixes: with a
	// language appended ("acoustic_dir.zh") they name the acoustic model
	// directory and dictionary of that language's pack (Sotto/Lattice-1's
	// Chinese and German continuous models), or say why the pack is not
	// usable (not downloaded). A pack model is loaded on its first use and
	// aligns the words of its language with its own dictionary.
	OptPackDir     = "acoustic_dir."
	OptPackDict    = "dict."
	OptPackMissing = "pack_missing."
)

// packLanguages are the languages a pack can serve.
var packLanguages = []string{"zh", "de"}

// lattice is the "go" alignment backend.
type lattice struct {
	id     string
	model  *sphinx.Model
	closed atomic.Bool
	knobs  knobs
	// packs holds the language packs by language ("zh", "de"); nil for a
	// backend without packs (Sotto/Lattice-2).
	packs map[string]*pack
	// pack is set on the per-request backend of a pack language: its
	// words come from the model's dictionary, not from g2p.
	pack *pack
}

// pack is one language pack: a Sphinx model loaded on first use.
type pack struct {
	lang, dir, dict string
	missing         string // why the pack cannot be used, or ""
	once            sync.Once
	model           *sphinx.Model
	err             error
}

var _ Backend = (*lattice)(nil)

func openLattice(ctx context.Context, cfg backend.Config) (Backend, error) {
	var c sphinx.Config
	c.Dir = cfg.Options[OptAcousticDir]
	c.Dict = cfg.Options[OptDict]
	if c.Dir == "" && cfg.ModelDir != "" {
		if _, err := os.Stat(filepath.Join(cfg.ModelDir, "en-us", "mdef")); err == nil {
			c.Dir = filepath.Join(cfg.ModelDir, "en-us")
		}
	}
	m, err := sphinx.Load(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("align: loading the acoustic model: %w", err)
	}
	id := cfg.Model
	if id == "" {
		id = "Sotto/Lattice-2"
	}
	l := &lattice{id: id, model: m}
	// List espeak-ng's voices and start its English process now, so that
	// the first request does not wait for them (about 30 ms). A missing
	// espeak-ng is reported by the requests that need it, not here.
	_ = g2pFor(m).Prewarm(ctx, "en")
	for _, lang := range packLanguages {
		dir, dict, missing := cfg.Options[OptPackDir+lang], cfg.Options[OptPackDict+lang], cfg.Options[OptPackMissing+lang]
		if dir == "" && missing == "" {
			continue
		}
		if l.packs == nil {
			l.packs = map[string]*pack{}
		}
		l.packs[lang] = &pack{lang: lang, dir: dir, dict: dict, missing: missing}
	}
	return l, nil
}

// packFor returns the backend that serves lang from a language pack, nil
// when lang has no pack (the backend's own model and g2p serve it), or the
// error of a pack that is not downloaded or does not load. explicit tells
// whether the request named the language: a detected language whose pack
// is missing keeps the behaviour without packs.
func (l *lattice) packFor(ctx context.Context, lang string, explicit bool) (*lattice, error) {
	base, _, _ := strings.Cut(lang, "-")
	p := l.packs[base]
	if p == nil {
		return nil, nil
	}
	if p.missing != "" {
		if !explicit {
			return nil, nil
		}
		return nil, sotto.Invalid("model_not_downloaded", "model", "%s: the %s language pack is not available: %s", l.id, base, p.missing)
	}
	p.once.Do(func() {
		// The pack is loaded once for the backend's life, whatever request
		// came first, so its loading is not cancelled with that request.
		m, err := sphinx.Load(context.WithoutCancel(ctx), sphinx.Config{Dir: p.dir, Dict: p.dict})
		if err != nil {
			err = fmt.Errorf("align: loading the %s language pack: %w", base, err)
		}
		p.model, p.err = m, err
	})
	if p.err != nil {
		return nil, p.err
	}
	return &lattice{id: l.id, model: p.model, knobs: l.knobs, pack: p}, nil
}

// Close marks the backend closed; the model's memory is released when the
// last reference to the backend goes. Align after Close returns an error.
func (l *lattice) Close() error {
	l.closed.Store(true)
	return nil
}

// Align aligns transcript to a. It runs the search of opts.SearchEffort on
// the whole audio, or on anchored chunks (the streaming path) when the
// audio is longer than the streaming threshold, and classifies a failed
// search (see [Failure]).
func (l *lattice) Align(ctx context.Context, a sotto.Audio, transcript string, opts Options) (*Alignment, error) {
	if l.closed.Load() {
		return nil, errors.New("align: the backend is closed (the model was unloaded)")
	}
	if a.Rate() != sotto.SampleRate {
		return nil, fmt.Errorf("align: audio at %d Hz; the engine needs %d Hz (decode with the audio package)", a.Rate(), sotto.SampleRate)
	}
	effort := opts.SearchEffort
	switch effort {
	case "":
		effort = EffortStandard
	case EffortStandard, EffortExtended, EffortAuto:
	default:
		return nil, sotto.Invalid("bad_request", "search_effort", "align: search_effort %q is not standard, extended or auto", effort)
	}
	dur := a.Seconds()
	samples := a.Samples
	offset := 0.0
	if opts.Start != 0 || opts.End != 0 {
		end := opts.End
		if end == 0 {
			end = dur // Start alone: to the end of the audio
		}
		if opts.Start < 0 || end <= opts.Start || end > dur+1e-6 {
			return nil, sotto.Invalid("bad_request", "end", "align: window %g..%g s is not within the %.3f s of audio", opts.Start, end, dur)
		}
		s, e := int(opts.Start*float64(sotto.SampleRate)), min(len(samples), int(math.Ceil(end*float64(sotto.SampleRate))))
		samples, offset = samples[s:e], float64(s)/float64(sotto.SampleRate)
	}
	if invalidUTF8(transcript) < 0 { // (prepare refuses the other as a bad request)
		if err := tooManyWords(transcript, float64(len(samples))/sotto.SampleRate, effort, l.knobs.streamAbove()); err != nil {
			return nil, err
		}
	}
	lang, cands := resolveLanguage(opts.Language, transcript)
	tr, err := prepare(ctx, transcript, lang, opts.TextNormalization, opts.ProtectedTerms)
	if err != nil {
		return nil, err
	}
	if opts.Progress != nil {
		opts.Progress(Progress{})
	}
	be := l // the backend of this request: l, or that of a language pack
	if pl, err := l.packFor(ctx, lang, opts.Language != ""); err != nil {
		return nil, err
	} else if pl != nil {
		be = pl
	}
	m, labels, err := be.lexicon(ctx, tr, lang)
	if err != nil {
		return nil, err
	}
	job := &searchJob{l: be, m: m, labels: labels, samples: samples, report: opts.Progress, garbage: !opts.StrictEnds}
	job.path = PathWholeAudio
	if float64(len(samples))/sotto.SampleRate > l.knobs.streamAbove() {
		job.path = PathStreaming
	}
	first := effort
	if effort == EffortAuto {
		first = EffortStandard
	}
	if first == EffortExtended {
		if err := job.checkBudget(nil); err != nil {
			return nil, err
		}
	}
	job.widen = effort == EffortAuto
	res, fail, err := job.run(ctx, first)
	if err != nil {
		return nil, err
	}
	retried := false
	if fail == nil && res.widened > 0 {
		// Part of the streaming search ran with the extended beam.
		retried, first = true, EffortExtended
	}
	if fail != nil && effort == EffortAuto && fail.RetryRecommended {
		if err := job.checkBudget(fail); err != nil {
			return nil, err
		}
		if opts.Progress != nil {
			opts.Progress(Progress{Stage: "extended_search"})
		}
		retried, first = true, EffortExtended
		if res, fail, err = job.run(ctx, first); err != nil {
			return nil, err
		}
	}
	if fail != nil {
		return nil, &sotto.Error{Kind: sotto.ErrUnsatisfiable, Code: "alignment_failed", Message: fail.message(), Detail: fail.Failure}
	}
	if be.knobs.observe != nil {
		be.knobs.observe(job.path, res)
	}
	out, err := assemble(ctx, tr, res, offset, dur, opts)
	if err != nil {
		return nil, err
	}
	out.Language, out.LanguageCandidates = lang, cands
	if lang == "und" {
		out.Language, out.LanguageCandidates = "", nil
	}
	out.SearchEffortUsed, out.SearchRetried = first, retried
	out.Usage = Usage{Type: "duration", Seconds: float64(len(samples)) / sotto.SampleRate}
	if opts.Progress != nil {
		opts.Progress(Progress{Fraction: 1, Seconds: out.Usage.Seconds})
	}
	return out, nil
}

// lexicon builds a per-request model whose dictionary holds one entry per
// token (labels w0000 …), so repeated words, protected terms and words
// from any language are all plain dictionary entries for the engine.
// maxWordsPerSecond bounds the words any audio can hold: every pronounced
// word takes at least minPhoneFrames frames of its one or more phones, so
// 100 words a second is out of reach at up to 200 frames a second (the
// models run at 100; speech has 2 to 4 words a second).
const maxWordsPerSecond = 100

// tooManyWords fails, before the transcript is prepared, an alignment whose
// transcript has more written words (runs of non-space holding a letter or
// digit; normalization and scripts without spaces only add spoken words)
// than seconds of audio can hold at maxWordsPerSecond. The search would
// fail on it too (tooShort), but preparing megabytes of transcript first
// took a minute and gigabytes of memory.
func tooManyWords(text string, seconds float64, effort string, streamAbove float64) error {
	most := int(seconds * maxWordsPerSecond)
	n, in, lettered := 0, false, false
	for _, r := range text {
		if unicode.IsSpace(r) {
			if in && lettered {
				n++
			}
			in, lettered = false, false
			continue
		}
		in = true
		lettered = lettered || unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	if in && lettered {
		n++
	}
	if n <= most {
		return nil
	}
	if effort == EffortAuto || effort == "" {
		effort = EffortStandard
	}
	f := &searchFailure{Failure{Reason: ReasonNoPath, SearchEffortUsed: effort, SearchPath: PathWholeAudio, SearchLimit: LimitNone},
		fmt.Sprintf("the transcript has %d words; %.3f s of audio cannot hold more than %d", n, seconds, most)}
	if seconds > streamAbove {
		f.SearchPath = PathStreaming
	}
	return &sotto.Error{Kind: sotto.ErrUnsatisfiable, Code: "alignment_failed", Message: f.message(), Detail: f.Failure}
}

func (l *lattice) lexicon(ctx context.Context, tr *transcript, lang string) (*sphinx.Model, []string, error) {
	if l.pack != nil {
		if err := pronounceFromDict(l.model, l.pack.lang, tr.Tokens); err != nil {
			return nil, nil, err
		}
	} else if err := pronounceTokens(ctx, g2pFor(l.model), tr.Tokens); err != nil {
		return nil, nil, err
	}
	text, labels := lexiconText(tr.Tokens)
	d := &sphinx.Dict{}
	if err := sphinx.ParseDict("transcript", []byte(text), l.model.Mdef, false, d); err != nil {
		return nil, nil, fmt.Errorf("align: building the transcript lexicon: %w", err)
	}
	m := *l.model
	m.Dict = d
	return &m, labels, nil
}

// score computes a confidence per word of res: the goodness of
// pronunciation, exp of the mean per-frame log-likelihood ratio between the
// aligned path and the best context-independent senone of each frame (a
// free phone loop). A word replaced by a wrong one scores clearly lower.
// Only words ending by frame upto (≤ n) are scored; the others, and
// inserted silences, get 0, and only their frames are evaluated (the
// codebooks of every phone, per frame, are the costliest step of an
// alignment).
func (l *lattice) score(ctx context.Context, res *sphinx.Alignment, feats []float32, n, upto int, best []float32) []float64 {
	scores := make([]float64, len(res.Words))
	if n <= 0 {
		return scores
	}
	upto = min(upto, n)
	if len(best) < upto {
		need := make([]bool, upto)
		for _, w := range res.Words {
			if w.Parent >= 0 && w.End <= upto {
				for t := w.Start; t < w.End; t++ {
					need[t] = true
				}
			}
		}
		best = l.bestCI(ctx, feats, n, upto, need)
	}
	if ctx.Err() != nil {
		return scores
	}
	sum := make([]float64, upto+1) // prefix sums of best
	for t, b := range best {
		sum[t+1] = sum[t] + float64(b)
	}
	// Per phone: the mean per-frame log-likelihood ratio. A word's
	// confidence follows its phones: the mean ratio, pulled down by the
	// worst phone, so one badly matching phone marks the word.
	type acc struct {
		sum, worst float64
		n          int
	}
	per := make([]acc, len(res.Words))
	for i := range per {
		per[i].worst = math.Inf(1)
	}
	for _, p := range res.Phones {
		frames := p.End - p.Start
		if frames <= 0 || p.Parent < 0 || p.Parent >= len(per) || res.Words[p.Parent].End > upto {
			continue
		}
		r := math.Min(0, (p.Score-(sum[p.End]-sum[p.Start]))/float64(frames))
		a := &per[p.Parent]
		a.sum += r
		a.n++
		a.worst = math.Min(a.worst, r)
	}
	for i, a := range per {
		if a.n == 0 {
			continue
		}
		ratio := 0.5*(a.sum/float64(a.n)) + 0.5*a.worst
		scores[i] = math.Exp(math.Max(ratio, -50) / gopTemperature)
	}
	return scores
}

// bestCI computes the best context-independent senone score of the first
// upto of the n frames of feats where need is true (nil: every frame), by
// up to gopWorkers goroutines on contiguous frame ranges (a frame's value
// does not depend on the split, so the result is deterministic). It stops
// early, leaving zeros, when ctx is cancelled.
func (l *lattice) bestCI(ctx context.Context, feats []float32, n, upto int, need []bool) []float32 {
	best := make([]float32, upto)
	dim := len(feats) / max(n, 1)
	frame := func(t int) []float32 { return feats[t*dim : (t+1)*dim] }
	workers := max(1, min(gopWorkers, runtime.GOMAXPROCS(0), upto/500))
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := upto*w/workers, upto*(w+1)/workers
		wg.Go(func() { _ = l.model.BestCI(ctx, frame, lo, hi, need, best) })
	}
	wg.Wait()
	return best
}

// gopWorkers is the most goroutines score uses.
const gopWorkers = 4

// gopTemperature scales the per-frame log-likelihood ratio (nats) into a
// confidence: a ratio of -gopTemperature gives exp(-1) ≈ 0.37.
const gopTemperature = 4.0

// assemble maps the aligned words back to the transcript: tokens to the
// words as written, regions to their spoken words, words to sentence
// segments.
func assemble(ctx context.Context, tr *transcript, res *searchOut, offset, dur float64, opts Options) (*Alignment, error) {
	sec := func(frame int) float64 { return round3(offset + float64(frame)/float64(res.frameRate)) }
	type span struct {
		start, end float64
		score      float64
		n          int
		set        bool
	}
	units := make([]span, len(tr.Units))
	for _, w := range res.words {
		if w.parent < 0 || w.parent >= len(tr.Tokens) {
			continue // inserted silence
		}
		tk := tr.Tokens[w.parent]
		st, en := sec(w.start), sec(w.end)
		u := &units[tk.Unit]
		if !u.set {
			u.start, u.set = st, true
		}
		u.end = en
		u.score += w.score
		u.n++
		if tk.Region >= 0 {
			r := &tr.Regions[tk.Region]
			r.Words = append(r.Words, Word{Word: tk.Text, Start: st, End: en, Score: round3(w.score)})
		}
	}
	var words []segment.Word
	for i, u := range units {
		if !u.set {
			continue
		}
		s := round3(u.score / float64(max(u.n, 1)))
		words = append(words, segment.Word{Word: tr.Units[i].Text, Start: u.start, End: u.end, Score: &s})
	}
	out := &Alignment{Task: "align", Duration: round3(dur), Text: tr.Source, Segments: []Segment{},
		NormalizationRegions: tr.Regions}
	var cues []segment.Cue
	if opts.Sentences.Disabled || len(words) == 0 {
		if len(words) > 0 {
			cues = []segment.Cue{{Text: tr.Source, Start: words[0].Start, End: words[len(words)-1].End, Words: words}}
		}
	} else {
		so := segment.Options{MediaEnd: dur}
		if s := opts.Sentences; s.Lengths {
			so.Length = &segment.Length{MinChars: s.MinChars, MaxChars: s.MaxChars}
			so.Margins = &segment.Margins{Start: s.StartMargin, End: s.EndMargin}
		}
		var err error
		if cues, err = segment.Words(ctx, words, so); err != nil {
			return nil, err
		}
	}
	for i, c := range cues {
		seg := Segment{ID: i, Start: round3(c.Start), End: round3(c.End), Text: c.Text, Words: make([]Word, 0, len(c.Words))}
		for _, w := range c.Words {
			sc := 0.0
			if w.Score != nil {
				sc = *w.Score
			}
			seg.Words = append(seg.Words, Word{Word: w.Word, Start: w.Start, End: w.End, Score: sc})
		}
		out.Segments = append(out.Segments, seg)
	}
	return out, nil
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
