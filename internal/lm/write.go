package lm

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
)

// WriteARPA writes m in ARPA text format, n-grams in the order of their
// words. Blank entries of a trie (n-grams added so longer ones are
// reachable, with the backed-off probability and no back-off weight) are
// written as ordinary n-grams; scores are unchanged. Unlike the peer's
// converter, it also writes the Debian en-us.lm.bin in full.
func (m *Model) WriteARPA(w io.Writer) error {
	bw := bufio.NewWriter(w)
	counts := m.Counts()
	fmt.Fprintf(bw, "\\data\\\n")
	for k, c := range counts {
		fmt.Fprintf(bw, "ngram %d=%d\n", k+1, c)
	}
	logf := func(v float32) string { return fmt.Sprintf("%.6f", float64(v)/Log10ToNats) }
	fmt.Fprintf(bw, "\n\\1-grams:\n")
	for i, word := range m.words {
		u := m.uni[i]
		if m.order > 1 {
			fmt.Fprintf(bw, "%s\t%s\t%s\n", logf(u.prob), word, logf(u.bo))
		} else {
			fmt.Fprintf(bw, "%s\t%s\n", logf(u.prob), word)
		}
	}
	for k := 2; k <= m.order; k++ {
		type line struct {
			words []string
			text  string
		}
		var lines []line
		// rev holds the reversed words of the current path.
		var walk func(level int, lo, hi uint32, rev []int32)
		walk = func(level int, lo, hi uint32, rev []int32) {
			for j := lo; j < hi; j++ {
				var word uint32
				if level == len(m.mid) {
					word = m.long.word[j]
				} else {
					word = m.mid[level].word[j]
				}
				r := append(rev, int32(word))
				if level+2 < k {
					l := &m.mid[level]
					walk(level+1, l.next[j], l.next[j+1], r)
					continue
				}
				ws := make([]string, len(r))
				for i, id := range r {
					ws[len(r)-1-i] = m.words[id]
				}
				var t string
				if level == len(m.mid) {
					t = logf(m.long.prob[j]) + "\t" + strings.Join(ws, " ")
				} else {
					t = logf(m.mid[level].prob[j]) + "\t" + strings.Join(ws, " ") + "\t" + logf(m.mid[level].bo[j])
				}
				lines = append(lines, line{ws, t})
			}
		}
		for i := range m.words {
			walk(0, m.uni[i].next, m.uni[i+1].next, []int32{int32(i)})
		}
		slices.SortFunc(lines, func(a, b line) int { return slices.Compare(a.words, b.words) })
		fmt.Fprintf(bw, "\n\\%d-grams:\n", k)
		for _, l := range lines {
			bw.WriteString(l.text)
			bw.WriteByte('\n')
		}
	}
	fmt.Fprintf(bw, "\n\\end\\\n")
	return bw.Flush()
}
