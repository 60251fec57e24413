package asr

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"
	"sync"
	"unicode"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/decoder"
	"github.com/sottolabs/sotto/internal/lm"
	"github.com/sottolabs/sotto/internal/sphinx"
)

// Option keys of backend.Config.Options understood by the "go" driver.
const (
	// OptAcousticDir is the acoustic model directory (default: Debian's
	// /usr/share/pocketsphinx/model/en-us/en-us).
	OptAcousticDir = "acoustic_dir"
	// OptDict is the pronouncing dictionary (default: Debian's
	// cmudict-en-us.dict).
	OptDict = "dict"
	// OptLM is the language model: sphinxbase binary trie or ARPA text
	// (default: Debian's en-us.lm.bin).
	OptLM = "lm"
	// OptPasses is "1" (the tree pass), "2" (default: the tree pass,
	// then the flat-lexicon pass over the words it found) or "3" (both,
	// then the word graph of the flat pass rescored with the trigram;
	// not better so far). See docs/bench/asr.md.
	OptPasses = "passes"
	// OptWorkers is the number of segments decoded in parallel (default:
	// GOMAXPROCS).
	OptWorkers = "workers"
)

// DefaultLM is where Debian's pocketsphinx-en-us installs its trigram
// language model.
const DefaultLM = "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin"

func init() {
	Register(Driver{Name: "go", Priority: 10, Open: openSphinx})
}

// sphinxASR is the pure-Go large-vocabulary recognizer: the Sphinx
// acoustic engine, a lexicon-tree Viterbi search with a trigram LM, and
// energy-based segmentation with segments decoded in parallel.
type sphinxASR struct {
	am      *sphinx.Model
	dec     *decoder.Decoder
	workers int
}

var _ Backend = (*sphinxASR)(nil)

func openSphinx(ctx context.Context, cfg backend.Config) (Backend, error) {
	o := cfg.Options
	lmPath := o[OptLM]
	if lmPath == "" {
		lmPath = DefaultLM
	}
	if _, err := os.Stat(lmPath); err != nil {
		return nil, fmt.Errorf("asr: language model: %w (apt-get install pocketsphinx-en-us, or pass an ARPA file)", err)
	}
	am, err := sphinx.Load(ctx, sphinx.Config{Dir: o[OptAcousticDir], Dict: o[OptDict]})
	if err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	lang, err := lm.Load(lmPath)
	if err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var dcfg decoder.Config
	switch o[OptPasses] {
	case "1":
	case "", "2":
		dcfg.Flat = true
	case "3":
		dcfg.Flat, dcfg.BestPath = true, true
	default:
		return nil, fmt.Errorf("asr: option %s %q: want 1, 2 or 3", OptPasses, o[OptPasses])
	}
	dec, err := decoder.New(am, lang, dcfg)
	if err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	w := runtime.GOMAXPROCS(0)
	if v := o[OptWorkers]; v != "" {
		if _, err := fmt.Sscan(v, &w); err != nil || w < 1 {
			return nil, fmt.Errorf("asr: option %s %q: want a positive integer", OptWorkers, v)
		}
	}
	return &sphinxASR{am: am, dec: dec, workers: w}, nil
}

// Close releases nothing; the model is garbage-collected.
func (s *sphinxASR) Close() error { return nil }

// languageOK reports whether tag names English (or is empty).
func languageOK(tag string) bool {
	if tag == "" {
		return true
	}
	t := strings.ToLower(tag)
	return t == "en" || strings.HasPrefix(t, "en-") || strings.HasPrefix(t, "en_")
}

// segResult is one decoded segment handed from a worker to the emitter.
type segResult struct {
	seg Segment
	err error
}

// Transcribe finds the speech regions of a (energy-based segmentation of
// the model's cepstra, normalised over the whole file), decodes them in parallel on up to the configured
// number of workers and emits them in order as each is decided. Memory is
// bounded by the cepstra of the file (52 bytes per 10 ms) plus one search
// per worker. Words carry times in seconds and a posterior confidence.
func (s *sphinxASR) Transcribe(ctx context.Context, a sotto.Audio, opts Options, emit func(Segment) error) error {
	if !languageOK(opts.Language) {
		return sotto.Invalid("asr_language_unsupported", "language", "asr: language %q unsupported (this model is English)", opts.Language)
	}
	if a.Rate() != sotto.SampleRate {
		return sotto.Invalid("bad_request", "file", "asr: sample rate %d Hz unsupported (want %d)", a.Rate(), sotto.SampleRate)
	}
	// Cepstra of the whole file with the model's CMN (batch CMN per region
	// of constant channel, sphinx.CMNSegmental): a short speech region gets
	// the mean of its recording, not of its own few frames.
	cep, _, err := s.am.Cepstra(ctx, a.Samples)
	if err != nil {
		return err
	}
	nc := s.am.Params.NCep
	regions := speechRegions(cep, nc)
	if len(regions) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	results := make([]chan segResult, len(regions))
	for i := range results {
		results[i] = make(chan segResult, 1)
	}
	sem := make(chan struct{}, s.workers)
	var wg sync.WaitGroup
	launched := make(chan struct{})
	// On return: stop the launcher and the workers, and wait for them, so
	// nothing runs after Transcribe returns.
	defer func() {
		cancel()
		<-launched
		wg.Wait()
	}()
	go func() {
		defer close(launched)
		for i, r := range regions {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				for j := i; j < len(regions); j++ {
					results[j] <- segResult{err: ctx.Err()}
				}
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				seg, err := s.decodeRegion(ctx, cep, nc, r, i, opts)
				results[i] <- segResult{seg, err}
			}()
		}
	}()
	for i := range regions {
		var r segResult
		select {
		case r = <-results[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		if r.err != nil {
			return r.err
		}
		if r.seg.Text == "" {
			continue
		}
		if err := emit(r.seg); err != nil {
			return err
		}
	}
	return nil
}

// frameSeconds converts frames to seconds (the Debian model's 100 frames
// per second).
func frameSeconds(f int) float64 { return float64(f) / 100 }

// decodeRegion decodes frames [r[0], r[1]) of the normalised cepstra.
func (s *sphinxASR) decodeRegion(ctx context.Context, cep []float32, nc int, r [2]int, id int, opts Options) (Segment, error) {
	c := cep[r[0]*nc : r[1]*nc]
	n := r[1] - r[0]
	buf := make([]float32, 3*nc)
	res, err := s.dec.DecodeWith(ctx, func(t int) []float32 { return sphinx.FeatureAt(buf, c, nc, t) }, n,
		decoder.Options{Bias: promptWords(opts.Prompt)})
	if err != nil {
		return Segment{}, err
	}
	seg := Segment{ID: id}
	var text []string
	for _, w := range res.Words {
		if w.Filler {
			continue
		}
		word := Word{Word: w.Text, Start: frameSeconds(r[0] + w.Start), End: frameSeconds(r[0] + w.End),
			Confidence: math.Round(w.Confidence*1000) / 1000}
		if len(text) == 0 {
			seg.Start = word.Start
		}
		seg.End = word.End
		text = append(text, w.Text)
		if opts.Words {
			seg.Words = append(seg.Words, word)
		}
	}
	seg.Text = strings.Join(text, " ")
	return seg, nil
}

// promptWords splits a prompt into lower-case words (letters, digits and
// apostrophes) for the decoder's bias list.
func promptWords(prompt string) []string {
	if prompt == "" {
		return nil
	}
	return strings.FieldsFunc(strings.ToLower(prompt), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
}
