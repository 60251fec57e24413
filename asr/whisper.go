package asr

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/tensor"
	"github.com/sottolabs/sotto/internal/whisper"
)

// Options of the "whisper" driver (backend.Config.Options).
const (
	// OptWhisperModel is the GGML Whisper model file (whisper.cpp's
	// ggml-*.bin); default: the only ggml-*.bin file in the model
	// directory.
	OptWhisperModel = "whisper_model"
	// OptBeamSize selects beam search with this many beams (default:
	// greedy decoding).
	OptBeamSize = "beam_size"
	// OptTemperatureInc is the temperature step of the fallback (default
	// 0.2, whisper.cpp's; "0" decodes once, at temperature 0).
	OptTemperatureInc = "temperature_inc"
)

func init() {
	// Below the "go" recognizer: the default stays the Sphinx model until
	// a Whisper model is configured.
	Register(Driver{Name: "whisper", Priority: 1, Open: openWhisper})
}

// whisperASR transcribes with a GGML Whisper model through the pure-Go
// engine in internal/whisper (whisper.cpp's decoding rules: timestamps,
// 30 s windows with seeking, temperature fallback).
type whisperASR struct {
	m      *whisper.Model
	pool   *tensor.Pool
	params whisper.Params

	mu sync.Mutex // the transcriber serves one call at a time
	tr *whisper.Transcriber
}

var _ Backend = (*whisperASR)(nil)

// whisperModelPath finds the model file from the options or the model
// directory.
func whisperModelPath(cfg backend.Config) (string, error) {
	if p := cfg.Options[OptWhisperModel]; p != "" {
		if !filepath.IsAbs(p) && cfg.ModelDir != "" {
			p = filepath.Join(cfg.ModelDir, p)
		}
		return p, nil
	}
	if cfg.ModelDir == "" {
		return "", fmt.Errorf("asr: whisper: no model: set the %s option or a model directory", OptWhisperModel)
	}
	files, err := filepath.Glob(filepath.Join(cfg.ModelDir, "ggml-*.bin"))
	if err != nil {
		return "", fmt.Errorf("asr: whisper: %w", err)
	}
	if len(files) != 1 {
		return "", fmt.Errorf("asr: whisper: %d ggml-*.bin files in %s (want one, or set %s)", len(files), cfg.ModelDir, OptWhisperModel)
	}
	return files[0], nil
}

func openWhisper(ctx context.Context, cfg backend.Config) (Backend, error) {
	path, err := whisperModelPath(cfg)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("asr: whisper: %w", err)
	}
	p := whisper.DefaultParams(whisper.Greedy)
	if v := cfg.Options[OptBeamSize]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 8 {
			return nil, fmt.Errorf("asr: whisper: option %s %q: want 1–8", OptBeamSize, v)
		}
		p = whisper.DefaultParams(whisper.BeamSearch)
		p.BeamSize = n
	}
	if v := cfg.Options[OptTemperatureInc]; v != "" {
		f, err := strconv.ParseFloat(v, 32)
		if err != nil || f < 0 || f > 1 {
			return nil, fmt.Errorf("asr: whisper: option %s %q: want a number in [0, 1]", OptTemperatureInc, v)
		}
		p.TemperatureInc = float32(f)
	}
	m, err := whisper.Open(path)
	if err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	if err := m.CheckTensors(); err != nil {
		m.Close()
		return nil, fmt.Errorf("asr: %s: %w", path, err)
	}
	if err := ctx.Err(); err != nil {
		m.Close()
		return nil, err
	}
	pool := tensor.NewPool(cfg.Threads)
	tr, err := whisper.NewTranscriber(m, pool)
	if err != nil {
		pool.Close()
		m.Close()
		return nil, fmt.Errorf("asr: %w", err)
	}
	return &whisperASR{m: m, pool: pool, params: p, tr: tr}, nil
}

// Close releases the model mapping and the worker goroutines.
func (w *whisperASR) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.tr == nil {
		return nil
	}
	w.tr = nil
	w.pool.Close()
	return w.m.Close()
}

// whisperLanguage maps a BCP 47 tag to a Whisper language code: the
// primary subtag, lower-cased ("en-US" → "en"); "" detects the language.
func whisperLanguage(tag string) string {
	t := strings.ToLower(tag)
	if i := strings.IndexAny(t, "-_"); i >= 0 {
		t = t[:i]
	}
	return t
}

// Transcribe decodes a window by window as whisper.cpp does and emits the
// segments with times in seconds. Options.Prompt conditions the first
// window as previous text; Options.Words is not served yet (segments come
// without words).
func (w *whisperASR) Transcribe(ctx context.Context, a sotto.Audio, opts Options, emit func(Segment) error) error {
	if a.Rate() != sotto.SampleRate {
		return sotto.Invalid("bad_request", "file", "asr: sample rate %d Hz unsupported (want %d)", a.Rate(), sotto.SampleRate)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.tr == nil {
		return fmt.Errorf("asr: whisper: backend closed")
	}
	p := w.params
	tk := w.tr.Tokenizer().Tokens()
	p.Language = whisperLanguage(opts.Language)
	switch {
	case p.Language == "" && !tk.Multilingual():
		p.Language = "en"
	case p.Language == "":
		p.Language = "auto"
	case !tk.Multilingual() && p.Language != "en":
		return sotto.Invalid("asr_language_unsupported", "language", "asr: language %q unsupported (this Whisper model is English-only)", opts.Language)
	case tk.Multilingual():
		if _, err := tk.Lang(p.Language); err != nil {
			return sotto.Invalid("asr_language_unsupported", "language", "asr: language %q unsupported by this Whisper model", opts.Language)
		}
	}
	if opts.Prompt != "" {
		p.Prompt, _ = w.tr.Tokenizer().Encode(opts.Prompt)
	}
	res, err := w.tr.TranscribeSamples(ctx, a.Samples, p)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	for i, s := range res.Segments {
		seg := Segment{ID: i, Start: max(0, float64(s.T0)/100), End: max(0, float64(s.T1)/100), Text: strings.TrimSpace(s.Text)}
		if err := emit(seg); err != nil {
			return err
		}
	}
	return nil
}
