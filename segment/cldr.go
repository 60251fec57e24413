package segment

import (
	_ "embed"
	"strings"
	"unicode"
	"unicode/utf8"
)

// cldrData is CLDR's list of sentence-break suppressions per language; the
// file documents its syntax.
//
//go:embed data/cldr-suppressions.txt
var cldrData string

// Flags of a CLDR abbreviation entry.
const (
	cldrAsWritten uint8 = 1 << iota // matches the token as written
	cldrLower                       // written in lower case: also matches capitalised
)

// cldrAbbrev maps a base language code to its CLDR abbreviations, keyed by
// the last word of the entry without its final period ("Chr" for "n.
// Chr.", "z.Hd" for "z.Hd."), case kept.
var cldrAbbrev = parseSuppressions(cldrData)

// parseSuppressions reads the suppression file format (see
// data/cldr-suppressions.txt). Entries marked "word", entries without a
// final period and single letters (left to the rules for initials) are
// skipped. It panics on a malformed file, which is embedded and so is
// checked by the package's tests.
func parseSuppressions(data string) map[string]map[string]uint8 {
	out := map[string]map[string]uint8{}
	var cur map[string]uint8
	for n, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || line[0] == '#':
			continue
		case line[0] == '[' && line[len(line)-1] == ']':
			lang := line[1 : len(line)-1]
			if out[lang] == nil {
				out[lang] = map[string]uint8{}
			}
			cur = out[lang]
			continue
		case cur == nil:
			panic("segment: cldr-suppressions.txt: entry before a [lang] line at line " + itoa(n+1))
		}
		entry, mark, _ := strings.Cut(line, "\t")
		if mark = strings.TrimSpace(mark); mark == "word" {
			continue
		} else if mark != "" {
			panic("segment: cldr-suppressions.txt: unknown mark " + mark + " at line " + itoa(n+1))
		}
		key, ok := strings.CutSuffix(entry, ".")
		if !ok {
			continue
		}
		if k := strings.LastIndexByte(key, ' '); k >= 0 {
			key = key[k+1:]
		}
		if utf8.RuneCountInString(key) < 2 {
			continue
		}
		f := cldrAsWritten
		if key == strings.ToLower(key) {
			f |= cldrLower
		}
		cur[key] |= f
	}
	return out
}

// cldrKnows reports whether tok (the token before a period, without it) is
// one of CLDR's abbreviations for lang: as written, or capitalised from a
// lower-case entry ("Vgl." for "vgl.").
func cldrKnows(lang, tok string) bool {
	t := cldrAbbrev[lang]
	if t == nil || tok == "" {
		return false
	}
	if t[tok]&cldrAsWritten != 0 {
		return true
	}
	r, n := utf8.DecodeRuneInString(tok)
	if !unicode.IsUpper(r) {
		return false
	}
	return t[string(unicode.ToLower(r))+tok[n:]]&cldrLower != 0
}
