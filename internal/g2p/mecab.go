package g2p

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// ErrNoMeCab is matched (errors.Is) by the error [MeCab.Parse] returns when
// the mecab program cannot be found or started.
var ErrNoMeCab = errors.New("g2p: mecab is not installed (apt-get install mecab mecab-ipadic-utf8)")

// MeCab runs the mecab morphological analyser (with the IPADIC dictionary)
// as a separate process to cut Japanese text into morphemes and read them.
// The processes stay up between calls: mecab answers each input line with
// its morphemes and an EOS line, so a warm process serves request after
// request and only the first call pays the program start and dictionary
// load. Text with a line too long for mecab's input buffer, or a call that
// finds every warm process busy, runs a process of its own; the result is
// the same either way. The zero value runs "mecab" from PATH with up to 2
// warm processes that end after a minute unused; the fields must not change
// after the first call. A MeCab must not be copied after first use. It is
// safe for concurrent use.
type MeCab struct {
	Path string // the mecab program; "" looks up "mecab" in PATH
	// Workers bounds the mecab processes kept running between calls; 0
	// means 2 and a negative value starts a process for every call.
	Workers int
	// IdleTimeout is how long a warm process may stay unused before it is
	// ended; 0 means one minute.
	IdleTimeout time.Duration

	once sync.Once
	pool *pool
}

// Defaults and limits of the warm mecab processes.
const (
	defaultMeCabWorkers = 2
	// mecabMaxLine is the longest input line (bytes) sent to a warm
	// process: mecab splits lines longer than its input buffer (8,192 bytes
	// by default), which would break the one-EOS-per-line framing.
	mecabMaxLine        = 4096
	mecabRequestTimeout = 20 * time.Second
	mecabPerKBTimeout   = 50 * time.Millisecond
)

// Close ends the warm mecab processes; calls after Close start a process
// per call. It always returns nil.
func (m *MeCab) Close() error {
	m.init()
	m.pool.close()
	return nil
}

func (m *MeCab) init() {
	m.once.Do(func() {
		n := m.Workers
		if n == 0 {
			n = defaultMeCabWorkers
		}
		m.pool = newPool(n, m.IdleTimeout, func(_ context.Context, path string) (*worker, error) {
			w, err := startWorker(path, path)
			if err != nil {
				return nil, fmt.Errorf("%w: %v", errWorker, err)
			}
			return w, nil
		})
	})
}

// prewarm starts a warm mecab process unless one is idle already (see
// [G2P.Prewarm]).
func (m *MeCab) prewarm(ctx context.Context) error {
	m.init()
	path := m.Path
	if path == "" {
		path = "mecab"
	}
	w, err := m.pool.get(ctx, path)
	if err != nil {
		_, err = m.Parse(ctx, "") // the one-shot error: ErrNoMeCab
		return err
	}
	if w != nil {
		m.pool.put(w)
	}
	return nil
}

// parseWarm sends in (control characters already replaced) to a warm
// mecab process and returns its output: one EOS line per input line. A
// line too long, a busy pool, a process that cannot start, dies or answers
// more than asked give an error matching errWorker (the caller runs a
// process of its own); cancelling ctx kills the process and gives ctx's
// error.
func (m *MeCab) parseWarm(ctx context.Context, path, in string) (string, error) {
	m.init()
	lines := strings.Split(in, "\n")
	for _, l := range lines {
		if len(l) > mecabMaxLine {
			return "", fmt.Errorf("%w: a line longer than %d bytes", errWorker, mecabMaxLine)
		}
	}
	w, err := m.pool.get(ctx, path)
	if err != nil || w == nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("%w: no warm process (%v)", errWorker, err)
	}
	var out strings.Builder
	eos := 0
	timeout := mecabRequestTimeout + time.Duration(len(in)/1024)*mecabPerKBTimeout
	err = w.roundTrip(ctx, in+"\n", timeout, func(line string) (bool, error) {
		out.WriteString(line)
		if strings.TrimRight(line, "\r\n") == "EOS" {
			eos++
		}
		return eos == len(lines), nil
	})
	if err != nil {
		m.pool.discard(w)
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", err
	}
	m.pool.put(w)
	return out.String(), nil
}

// Morpheme is one MeCab token with its place in the analysed text.
type Morpheme struct {
	Surface    string // as written in the text
	Start, End int    // byte offsets of Surface in the text
	POS        string // first IPADIC feature: 名詞, 助詞, 記号, ...
	// Pronunciation is the katakana pronunciation (ninth IPADIC field),
	// which spells particles as spoken (は → ワ) and long vowels with ー; ""
	// for unknown words.
	Pronunciation string
}

// Parse analyses text, which may span several lines, and returns its
// morphemes in order with byte offsets into text. Cancelling ctx kills the
// process. A missing program gives an error matching [ErrNoMeCab].
func (m *MeCab) Parse(ctx context.Context, text string) ([]Morpheme, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("g2p: mecab: %w", err)
	}
	path := m.Path
	if path == "" {
		path = "mecab"
	}
	if !utf8.ValidString(text) {
		return nil, fmt.Errorf("g2p: mecab: text is not valid UTF-8")
	}
	// MeCab reads line by line; other control characters become spaces of
	// the same byte length so that offsets still line up.
	in := strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' || r == 0x7f {
			return ' '
		}
		return r
	}, text)
	// Surfaces are located in in, whose bytes line up with text's (a
	// control character MeCab saw as a space must count as one there too).
	out, err := m.parseWarm(ctx, path, in)
	if err == nil {
		return ParseMeCab(in, out)
	}
	if !errors.Is(err, errWorker) {
		return nil, fmt.Errorf("g2p: mecab: %w", err)
	}
	cmd := exec.CommandContext(ctx, path)
	cmd.Stdin = strings.NewReader(in + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("g2p: mecab: %w", ctx.Err())
		}
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, exec.ErrDot) || isNotExist(err) {
			return nil, fmt.Errorf("%w: %v", ErrNoMeCab, err)
		}
		return nil, fmt.Errorf("g2p: mecab: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return ParseMeCab(in, stdout.String())
}

// ParseMeCab parses mecab's default output ("surface\tf1,f2,...,f9" lines,
// "EOS" after each input line) for text and locates each surface in text,
// in order. It fails when a surface cannot be found where expected, which
// means the output does not belong to text.
func ParseMeCab(text, out string) ([]Morpheme, error) {
	var ms []Morpheme
	pos := 0
	for n, line := range strings.Split(out, "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" || line == "EOS" {
			continue
		}
		surf, feat, ok := strings.Cut(line, "\t")
		if !ok || surf == "" {
			return nil, fmt.Errorf("g2p: mecab output line %d: no tab-separated surface", n+1)
		}
		i := strings.Index(text[pos:], surf)
		if i < 0 || strings.TrimFunc(text[pos:pos+i], unicode.IsSpace) != "" {
			return nil, fmt.Errorf("g2p: mecab output line %d: surface %q not found at byte %d of the text", n+1, surf, pos)
		}
		f := strings.Split(feat, ",")
		mo := Morpheme{Surface: surf, Start: pos + i, End: pos + i + len(surf), POS: f[0]}
		if len(f) > 8 && f[8] != "*" {
			mo.Pronunciation = f[8]
		}
		ms = append(ms, mo)
		pos = mo.End
	}
	return ms, nil
}
