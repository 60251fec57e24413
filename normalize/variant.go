package normalize

import "strings"

// variant respells text between the script variants of one language
// (Chinese simplified and traditional characters) for a language tag and
// mode; a language's rules give it through rules.variant.
type variant struct {
	// read rewrites the input into the script the grammar reads, keeping
	// every character's UTF-8 length, so that the spans found in the
	// rewritten text are spans of the input; nil reads the input as it is.
	read func(string) string
	// write rewrites an output into the script asked for.
	write func(string) string
	// always writes every output with write; else only the output of a
	// span whose source read rewrote (a span written in the other script
	// answers in it).
	always bool
}

// respell puts the input orig back into alts, which were found in read
// (orig rewritten by v.read, or orig itself): each span's Source is the
// input's, its Output written with v.write where v says, and each
// alternative's Text the input with the spans' outputs.
func (v *variant) respell(alts []Alternative, orig, read string) {
	for a := range alts {
		var b strings.Builder
		b.Grow(len(alts[a].Text))
		prev := 0
		for k := range alts[a].Spans {
			sp := &alts[a].Spans[k]
			src := orig[sp.StartByte:sp.EndByte]
			if v.always || src != read[sp.StartByte:sp.EndByte] {
				sp.Output = v.write(sp.Output)
			}
			sp.Source = src
			b.WriteString(orig[prev:sp.StartByte])
			b.WriteString(sp.Output)
			prev = sp.EndByte
		}
		b.WriteString(orig[prev:])
		alts[a].Text = b.String()
	}
}
