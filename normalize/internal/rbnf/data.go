package rbnf

import (
	"embed"
	"slices"
	"strings"
	"sync"
)

//go:generate go run ./rbnfgen -tgz $RBNF_TGZ -out data

// data holds CLDR's spellout and ordinal rules, one file per locale,
// written by rbnfgen from the cldr-rbnf npm package (see data/VERSION).
//
//go:embed data/*.txt data/index.tsv data/VERSION
var data embed.FS

// DataVersion is the source of the embedded rules, for example
// "cldr-rbnf 48.2.0 (CLDR 48), licence Unicode-3.0".
var DataVersion = func() string {
	b, _ := data.ReadFile("data/VERSION")
	return strings.TrimSpace(string(b))
}()

// Locales returns the locales with embedded rules ("af", "de-CH", "zh-Hant",
// ...), sorted.
func Locales() []string {
	var out []string
	for _, l := range Index() {
		out = append(out, l.Locale)
	}
	return out
}

// LocaleInfo describes one locale's embedded rules without parsing them.
type LocaleInfo struct {
	Locale string   // "ru", "de-CH"
	Name   string   // English name, "Russian"
	Script string   // ISO 15924 code of its likely script, "Cyrl"
	Sets   []string // public rule set names, "%spellout-cardinal-masculine", ...
	// MarkedOrdinals reports whether the locale's %digits-ordinal rules
	// write a marker beside the digits ("1er", "1-й", "第1"), as opposed
	// to the digits alone.
	MarkedOrdinals bool
}

// Has reports whether the locale has the public rule set name.
func (l LocaleInfo) Has(name string) bool { return slices.Contains(l.Sets, name) }

// Index returns every locale with embedded rules, sorted by locale, read
// from a small table written with the data (no rules are parsed). The
// result is freshly allocated.
func Index() []LocaleInfo {
	b, _ := data.ReadFile("data/index.tsv")
	var out []LocaleInfo
	for line := range strings.SplitSeq(strings.TrimSpace(string(b)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 5 {
			continue
		}
		out = append(out, LocaleInfo{Locale: f[0], Name: f[1], Script: f[2], Sets: strings.Fields(f[3]),
			MarkedOrdinals: f[4] == "marked"})
	}
	slices.SortFunc(out, func(a, b LocaleInfo) int { return strings.Compare(a.Locale, b.Locale) })
	return out
}

type cached struct {
	once sync.Once
	rs   *RuleSets
	err  error
}

var cache sync.Map // locale → *cached

// ForLocale returns the embedded rules of locale (one of [Locales]),
// parsed on first use and shared afterwards. It is safe for concurrent use
// by multiple goroutines. The error is *ParseError for a defect in the
// data, or an error for a locale without rules.
func ForLocale(locale string) (*RuleSets, error) {
	v, _ := cache.LoadOrStore(locale, &cached{})
	c := v.(*cached)
	c.once.Do(func() {
		b, err := data.ReadFile("data/" + locale + ".txt")
		if err != nil || strings.ContainsAny(locale, "/\\.") {
			c.err = &noLocaleError{locale}
			return
		}
		c.rs, c.err = Parse(locale, string(b))
	})
	return c.rs, c.err
}

type noLocaleError struct{ locale string }

func (e *noLocaleError) Error() string { return "rbnf: no rules for locale " + e.locale }
