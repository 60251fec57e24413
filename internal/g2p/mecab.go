package g2p

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"unicode"
)

// ErrNoMeCab is matched (errors.Is) by the error [MeCab.Parse] returns when
// the mecab program cannot be found or started.
var ErrNoMeCab = errors.New("g2p: mecab is not installed (apt-get install mecab mecab-ipadic-utf8)")

// MeCab runs the mecab morphological analyser (with the IPADIC dictionary)
// as a separate process to cut Japanese text into morphemes and read them.
// The zero value runs "mecab" from PATH. It is safe for concurrent use.
type MeCab struct {
	Path string // the mecab program; "" looks up "mecab" in PATH
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
	// MeCab reads line by line; other control characters become spaces of
	// the same byte length so that offsets still line up.
	in := strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' || r == 0x7f {
			return ' '
		}
		return r
	}, text)
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
	return ParseMeCab(text, stdout.String())
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
