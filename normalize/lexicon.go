package normalize

import (
	"embed"
	"fmt"
	"path"
	"strconv"
	"strings"
)

// This file loads the per-language data files in data/<tag>.tsv: the
// lexicon (units, currencies, magnitudes, months, weekdays, time zones,
// abbreviations, ordinal suffixes, symbols) that both the TN and the ITN
// grammar of a language read, so the two directions cannot disagree. The
// format is documented in data/README.md.

//go:embed data/*.tsv
var dataFiles embed.FS

// lexicon is one language's parsed data file.
type lexicon struct {
	tag      string
	sections map[string][][]string
	order    []string // section names in order of first appearance
}

// sectionMaxFields is the most fields a row of each documented section may
// have; sections not listed (language-defined ones) are unbounded.
var sectionMaxFields = map[string]int{
	"units":            6,
	"currencies":       8,
	"magnitudes":       4,
	"months":           3,
	"weekdays":         3,
	"timezones":        3,
	"abbreviations":    3,
	"ordinal_suffixes": 4,
	"symbols":          3,
}

// sectionNumbers names, per documented section, the columns (0-based) that
// must hold an integer when not empty.
var sectionNumbers = map[string][]int{
	"currencies": {5},
	"magnitudes": {1},
	"months":     {2},
	"weekdays":   {2},
}

// lexicons holds every embedded data file, parsed at package initialization
// (before any init function, so register calls may read it).
var lexicons = loadLexicons()

func loadLexicons() map[string]*lexicon {
	ents, err := dataFiles.ReadDir("data")
	if err != nil {
		panic("normalize: reading embedded data: " + err.Error())
	}
	m := map[string]*lexicon{}
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || path.Ext(name) != ".tsv" {
			continue
		}
		b, err := dataFiles.ReadFile("data/" + name)
		if err != nil {
			panic("normalize: reading embedded data: " + err.Error())
		}
		tag := strings.TrimSuffix(name, ".tsv")
		lx, err := parseLexicon(tag, string(b))
		if err != nil {
			panic("normalize: data/" + name + ": " + err.Error())
		}
		m[tag] = lx
	}
	return m
}

// lexiconFor returns the lexicon of language tag, or an empty lexicon when
// the language has no data file. The result is shared: callers must not
// modify the rows it returns.
func lexiconFor(tag string) *lexicon {
	if lx := lexicons[tag]; lx != nil {
		return lx
	}
	return &lexicon{tag: tag, sections: map[string][][]string{}}
}

// parseLexicon parses the text of one data file.
func parseLexicon(tag, src string) (*lexicon, error) {
	lx := &lexicon{tag: tag, sections: map[string][][]string{}}
	section := ""
	for n, line := range strings.Split(src, "\n") {
		line = strings.TrimSuffix(line, "\r")
		trimmed := strings.Trim(line, " \t")
		if trimmed == "" || isComment(trimmed) {
			continue
		}
		if trimmed[0] == '[' && trimmed[len(trimmed)-1] == ']' && validSection(trimmed[1:len(trimmed)-1]) {
			section = trimmed[1 : len(trimmed)-1]
			if _, ok := lx.sections[section]; !ok {
				lx.sections[section] = nil
				lx.order = append(lx.order, section)
			}
			continue
		}
		if section == "" {
			return nil, fmt.Errorf("line %d: row before any [section]", n+1)
		}
		fields := strings.Split(line, "\t")
		for i := range fields {
			fields[i] = strings.Trim(fields[i], " ")
		}
		for len(fields) > 1 && fields[len(fields)-1] == "" {
			fields = fields[:len(fields)-1]
		}
		if fields[0] == "" || len(alts(fields[0])) == 0 {
			return nil, fmt.Errorf("line %d: [%s] row with an empty first field", n+1, section)
		}
		if max, ok := sectionMaxFields[section]; ok && len(fields) > max {
			return nil, fmt.Errorf("line %d: [%s] row has %d fields, at most %d allowed", n+1, section, len(fields), max)
		}
		for _, c := range sectionNumbers[section] {
			if c < len(fields) && fields[c] != "" {
				if _, err := strconv.Atoi(fields[c]); err != nil {
					return nil, fmt.Errorf("line %d: [%s] column %d: %q is not an integer", n+1, section, c+1, fields[c])
				}
			}
		}
		lx.sections[section] = append(lx.sections[section], fields)
	}
	return lx, nil
}

// isComment reports whether a non-blank line is a comment: it starts with
// '#', except a row whose first field or alternative is the symbol '#'
// itself ('#' directly followed by a TAB or '|').
func isComment(line string) bool {
	return line[0] == '#' && !(len(line) > 1 && (line[1] == '\t' || line[1] == '|'))
}

// validSection reports whether s is a well-formed section name: lower-case
// ASCII letters, digits and '_', not empty.
func validSection(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// rows returns the rows of section (nil when absent), in file order. Rows
// have at least one field; trailing empty fields are dropped, so use field
// to read a column that may be missing.
func (l *lexicon) rows(section string) [][]string {
	return l.sections[section]
}

// field returns column i of row, or "" when the row is shorter.
func field(row []string, i int) string {
	if i < len(row) {
		return row[i]
	}
	return ""
}

// alts splits a field into its '|'-separated alternatives, trimmed, with
// empty ones dropped. The first is the preferred form.
func alts(f string) []string {
	if f == "" {
		return nil
	}
	parts := strings.Split(f, "|")
	out := parts[:0]
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// first returns the preferred (first) alternative of a field, or "".
func first(f string) string {
	if a := alts(f); len(a) > 0 {
		return a[0]
	}
	return ""
}

// atoiOr returns the integer in f, or def when f is empty or not a number.
func atoiOr(f string, def int) int {
	if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
		return n
	}
	return def
}

// lexUnit is a row of [units].
type lexUnit struct {
	written  []string // as written after a number; first preferred
	singular []string // spoken after one
	plural   []string // spoken otherwise; equals singular when the file leaves it empty
	extra    []string // columns 4+ (language-defined flags)
}

// has reports whether flag is one of the unit's extra columns' words.
func (u lexUnit) has(flag string) bool { return hasFlag(u.extra, flag) }

// hasFlag reports whether flag is one of the words (separated by spaces
// or '|') of the extra columns.
func hasFlag(extra []string, flag string) bool {
	for _, e := range extra {
		for _, a := range strings.FieldsFunc(e, func(r rune) bool { return r == '|' || r == ' ' }) {
			if a == flag {
				return true
			}
		}
	}
	return false
}

// units returns the [units] section.
func (l *lexicon) units() []lexUnit {
	var out []lexUnit
	for _, r := range l.rows("units") {
		u := lexUnit{written: alts(r[0]), singular: alts(field(r, 1)), plural: alts(field(r, 2))}
		if len(u.plural) == 0 {
			u.plural = u.singular
		}
		if len(r) > 3 {
			u.extra = r[3:]
		}
		out = append(out, u)
	}
	return out
}

// lexCurrency is a row of [currencies].
type lexCurrency struct {
	symbols       []string // symbols and ISO codes; first is what ITN writes
	major, majors []string // singular, plural
	minor, minors []string // empty when there is no sub-unit
	perMajor      int      // minor units per major unit (0 without a sub-unit)
	extra         []string
}

// currencies returns the [currencies] section.
func (l *lexicon) currencies() []lexCurrency {
	var out []lexCurrency
	for _, r := range l.rows("currencies") {
		c := lexCurrency{
			symbols: alts(r[0]),
			major:   alts(field(r, 1)), majors: alts(field(r, 2)),
			minor: alts(field(r, 3)), minors: alts(field(r, 4)),
		}
		if len(c.majors) == 0 {
			c.majors = c.major
		}
		if len(c.minors) == 0 {
			c.minors = c.minor
		}
		if len(c.minor) > 0 {
			c.perMajor = atoiOr(field(r, 5), 100)
		}
		if len(r) > 6 {
			c.extra = r[6:]
		}
		out = append(out, c)
	}
	return out
}

// lexMagnitude is a row of [magnitudes].
type lexMagnitude struct {
	words []string
	power int
	extra []string
}

// magnitudes returns the [magnitudes] section.
func (l *lexicon) magnitudes() []lexMagnitude {
	var out []lexMagnitude
	for _, r := range l.rows("magnitudes") {
		m := lexMagnitude{words: alts(r[0]), power: atoiOr(field(r, 1), 0)}
		if len(r) > 2 {
			m.extra = r[2:]
		}
		out = append(out, m)
	}
	return out
}

// lexNamed is a row of [months] or [weekdays].
type lexNamed struct {
	names []string
	abbrs []string
	num   int
}

// months returns the [months] section.
func (l *lexicon) months() []lexNamed { return l.named("months") }

// weekdays returns the [weekdays] section.
func (l *lexicon) weekdays() []lexNamed { return l.named("weekdays") }

func (l *lexicon) named(section string) []lexNamed {
	var out []lexNamed
	for _, r := range l.rows(section) {
		out = append(out, lexNamed{names: alts(r[0]), abbrs: alts(field(r, 1)), num: atoiOr(field(r, 2), 0)})
	}
	return out
}

// lexPair is a row of a two-sided section: [timezones], [abbreviations],
// [symbols], [ordinal_suffixes] and language sections of that shape.
type lexPair struct {
	written []string // first preferred
	spoken  []string // first preferred
	extra   []string // columns 3+
}

// has reports whether flag is one of the row's extra columns' words.
func (p lexPair) has(flag string) bool { return hasFlag(p.extra, flag) }

// pairs returns section as written/spoken pairs.
func (l *lexicon) pairs(section string) []lexPair {
	var out []lexPair
	for _, r := range l.rows(section) {
		p := lexPair{written: alts(r[0]), spoken: alts(field(r, 1))}
		if len(r) > 2 {
			p.extra = r[2:]
		}
		out = append(out, p)
	}
	return out
}
