package chattemplate

import (
	"bytes"
	"encoding/json"
	"strings"
)

// The XML parameter syntax of Qwen3-Coder, Qwen3.5 and Qwen3.6, as their
// chat templates teach it and render past calls:
//
//	<tool_call>
//	<function=get_weather>
//	<parameter=city>
//	Paris
//	</parameter>
//	</function>
//	</tool_call>
//
// A value is written bare: the templates print a string as it is, any
// other value with Python's str() (numbers, True/False) or, for objects
// and arrays, as JSON. So a value's JSON type comes from the tool's
// parameters schema: a parameter of type string (or one the schema does
// not describe) is a string; integer and number take a JSON number,
// boolean true/false (any case), null null or None, object and array a
// JSON value of that kind. A value that does not read as its type is
// kept as a string rather than dropped. The newline after the opening
// tag and before the closing one belong to the syntax, not the value.

// The markers of the XML format inside <tool_call>.
const (
	xmlFunction    = "<function="
	xmlFunctionEnd = "</function>"
	xmlParam       = "<parameter="
	xmlParamEnd    = "</parameter>"
)

// toolTypes maps a tool's name to the JSON types of its parameters (see
// paramType).
type toolTypes map[string]map[string][]string

// typesOf reads the parameter types of tools from their schemas'
// properties: each property's "type", a string or a list of strings.
func typesOf(tools []Tool) toolTypes {
	tt := toolTypes{}
	for _, t := range tools {
		var schema struct {
			Properties map[string]struct {
				Type json.RawMessage `json:"type"`
			} `json:"properties"`
		}
		if json.Unmarshal(t.Parameters, &schema) != nil {
			continue
		}
		m := map[string][]string{}
		for name, p := range schema.Properties {
			var one string
			var many []string
			switch {
			case json.Unmarshal(p.Type, &one) == nil:
				m[name] = []string{one}
			case json.Unmarshal(p.Type, &many) == nil:
				m[name] = many
			}
		}
		tt[t.Name] = m
	}
	return tt
}

// isStringParam reports whether a parameter's value is read as a string:
// its type is string, or the schema gives it no type this package reads.
func isStringParam(types []string) bool {
	for _, t := range types {
		switch t {
		case "integer", "number", "boolean", "object", "array":
			return false
		}
	}
	return true
}

// paramJSON converts the bare value v of a parameter with the given
// schema types into JSON.
func paramJSON(v string, types []string) string {
	t := strings.TrimSpace(v)
	for _, typ := range types {
		switch typ {
		case "null":
			if t == "null" || t == "None" {
				return "null"
			}
		case "integer", "number":
			if t != "" && (t[0] == '-' || t[0] >= '0' && t[0] <= '9') && json.Valid([]byte(t)) {
				return t
			}
		case "boolean":
			if l := strings.ToLower(t); l == "true" || l == "false" {
				return l
			}
		case "object", "array":
			open := byte('{')
			if typ == "array" {
				open = '['
			}
			if t != "" && t[0] == open && json.Valid([]byte(t)) {
				return string(compact([]byte(t)))
			}
		}
	}
	return jsonString(v)
}

// jsonString returns s as a JSON string, with <, > and & as they are.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// scanXMLCall scans the body of one <tool_call> in the XML format: a
// <function=NAME> block of <parameter=P>value</parameter> items. The
// arguments are built as a JSON object in the parameters' order; a string
// value is streamed as it is written (holding back what may be the
// closing tag, the newline before it and an incomplete UTF-8 sequence),
// any other value once its closing tag is read. memo (nil: none) resumes
// an unfinished string value read before and keeps this one if it is
// unfinished, so that a long value is not read again on every piece.
func scanXMLCall(body string, types toolTypes, memo *xmlMemo) (partialCall, int, scanState) {
	var c partialCall
	var args *strings.Builder
	var i int
	first := true
	if memo != nil && memo.raw != "" && strings.HasPrefix(body, memo.raw) {
		m := *memo
		*memo = xmlMemo{} // its builder is this value's now; kept again below if unfinished
		c.name, c.ready, args, first = m.name, true, m.args, false
		end, done := stringParam(body, len(m.raw), args, m.done)
		if end < 0 {
			c.args = args.String()
			*memo = xmlMemo{raw: m.raw, name: m.name, args: args, done: done}
			return c, len(body), scanMore
		}
		i = end
	} else {
		i = skipSpace(body, 0)
		if ok, more := expect(body, i, xmlFunction); !ok {
			return c, i, stateOf(more)
		}
		i += len(xmlFunction)
		name, n, st := tagName(body, i)
		if st != scanDone {
			return c, n, st
		}
		c.name, c.ready, i = name, true, n
		args = &strings.Builder{}
		args.WriteByte('{')
	}
	ptypes := types[c.name]
	for ; ; first = false {
		c.args = args.String()
		i = skipSpace(body, i)
		if i == len(body) {
			return c, i, scanMore
		}
		if ok, more := expect(body, i, xmlFunctionEnd); ok {
			args.WriteByte('}')
			c.args, c.done = args.String(), true
			return c, i + len(xmlFunctionEnd), scanDone
		} else if more {
			return c, i, scanMore
		}
		ok, more := expect(body, i, xmlParam)
		if !ok {
			return c, i, stateOf(more)
		}
		pname, n, st := tagName(body, i+len(xmlParam))
		if st != scanDone {
			return c, n, st
		}
		if !first {
			args.WriteByte(',')
		}
		args.WriteString(jsonString(pname))
		args.WriteByte(':')
		i = n
		pt := ptypes[pname]
		if isStringParam(pt) {
			args.WriteByte('"')
			if i == len(body) {
				c.args = args.String()
				return c, i, scanMore // the newline after the tag may follow
			}
			vs := i
			if body[vs] == '\n' {
				vs++
			}
			end, done := stringParam(body, vs, args, 0)
			if end < 0 {
				c.args = args.String()
				if memo != nil {
					*memo = xmlMemo{raw: body[:vs], name: c.name, args: args, done: done}
				}
				return c, len(body), scanMore
			}
			i = end
			continue
		}
		end := strings.Index(body[i:], xmlParamEnd)
		if end < 0 {
			c.args = args.String()
			return c, len(body), scanMore
		}
		value := strings.TrimSuffix(strings.TrimPrefix(body[i:i+end], "\n"), "\n")
		args.WriteString(paramJSON(value, pt))
		i += end + len(xmlParamEnd)
	}
}

// xmlMemo is where scanXMLCall stopped in an unfinished string value: the
// body up to the value's first byte, the call's name, the arguments' text
// (ending inside the value's JSON string) and how many bytes of the value
// it holds. Like valueMemo, it is a function of raw alone.
type xmlMemo struct {
	raw  string
	name string
	args *strings.Builder
	done int
}

// stringParam adds to args, a JSON string opened for the value at
// body[vs:], the value's bytes from done on: up to its closing tag when
// that has been written (closing the string; end is the offset after the
// tag), else what is known of it (end is -1). It returns the bytes of the
// value args holds.
func stringParam(body string, vs int, args *strings.Builder, done int) (end, held int) {
	value := body[vs:]
	if k := strings.Index(value[done:], xmlParamEnd); k >= 0 {
		v := strings.TrimSuffix(value[:done+k], "\n")
		if len(v) > done {
			args.WriteString(jsonStringBody(v[done:]))
		}
		args.WriteByte('"')
		return vs + done + k + len(xmlParamEnd), len(v)
	}
	if v := heldBack(value); len(v) > done {
		args.WriteString(jsonStringBody(v[done:]))
		done = len(v)
	}
	return -1, done
}

// jsonStringBody returns s escaped as inside a JSON string.
func jsonStringBody(s string) string {
	q := jsonString(s)
	return q[1 : len(q)-1]
}

// heldBack returns the part of an unfinished string value that is known
// to belong to it: without a suffix that may start the closing tag, the
// newline that may precede it, and an incomplete UTF-8 sequence.
func heldBack(v string) string {
	for k := min(len(xmlParamEnd)-1, len(v)); k > 0; k-- {
		if strings.HasSuffix(v, xmlParamEnd[:k]) {
			v = v[:len(v)-k]
			break
		}
	}
	return wholeRunes(strings.TrimSuffix(v, "\n"))
}

// tagName reads NAME> at s[i:]: a name of at least one byte without
// white space or '<', and the offset after '>'.
func tagName(s string, i int) (string, int, scanState) {
	for j := i; j < len(s); j++ {
		switch c := s[j]; {
		case c == '>':
			if j == i {
				return "", j, scanBad
			}
			return s[i:j], j + 1, scanDone
		case c == '<' || isSpace(c):
			return "", j, scanBad
		}
	}
	return "", len(s), scanMore
}

// stateOf is scanMore when the input may still become what was expected,
// else scanBad.
func stateOf(more bool) scanState {
	if more {
		return scanMore
	}
	return scanBad
}
