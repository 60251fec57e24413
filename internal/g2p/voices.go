package g2p

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Voice is one line of `espeak-ng --voices`.
type Voice struct {
	Priority int    // the "Pty" column
	Language string // the voice's language, as -v accepts it: "en-us", "cmn-latn-pinyin"
	Gender   string // the "Age/Gender" column, e.g. "--/M"
	Name     string // e.g. "English_(America)"
	File     string // e.g. "gmw/en-US"
	// Also lists the other languages the voice serves, with espeak-ng's
	// preference (lower is preferred): "(en 3)" gives {"en", 3}.
	Also []VoiceLanguage
}

// VoiceLanguage is one "(language priority)" entry of a [Voice].
type VoiceLanguage struct {
	Language string
	Priority int
}

// ParseVoices reads the table `espeak-ng --voices` prints: a header line
// starting with "Pty", then one voice per line. It returns an error for a
// missing header or a line with fewer than four columns.
func ParseVoices(r io.Reader) ([]Voice, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	line, header := 0, false
	var out []Voice
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" {
			continue
		}
		if !header {
			if !strings.HasPrefix(t, "Pty") {
				return nil, fmt.Errorf("g2p: espeak-ng voices: line %d: no \"Pty\" header", line)
			}
			header = true
			continue
		}
		f := strings.Fields(t)
		if len(f) < 4 {
			return nil, fmt.Errorf("g2p: espeak-ng voices: line %d: %d columns, want at least 4", line, len(f))
		}
		pty, err := strconv.Atoi(f[0])
		if err != nil {
			return nil, fmt.Errorf("g2p: espeak-ng voices: line %d: priority %q is not a number", line, f[0])
		}
		v := Voice{Priority: pty, Language: f[1], Gender: f[2], Name: f[3]}
		rest := f[4:]
		if len(rest) > 0 && !strings.HasPrefix(rest[0], "(") {
			v.File, rest = rest[0], rest[1:]
		}
		v.Also = parseAlso(strings.Join(rest, " "))
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("g2p: espeak-ng voices: %w", err)
	}
	if !header {
		return nil, fmt.Errorf("g2p: espeak-ng voices: empty listing")
	}
	return out, nil
}

// parseAlso parses "(zh-cmn 5)(zh 5)"; malformed groups are skipped.
func parseAlso(s string) []VoiceLanguage {
	var out []VoiceLanguage
	for {
		i := strings.IndexByte(s, '(')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(s[i:], ')')
		if j < 0 {
			return out
		}
		f := strings.Fields(s[i+1 : i+j])
		s = s[i+j+1:]
		if len(f) == 0 {
			continue
		}
		vl := VoiceLanguage{Language: f[0]}
		if len(f) > 1 {
			vl.Priority, _ = strconv.Atoi(f[1])
		}
		out = append(out, vl)
	}
}
