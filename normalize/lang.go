package normalize

import (
	"slices"

	"golang.org/x/text/language"
)

// This file is the seam between the language-independent core and the
// per-language rule files (lang_en.go, lang_de.go, ...). A language adds
// itself from an init function:
//
//	func init() {
//		register(&rules{
//			tag: "xx", name: "Xish",
//			tn:  map[string]matcher{Cardinal: xxCardinalTN, ...},
//			itn: map[string]matcher{Cardinal: xxCardinalITN, ...},
//		})
//	}
//
// The core tokenizes the input, and at every non-space token asks each
// matcher of the allowed classes for candidates. It keeps the longest match
// (ties: the one found first in class order, then the cheapest reading) and
// merges the readings of every candidate with that extent into one span's
// alternatives.

// classSet is a bit set over AllClasses.
type classSet uint32

var allClasses = classSet(1<<len(AllClasses) - 1)

func classBit(c string) classSet {
	i := slices.Index(AllClasses, c)
	if i < 0 {
		return 0
	}
	return 1 << i
}

func (s classSet) with(c string) classSet { return s | classBit(c) }
func (s classSet) has(c string) bool      { return s&classBit(c) != 0 }

// reading is one way to say (TN) or write (ITN) a candidate.
type reading struct {
	text  string
	class string
	cost  float64 // lower is better; the core ranks alternatives by total cost
}

// match is a candidate conversion of tokens [i, end) found by a matcher.
type match struct {
	end      int // token index, exclusive
	readings []reading
}

// matcher looks for its class at token i of s and returns zero or more
// candidates. It must not panic on any input, must return end > i, and must
// not retain s.
type matcher func(s *stream, i int) []match

// rules is one language's rule set.
type rules struct {
	tag  string // BCP 47 base tag, e.g. "en"
	name string // English name
	tn   map[string]matcher
	itn  map[string]matcher
	// order is the class order in which matchers are tried; derived from
	// AllClasses by register.
	tnOrder, itnOrder []string
	// tnSet and itnSet are the matchers in that order with their class
	// bits, built once by register for segmentSpans.
	tnSet, itnSet matcherSet
	// score estimates how likely a Latin-script segment is in this
	// language, for "und"; nil for non-Latin languages.
	score func(words []string) int
	// script is the dominant script handled ("Latn", "Hani").
	script string
	// tnSpacing is the TN spacing SpacingAuto means for this language;
	// zero keeps the input's spacing.
	tnSpacing Spacing
	// variant, when set, gives how a language tag's text is respelt in a
	// mode (see [variant]): nil when it needs nothing.
	variant func(tag language.Tag, m Mode) *variant
	// fallback marks rules generated for every CLDR language
	// (lang_rbnf.go); hand-written rules for the same tag replace them,
	// whichever registers first.
	fallback bool
}

var registry = map[string]*rules{}

func register(r *rules) {
	if old := registry[r.tag]; r.tag == "" || old != nil && old.fallback == r.fallback {
		panic("normalize: bad or duplicate language registration " + r.tag)
	} else if old != nil && r.fallback {
		return // hand-written rules win
	}
	for _, c := range AllClasses {
		if r.tn[c] != nil {
			r.tnOrder = append(r.tnOrder, c)
			r.tnSet.add(c, r.tn[c])
		}
		if r.itn[c] != nil {
			r.itnOrder = append(r.itnOrder, c)
			r.itnSet.add(c, r.itn[c])
		}
	}
	registry[r.tag] = r
}

// matcherSet is a language's matchers for one mode, in class order, with
// each one's class bit.
type matcherSet struct {
	bits []classSet
	fns  []matcher
}

func (m *matcherSet) add(class string, fn matcher) {
	m.bits = append(m.bits, classBit(class))
	m.fns = append(m.fns, fn)
}

func (r *rules) classes(m Mode) []string {
	if m == ITN {
		return slices.Clone(r.itnOrder)
	}
	return slices.Clone(r.tnOrder)
}

func (r *rules) matchers(m Mode) *matcherSet {
	if m == ITN {
		return &r.itnSet
	}
	return &r.tnSet
}

// one builds a single-reading match.
func one(end int, class, text string) []match {
	// one allocation for the match and its reading
	p := &struct {
		m [1]match
		r [1]reading
	}{r: [1]reading{{text: text, class: class}}}
	p.m[0] = match{end: end, readings: p.r[:]}
	return p.m[:]
}
