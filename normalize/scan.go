package normalize

import "strings"

// numLit is a written number found in the token stream.
type numLit struct {
	neg     bool
	intPart string // digits without group separators; "" for ".5"
	frac    string // digits after the decimal separator
	point   bool   // a decimal separator was present
	grouped bool   // group separators were present
	end     int    // token index after the number
}

// value reports whether the literal is exactly one ("1", "1.0").
func (n numLit) isOne() bool {
	return !n.neg && strings.TrimLeft(n.intPart, "0") == "1" && strings.Trim(n.frac, "0") == ""
}

// scanNumber reads a written number at token i: an optional minus sign
// (only at a word start), digits with optional group separators (exactly
// three digits per group), and an optional decimal part. dec and group are
// the separators of the language ('.' and ',' in English, ',' and '.' in
// German); group 0 disables grouping.
func scanNumber(s *stream, i int, dec, group string) (numLit, bool) {
	var n numLit
	j := i
	if (s.is(j, "-") || s.is(j, "−")) && s.minusOK(j) && s.kind(j+1) == tNum {
		n.neg = true
		j++
	}
	if s.kind(j) == tNum {
		if j == i && !s.startOK(j) && s.kind(j-1) != tWord {
			return n, false
		}
		var b strings.Builder
		b.WriteString(s.text(j))
		j++
		if group != "" && len(s.text(j-1)) <= 3 {
			for j-i < maxScan && s.is(j, group) && s.kind(j+1) == tNum && len(s.text(j+1)) == 3 &&
				!(s.is(j+2, group) && s.kind(j+3) == tNum && len(s.text(j+3)) != 3 && group == dec) {
				b.WriteString(s.text(j + 1))
				n.grouped = true
				j += 2
			}
		}
		n.intPart = b.String()
	} else if !(s.is(j, dec) && s.kind(j+1) == tNum && s.startOK(j)) {
		return n, false
	}
	if s.is(j, dec) && s.kind(j+1) == tNum && !(s.is(j+2, dec) && s.kind(j+3) == tNum) {
		n.point = true
		n.frac = s.text(j + 1)
		j += 2
	}
	n.end = j
	return n, true
}

// letterFollows reports whether token i is a word glued to the previous token.
func (s *stream) glued(i int) bool { return i < s.n() && s.kind(i) != tSpace }

// minusOK reports whether a '-' at token j can be a minus sign: at the start,
// after a space, an opening bracket or a sentence mark ("NO?-34").
func (s *stream) minusOK(j int) bool {
	if j == 0 || s.kind(j-1) == tSpace {
		return true
	}
	switch s.text(j - 1) {
	case "(", "[", "{", "\"", "=", "<", ">", "?", "!", ";":
		return true
	}
	return false
}
