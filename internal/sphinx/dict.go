package sphinx

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// Dict is a pronunciation dictionary: words (as spelled in the file) and
// their variants, each a sequence of CI phone ids of the model. It is stored
// compactly (about 8 MB for the 134,723 entries of cmudict-en-us) and is
// read-only after parsing, so safe for concurrent lookups.
type Dict struct {
	// SkipUnknownPhones makes ParseDict leave out a word whose line names a
	// phone the model lacks, as the peer does when it loads a model's
	// dictionary, instead of failing; the words are listed by Skipped.
	SkipUnknownPhones bool

	index   map[string]int32 // word → first variant in prons
	prons   []pronRef
	phones  []int16
	filler  map[string]bool
	skipped []string
}

type pronRef struct {
	off  int32
	n    int32
	next int32 // next variant, or -1
	last int32 // last variant (valid on the first one)
}

// ParseDict reads a CMU-style dictionary ("word PH PH ..." per line,
// variants "word(2)", ";;;" or "#" comments) into d, mapping phones through
// m. filler marks the entries as noise words. Lines naming phones the model
// lacks are an error, or left out when d.SkipUnknownPhones is set.
func ParseDict(name string, data []byte, m *Mdef, filler bool, d *Dict) error {
	if d.index == nil {
		d.index = map[string]int32{}
		d.filler = map[string]bool{}
	}
	// Keys are cut from one string holding every word, so the map does not
	// own one allocation per word.
	var keys strings.Builder
	type pending struct {
		kOff, kLen int
		pOff, pLen int32
	}
	var entries []pending
	lineNo := 0
	for len(data) > 0 {
		lineNo++
		var line []byte
		line, data = cutLine(data)
		t := bytes.TrimSpace(line)
		if len(t) == 0 || bytes.HasPrefix(t, []byte(";;")) || t[0] == '#' {
			continue
		}
		f := bytes.Fields(t)
		w := f[0]
		if i := bytes.IndexByte(w, '('); i > 0 && w[len(w)-1] == ')' {
			w = w[:i]
		}
		off := int32(len(d.phones))
		skip := false
		for _, ph := range f[1:] {
			if ph[0] == '#' { // trailing comment
				break
			}
			id, ok := m.CIPhone(string(ph))
			if !ok {
				d.phones = d.phones[:off]
				if d.SkipUnknownPhones {
					d.skipped = append(d.skipped, string(f[0]))
					skip = true
					break
				}
				return fmt.Errorf("sphinx: %s:%d: word %q uses phone %q, which the model lacks", name, lineNo, f[0], ph)
			}
			d.phones = append(d.phones, int16(id))
		}
		if int32(len(d.phones)) == off {
			if skip {
				continue // left out above
			}
			return fmt.Errorf("sphinx: %s:%d: word %q has no phones", name, lineNo, f[0])
		}
		entries = append(entries, pending{keys.Len(), len(w), off, int32(len(d.phones)) - off})
		keys.Write(w)
	}
	all := keys.String()
	for _, e := range entries {
		w := all[e.kOff : e.kOff+e.kLen]
		id := int32(len(d.prons))
		d.prons = append(d.prons, pronRef{off: e.pOff, n: e.pLen, next: -1, last: id})
		if first, ok := d.index[w]; ok {
			d.prons[d.prons[first].last].next = id
			d.prons[first].last = id
		} else {
			d.index[w] = id
		}
		if filler {
			d.filler[w] = true
		}
	}
	return nil
}

// Lookup returns the pronunciations of word in file order, trying the exact
// spelling first and then lower case. The inner slices alias the dictionary
// and must not be modified.
func (d *Dict) Lookup(word string) [][]int16 {
	id, ok := d.index[word]
	if !ok {
		if id, ok = d.index[strings.ToLower(word)]; !ok {
			return nil
		}
	}
	var out [][]int16
	for ; id >= 0; id = d.prons[id].next {
		p := d.prons[id]
		out = append(out, d.phones[p.off:p.off+p.n:p.off+p.n])
	}
	return out
}

// Skipped returns the dictionary words left out because they name phones
// the model lacks (with SkipUnknownPhones), in file order.
func (d *Dict) Skipped() []string { return d.skipped }

// IsFiller reports whether word came from the noise dictionary.
func (d *Dict) IsFiller(word string) bool { return d.filler[word] }

// Len returns the number of distinct words.
func (d *Dict) Len() int { return len(d.index) }

// Fillers returns the noise-dictionary words (such as "<sil>" and
// "[NOISE]"), sorted.
func (d *Dict) Fillers() []string {
	out := make([]string, 0, len(d.filler))
	for w := range d.filler {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}
