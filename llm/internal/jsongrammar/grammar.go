package jsongrammar

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// ErrUnsupported is matched by errors about schemas outside the subset.
var ErrUnsupported = errors.New("jsongrammar: unsupported schema")

type kind uint8

const (
	kLit    kind = iota // the bytes of s
	kSeq                // kids in order
	kAlt                // one of kids
	kRep                // kid repeated min..max times (max < 0: unbounded), separated by sep
	kString             // a JSON string of min..max characters (max < 0: unbounded)
	kNumber             // a JSON number (integer: no fraction or exponent)
)

type node struct {
	kind     kind
	s        string
	kids     []*node
	sep      *node
	min, max int
	integer  bool
}

// Grammar is a compiled schema. It is immutable and safe for concurrent
// use; each generation takes its own [Matcher].
type Grammar struct{ root *node }

// maxNumberLen bounds the bytes of a number, so that a model cannot write
// digits forever.
const maxNumberLen = 24

func lit(s string) *node      { return &node{kind: kLit, s: s} }
func seq(kids ...*node) *node { return &node{kind: kSeq, kids: kids} }
func alt(kids ...*node) *node { return &node{kind: kAlt, kids: kids} }
func ws() *node               { return alt(lit(""), lit(" ")) }
func rep(k, sep *node, lo, hi int) *node {
	return &node{kind: kRep, kids: []*node{k}, sep: sep, min: lo, max: hi}
}

// annotations are keywords that do not constrain values.
var annotations = map[string]bool{"title": true, "description": true, "default": true, "examples": true,
	"format": true, "$schema": true, "$id": true, "$comment": true, "strict": true, "readOnly": true,
	"writeOnly": true, "deprecated": true, "$defs": true, "definitions": true}

type compiler struct {
	root  map[string]json.RawMessage
	refs  map[string]*node
	depth int
}

// Compile compiles a JSON schema (a JSON object; true or {} mean any JSON
// value).
func Compile(schema []byte) (*Grammar, error) {
	schema = bytes.TrimSpace(schema)
	if string(schema) == "true" || len(schema) == 0 {
		schema = []byte("{}")
	}
	var root map[string]json.RawMessage
	if err := json.Unmarshal(schema, &root); err != nil {
		// Not the decoder's message: it names Go types
		// (map[string]json.RawMessage), which the schema's author never wrote.
		return nil, errors.New("jsongrammar: the schema is not a JSON object")
	}
	c := &compiler{root: root, refs: map[string]*node{}}
	n, err := c.schema(schema, "#")
	if err != nil {
		return nil, err
	}
	return &Grammar{root: n}, nil
}

func unsupported(path, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", ErrUnsupported, path, fmt.Sprintf(format, args...))
}

func (c *compiler) schema(raw json.RawMessage, path string) (*node, error) {
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > 64 {
		return nil, unsupported(path, "nested too deeply")
	}
	raw = bytes.TrimSpace(raw)
	switch string(raw) {
	case "true":
		return anyValue(), nil
	case "false":
		return nil, unsupported(path, "the schema false admits no value")
	}
	var s map[string]json.RawMessage
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("jsongrammar: %s: a schema must be an object or a boolean", path)
	}
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	known := map[string]bool{"type": true, "properties": true, "required": true, "items": true, "minItems": true,
		"maxItems": true, "enum": true, "const": true, "anyOf": true, "oneOf": true, "allOf": true, "$ref": true,
		"nullable": true, "minLength": true, "maxLength": true, "additionalProperties": true}
	for _, k := range keys {
		if !known[k] && !annotations[k] {
			return nil, unsupported(path, "keyword %q is not enforced", k)
		}
	}
	if r, ok := s["$ref"]; ok {
		var ref string
		if json.Unmarshal(r, &ref) != nil {
			return nil, fmt.Errorf("jsongrammar: %s: $ref must be a string", path)
		}
		return c.ref(ref, path)
	}
	if v, ok := s["const"]; ok {
		l, err := literal(v)
		if err != nil {
			return nil, fmt.Errorf("jsongrammar: %s.const: %w", path, err)
		}
		return c.nullable(s, lit(l)), nil
	}
	if v, ok := s["enum"]; ok {
		var vals []json.RawMessage
		if json.Unmarshal(v, &vals) != nil || len(vals) == 0 {
			return nil, fmt.Errorf("jsongrammar: %s.enum must be a non-empty array", path)
		}
		var kids []*node
		for _, v := range vals {
			l, err := literal(v)
			if err != nil {
				return nil, fmt.Errorf("jsongrammar: %s.enum: %w", path, err)
			}
			kids = append(kids, lit(l))
		}
		return c.nullable(s, alt(kids...)), nil
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		v, ok := s[k]
		if !ok {
			continue
		}
		var subs []json.RawMessage
		if json.Unmarshal(v, &subs) != nil || len(subs) == 0 {
			return nil, fmt.Errorf("jsongrammar: %s.%s must be a non-empty array", path, k)
		}
		if k == "allOf" && len(subs) != 1 {
			return nil, unsupported(path, "allOf with more than one schema")
		}
		if k == "oneOf" && len(subs) > 1 {
			// oneOf needs exactly one match; the branches are accepted as
			// anyOf, which is exact when they do not overlap (the usual
			// case of differently typed or tagged branches).
		}
		var kids []*node
		for i, sub := range subs {
			n, err := c.schema(sub, fmt.Sprintf("%s.%s[%d]", path, k, i))
			if err != nil {
				return nil, err
			}
			kids = append(kids, n)
		}
		return c.nullable(s, alt(kids...)), nil
	}
	var types []string
	if t, ok := s["type"]; ok {
		var one string
		if json.Unmarshal(t, &one) == nil {
			types = []string{one}
		} else if json.Unmarshal(t, &types) != nil || len(types) == 0 {
			return nil, fmt.Errorf("jsongrammar: %s.type must be a string or an array of strings", path)
		}
	}
	if len(types) == 0 {
		// No type: the keywords present say which.
		switch {
		case s["properties"] != nil || s["required"] != nil || s["additionalProperties"] != nil:
			types = []string{"object"}
		case s["items"] != nil || s["minItems"] != nil || s["maxItems"] != nil:
			types = []string{"array"}
		case s["minLength"] != nil || s["maxLength"] != nil:
			types = []string{"string"}
		default:
			return c.nullable(s, anyValue()), nil
		}
	}
	var kids []*node
	for _, t := range types {
		n, err := c.typed(t, s, path)
		if err != nil {
			return nil, err
		}
		kids = append(kids, n)
	}
	if len(kids) == 1 {
		return c.nullable(s, kids[0]), nil
	}
	return c.nullable(s, alt(kids...)), nil
}

func (c *compiler) nullable(s map[string]json.RawMessage, n *node) *node {
	if string(bytes.TrimSpace(s["nullable"])) == "true" {
		return alt(n, lit("null"))
	}
	return n
}

func intField(s map[string]json.RawMessage, k string, def int) (int, error) {
	v, ok := s[k]
	if !ok {
		return def, nil
	}
	var n int
	if err := json.Unmarshal(v, &n); err != nil || n < 0 {
		return 0, fmt.Errorf("jsongrammar: %s must be a non-negative integer", k)
	}
	return n, nil
}

func (c *compiler) typed(t string, s map[string]json.RawMessage, path string) (*node, error) {
	switch t {
	case "null":
		return lit("null"), nil
	case "boolean":
		return alt(lit("true"), lit("false")), nil
	case "integer":
		return &node{kind: kNumber, integer: true}, nil
	case "number":
		return &node{kind: kNumber}, nil
	case "string":
		lo, err := intField(s, "minLength", 0)
		if err != nil {
			return nil, err
		}
		hi, err := intField(s, "maxLength", -1)
		if err != nil {
			return nil, err
		}
		if hi >= 0 && hi < lo {
			return nil, fmt.Errorf("jsongrammar: %s: maxLength < minLength", path)
		}
		return &node{kind: kString, min: lo, max: hi}, nil
	case "array":
		lo, err := intField(s, "minItems", 0)
		if err != nil {
			return nil, err
		}
		hi, err := intField(s, "maxItems", -1)
		if err != nil {
			return nil, err
		}
		if hi >= 0 && hi < lo {
			return nil, fmt.Errorf("jsongrammar: %s: maxItems < minItems", path)
		}
		item := anyValue()
		if it, ok := s["items"]; ok {
			if item, err = c.schema(it, path+".items"); err != nil {
				return nil, err
			}
		}
		return seq(lit("["), rep(item, seq(lit(","), ws()), lo, hi), lit("]")), nil
	case "object":
		return c.object(s, path)
	}
	return nil, fmt.Errorf("jsongrammar: %s: unknown type %q", path, t)
}

func (c *compiler) object(s map[string]json.RawMessage, path string) (*node, error) {
	var required []string
	if r, ok := s["required"]; ok {
		if json.Unmarshal(r, &required) != nil {
			return nil, fmt.Errorf("jsongrammar: %s.required must be an array of strings", path)
		}
	}
	props, err := orderedKeys(s["properties"])
	if err != nil {
		return nil, fmt.Errorf("jsongrammar: %s.properties: %w", path, err)
	}
	if len(props) == 0 {
		if len(required) > 0 {
			return nil, unsupported(path, "required properties without their schemas")
		}
		val := anyValue()
		if ap, ok := s["additionalProperties"]; ok && string(bytes.TrimSpace(ap)) != "true" {
			if string(bytes.TrimSpace(ap)) == "false" {
				return lit("{}"), nil
			}
			if val, err = c.schema(ap, path+".additionalProperties"); err != nil {
				return nil, err
			}
		}
		member := seq(&node{kind: kString, max: -1}, lit(":"), ws(), val)
		return seq(lit("{"), rep(member, seq(lit(","), ws()), 0, -1), lit("}")), nil
	}
	var pm map[string]json.RawMessage
	_ = json.Unmarshal(s["properties"], &pm)
	req := map[string]bool{}
	for _, r := range required {
		if _, ok := pm[r]; !ok {
			return nil, unsupported(path, "required property %q has no schema in properties", r)
		}
		req[r] = true
	}
	n := len(props)
	entries := make([]*node, n)
	for i, k := range props {
		v, err := c.schema(pm[k], path+".properties."+k)
		if err != nil {
			return nil, err
		}
		key, _ := literal(mustJSON(k))
		entries[i] = seq(lit(key), lit(":"), ws(), v)
	}
	// rest[i]: the properties from i on, after at least one was written
	// (so each starts with ','); first: from 0 on, none written yet. A
	// property may be skipped only if it is not required.
	rest := make([]*node, n+1)
	rest[n] = lit("")
	for i := n - 1; i >= 0; i-- {
		var kids []*node
		for j := i; j < n; j++ {
			kids = append(kids, seq(lit(","), ws(), entries[j], rest[j+1]))
			if req[props[j]] {
				break
			}
		}
		if allOptional(props[i:], req) {
			kids = append(kids, lit(""))
		}
		rest[i] = alt(kids...)
	}
	var first []*node
	for j := 0; j < n; j++ {
		first = append(first, seq(entries[j], rest[j+1]))
		if req[props[j]] {
			break
		}
	}
	if allOptional(props, req) {
		first = append(first, lit(""))
	}
	return seq(lit("{"), alt(first...), lit("}")), nil
}

func allOptional(props []string, req map[string]bool) bool {
	for _, p := range props {
		if req[p] {
			return false
		}
	}
	return true
}

func (c *compiler) ref(ref, path string) (*node, error) {
	if n, ok := c.refs[ref]; ok {
		return n, nil
	}
	var raw json.RawMessage
	switch {
	case ref == "#":
		b, _ := json.Marshal(c.root)
		raw = b
	case strings.HasPrefix(ref, "#/$defs/"), strings.HasPrefix(ref, "#/definitions/"):
		parts := strings.SplitN(strings.TrimPrefix(ref, "#/"), "/", 2)
		var defs map[string]json.RawMessage
		if json.Unmarshal(c.root[parts[0]], &defs) != nil {
			return nil, fmt.Errorf("jsongrammar: %s: $ref %q: no %s", path, ref, parts[0])
		}
		name := strings.ReplaceAll(strings.ReplaceAll(parts[1], "~1", "/"), "~0", "~")
		d, ok := defs[name]
		if !ok {
			return nil, fmt.Errorf("jsongrammar: %s: $ref %q not found", path, ref)
		}
		raw = d
	default:
		return nil, unsupported(path, "$ref %q (local references only)", ref)
	}
	// A placeholder breaks recursion: it becomes the compiled schema.
	n := &node{kind: kSeq}
	c.refs[ref] = n
	got, err := c.schema(raw, ref)
	if err != nil {
		return nil, err
	}
	*n = *seq(got)
	return n, nil
}

// anyValue matches any JSON value.
func anyValue() *node {
	v := &node{kind: kAlt}
	str := &node{kind: kString, max: -1}
	member := seq(str, lit(":"), ws(), v)
	obj := seq(lit("{"), rep(member, seq(lit(","), ws()), 0, -1), lit("}"))
	arr := seq(lit("["), rep(v, seq(lit(","), ws()), 0, -1), lit("]"))
	v.kids = []*node{obj, arr, str, {kind: kNumber}, lit("true"), lit("false"), lit("null")}
	return v
}

// literal returns the compact JSON text of a value (no HTML escaping).
func literal(v json.RawMessage) (string, error) {
	var x any
	if err := json.Unmarshal(v, &x); err != nil {
		return "", err
	}
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(x); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

func mustJSON(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// orderedKeys returns the keys of a JSON object in document order.
func orderedKeys(raw json.RawMessage) ([]string, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	t, err := dec.Token()
	if err != nil || t != json.Delim('{') {
		return nil, errors.New("not an object")
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// Tool is a function a forced tool call may name.
type Tool struct {
	Name string
	// Parameters is the JSON schema of the arguments (nil: none, {}).
	Parameters json.RawMessage
}

// ToolCall compiles the grammar of one call of one of tools in a family's
// syntax: before, the tool's name, between, its arguments (an object valid
// against the tool's schema), after. For Hermes/Qwen that is
// `<tool_call>\n{"name": "` NAME `", "arguments": ` ARGS `}\n</tool_call>`.
func ToolCall(before, between, after string, tools []Tool) (*Grammar, error) {
	if len(tools) == 0 {
		return nil, errors.New("jsongrammar: no tools to call")
	}
	var kids []*node
	for _, t := range tools {
		schema := t.Parameters
		if len(bytes.TrimSpace(schema)) == 0 || string(bytes.TrimSpace(schema)) == "null" {
			// A function without parameters takes none.
			schema = json.RawMessage(`{"type":"object","additionalProperties":false}`)
		}
		var root map[string]json.RawMessage
		if err := json.Unmarshal(schema, &root); err != nil {
			return nil, fmt.Errorf("jsongrammar: tool %s: the parameters schema is not a JSON object", t.Name)
		}
		c := &compiler{root: root, refs: map[string]*node{}}
		args, err := c.schema(schema, t.Name+".parameters")
		if err != nil {
			return nil, err
		}
		kids = append(kids, seq(lit(t.Name+between), args))
	}
	return &Grammar{root: seq(lit(before), alt(kids...), lit(after))}, nil
}
