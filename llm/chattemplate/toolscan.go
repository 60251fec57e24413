package chattemplate

import (
	"encoding/json"
	"strings"
)

// This file holds the incremental scanners of the tool-call formats. A
// scanner reads the call region of a reply (from the first call marker;
// for Llama 3 the whole reply) as far as it has been written, and returns
// the calls found so far with their arguments as JSON text. Scanning a
// longer prefix of the same reply only ever extends what a shorter one
// returned (a call's name once known, its arguments' text), so a
// [Splitter] can stream the difference; [ParseToolCalls] scans the whole
// reply once.

// partialCall is a call as far as it has been read.
type partialCall struct {
	id, name string
	// args is the arguments' JSON text read so far: compact, and only
	// ever extended by a longer prefix of the reply.
	args string
	// ready: the call can be announced (its name is known, and so is any
	// id written before the arguments).
	ready bool
	// done: the call is complete and args is a JSON object.
	done bool
}

// scanState says where a scanner stopped.
type scanState int

const (
	scanMore scanState = iota // the input ended inside a call: more may follow
	scanDone                  // the calls ended where the syntax says they end
	scanBad                   // the syntax is broken at end
)

// scanResult is what a scanner read: the calls, the offset just past the
// last complete one, and the state at the point it stopped.
type scanResult struct {
	calls []partialCall
	end   int
	state scanState
}

// scanCalls scans region, the call region of a reply in format f. final
// says the reply is complete (a closing tag may then be missing at the
// very end). types holds the parameter types of the XML format.
//
// memo (nil: none) keeps the arguments value being read between scans of
// a growing reply, so that a long value is not read again from its start
// on every piece (see valueMemo).
func scanCalls(f Format, region string, final bool, types toolTypes, memo *scanMemo) scanResult {
	switch f {
	case FormatHermes:
		return scanTagged(region, final, func(body string, final bool) (partialCall, int, scanState) {
			return scanJSONCall(body, 0, "arguments", "", memo.valueMemo())
		})
	case FormatXML:
		var xm *xmlMemo
		if memo != nil {
			xm = &memo.xml
		}
		return scanTagged(region, final, func(body string, final bool) (partialCall, int, scanState) {
			return scanXMLCall(body, types, xm)
		})
	case FormatMistral:
		return scanMistral(region, memo.valueMemo())
	case FormatLlama3:
		return scanLlama(region, memo.valueMemo())
	}
	return scanResult{state: scanBad}
}

// isSpace reports JSON white space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// skipSpace returns the offset of the first non-space byte of s at or
// after i.
func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// expect reports whether s at i starts with lit (ok), or ends with a
// prefix of it (more: the rest may follow).
func expect(s string, i int, lit string) (ok, more bool) {
	rest := s[i:]
	if strings.HasPrefix(rest, lit) {
		return true, false
	}
	return false, strings.HasPrefix(lit, rest)
}

// scanTagged scans calls in <tool_call>…</tool_call> blocks (Hermes and
// XML), each body read by call. A missing </tool_call> is accepted at
// the end of a final reply.
func scanTagged(region string, final bool, call func(body string, final bool) (partialCall, int, scanState)) scanResult {
	var r scanResult
	i := 0
	for {
		i = skipSpace(region, i)
		if i == len(region) {
			r.state = scanDone
			if !final {
				r.state = scanMore
			}
			return r
		}
		ok, more := expect(region, i, hermesOpen)
		if !ok {
			r.state = scanBad
			if more && !final {
				r.state = scanMore
			}
			return r
		}
		i += len(hermesOpen)
		c, n, st := call(region[i:], final)
		if st != scanDone {
			if c.ready || c.name != "" {
				r.calls = append(r.calls, c)
			}
			r.state = st
			if st == scanMore && final {
				r.state = scanBad
			}
			return r
		}
		r.calls = append(r.calls, c)
		i = skipSpace(region, i+n)
		if i == len(region) && final {
			r.end, r.state = i, scanDone
			return r
		}
		ok, more = expect(region, i, hermesClose)
		if !ok {
			r.state = scanBad
			if more && !final {
				r.state = scanMore
			}
			return r
		}
		i += len(hermesClose)
		r.end = i
	}
}

// scanMistral scans [TOOL_CALLS] [{…}, …] (Mistral v0.3) or
// [TOOL_CALLS]name[ARGS]{…}, repeated (tokenizer v11 and later).
func scanMistral(region string, memo *valueMemo) scanResult {
	var r scanResult
	i := skipSpace(region, len(mistralOpen))
	if i == len(region) {
		return r // scanMore
	}
	if region[i] == '[' {
		i++
		for {
			i = skipSpace(region, i)
			c, n, st := scanJSONCall(region, i, "arguments", "", memo)
			if st != scanDone {
				if c.ready {
					r.calls = append(r.calls, c)
				}
				r.state = st
				return r
			}
			r.calls = append(r.calls, c)
			i = skipSpace(region, n)
			if i == len(region) {
				return r
			}
			switch region[i] {
			case ',':
				i++
				continue
			case ']':
				r.end = i + 1
				if skipSpace(region, r.end) != len(region) {
					r.state = scanBad
				} else {
					r.state = scanDone
				}
				return r
			}
			r.state = scanBad
			return r
		}
	}
	for {
		j := strings.Index(region[i:], mistralArgs)
		if j < 0 {
			// The name is still being written (or [ARGS] never comes).
			if strings.Contains(region[i:], mistralOpen) {
				r.state = scanBad
			}
			return r
		}
		name := strings.TrimSpace(region[i : i+j])
		if name == "" || strings.Contains(name, mistralOpen) {
			r.state = scanBad
			return r
		}
		i += j + len(mistralArgs)
		c := partialCall{name: name, ready: true}
		i = skipSpace(region, i)
		if i == len(region) {
			r.calls = append(r.calls, c)
			return r
		}
		if region[i] != '{' {
			r.state = scanBad
			r.calls = append(r.calls, c)
			return r
		}
		args, n, st := scanValue(region, i, memo)
		c.args = args
		if st == scanDone {
			c.done = true
		}
		r.calls = append(r.calls, c)
		if st != scanDone {
			r.state = st
			return r
		}
		r.end = n
		i = skipSpace(region, n)
		if i == len(region) {
			r.state = scanDone
			return r
		}
		ok, more := expect(region, i, mistralOpen)
		if !ok {
			r.state = scanBad
			if more {
				r.state = scanMore
			}
			return r
		}
		i += len(mistralOpen)
	}
}

// scanLlama scans a Llama 3.1 reply: optional <|python_tag|>, then one
// JSON call {"name", "parameters"} or several separated by ';'.
func scanLlama(region string, memo *valueMemo) scanResult {
	var r scanResult
	i := skipSpace(region, 0)
	if ok, more := expect(region, i, llamaPyTag); ok {
		i = skipSpace(region, i+len(llamaPyTag))
	} else if more {
		return r
	}
	for {
		if i == len(region) {
			return r
		}
		c, n, st := scanJSONCall(region, i, "parameters", "arguments", memo)
		if st != scanDone {
			if c.ready {
				r.calls = append(r.calls, c)
			}
			r.state = st
			return r
		}
		r.calls = append(r.calls, c)
		r.end = n
		i = skipSpace(region, n)
		if i == len(region) {
			r.state = scanDone
			return r
		}
		if region[i] != ';' {
			r.state = scanBad
			return r
		}
		i = skipSpace(region, i+1)
		if i == len(region) {
			r.end, r.state = i, scanDone // a trailing ';' ends the calls
			return r
		}
	}
}

// scanJSONCall scans a call object at s[i:]: {"name": string, argsKey:
// object (or a JSON string holding one), "id": string, …}; altKey is a
// second name of the arguments ("" for none). It returns the call, the
// offset after the object and the state. Unknown keys are skipped.
func scanJSONCall(s string, i int, argsKey, altKey string, memo *valueMemo) (partialCall, int, scanState) {
	var c partialCall
	i = skipSpace(s, i)
	if i == len(s) {
		return c, i, scanMore
	}
	if s[i] != '{' {
		return c, i, scanBad
	}
	i++
	haveArgs := false
	for first := true; ; first = false {
		i = skipSpace(s, i)
		if i == len(s) {
			return c, i, scanMore
		}
		if s[i] == '}' && first {
			return c, i + 1, scanBad // no name
		}
		key, n, st := scanString(s, i)
		if st != scanDone {
			return c, n, st
		}
		i = skipSpace(s, n)
		if i == len(s) {
			return c, i, scanMore
		}
		if s[i] != ':' {
			return c, i, scanBad
		}
		i = skipSpace(s, i+1)
		if i == len(s) {
			return c, i, scanMore
		}
		switch {
		case key == "name":
			if c.name != "" {
				return c, i, scanBad // defined twice
			}
			name, n, st := scanString(s, i)
			if st != scanDone {
				return c, n, st
			}
			if name == "" {
				return c, n, scanBad
			}
			c.name, i = name, n
		case (key == argsKey || key == altKey && altKey != "") && !haveArgs:
			haveArgs = true
			c.ready = c.name != ""
			if s[i] == '"' {
				// Arguments as a JSON string holding an object: read whole.
				str, n, st := scanString(s, i)
				if st != scanDone {
					return c, n, st
				}
				if !isObject([]byte(str)) {
					return c, n, scanBad
				}
				c.args, i = string(compact([]byte(str))), n
				break
			}
			if s[i] != '{' {
				return c, i, scanBad
			}
			args, n, st := scanValue(s, i, memo)
			c.args = args
			if st != scanDone {
				return c, n, st
			}
			i = n
		case key == "id":
			if s[i] == '"' {
				id, n, st := scanString(s, i)
				if st != scanDone {
					return c, n, st
				}
				c.id, i = id, n
				break
			}
			fallthrough
		default:
			_, n, st := scanValue(s, i, nil)
			if st != scanDone {
				return c, n, st
			}
			i = n
		}
		if c.name != "" && haveArgs {
			c.ready = true
		}
		i = skipSpace(s, i)
		if i == len(s) {
			return c, i, scanMore
		}
		switch s[i] {
		case ',':
			i++
			continue
		case '}':
			if c.name == "" {
				return c, i + 1, scanBad
			}
			if !haveArgs {
				c.args = "{}"
			}
			c.ready, c.done = true, true
			return c, i + 1, scanDone
		}
		return c, i, scanBad
	}
}

// scanString reads the JSON string at s[i:] and returns its value and the
// offset after it.
func scanString(s string, i int) (string, int, scanState) {
	if i >= len(s) {
		return "", i, scanMore
	}
	if s[i] != '"' {
		return "", i, scanBad
	}
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			var v string
			if json.Unmarshal([]byte(s[i:j+1]), &v) != nil {
				return "", j + 1, scanBad
			}
			return v, j + 1, scanDone
		}
	}
	return "", len(s), scanMore
}

// scanMemo is what a Splitter keeps between scans (see scanCalls).
type scanMemo struct {
	value valueMemo
	xml   xmlMemo
}

func (m *scanMemo) valueMemo() *valueMemo {
	if m == nil {
		return nil
	}
	return &m.value
}

// valueMemo is where scanValue stopped in an unfinished value: the raw
// text read, its compact form so far and the scanner's state. The
// compact form and the state are a function of the raw text alone, so a
// later scan of any value that starts with the same raw text resumes
// from there (a Splitter's reply only grows; the comparison is of one
// pointer while the reply's buffer stays in place).
type valueMemo struct {
	raw        string
	out        *strings.Builder
	depth      int
	inStr, esc bool
}

// scanValue reads the JSON value at s[i:] as far as it goes and returns
// its compact text so far (white space outside strings dropped: a longer
// input only extends it), the offset after it and the state. A complete
// value is checked with json.Valid; an incomplete one only for the bytes
// JSON allows outside strings. memo (nil: none) resumes an unfinished
// value read before and keeps this one if it is unfinished.
func scanValue(s string, i int, memo *valueMemo) (string, int, scanState) {
	start := i
	b := &strings.Builder{}
	depth, inStr, esc := 0, false, false
	if memo != nil && memo.raw != "" && strings.HasPrefix(s[i:], memo.raw) {
		b, depth, inStr, esc = memo.out, memo.depth, memo.inStr, memo.esc
		i += len(memo.raw)
		*memo = valueMemo{} // its builder is this value's now; kept again below if unfinished
	}
	for ; i < len(s); i++ {
		ch := s[i]
		if inStr {
			b.WriteByte(ch)
			switch {
			case esc:
				esc = false
			case ch == '\\':
				esc = true
			case ch == '"':
				inStr = false
				if depth == 0 {
					return finishValue(b, i+1)
				}
			}
			continue
		}
		switch {
		case isSpace(ch):
			if depth == 0 && b.Len() > 0 {
				return finishValue(b, i)
			}
			continue
		case ch == '"':
			inStr = true
		case ch == '{' || ch == '[':
			depth++
		case ch == '}' || ch == ']':
			if depth == 0 {
				return finishValue(b, i)
			}
			depth--
			b.WriteByte(ch)
			if depth == 0 {
				return finishValue(b, i+1)
			}
			continue
		case ch == ',' || ch == ':':
			if depth == 0 {
				return finishValue(b, i)
			}
		case ch >= 'a' && ch <= 'z', ch >= '0' && ch <= '9', ch == '-', ch == '+', ch == '.', ch == 'E':
		default:
			return b.String(), i, scanBad
		}
		b.WriteByte(ch)
	}
	if memo != nil {
		*memo = valueMemo{raw: s[start:i], out: b, depth: depth, inStr: inStr, esc: esc}
	}
	return b.String(), i, scanMore
}

// finishValue ends scanValue at offset end: the value must be valid JSON.
func finishValue(b *strings.Builder, end int) (string, int, scanState) {
	v := b.String()
	if v == "" || !json.Valid([]byte(v)) {
		return v, end, scanBad
	}
	return v, end, scanDone
}
