package jsongrammar

import (
	"bytes"
	"math"
	"slices"
	"unicode/utf8"
)

// Vocab is a vocabulary prepared for masking: the byte pieces of the
// tokens in sorted order, with the length of the prefix each shares with
// the one before, so that tokens with a common prefix are matched once.
// It is immutable and safe for concurrent use.
type Vocab struct {
	pieces [][]byte
	eog    []bool
	order  []int32 // token IDs with a non-empty piece, by piece
	lcp    []int32 // lcp[i]: common prefix length of order[i-1] and order[i]
	maxLen int
	// chars[id] is the number of characters of a piece that can stand
	// anywhere inside a JSON string (printable, no '"' or '\\', whole
	// UTF-8 sequences), -1 for other pieces.
	chars []int32
}

// NewVocab prepares a vocabulary: pieces[id] is the text token id adds
// (nil for control tokens), eog[id] whether it ends generation.
func NewVocab(pieces [][]byte, eog []bool) *Vocab {
	v := &Vocab{pieces: pieces, eog: eog, chars: make([]int32, len(pieces))}
	for id, p := range pieces {
		v.chars[id] = stringChars(p)
		if len(p) > 0 {
			v.order = append(v.order, int32(id))
			v.maxLen = max(v.maxLen, len(p))
		}
	}
	slices.SortFunc(v.order, func(a, b int32) int { return bytes.Compare(pieces[a], pieces[b]) })
	v.lcp = make([]int32, len(v.order))
	for i := 1; i < len(v.order); i++ {
		a, b := pieces[v.order[i-1]], pieces[v.order[i]]
		n := 0
		for n < len(a) && n < len(b) && a[n] == b[n] {
			n++
		}
		v.lcp[i] = int32(n)
	}
	return v
}

// Constraint restricts a generation to the grammar, one token at a time.
// It is not safe for concurrent use.
type Constraint struct {
	v   *Vocab
	cur Matcher
	buf []Matcher // matchers of the prefixes of the current token
	// noFast turns the string fast path off (tests compare both paths).
	noFast bool
}

// NewConstraint starts constraining a generation with grammar g over
// vocabulary v.
func NewConstraint(g *Grammar, v *Vocab) *Constraint {
	return &Constraint{v: v, cur: g.Start(), buf: make([]Matcher, v.maxLen+1)}
}

// Done reports whether the text so far is a whole value that nothing can
// extend (only an end-of-generation token is allowed next).
func (c *Constraint) Done() bool { return c.cur.Done() }

// Accepting reports whether the text so far is a whole valid value.
func (c *Constraint) Accepting() bool { return c.cur.Accepting() }

// Mask sets the logits of the tokens that cannot come next to -Inf:
// tokens whose bytes the grammar rejects, tokens without text, and
// end-of-generation tokens until the text is a whole value. If no token
// could continue (a vocabulary without the bytes the grammar needs), the
// end-of-generation tokens stay allowed.
func (c *Constraint) Mask(logits []float32) {
	v := c.v
	inf := float32(math.Inf(-1))
	allowed := 0
	for id := range logits {
		if id >= len(v.pieces) || len(v.pieces[id]) == 0 {
			if id < len(v.eog) && v.eog[id] && c.cur.Accepting() {
				allowed++
				continue
			}
			logits[id] = inf
		}
	}
	if k, ok := c.cur.inStringBody(); ok && !c.noFast {
		allowed += c.maskInString(logits, k)
		if allowed == 0 {
			c.allowEOG(logits)
		}
		return
	}
	c.buf[0] = c.cur
	valid := 0          // c.buf[:valid+1] hold the matchers of the previous token's prefixes
	deadAt := int32(-1) // the previous token's prefix of this length is dead
	for i, id := range v.order {
		p := v.pieces[id]
		l := v.lcp[i]
		if deadAt >= 0 && l >= deadAt {
			if int(id) < len(logits) {
				logits[id] = inf
			}
			continue
		}
		deadAt = -1
		d := min(int(l), valid)
		for ; d < len(p); d++ {
			c.buf[d+1] = c.buf[d].stepInto(c.buf[d+1], p[d])
			if len(c.buf[d+1].threads) == 0 && !c.buf[d+1].accept {
				deadAt = int32(d + 1)
				break
			}
		}
		valid = min(d, len(p))
		if int(id) >= len(logits) {
			continue
		}
		if deadAt >= 0 || (len(c.buf[len(p)].threads) == 0 && !c.buf[len(p)].accept) {
			logits[id] = inf
			continue
		}
		allowed++
	}
	if allowed == 0 {
		c.allowEOG(logits)
	}
}

func (c *Constraint) allowEOG(logits []float32) {
	for id := range logits {
		if id < len(c.v.eog) && c.v.eog[id] {
			logits[id] = 0
		}
	}
}

// maskInString is Mask inside the body of a string: a piece of plain
// characters fits if the string may still take that many (maxChars < 0:
// any number); the other pieces are matched one by one.
func (c *Constraint) maskInString(logits []float32, maxChars int) int {
	inf := float32(math.Inf(-1))
	allowed := 0
	for _, id := range c.v.order {
		if int(id) >= len(logits) {
			continue
		}
		if n := c.v.chars[id]; n >= 0 {
			if maxChars < 0 || int(n) <= maxChars {
				allowed++
			} else {
				logits[id] = inf
			}
			continue
		}
		if m := c.cur.Advance(c.v.pieces[id]); m.Dead() {
			logits[id] = inf
		} else {
			allowed++
		}
	}
	return allowed
}

// inStringBody reports whether every thread is inside the body of a
// string between characters, and how many more characters the strings
// may take (-1: no limit).
func (m Matcher) inStringBody() (int, bool) {
	if len(m.threads) == 0 || m.accept {
		return 0, false
	}
	room := -1
	for _, t := range m.threads {
		f := t.f
		if f.n.kind != kString || f.st != strBody || f.cont != 0 {
			return 0, false
		}
		if f.n.max >= 0 {
			r := f.n.max - f.k
			if room < 0 || r > room {
				room = r
			}
		} else {
			return -1, true
		}
	}
	return room, true
}

// stringChars counts the characters of p when every byte of it can stand
// inside a JSON string unescaped, else returns -1.
func stringChars(p []byte) int32 {
	if len(p) == 0 {
		return -1
	}
	n := int32(0)
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '"' || c == '\\' || c < 0x20:
			return -1
		case c < 0x80:
			i++
		default:
			r, size := utf8.DecodeRune(p[i:])
			if r == utf8.RuneError && size <= 1 {
				return -1
			}
			i += size
		}
		n++
	}
	return n
}

// Accept advances the constraint past token id.
func (c *Constraint) Accept(id int) {
	if id >= 0 && id < len(c.v.pieces) {
		c.cur = c.cur.Advance(c.v.pieces[id])
	}
}

// stepInto is step writing into dst's buffer.
func (m Matcher) stepInto(dst Matcher, c byte) Matcher {
	out := Matcher{threads: dst.threads[:0]}
	for _, t := range m.threads {
		if len(out.threads) >= maxThreads {
			break
		}
		out.threads = stepThread(t, c, out.threads, &out.accept)
	}
	return out
}
