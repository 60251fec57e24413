package g2p

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// ReadCMUDict reads a pronouncing dictionary in the text layout of CMUdict
// and of the dictionaries pocketsphinx ships: one pronunciation a line, the
// word (a variant written "word(2)"), then its phones separated by spaces.
// Phones are upper-cased and stress digits dropped ("AH0" → "AH"); lines
// starting with ";;;" or "#" are comments. A line with a word but no
// phones, or with a phone that is not one of [Phones], is an error naming
// the line. Variants are kept in file order, the first preferred.
func ReadCMUDict(r io.Reader) (MapLexicon, error) {
	lex := MapLexicon{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, ";;;") || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		word := strings.ToLower(fields[0])
		if i := strings.IndexByte(word, '('); i > 0 && strings.HasSuffix(word, ")") {
			word = word[:i]
		}
		if len(fields) < 2 {
			return nil, fmt.Errorf("g2p: dictionary line %d: %q has no phones", n, fields[0])
		}
		pron := make([]string, 0, len(fields)-1)
		for _, f := range fields[1:] {
			p := strings.ToUpper(strings.TrimRight(f, "012"))
			if !IsPhone(p) {
				return nil, fmt.Errorf("g2p: dictionary line %d: %q is not an ARPAbet phone", n, f)
			}
			pron = append(pron, p)
		}
		lex[word] = append(lex[word], pron)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("g2p: dictionary: %w", err)
	}
	return lex, nil
}
