package decoder

import (
	"fmt"
	"strings"

	"github.com/sottolabs/sotto/internal/lm"
)

// sentenceLM builds a bigram ARPA model from sentences: every bigram seen
// gets log10 -0.3, every unigram -1.5 with back-off -0.5.
func sentenceLM(sentences ...string) (*lm.Model, error) {
	uni := map[string]bool{"<s>": true, "</s>": true}
	bi := map[[2]string]bool{}
	for _, s := range sentences {
		ws := append(append([]string{"<s>"}, strings.Fields(s)...), "</s>")
		for i, w := range ws {
			uni[w] = true
			if i > 0 {
				bi[[2]string{ws[i-1], w}] = true
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\\data\\\nngram 1=%d\nngram 2=%d\n\n\\1-grams:\n", len(uni), len(bi))
	for w := range uni {
		fmt.Fprintf(&b, "-1.5 %s -0.5\n", w)
	}
	b.WriteString("\n\\2-grams:\n")
	for k := range bi {
		fmt.Fprintf(&b, "-0.3 %s %s\n", k[0], k[1])
	}
	b.WriteString("\n\\end\\\n")
	return lm.ParseARPA("sentences", []byte(b.String()))
}
