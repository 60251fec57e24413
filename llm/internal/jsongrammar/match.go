package jsongrammar

// The matcher simulates the grammar on bytes as a set of threads. A thread
// is a stack of frames (a persistent linked list, so that forking a thread
// costs nothing); its top frame is always a terminal that can take a byte
// (a literal, a string or a number), or the thread is empty and has
// matched a whole value.

type frame struct {
	n *node
	i int // kLit: bytes matched; kSeq: next kid; kRep: items so far
	// kString and kNumber lexer state.
	st   uint8
	cont uint8 // UTF-8 continuation bytes still expected
	k    int   // characters (kString) or bytes (kNumber) so far
}

type stack struct {
	f    frame
	next *stack
}

// maxThreads bounds the live threads; the JSON grammars of schemas have
// little ambiguity, so the bound is never reached in practice.
const maxThreads = 256

// Matcher is the state of matching a prefix. Matchers are values: Advance
// returns a new one and leaves the receiver as it was, so a caller can try
// many continuations of the same prefix.
type Matcher struct {
	threads []*stack // ready threads (non-nil top is a terminal)
	accept  bool     // some thread has matched a whole value
}

// Start returns the matcher of the empty prefix.
func (g *Grammar) Start() Matcher {
	var m Matcher
	m.threads = expand(&stack{f: frame{n: g.root}}, m.threads, &m.accept)
	return m
}

// Accepting reports whether the prefix is a whole valid value.
func (m Matcher) Accepting() bool { return m.accept }

// Dead reports whether no continuation of the prefix (and not the prefix
// itself) is valid.
func (m Matcher) Dead() bool { return !m.accept && len(m.threads) == 0 }

// Done reports whether the prefix is a whole value that no byte can
// extend.
func (m Matcher) Done() bool { return m.accept && len(m.threads) == 0 }

// Advance returns the matcher after the bytes b (Dead when they are not a
// valid continuation).
func (m Matcher) Advance(b []byte) Matcher {
	for _, c := range b {
		m = m.step(c)
		if len(m.threads) == 0 && !m.accept {
			return Matcher{}
		}
	}
	return m
}

func (m Matcher) step(c byte) Matcher {
	var out Matcher
	for _, t := range m.threads {
		if len(out.threads) >= maxThreads {
			break
		}
		out.threads = stepThread(t, c, out.threads, &out.accept)
	}
	return out
}

// expand moves a thread to its next terminals, forking at alternatives,
// and appends the ready threads to out (an empty thread sets *accept).
func expand(s *stack, out []*stack, accept *bool) []*stack {
	budget := maxExpandSteps
	return expandN(s, out, accept, 0, &budget)
}

// maxExpand bounds the frames an expansion visits without reading a byte,
// and maxExpandSteps the steps of one expansion: a left-recursive schema
// ($ref cycles that read nothing) is cut there instead of looping.
const (
	maxExpand      = 256
	maxExpandSteps = 1 << 14
)

func expandN(s *stack, out []*stack, accept *bool, depth int, budget *int) []*stack {
	*budget--
	if len(out) >= maxThreads || depth > maxExpand || *budget < 0 {
		return out
	}
	if s == nil {
		*accept = true
		return out
	}
	f := s.f
	switch f.n.kind {
	case kLit:
		if f.i < len(f.n.s) {
			return append(out, s)
		}
		return expandN(s.next, out, accept, depth+1, budget)
	case kSeq:
		if f.i >= len(f.n.kids) {
			return expandN(s.next, out, accept, depth+1, budget)
		}
		f.i++
		parent := &stack{f: f, next: s.next}
		return expandN(&stack{f: frame{n: f.n.kids[f.i-1]}, next: parent}, out, accept, depth+1, budget)
	case kAlt:
		for _, k := range f.n.kids {
			out = expandN(&stack{f: frame{n: k}, next: s.next}, out, accept, depth+1, budget)
		}
		return out
	case kRep:
		if f.i >= f.n.min {
			out = expandN(s.next, out, accept, depth+1, budget)
		}
		if f.n.max < 0 || f.i < f.n.max {
			f.i++
			var body *stack = &stack{f: frame{n: f.n.kids[0]}, next: &stack{f: f, next: s.next}}
			if f.i > 1 && f.n.sep != nil {
				body = &stack{f: frame{n: f.n.sep}, next: body}
			}
			out = expandN(body, out, accept, depth+1, budget)
		}
		return out
	case kString:
		if f.st == strDone {
			return expandN(s.next, out, accept, depth+1, budget)
		}
		return append(out, s)
	case kNumber:
		if numAccepting(f.st) {
			out = expandN(s.next, out, accept, depth+1, budget)
		}
		if f.k < maxNumberLen {
			out = append(out, s)
		}
		return out
	}
	return out
}

// String lexer states.
const (
	strOpen   = iota // expects '"'
	strBody          // inside
	strEscape        // after '\'
	strHex1          // \u and 0–3 hex digits read
	strHex2
	strHex3
	strHex4
	strDone
)

// Number lexer states.
const (
	numStart = iota // expects '-' or a digit
	numMinus        // after '-'
	numZero         // integer part "0"
	numInt          // integer part 1-9 digits
	numDot          // after '.'
	numFrac         // fraction digits
	numE            // after e/E
	numESign        // after the exponent's sign
	numExp          // exponent digits
)

func numAccepting(st uint8) bool {
	return st == numZero || st == numInt || st == numFrac || st == numExp
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func stepThread(s *stack, c byte, out []*stack, accept *bool) []*stack {
	f := s.f
	switch f.n.kind {
	case kLit:
		if f.n.s[f.i] != c {
			return out
		}
		f.i++
		return expand(&stack{f: f, next: s.next}, out, accept)
	case kString:
		if !stepString(&f, c) {
			return out
		}
		return expand(&stack{f: f, next: s.next}, out, accept)
	case kNumber:
		if !stepNumber(&f, c) {
			return out
		}
		return expand(&stack{f: f, next: s.next}, out, accept)
	}
	return out
}

func stepString(f *frame, c byte) bool {
	n := f.n
	switch f.st {
	case strOpen:
		if c != '"' {
			return false
		}
		f.st = strBody
		return true
	case strBody:
		if f.cont > 0 {
			if c&0xC0 != 0x80 {
				return false
			}
			f.cont--
			return true
		}
		switch {
		case c == '"':
			if f.k < n.min {
				return false
			}
			f.st = strDone
			return true
		case n.max >= 0 && f.k >= n.max:
			return false
		case c == '\\':
			f.st = strEscape
		case c < 0x20:
			return false
		case c < 0x80:
		case c&0xE0 == 0xC0 && c >= 0xC2:
			f.cont = 1
		case c&0xF0 == 0xE0:
			f.cont = 2
		case c&0xF8 == 0xF0 && c <= 0xF4:
			f.cont = 3
		default:
			return false
		}
		f.k++
		return true
	case strEscape:
		switch c {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			f.st = strBody
		case 'u':
			f.st = strHex1
		default:
			return false
		}
		return true
	case strHex1, strHex2, strHex3, strHex4:
		if !isHex(c) {
			return false
		}
		if f.st == strHex4 {
			f.st = strBody
		} else {
			f.st++
		}
		return true
	}
	return false
}

func stepNumber(f *frame, c byte) bool {
	digit := c >= '0' && c <= '9'
	f.k++
	switch f.st {
	case numStart:
		switch {
		case c == '-':
			f.st = numMinus
		case c == '0':
			f.st = numZero
		case digit:
			f.st = numInt
		default:
			return false
		}
	case numMinus:
		switch {
		case c == '0':
			f.st = numZero
		case digit:
			f.st = numInt
		default:
			return false
		}
	case numZero, numInt:
		switch {
		case digit && f.st == numInt:
		case c == '.' && !f.n.integer:
			f.st = numDot
		case (c == 'e' || c == 'E') && !f.n.integer:
			f.st = numE
		default:
			return false
		}
	case numDot:
		if !digit {
			return false
		}
		f.st = numFrac
	case numFrac:
		switch {
		case digit:
		case c == 'e' || c == 'E':
			f.st = numE
		default:
			return false
		}
	case numE:
		switch {
		case c == '+' || c == '-':
			f.st = numESign
		case digit:
			f.st = numExp
		default:
			return false
		}
	case numESign:
		if !digit {
			return false
		}
		f.st = numExp
	case numExp:
		if !digit {
			return false
		}
	default:
		return false
	}
	return true
}

// Match reports whether text is a whole value of the grammar.
func (g *Grammar) Match(text []byte) bool { return g.Start().Advance(text).Accepting() }
