package asr

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/align"
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
// window as previous text. With Options.Words each segment's words get
// their times from forced alignment of the segment's text in its span of
// the audio (see [whisperWords]); Segment.WordTiming says where they came
// from.
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
	if opts.Temperature < 0 || opts.Temperature > 1 {
		return sotto.Invalid("bad_request", "temperature", "asr: temperature %g: want 0 to 1", opts.Temperature)
	}
	p.Temperature = float32(opts.Temperature)
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
	lang := res.Language
	if lang == "" || lang == "auto" {
		lang = p.Language
	}
	detected := "" // what the segments report: only a language the model detected
	if p.Language == "auto" && lang != "auto" {
		detected = lang
	}
	for i, s := range res.Segments {
		seg := Segment{ID: i, Start: max(0, float64(s.T0)/100), End: max(0, float64(s.T1)/100), Text: strings.TrimSpace(s.Text),
			Language: detected}
		if opts.Words {
			if seg.Words, seg.WordTiming, err = whisperWords(ctx, a, s, lang, w.tr.Tokenizer()); err != nil {
				return err
			}
		}
		if err := emit(seg); err != nil {
			return err
		}
	}
	return nil
}

// Values of [Segment.WordTiming] for the "whisper" driver.
const (
	// WordTimingAligned: the words' times come from forced alignment of
	// the segment's text (package align, the default model).
	WordTimingAligned = "aligned"
	// WordTimingTimestamps: the segment's timestamp tokens' span is shared
	// among its words in proportion to their length, because the text
	// could not be aligned (or is not speech).
	WordTimingTimestamps = "timestamps"
)

// alignPad widens the audio span a segment's text is aligned in, in
// seconds on each side: Whisper's segment times may cut into the first or
// last word. On the shared references, segment spans cut 0.1 s (0.2 s)
// into the outer words gave 87.0 % (53.8 %) of word starts within 50 ms
// without the pad and 91.1 % (90.5 %) with it; exact spans of
// neighbouring segments lose little (87.6 % → 86.9 %).
var alignPad = 0.2

// alignAlign is the aligner behind [whisperWords] (align.Align; tests may
// replace it).
var alignAlign = align.Align

// whisperWords returns the words of a Whisper segment s of a and how their
// times were found. The segment's text is aligned with [align.Align] (the
// default Lattice-2 model, language lang, the transcript normalized as the
// alignments API does) within the segment's span of the audio widened by
// alignPad on each side, which places words to a frame (10 ms) instead of Whisper's 20 ms timestamp
// grid and pins each word rather than the segment's ends only; a word's
// confidence is its alignment score. Where the text is empty or has no
// letters or digits, is a bracketed non-speech tag ("[BLANK_AUDIO]",
// "(music)"), or the alignment fails for any reason but cancellation, the
// words share the span of the timestamp tokens instead ([spreadWords]).
// Only ctx's error is returned.
func whisperWords(ctx context.Context, a sotto.Audio, s whisper.Segment, lang string, tok *whisper.Tokenizer) ([]Word, string, error) {
	text := strings.TrimSpace(s.Text)
	if text == "" {
		return nil, "", nil
	}
	start, end := max(0, float64(s.T0)/100), min(float64(s.T1)/100, a.Seconds())
	if isSpeechText(text) && end > start {
		res, err := alignAlign(ctx, a, text, align.Options{Language: lang, Start: max(0, start-alignPad), End: min(end+alignPad, a.Seconds()),
			TextNormalization: align.DefaultTextNormalization, Sentences: align.SentenceOptions{Disabled: true}})
		if err == nil {
			var words []Word
			for _, seg := range res.Segments {
				for _, aw := range seg.Words {
					words = append(words, Word{Word: aw.Word, Start: aw.Start, End: aw.End, Confidence: aw.Score})
				}
			}
			if len(words) > 0 {
				return words, WordTimingAligned, nil
			}
		} else if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
	}
	return spreadWords(s, tok), WordTimingTimestamps, nil
}

// isSpeechText reports whether a segment's text may be aligned: it has a
// letter or digit and is not wholly a bracketed tag, as Whisper writes
// for non-speech ("[BLANK_AUDIO]", "(music)", "♪").
func isSpeechText(text string) bool {
	if n := len(text); n >= 2 && (text[0] == '[' && text[n-1] == ']' || text[0] == '(' && text[n-1] == ')') &&
		strings.IndexAny(text[1:n-1], "[]()") < 0 {
		return false
	}
	return strings.IndexFunc(text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// spreadWords gives the words of s (its text split at white space) times
// from its timestamp tokens: the segment's span is shared among the
// characters of its text, each word taking the share of its bytes, as
// whisper.cpp shares a segment among its tokens by length. A word's
// confidence is the mean probability of the text tokens that overlap it
// (0 when the segment carries no tokens).
func spreadWords(s whisper.Segment, tok *whisper.Tokenizer) []Word {
	text := strings.TrimSpace(s.Text)
	if text == "" {
		return nil
	}
	lead := strings.Index(s.Text, text)
	// Byte ranges of the text tokens in text, when they spell it.
	type span struct {
		from, to int
		p        float64
	}
	var spans []span
	if tok != nil {
		off, eot := -lead, tok.Tokens().EOT
		for _, td := range s.Tokens {
			if td.ID >= eot {
				continue
			}
			n := len(tok.Text(td.ID))
			spans = append(spans, span{off, off + n, float64(td.P)})
			off += n
		}
		if off+lead != len(s.Text) {
			spans = nil // the tokens do not spell the text: no confidences
		}
	}
	t0, t1 := max(0, float64(s.T0)/100), max(0, float64(s.T1)/100)
	t1 = max(t0, t1)
	at := func(b int) float64 { return math.Round((t0+(t1-t0)*float64(b)/float64(len(text)))*1000) / 1000 }
	var words []Word
	for i := 0; i < len(text); {
		for i < len(text) && isSpaceByte(text[i]) {
			i++
		}
		j := i
		for j < len(text) && !isSpaceByte(text[j]) {
			j++
		}
		if j == i {
			break
		}
		var sum float64
		var n int
		for _, sp := range spans {
			if sp.to > i && sp.from < j {
				sum += sp.p
				n++
			}
		}
		c := 0.0
		if n > 0 {
			c = math.Round(sum/float64(n)*1e4) / 1e4
		}
		words = append(words, Word{Word: text[i:j], Start: at(i), End: at(j), Confidence: c})
		i = j
	}
	return words
}

func isSpaceByte(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
