package segment

import (
	_ "embed"
	"strings"
	"unicode"
	"unicode/utf8"
)

// abbrevData is the abbreviation table of every language, one entry a
// line; the file documents its format and where the entries come from.
//
//go:embed data/abbreviations.tsv
var abbrevData string

// abbrevKinds maps the kinds of data/abbreviations.tsv the segmenter uses
// to the scorer's abbreviation kinds. "lower", for entries taken from other
// lists only, is a plain abbreviation that binds only where those lists'
// rule binds it: not before a capital (see extKind).
var abbrevKinds = map[string]abbrevKind{"title": abbrTitle, "plain": abbrPlain, "num": abbrNum, "lower": abbrPlain}

// abbrevUnused are the kinds of entries that are kept in the file as a
// record of the lists they come from but not used: ordinary words of the
// language ("word"), single letters, left to the rules for initials
// ("letter"), word-forming prefixes, never written with a period
// ("prefix"), and entries no single token before a period can match
// (several words, brackets, digits: "form").
var abbrevUnused = map[string]bool{"word": true, "letter": true, "prefix": true, "form": true}

// extEntry is an abbreviation taken from another list: its kind, and
// whether it binds only before a word that is not capitalised.
type extEntry struct {
	kind      abbrevKind
	lowerOnly bool
}

// abbrevTables are the parsed abbreviation tables.
type abbrevTables struct {
	// base holds the hand-written entries shared by every language
	// (language "*").
	base map[string]abbrevKind
	// own holds each language's hand-written entries, which take the
	// place of the shared entry of the same abbreviation.
	own map[string]map[string]abbrevKind
	// ext holds each language's entries taken from other published lists
	// (from anything but "hand"); they are consulted only where the
	// hand-written tables have nothing.
	ext map[string]map[string]extEntry
	// counts holds the number of used entries per language and source
	// ("hand" or "ext").
	counts map[string]map[string]int
}

// parseAbbreviations reads the format of data/abbreviations.tsv. It panics
// on a malformed file (an unknown kind, a missing field, an entry listed
// twice for one language, or not in lower case), which is embedded and so
// checked by the package's tests.
func parseAbbreviations(data string) abbrevTables {
	t := abbrevTables{
		base:   map[string]abbrevKind{},
		own:    map[string]map[string]abbrevKind{},
		ext:    map[string]map[string]extEntry{},
		counts: map[string]map[string]int{},
	}
	seen := map[string]bool{}
	for n, line := range strings.Split(data, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		fail := func(why string) {
			panic("segment: abbreviations.tsv line " + itoa(n+1) + ": " + why + ": " + line)
		}
		if len(f) != 4 || f[0] == "" || f[2] == "" || f[3] == "" {
			fail("want four TAB-separated fields")
		}
		lang, kindName, abbr, from := f[0], f[1], f[2], f[3]
		if abbr != strings.ToLower(abbr) || strings.TrimSpace(abbr) != abbr {
			fail("abbreviation not in lower case or with spaces around it")
		}
		if seen[lang+"\t"+abbr] {
			fail("listed twice")
		}
		seen[lang+"\t"+abbr] = true
		k, ok := abbrevKinds[kindName]
		if !ok {
			if !abbrevUnused[kindName] {
				fail("unknown kind " + kindName)
			}
			continue
		}
		src := "ext"
		switch {
		case from == "hand" && kindName == "lower":
			fail("kind lower is for taken entries")
		case from == "hand" && lang == "*":
			t.base[abbr], src = k, "hand"
		case from == "hand":
			if t.own[lang] == nil {
				t.own[lang] = map[string]abbrevKind{}
			}
			t.own[lang][abbr], src = k, "hand"
		case lang == "*":
			fail("entries shared by every language are hand-written")
		default:
			if t.ext[lang] == nil {
				t.ext[lang] = map[string]extEntry{}
			}
			t.ext[lang][abbr] = extEntry{kind: k, lowerOnly: kindName == "lower"}
		}
		if t.counts[lang] == nil {
			t.counts[lang] = map[string]int{}
		}
		t.counts[lang][src]++
	}
	return t
}

var abbrevParsed = parseAbbreviations(abbrevData)

// baseAbbrev are the hand-written abbreviations every language shares.
var baseAbbrev = abbrevParsed.base

// langAbbrev are each language's own hand-written abbreviations.
var langAbbrev = abbrevParsed.own

// extAbbrev are each language's abbreviations from other published lists
// that the hand-written tables lack (see extKind).
var extAbbrev = abbrevParsed.ext

// abbrevTable returns the hand-written abbreviation table for lang: the
// language's own entries over the shared ones.
func abbrevTable(lang string) map[string]abbrevKind {
	if t, ok := abbrevCache[lang]; ok {
		return t
	}
	return abbrevCache[""]
}

var abbrevCache = func() map[string]map[string]abbrevKind {
	c := map[string]map[string]abbrevKind{"": baseAbbrev}
	for l, own := range langAbbrev {
		m := make(map[string]abbrevKind, len(baseAbbrev)+len(own))
		for w, k := range baseAbbrev {
			m[w] = k
		}
		for w, k := range own {
			m[w] = k
		}
		c[l] = m
	}
	return c
}()

// extKind returns the kind of the token tok (without its period) in lang's
// table of abbreviations taken from other lists, or abbrNone, when the
// next word is capitalised (beforeUpper) or not. Those lists are written in
// lower case and hold acronyms too ("nato", "fbi"), which are written in
// capitals and end sentences as any word ("… der NATO. Russland"); so an
// entry matches tok only written in lower case or capitalised ("ecc.",
// "Ecc."), not in capitals. An entry of kind lower (the lists' plain
// abbreviations) binds only as their rule binds it: before a lower-case
// word, a digit or a caseless script ("bzgl. der", "izq. 2"); before a
// capital its period is scored as after any word, as those lists hold
// words that end sentences ("2.º izq. Llame al timbre").
func extKind(lang, tok string, beforeUpper bool) abbrevKind {
	t := extAbbrev[lang]
	if t == nil || tok == "" {
		return abbrNone
	}
	lw := strings.ToLower(tok)
	if lw != tok {
		r, n := utf8.DecodeRuneInString(tok)
		if !unicode.IsUpper(r) || strings.ToLower(tok[n:]) != tok[n:] {
			return abbrNone
		}
	}
	e := t[lw]
	if e.lowerOnly && beforeUpper {
		return abbrNone
	}
	return e.kind
}

// anyNumRef is the union of every language's numbered references (the
// entries of kind num, shared and per language): when the language was
// guessed from a few words, "cap. 3" or "str. 15" may be in another
// language than the guess, and a period before a number is no sentence end
// in any of them.
var anyNumRef = func() map[string]bool {
	m := map[string]bool{}
	for w, k := range baseAbbrev {
		if k == abbrNum {
			m[w] = true
		}
	}
	for _, t := range langAbbrev {
		for w, k := range t {
			if k == abbrNum {
				m[w] = true
			}
		}
	}
	return m
}()

// anyPlain is the union of every language's hand-written plain
// abbreviations of three letters or more. When the language was guessed
// from a few words, "enz. mee" or "Zob. art." may be in another language
// than the guess; before a lower-case word a period after one of them ends
// no sentence.
var anyPlain = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range langAbbrev {
		for w, k := range t {
			if k == abbrPlain && runeLen(w) >= 3 {
				m[w] = true
			}
		}
	}
	return m
}()

// allTitles are the titles of every language's hand-written table (Danish
// "Skt.", Dutch "Dhr.", Italian "Sig."), lower case: in a language other
// than English, a capitalised title of another language still precedes a
// name, which matters when the language was guessed from a few words.
var allTitles = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range langAbbrev {
		for w, k := range t {
			if k == abbrTitle {
				m[w] = true
			}
		}
	}
	return m
}()
