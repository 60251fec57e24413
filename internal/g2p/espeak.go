package g2p

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/sottolabs/sotto"
	"golang.org/x/text/language"
)

// ErrNoEspeak is matched (errors.Is) by the error a [Phonemizer] returns
// when the espeak-ng program cannot be found or started.
var ErrNoEspeak = errors.New("g2p: espeak-ng is not installed (apt-get install espeak-ng)")

// PhonemizerConfig configures a [Phonemizer]. The zero value runs
// "espeak-ng" from PATH with a 50,000-word cache, 2,000 words per call and
// up to 4 warm processes that end after a minute unused.
type PhonemizerConfig struct {
	// Path is the espeak-ng program; "" looks up "espeak-ng" in PATH.
	Path string
	// CacheSize bounds the number of (voice, word) results kept; 0 means
	// 50,000 and a negative value disables the cache.
	CacheSize int
	// BatchSize is the most words sent to one espeak-ng process; 0 means
	// 2,000.
	BatchSize int
	// Workers bounds the espeak-ng processes kept running between calls,
	// each serving one voice; 0 means 4 and a negative value starts a
	// process for every batch. A call that finds all of them busy starts a
	// process of its own.
	Workers int
	// IdleTimeout is how long a warm process may stay unused before it is
	// ended; 0 means one minute.
	IdleTimeout time.Duration
}

// Phonemizer turns words into IPA by running the espeak-ng program (GPL-3,
// run as a separate process, never linked), one word per input line with
// -l 1000 so that each word yields exactly one output line. Results are
// cached per voice and word in a bounded LRU cache.
//
// The processes stay up between calls (see [PhonemizerConfig.Workers]): a
// warm process reads one word per line and each request ends with a
// sentinel word whose output line marks the end of the answer, so only the
// first call for a voice pays the program start and voice load. Its
// answers are byte for byte those of a process of its own, which a request
// takes when no warm process is free or its answer cannot be framed (a word
// containing the sentinel or longer than 500 bytes, a process that died or
// stopped answering). On systems whose pipes take no deadlines (Windows)
// every batch has a process of its own. [Phonemizer.Close] ends the warm
// processes at once; they also end after [PhonemizerConfig.IdleTimeout]
// unused, and when this program exits (their input closes). A Phonemizer
// is safe for concurrent use by multiple goroutines.
type Phonemizer struct {
	path  string
	batch int
	pool  *pool

	mu    sync.Mutex
	cache *lru

	voicesMu sync.Mutex
	voices   []Voice
	calls    int // espeak-ng processes started, for tests and benchmarks
}

// NewPhonemizer returns a Phonemizer for cfg. It does not start espeak-ng;
// the first call that needs it reports [ErrNoEspeak] if it is missing.
func NewPhonemizer(cfg PhonemizerConfig) *Phonemizer {
	if cfg.Path == "" {
		cfg.Path = "espeak-ng"
	}
	if cfg.CacheSize == 0 {
		cfg.CacheSize = 50000
	}
	if cfg.BatchSize <= 0 {
		cfg.BatchSize = 2000
	}
	p := &Phonemizer{path: cfg.Path, batch: cfg.BatchSize, cache: newLRU(cfg.CacheSize)}
	p.pool = newPool(cfg.Workers, cfg.IdleTimeout, p.startWorker)
	return p
}

// Close ends the warm espeak-ng processes; calls after Close start a
// process per batch. It always returns nil.
func (p *Phonemizer) Close() error {
	p.pool.close()
	return nil
}

// cleanWord makes w safe as one input line: control characters (line
// breaks included) become spaces, and the result is trimmed.
func cleanWord(w string) string {
	w = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\u0085' {
			return ' '
		}
		return r
	}, w)
	return strings.TrimSpace(w)
}

// IPA returns the espeak-ng IPA transcription of each word with the given
// espeak-ng voice (e.g. "de", "en-us", "cmn-latn-pinyin"); out[i] belongs
// to words[i]. A word that is empty after trimming, or that espeak-ng
// renders as nothing (punctuation), gives "". When a word yields several
// espeak words ("3.5"), they are joined by spaces. Uncached words are sent
// in batches of BatchSize to one process each. Cancelling ctx kills the
// running process and IPA returns an error wrapping ctx.Err(). A missing
// program gives an error matching [ErrNoEspeak].
func (p *Phonemizer) IPA(ctx context.Context, voice string, words []string) ([]string, error) {
	if voice == "" || strings.ContainsFunc(voice, func(r rune) bool { return unicode.IsSpace(r) || r == '\x00' }) || strings.HasPrefix(voice, "-") {
		return nil, fmt.Errorf("g2p: invalid espeak-ng voice %q", voice)
	}
	out := make([]string, len(words))
	var todo []string
	need := map[string][]int{}
	p.mu.Lock()
	for i, w := range words {
		w = cleanWord(w)
		if w == "" {
			continue
		}
		if v, ok := p.cache.get(voice + "\x00" + w); ok {
			out[i] = v
			continue
		}
		if _, ok := need[w]; !ok {
			todo = append(todo, w)
		}
		need[w] = append(need[w], i)
	}
	p.mu.Unlock()
	for len(todo) > 0 {
		n := min(p.batch, len(todo))
		res, err := p.run(ctx, voice, todo[:n])
		if err != nil {
			return nil, err
		}
		p.mu.Lock()
		for j, w := range todo[:n] {
			p.cache.put(voice+"\x00"+w, res[j])
			for _, i := range need[w] {
				out[i] = res[j]
			}
		}
		p.mu.Unlock()
		todo = todo[n:]
	}
	return out, nil
}

// longWord is the length in bytes above which a word is phonemised in a
// process of its own: espeak-ng's -l 1000 ends a clause at a line break
// only after a line shorter than 1,000 characters, and it may also split
// a very long line into several output lines.
const longWord = 500

// run phonemises one batch. The line count is the only link between words
// and output lines, so when espeak-ng does not return one line per word
// (which -l 1000 should prevent) the batch is halved and retried, and a
// single word takes all its output lines, joined by spaces.
func (p *Phonemizer) run(ctx context.Context, voice string, words []string) ([]string, error) {
	res := make([]string, len(words))
	var short []string
	var shortIdx []int
	for i, w := range words {
		if len(w) > longWord {
			r, err := p.runBatch(ctx, voice, []string{w})
			if err != nil {
				return nil, err
			}
			res[i] = r[0]
			continue
		}
		short = append(short, w)
		shortIdx = append(shortIdx, i)
	}
	if len(short) > 0 {
		r, err := p.runWarm(ctx, voice, short)
		if errors.Is(err, errWorker) {
			r, err = p.runBatch(ctx, voice, short)
		}
		if err != nil {
			return nil, err
		}
		for j, i := range shortIdx {
			res[i] = r[j]
		}
	}
	return res, nil
}

func (p *Phonemizer) runBatch(ctx context.Context, voice string, words []string) ([]string, error) {
	outp, err := p.exec(ctx, voice, strings.Join(words, "\n")+"\n")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSuffix(outp, "\n"), "\n")
	switch {
	case len(lines) == len(words):
		for i := range lines {
			lines[i] = strings.TrimSpace(lines[i])
		}
		return lines, nil
	case len(words) == 1:
		return []string{strings.Join(strings.Fields(outp), " ")}, nil
	}
	half := len(words) / 2
	a, err := p.runBatch(ctx, voice, words[:half])
	if err != nil {
		return nil, err
	}
	b, err := p.runBatch(ctx, voice, words[half:])
	if err != nil {
		return nil, err
	}
	return append(a, b...), nil
}

// exec runs espeak-ng once on input and returns its standard output.
func (p *Phonemizer) exec(ctx context.Context, voice, input string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("g2p: espeak-ng: %w", err)
	}
	cmd := exec.CommandContext(ctx, p.path, "-q", "--ipa", "-b", "1", "-l", "1000", "-v", voice, "--stdin")
	cmd.Stdin = strings.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	p.mu.Lock()
	p.calls++
	p.mu.Unlock()
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("g2p: espeak-ng: %w", ctx.Err())
		}
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, exec.ErrDot) || isNotExist(err) {
			return "", fmt.Errorf("%w: %v", ErrNoEspeak, err)
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = strings.TrimSpace(stdout.String())
		}
		return "", fmt.Errorf("g2p: espeak-ng -v %s: %v: %s", voice, err, msg)
	}
	return stdout.String(), nil
}

// isNotExist reports a program path that does not exist (exec returns a
// *fs.PathError, not exec.ErrNotFound, for a path with a slash).
func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// Voices returns the voices of the installed espeak-ng, running
// `espeak-ng --voices` once and caching the parsed list (the caller must
// not modify it). A missing program gives an error matching [ErrNoEspeak].
func (p *Phonemizer) Voices(ctx context.Context) ([]Voice, error) {
	p.voicesMu.Lock()
	defer p.voicesMu.Unlock()
	if p.voices != nil {
		return p.voices, nil
	}
	cmd := exec.CommandContext(ctx, p.path, "--voices")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("g2p: espeak-ng --voices: %w", ctx.Err())
		}
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, exec.ErrDot) || isNotExist(err) {
			return nil, fmt.Errorf("%w: %v", ErrNoEspeak, err)
		}
		return nil, fmt.Errorf("g2p: espeak-ng --voices: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	v, err := ParseVoices(bytes.NewReader(out))
	if err != nil {
		return nil, err
	}
	p.voices = v
	return v, nil
}

// Input is the form in which a route's words reach espeak-ng.
type Input int

const (
	// InputText sends the words as written.
	InputText Input = iota
	// InputKana sends the katakana pronunciation MeCab gives (Japanese:
	// espeak-ng 1.51 cannot read kanji).
	InputKana
	// InputPinyin sends numbered pinyin (Chinese: espeak-ng 1.51 reads
	// hanzi wrongly, pinyin correctly with the cmn-latn-pinyin voice).
	InputPinyin
)

// Route says how to phonemise text of one language.
type Route struct {
	Lang  string // base language keying the mapping rules: "en", "ja", "zh", ...
	Voice string // espeak-ng voice, e.g. "en-us", "cmn-latn-pinyin"
	Input Input
}

// Route resolves a BCP 47 tag to an espeak-ng voice: zh (and cmn, yue) take
// the pinyin route with the cmn-latn-pinyin voice (yue is thereby read with
// Mandarin readings), ja the kana route, en en-us (en-GB and other English
// regions their own voice when installed), and every other language the
// voice whose language is the full tag, else the base language, else a
// voice listing the base language among its other languages. A malformed tag
// gives a 400 *sotto.Error with code "bad_request", a language espeak-ng
// lacks a 422 with code "language_unsupported"; both have Param "language".
func (p *Phonemizer) Route(ctx context.Context, tag string) (Route, error) {
	t, err := language.Parse(tag)
	if err != nil || tag == "" || strings.EqualFold(tag, "und") {
		return Route{}, sotto.Invalid("bad_request", "language", "g2p: invalid language tag %q", tag)
	}
	voices, err := p.Voices(ctx)
	if err != nil {
		return Route{}, err
	}
	base, _ := t.Base()
	b := BaseLanguage(base.String())
	has := map[string]bool{}
	also := map[string]VoiceLanguage{}
	for _, v := range voices {
		l := strings.ToLower(v.Language)
		has[l] = true
		for _, a := range v.Also {
			al := strings.ToLower(a.Language)
			if cur, ok := also[al]; !ok || a.Priority < cur.Priority {
				also[al] = VoiceLanguage{v.Language, a.Priority}
			}
		}
	}
	want := func(r Route) (Route, error) {
		if !has[strings.ToLower(r.Voice)] {
			return Route{}, sotto.Unsatisfiable("language_unsupported", "language",
				"g2p: language %q needs the espeak-ng voice %q, which is not installed", tag, r.Voice)
		}
		return r, nil
	}
	switch b {
	case "zh":
		return want(Route{"zh", "cmn-latn-pinyin", InputPinyin})
	case "ja":
		return want(Route{"ja", "ja", InputKana})
	case "en":
		if reg, conf := t.Region(); conf == language.Exact && reg.String() != "US" {
			if v := "en-" + strings.ToLower(reg.String()); has[v] {
				return Route{"en", v, InputText}, nil
			}
		}
		return want(Route{"en", "en-us", InputText})
	}
	full := strings.ToLower(t.String())
	switch {
	case has[full]:
		return Route{b, full, InputText}, nil
	case has[b]:
		return Route{b, b, InputText}, nil
	}
	if a, ok := also[b]; ok {
		return Route{b, a.Language, InputText}, nil
	}
	if a, ok := also[strings.ToLower(base.String())]; ok {
		return Route{b, a.Language, InputText}, nil
	}
	return Route{}, sotto.Unsatisfiable("language_unsupported", "language", "g2p: no espeak-ng voice for language %q", tag)
}
