package rbnf

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// Errors returned by [RuleSets.Format] and [RuleSets.FormatDecimal]. Match
// them with errors.Is.
var (
	// ErrUnknownRuleSet means the rule set name is not defined (or names a
	// private rule set).
	ErrUnknownRuleSet = errors.New("rbnf: unknown rule set")
	// ErrNoRule means no rule of the rule set applies to the number (for
	// example a negative number in a rule set without a "-x" rule).
	ErrNoRule = errors.New("rbnf: no rule applies")
	// ErrTooDeep means the rules recursed more than maxDepth times, which
	// only a malformed (cyclic) rule set does.
	ErrTooDeep = errors.New("rbnf: rules recurse too deeply")
)

// maxDepth bounds the recursion of rule applications; CLDR's deepest
// chains are about a dozen.
const maxDepth = 64

// maxOutput bounds the length of a formatted number, in bytes.
const maxOutput = 4096

// Special rule kinds, by descriptor.
type ruleKind uint8

const (
	kNormal   ruleKind = iota // "123:", "100/1000:", "1000>:"
	kNegative                 // "-x:"
	kImproper                 // "x.x:" or "x,x:" (a number with a fraction)
	kProper                   // "0.x:" or "0,x:" (a number between 0 and 1)
	kMaster                   // "x.0:" or "x,0:"
	kInf                      // "Inf:"
	kNaN                      // "NaN:"
)

// nodeKind is the kind of one piece of a rule body.
type nodeKind uint8

const (
	nText     nodeKind = iota // literal text
	nSub                      // a substitution: ←←, →→, →→→, ==
	nPlural                   // $(cardinal,one{…}other{…})$
	nOptional                 // [ … ]: children omitted in some cases
)

// node is one piece of a rule body.
type node struct {
	kind nodeKind
	text string // nText: the text
	// nSub: tok is '<', '>' or '='; triple is set for →→→; ref names a
	// rule set ("%name" or "%%name"), pattern is a decimal pattern such
	// as "#,##0", and both are empty for "the same rule set".
	tok     byte
	tokRune rune // as written: '<', '←', '>', '→' or '='
	triple  bool
	ref     string
	pattern string
	set     *ruleSet // resolved ref
	// nPlural: ordinal selects the ordinal plural rules; forms maps a
	// plural keyword ("one", "other", "=0") to its text.
	ordinal bool
	forms   map[string]string
	keys    []string // forms' keys in source order, for String
	// nOptional: the optional children, and with "[a|b]" the children
	// used instead when the optional ones are left out.
	kids   []node
	alt    []node
	hasAlt bool
}

// rule is one rule of a rule set.
type rule struct {
	kind     ruleKind
	base     int64 // kNormal: the base value
	radix    int64
	exponent int
	divisor  int64 // radix^exponent
	desc     string
	body     []node
	hasMod   bool // the body has a →→ substitution
}

// ruleSet is one named rule set.
type ruleSet struct {
	name     string
	normal   []*rule // sorted by base value
	negative *rule
	improper *rule
	proper   *rule
	master   *rule
	other    []*rule // Inf, NaN: kept for String only
	all      []*rule // in source order
}

// RuleSets is the parsed rule text of one locale: the rule sets by name. It
// is immutable after [Parse] and safe for concurrent use by multiple
// goroutines.
type RuleSets struct {
	locale language.Tag
	sets   map[string]*ruleSet
	order  []string // set names in source order
}

// Locale returns the locale the rule sets were parsed for, which selects
// the plural rules of $(cardinal,…)$ substitutions.
func (r *RuleSets) Locale() string { return r.locale.String() }

// Names returns the public rule set names ("%spellout-cardinal", ...) in
// source order. Private sets ("%%...") are left out.
func (r *RuleSets) Names() []string {
	var out []string
	for _, n := range r.order {
		if !strings.HasPrefix(n, "%%") {
			out = append(out, n)
		}
	}
	return out
}

// Has reports whether the public rule set name is defined.
func (r *RuleSets) Has(name string) bool {
	return !strings.HasPrefix(name, "%%") && r.sets[name] != nil
}

// A ParseError reports malformed rule text.
type ParseError struct {
	Line int    // 1-based line of the offending rule
	Msg  string // what is wrong
}

func (e *ParseError) Error() string { return fmt.Sprintf("rbnf: line %d: %s", e.Line, e.Msg) }

// Parse parses rule text in ICU's RuleBasedNumberFormat syntax: rule sets
// introduced by "%name:" (or "%%name:" for private ones), each followed by
// rules "descriptor: body;". Both the ASCII substitution tokens (<< >> ==)
// and CLDR's JSON arrows (← →) are accepted. locale selects the plural
// rules used by $(…)$ substitutions. Names of other rule sets are resolved;
// a reference to an undefined set is an error.
func Parse(locale, text string) (*RuleSets, error) {
	tag, err := language.Parse(locale)
	if err != nil {
		return nil, fmt.Errorf("rbnf: locale %q: %w", locale, err)
	}
	rs := &RuleSets{locale: tag, sets: map[string]*ruleSet{}}
	var cur *ruleSet
	line := 1
	for len(text) > 0 {
		chunk, rest, terminated := cutRule(text)
		startLine := line + strings.Count(chunk[:len(chunk)-len(strings.TrimLeftFunc(chunk, unicode.IsSpace))], "\n")
		line += strings.Count(chunk, "\n")
		text = rest
		// Spaces before ';' belong to the rule ("0: =%x= ;").
		chunk = strings.TrimLeftFunc(chunk, unicode.IsSpace)
		if !terminated {
			chunk = strings.TrimRightFunc(chunk, unicode.IsSpace)
		}
		if chunk == "" {
			continue
		}
		if chunk[0] == '%' {
			name, r, ok := strings.Cut(chunk, ":")
			name = strings.TrimSpace(name)
			if !ok || !validName(name) {
				return nil, &ParseError{startLine, fmt.Sprintf("bad rule set name in %q", clip(chunk))}
			}
			if rs.sets[name] != nil {
				return nil, &ParseError{startLine, "duplicate rule set " + name}
			}
			cur = &ruleSet{name: name}
			rs.sets[name] = cur
			rs.order = append(rs.order, name)
			chunk = strings.TrimLeftFunc(r, unicode.IsSpace)
			if strings.TrimSpace(chunk) == "" {
				return nil, &ParseError{startLine, "rule set " + name + " has no rule before ';'"}
			}
		}
		if cur == nil {
			return nil, &ParseError{startLine, "rule before the first rule set name"}
		}
		ru, err := parseRule(chunk, cur)
		if err != nil {
			return nil, &ParseError{startLine, err.Error()}
		}
		if err := cur.add(ru); err != nil {
			return nil, &ParseError{startLine, err.Error()}
		}
	}
	if len(rs.sets) == 0 {
		return nil, &ParseError{1, "no rule sets"}
	}
	// Resolve references.
	for _, name := range rs.order {
		s := rs.sets[name]
		if len(s.all) == 0 {
			return nil, &ParseError{1, "rule set " + name + " is empty"}
		}
		for _, ru := range s.all {
			if err := rs.link(ru.body, s); err != nil {
				return nil, &ParseError{1, name + ": " + err.Error()}
			}
		}
	}
	return rs, nil
}

// cutRule returns the text up to and including the first ';' that is not
// inside a $(…)$ plural substitution, and the rest.
func cutRule(s string) (chunk, rest string, ok bool) {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '$' && i+1 < len(s) && s[i+1] == '(':
			// Skip to the ")$" that parseBody will take as the end.
			end := strings.Index(s[i+2:], ")$")
			if end < 0 {
				return s, "", false
			}
			i += 2 + end + 1
		case s[i] == ';':
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func clip(s string) string {
	if len(s) > 40 {
		s = s[:40]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		return s + "…"
	}
	return s
}

func validName(n string) bool {
	n = strings.TrimPrefix(strings.TrimPrefix(n, "%"), "%")
	if n == "" {
		return false
	}
	for _, c := range n {
		if !(c == '-' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func (s *ruleSet) add(ru *rule) error {
	s.all = append(s.all, ru)
	switch ru.kind {
	case kNormal:
		if n := len(s.normal); n > 0 && s.normal[n-1].base >= ru.base {
			return fmt.Errorf("rule %q: base value %d is not above the previous %d", ru.desc, ru.base, s.normal[n-1].base)
		}
		s.normal = append(s.normal, ru)
	case kNegative:
		s.negative = ru
	case kImproper:
		s.improper = ru
	case kProper:
		s.proper = ru
	case kMaster:
		s.master = ru
	default:
		s.other = append(s.other, ru)
	}
	return nil
}

// parseRule parses "descriptor: body" (the descriptor is optional).
func parseRule(chunk string, s *ruleSet) (*rule, error) {
	ru := &rule{radix: 10}
	body := chunk
	if d, b, ok := strings.Cut(chunk, ":"); ok && isDescriptor(strings.TrimSpace(d)) {
		ru.desc, body = strings.TrimSpace(d), b
	}
	switch ru.desc {
	case "":
		// No descriptor: one more than the previous normal rule.
		ru.base = 0
		if n := len(s.normal); n > 0 {
			if s.normal[n-1].base == math.MaxInt64 {
				return nil, errors.New("base value overflows")
			}
			ru.base = s.normal[n-1].base + 1
		}
	case "-x":
		ru.kind = kNegative
	case "x.x", "x,x":
		ru.kind = kImproper
	case "0.x", "0,x":
		ru.kind = kProper
	case "x.0", "x,0":
		ru.kind = kMaster
	case "Inf":
		ru.kind = kInf
	case "NaN":
		ru.kind = kNaN
	default:
		if err := ru.parseBase(ru.desc); err != nil {
			return nil, err
		}
	}
	if ru.kind == kNormal && ru.desc == "" {
		ru.setExponent(0)
	}
	body = strings.TrimLeftFunc(body, unicode.IsSpace)
	body = strings.TrimPrefix(body, "'") // a leading apostrophe keeps the spaces after it
	nodes, err := parseBody(body)
	if err != nil {
		return nil, fmt.Errorf("rule %q: %w", clip(chunk), err)
	}
	ru.body = nodes
	ru.hasMod = hasTok(nodes, '>')
	if err := ru.check(); err != nil {
		return nil, fmt.Errorf("rule %q: %w", clip(chunk), err)
	}
	return ru, nil
}

// isDescriptor reports whether d is a rule descriptor: a base value with
// optional radix and exponent marks, or one of the special descriptors.
func isDescriptor(d string) bool {
	switch d {
	case "-x", "x.x", "x,x", "0.x", "0,x", "x.0", "x,0", "Inf", "NaN":
		return true
	}
	if d == "" || d[0] < '0' || d[0] > '9' {
		return false
	}
	for _, c := range d {
		if !(c >= '0' && c <= '9' || c == ',' || c == '.' || c == ' ' || c == '/' || c == '>') {
			return false
		}
	}
	return true
}

// parseBase parses "1,000", "100/1000", "1000>" or "11000000/1,000".
func (ru *rule) parseBase(d string) error {
	num := func(s string) (int64, error) {
		s = strings.Map(func(r rune) rune {
			if r == ',' || r == '.' || r == ' ' {
				return -1
			}
			return r
		}, s)
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < 0 {
			return 0, fmt.Errorf("bad number %q in descriptor", s)
		}
		return v, nil
	}
	shift := 0
	for strings.HasSuffix(d, ">") {
		d = d[:len(d)-1]
		shift++
	}
	b, r, hasRadix := strings.Cut(d, "/")
	v, err := num(b)
	if err != nil {
		return err
	}
	ru.base = v
	if hasRadix {
		if ru.radix, err = num(r); err != nil {
			return err
		}
		if ru.radix < 2 {
			return fmt.Errorf("radix %d is below 2", ru.radix)
		}
	}
	ru.setExponent(shift)
	return nil
}

// setExponent sets the exponent (the largest e with radix^e ≤ base, less
// shift) and the divisor.
func (ru *rule) setExponent(shift int) {
	e := 0
	if ru.base > 0 {
		p := int64(1)
		for p <= ru.base/ru.radix {
			p *= ru.radix
			e++
		}
	}
	e -= shift
	if e < 0 {
		e = 0
	}
	ru.exponent = e
	ru.divisor = 1
	for range e {
		ru.divisor *= ru.radix
	}
}

func hasTok(nodes []node, tok byte) bool {
	for _, n := range nodes {
		if n.kind == nSub && n.tok == tok || n.kind == nOptional && (hasTok(n.kids, tok) || hasTok(n.alt, tok)) {
			return true
		}
	}
	return false
}

// check rejects substitutions a rule of its kind cannot have.
func (ru *rule) check() error {
	var bad error
	var walk func([]node)
	walk = func(ns []node) {
		for _, n := range ns {
			if n.kind == nOptional {
				walk(n.kids)
				walk(n.alt)
				continue
			}
			if n.kind != nSub {
				continue
			}
			if ru.kind == kNegative && n.tok == '<' {
				bad = errors.New("←← in a -x rule")
			}
			if n.triple && !(n.tok == '>' && (ru.kind == kNormal || ru.kind == kImproper || ru.kind == kProper)) {
				bad = errors.New("→→→ outside a normal or fraction rule")
			}
			if n.ref == "" && n.pattern == "" && n.tok == '=' && ru.kind != kImproper && ru.kind != kProper {
				bad = errors.New("== without a rule set formats the number with its own rule")
			}
		}
	}
	walk(ru.body)
	return bad
}

// parseBody splits a rule body into text, substitutions, plural forms and
// one level (or more) of [optional] groups.
func parseBody(b string) ([]node, error) {
	var stack [][]node
	var cur []node
	var alts []*[]node // per open group: the kids before '|', once seen
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			cur = append(cur, node{kind: nText, text: text.String()})
			text.Reset()
		}
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRuneInString(b[i:])
		switch {
		case r == '[':
			flush()
			stack = append(stack, cur)
			alts = append(alts, nil)
			cur = nil
			i += size
		case r == '|' && len(stack) > 0 && alts[len(alts)-1] == nil:
			// "[a|b]": b replaces a where a would be left out.
			flush()
			first := cur
			alts[len(alts)-1] = &first
			cur = nil
			i += size
		case r == ']':
			if len(stack) == 0 {
				return nil, errors.New("']' without '['")
			}
			flush()
			opt := node{kind: nOptional, kids: cur}
			if a := alts[len(alts)-1]; a != nil {
				opt.kids, opt.alt, opt.hasAlt = *a, cur, true
			}
			cur = append(stack[len(stack)-1], opt)
			stack = stack[:len(stack)-1]
			alts = alts[:len(alts)-1]
			i += size
		case r == '$' && strings.HasPrefix(b[i:], "$("):
			end := strings.Index(b[i:], ")$")
			if end < 0 {
				return nil, errors.New("'$(' without ')$'")
			}
			flush()
			n, err := parsePlural(b[i+2 : i+end])
			if err != nil {
				return nil, err
			}
			cur = append(cur, n)
			i += end + 2
		case r == '<' || r == '>' || r == '=' || r == '←' || r == '→':
			tok := byte(r)
			switch r {
			case '←':
				tok = '<'
			case '→':
				tok = '>'
			}
			j := i + size
			// The substitution ends at the next occurrence of the same token.
			end := -1
			for k := j; k < len(b); {
				r2, s2 := utf8.DecodeRuneInString(b[k:])
				if r2 == r {
					end = k
					break
				}
				k += s2
			}
			if end < 0 {
				// No closing token: the character is literal text (CLDR's
				// ky rules have "0* ←#,##0←←").
				text.WriteString(b[i : i+size])
				i += size
				continue
			}
			inner := b[j:end]
			next := end + size
			triple := false
			if tok == '>' && inner == "" && strings.HasPrefix(b[next:], string(r)) {
				triple = true
				next += size
			}
			n := node{kind: nSub, tok: tok, tokRune: r, triple: triple}
			switch {
			case inner == "":
			case inner[0] == '%':
				if !validName(inner) {
					return nil, fmt.Errorf("bad rule set name %q", inner)
				}
				n.ref = inner
			case inner[0] == '#' || inner[0] == '0':
				if strings.Trim(inner, "#0,.") != "" {
					return nil, fmt.Errorf("bad decimal pattern %q", inner)
				}
				n.pattern = inner
			default:
				return nil, fmt.Errorf("bad substitution %q", inner)
			}
			flush()
			cur = append(cur, n)
			i = next
		default:
			text.WriteString(b[i : i+size])
			i += size
		}
	}
	if len(stack) > 0 {
		return nil, errors.New("'[' without ']'")
	}
	flush()
	return cur, nil
}

// parsePlural parses "cardinal,one{…}few{…}other{…}".
func parsePlural(s string) (node, error) {
	typ, forms, ok := strings.Cut(s, ",")
	n := node{kind: nPlural, forms: map[string]string{}}
	switch typ {
	case "cardinal":
	case "ordinal":
		n.ordinal = true
	default:
		return n, fmt.Errorf("plural type %q is not cardinal or ordinal", typ)
	}
	if !ok {
		return n, errors.New("plural substitution without forms")
	}
	for forms = strings.TrimSpace(forms); forms != ""; forms = strings.TrimSpace(forms) {
		open := strings.IndexByte(forms, '{')
		if open <= 0 {
			return n, fmt.Errorf("bad plural forms %q", clip(forms))
		}
		closing := strings.IndexByte(forms[open:], '}')
		if closing < 0 {
			return n, fmt.Errorf("unterminated plural form %q", clip(forms))
		}
		key := strings.TrimSpace(forms[:open])
		switch key {
		case "zero", "one", "two", "few", "many", "other":
		default:
			if _, err := strconv.ParseInt(strings.TrimPrefix(key, "="), 10, 64); err != nil || key[0] != '=' {
				return n, fmt.Errorf("bad plural keyword %q", key)
			}
		}
		text := forms[open+1 : open+closing]
		if strings.Contains(text, "$(") || strings.Contains(text, ")$") || strings.ContainsAny(text, ";{") {
			return n, fmt.Errorf("plural form %q contains $(, )$, ; or {", text)
		}
		if _, dup := n.forms[key]; dup {
			return n, fmt.Errorf("duplicate plural keyword %q", key)
		}
		n.forms[key] = forms[open+1 : open+closing]
		n.keys = append(n.keys, key)
		forms = forms[open+closing+1:]
	}
	if _, ok := n.forms["other"]; !ok {
		return n, errors.New("plural substitution without an 'other' form")
	}
	return n, nil
}

func (rs *RuleSets) link(ns []node, self *ruleSet) error {
	for k := range ns {
		n := &ns[k]
		switch {
		case n.kind == nOptional:
			if err := rs.link(n.kids, self); err != nil {
				return err
			}
			if err := rs.link(n.alt, self); err != nil {
				return err
			}
		case n.kind == nSub && n.ref != "":
			n.set = rs.sets[n.ref]
			if n.set == nil {
				return fmt.Errorf("reference to undefined rule set %s", n.ref)
			}
		}
	}
	return nil
}

// String returns the rule text in a canonical form that [Parse] reads back
// to the same rule sets: one rule a line, ASCII substitution tokens.
func (r *RuleSets) String() string {
	var b strings.Builder
	for _, name := range r.order {
		s := r.sets[name]
		b.WriteString(name)
		b.WriteString(":\n")
		for _, ru := range s.all {
			if ru.desc != "" {
				b.WriteString(ru.desc)
				b.WriteString(": ")
			}
			body := bodyString(ru.body)
			first, _ := utf8.DecodeRuneInString(body)
			if body == "" || unicode.IsSpace(first) || first == '\'' || first == '%' || ru.desc == "" && strings.Contains(body, ":") {
				b.WriteByte('\'')
			}
			b.WriteString(body)
			b.WriteString(";\n")
		}
	}
	return b.String()
}

func bodyString(ns []node) string {
	var b strings.Builder
	for _, n := range ns {
		switch n.kind {
		case nText:
			b.WriteString(n.text)
		case nOptional:
			b.WriteByte('[')
			b.WriteString(bodyString(n.kids))
			if n.hasAlt {
				b.WriteByte('|')
				b.WriteString(bodyString(n.alt))
			}
			b.WriteByte(']')
		case nPlural:
			b.WriteString("$(")
			if n.ordinal {
				b.WriteString("ordinal")
			} else {
				b.WriteString("cardinal")
			}
			b.WriteByte(',')
			for _, k := range n.keys {
				b.WriteString(k)
				b.WriteByte('{')
				b.WriteString(n.forms[k])
				b.WriteByte('}')
			}
			b.WriteString(")$")
		case nSub:
			t := string(n.tokRune)
			b.WriteString(t)
			b.WriteString(n.ref)
			b.WriteString(n.pattern)
			b.WriteString(t)
			if n.triple {
				b.WriteString(t)
			}
		}
	}
	return b.String()
}

// Format spells n with the public rule set name (for example
// "%spellout-cardinal"). It returns an error matching [ErrUnknownRuleSet],
// [ErrNoRule] or [ErrTooDeep]. Numbers beyond the rule set's largest rule
// may come back in digits, as CLDR's rules write them ("=#,##0=").
func (r *RuleSets) Format(name string, n int64) (string, error) {
	s := r.sets[name]
	if s == nil || strings.HasPrefix(name, "%%") {
		return "", fmt.Errorf("%w %q", ErrUnknownRuleSet, name)
	}
	f := formatter{rs: r}
	if err := f.format(s, n, 0); err != nil {
		return "", err
	}
	return f.result()
}

// FormatDecimal spells a decimal number written with ASCII digits, an
// optional leading '-' and an optional '.' before the fraction ("12",
// "-0.25"), using the rule set's x.x and 0.x rules for the fraction.
func (r *RuleSets) FormatDecimal(name, number string) (string, error) {
	s := r.sets[name]
	if s == nil || strings.HasPrefix(name, "%%") {
		return "", fmt.Errorf("%w %q", ErrUnknownRuleSet, name)
	}
	neg := strings.HasPrefix(number, "-")
	ip, fp, _ := strings.Cut(strings.TrimPrefix(number, "-"), ".")
	if ip == "" {
		ip = "0"
	}
	if strings.Trim(ip, "0123456789") != "" || strings.Trim(fp, "0123456789") != "" {
		return "", fmt.Errorf("rbnf: %q is not a decimal number", number)
	}
	iv, err := strconv.ParseInt(ip, 10, 64)
	if err != nil {
		return "", fmt.Errorf("rbnf: %q: %w", number, err)
	}
	f := formatter{rs: r}
	if err := f.formatDec(s, neg, iv, strings.TrimRight(fp, "0"), 0); err != nil {
		return "", err
	}
	return f.result()
}

type formatter struct {
	rs *RuleSets
	b  strings.Builder
}

// result returns the formatted text, or ErrTooDeep when it grew past
// maxOutput: the check on entering each substitution bounds the recursion,
// but one rule's literal text can be long (a fuzzed 10 kB rule body).
func (f *formatter) result() (string, error) {
	if f.b.Len() > maxOutput {
		return "", fmt.Errorf("%w: output over %d bytes", ErrTooDeep, maxOutput)
	}
	return f.b.String(), nil
}

func (f *formatter) format(s *ruleSet, n int64, depth int) error {
	return f.formatDec(s, n < 0, abs(n), "", depth)
}

func abs(n int64) int64 {
	if n < 0 {
		if n == math.MinInt64 {
			return math.MaxInt64
		}
		return -n
	}
	return n
}

// formatDec formats the number (-1)^neg × (ip + 0.fp).
func (f *formatter) formatDec(s *ruleSet, neg bool, ip int64, fp string, depth int) error {
	if depth > maxDepth {
		return ErrTooDeep
	}
	if f.b.Len() > maxOutput {
		return fmt.Errorf("%w: output over %d bytes", ErrTooDeep, maxOutput)
	}
	neg = neg && (ip != 0 || fp != "")
	if neg && s.negative != nil {
		return f.apply(s, s.negative, false, ip, fp, depth)
	}
	if fp != "" {
		switch {
		case ip == 0 && s.proper != nil:
			return f.apply(s, s.proper, false, ip, fp, depth)
		case s.improper != nil:
			return f.apply(s, s.improper, false, ip, fp, depth)
		case s.master != nil:
			return f.apply(s, s.master, false, ip, fp, depth)
		}
		// No fraction rules: the integer part alone (ICU rounds; the
		// callers here pass integers).
	}
	ru, err := s.find(ip)
	if err != nil {
		return err
	}
	if neg && !hasTok(ru.body, '=') {
		return fmt.Errorf("%w: %s has no -x rule", ErrNoRule, s.name)
	}
	// A negative number in a set without a -x rule takes the rule of its
	// absolute value, whose == substitutions see the sign (as in ICU:
	// "0: =%spellout-cardinal=;" hands -5 on whole).
	return f.apply(s, ru, neg, ip, "", depth)
}

// find returns the normal rule for n: the one with the largest base value
// ≤ n, or the one before it when n is a multiple of the rule's divisor but
// the base value is not (ICU's roll-back, for rules like "x1: …").
func (s *ruleSet) find(n int64) (*rule, error) {
	i, found := slices.BinarySearchFunc(s.normal, n, func(r *rule, v int64) int {
		switch {
		case r.base < v:
			return -1
		case r.base > v:
			return 1
		}
		return 0
	})
	if !found {
		i--
	}
	if i < 0 {
		return nil, fmt.Errorf("%w: %s has no rule for %d", ErrNoRule, s.name, n)
	}
	ru := s.normal[i]
	if ru.hasMod && ru.divisor > 0 && n%ru.divisor == 0 && ru.base%ru.divisor != 0 && i > 0 {
		ru = s.normal[i-1]
	}
	return ru, nil
}

// apply formats the number with rule ru of set s.
func (f *formatter) apply(s *ruleSet, ru *rule, neg bool, ip int64, fp string, depth int) error {
	return f.nodes(s, ru, ru.body, neg, ip, fp, depth)
}

func (f *formatter) nodes(s *ruleSet, ru *rule, ns []node, neg bool, ip int64, fp string, depth int) error {
	for k := range ns {
		n := &ns[k]
		switch n.kind {
		case nText:
			f.b.WriteString(n.text)
		case nOptional:
			kids := n.kids
			if f.omit(ru, ip, fp) {
				kids = n.alt
			}
			if err := f.nodes(s, ru, kids, neg, ip, fp, depth); err != nil {
				return err
			}
		case nPlural:
			f.plural(ru, n, ip)
		case nSub:
			if err := f.sub(s, ru, n, neg, ip, fp, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// omit reports whether a rule's [optional] text is left out: in a normal
// rule when the number is a multiple of the divisor (→→ would format 0),
// in a fraction rule when the integer part is 0.
func (f *formatter) omit(ru *rule, ip int64, fp string) bool {
	switch ru.kind {
	case kNormal:
		return ru.divisor > 0 && ip%ru.divisor == 0
	case kImproper, kMaster:
		return ip == 0
	case kProper:
		return fp == ""
	}
	return false
}

func (f *formatter) plural(ru *rule, n *node, ip int64) {
	v := ip
	if ru.kind == kNormal && ru.divisor > 0 {
		v = ip / ru.divisor
	}
	if t, ok := n.forms["="+strconv.FormatInt(v, 10)]; ok {
		f.b.WriteString(t)
		return
	}
	rules := plural.Cardinal
	if n.ordinal {
		rules = plural.Ordinal
	}
	i := v
	if i > math.MaxInt32 {
		i = i%1000000 + 1000000 // the plural operands only look at the last digits
	}
	form := rules.MatchPlural(f.rs.locale, int(i), 0, 0, 0, 0)
	key := [...]string{plural.Other: "other", plural.Zero: "zero", plural.One: "one", plural.Two: "two",
		plural.Few: "few", plural.Many: "many"}[form]
	t, ok := n.forms[key]
	if !ok {
		t = n.forms["other"]
	}
	f.b.WriteString(t)
}

// sub formats one substitution.
func (f *formatter) sub(s *ruleSet, ru *rule, n *node, neg bool, ip int64, fp string, depth int) error {
	target := s
	if n.set != nil {
		target = n.set
	}
	switch ru.kind {
	case kNegative:
		// →→ and == format the absolute value.
		if n.pattern != "" {
			f.b.WriteString(decimal(n.pattern, ip, fp))
			return nil
		}
		return f.formatDec(target, false, ip, fp, depth+1)
	case kImproper, kProper, kMaster:
		switch n.tok {
		case '<':
			if n.pattern != "" {
				f.b.WriteString(decimal(n.pattern, ip, ""))
				return nil
			}
			return f.formatDec(target, false, ip, "", depth+1)
		case '>':
			if n.pattern != "" {
				f.b.WriteString(digits(fp))
				return nil
			}
			// The fraction, digit by digit; →→→ without spaces.
			for k := 0; k < len(fp); k++ {
				if k > 0 && !n.triple {
					f.b.WriteByte(' ')
				}
				if err := f.formatDec(target, false, int64(fp[k]-'0'), "", depth+1); err != nil {
					return err
				}
			}
			return nil
		default:
			if n.pattern != "" {
				f.b.WriteString(decimal(n.pattern, ip, fp))
				return nil
			}
			return f.formatDec(target, false, ip, fp, depth+1)
		}
	case kNormal:
		if neg && n.tok != '=' {
			return fmt.Errorf("%w: %s has no -x rule", ErrNoRule, s.name)
		}
		d := ru.divisor
		if d <= 0 {
			d = 1
		}
		var v int64
		switch n.tok {
		case '<':
			v = ip / d
		case '>':
			v = ip % d
			if n.triple {
				// →→→: the remainder through the rule before this one,
				// bypassing rule selection.
				prev, err := s.before(ru)
				if err != nil {
					return err
				}
				if depth+1 > maxDepth {
					return ErrTooDeep
				}
				return f.apply(s, prev, false, v, "", depth+1)
			}
		default:
			v = ip
		}
		if n.pattern != "" {
			if neg {
				f.b.WriteByte('-')
			}
			f.b.WriteString(decimal(n.pattern, v, ""))
			return nil
		}
		if n.tok == '=' && n.set == nil {
			return errors.New("rbnf: == without a rule set")
		}
		return f.formatDec(target, neg, v, "", depth+1)
	}
	return fmt.Errorf("%w: substitution in a %s rule", ErrNoRule, ru.desc)
}

func (s *ruleSet) before(ru *rule) (*rule, error) {
	i := slices.Index(s.normal, ru)
	if i <= 0 {
		return nil, fmt.Errorf("%w: →→→ in the first rule of %s", ErrNoRule, s.name)
	}
	return s.normal[i-1], nil
}

// decimal formats ip.fp with a DecimalFormat pattern. Grouping is left out
// (the callers spell numbers; digits only appear past a rule set's range).
func decimal(pattern string, ip int64, fp string) string {
	out := strconv.FormatInt(ip, 10)
	if i := strings.IndexByte(pattern, '.'); i >= 0 {
		minFrac := strings.Count(pattern[i:], "0")
		maxFrac := len(pattern) - i - 1
		for len(fp) < minFrac {
			fp += "0"
		}
		if len(fp) > maxFrac {
			fp = fp[:maxFrac]
		}
		if fp != "" {
			out += "." + fp
		}
	}
	return out
}

func digits(fp string) string { return fp }
