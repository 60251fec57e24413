package normalize

import (
	"slices"
	"strings"
	"unicode"
)

// English tables built from data/en.tsv, the lexicon both the TN grammar
// (lang_en.go) and the ITN grammar (lang_en_itn.go) read. Each table below
// is derived once at package initialization; nothing English-specific that
// is a list of words lives in Go code.

var enLex = lexiconFor("en")

// enUnit is how TN speaks a unit after a number.
type enUnit struct{ one, many string }

// enUnits maps a written unit, lower-cased, to its spoken forms (TN). Rows
// flagged notn are left out; the first row claiming a written form wins.
var enUnits = func() map[string]enUnit {
	m := map[string]enUnit{}
	// A form a notn row writes exactly ("kn", the knot's abbreviation too)
	// is not claimed by the lower-cased form of another row ("kN").
	notn := map[string]bool{}
	for _, u := range enLex.units() {
		if u.has("notn") {
			for _, w := range u.written {
				notn[w] = true
			}
		}
	}
	for _, u := range enLex.units() {
		if u.has("notn") {
			continue
		}
		for _, w := range u.written {
			k := strings.ToLower(w)
			if k != w && notn[k] {
				continue
			}
			if _, dup := m[k]; !dup {
				m[k] = enUnit{u.singular[0], u.plural[0]}
			}
		}
	}
	return m
}()

// enUnitsExact is enUnits keyed by the written forms as written.
var enUnitsExact = func() map[string]enUnit {
	m := map[string]enUnit{}
	for _, u := range enLex.units() {
		if u.has("notn") {
			continue
		}
		for _, w := range u.written {
			if _, dup := m[w]; !dup {
				m[w] = enUnit{u.singular[0], u.plural[0]}
			}
		}
	}
	return m
}()

// enUnitsRate is enUnitsExact with the notn rows of two or more letters
// too: after "/" in a rate such a unit cannot be anything else ("5 mol/N").
// A one-letter notn form stays a letter, as NeMo reads it ("3 cc/s" →
// "three CC per S").
var enUnitsRate = func() map[string]enUnit {
	m := map[string]enUnit{}
	for _, u := range enLex.units() {
		for _, w := range u.written {
			if u.has("notn") && len([]rune(w)) < 2 {
				continue
			}
			if _, dup := m[w]; !dup {
				m[w] = enUnit{u.singular[0], u.plural[0]}
			}
		}
	}
	return m
}()

// enUnitsAny maps every written unit form of the table, notn rows
// included, to its unit: a rate's numerator is a unit even where the form
// alone is not ("250 N/m" → "… newtons per meter").
var enUnitsAny = func() map[string]enUnit {
	m := map[string]enUnit{}
	for _, u := range enLex.units() {
		for _, w := range u.written {
			if _, dup := m[w]; !dup {
				m[w] = enUnit{u.singular[0], u.plural[0]}
			}
		}
	}
	return m
}()

// enUnitKeptWords holds the spoken forms of rows flagged noitn that no
// other row shares ("miles per gallon", "pounds per square inch"): ITN
// leaves them as words whole rather than writing a shorter unit inside
// them ("30 mi per gallon").
var enUnitKeptWords = func() map[string]bool {
	m := map[string]bool{}
	for _, u := range enLex.units() {
		if !u.has("noitn") {
			continue
		}
		for _, f := range [][]string{u.singular, u.plural} {
			for _, w := range f {
				if k := strings.ToLower(w); enUnitSpoken[k] == "" {
					m[k] = true
				}
			}
		}
	}
	return m
}()

// enUnitSpoken maps a spoken unit (any singular or plural alternative,
// lower case) to the written form ITN writes. Rows flagged noitn are left
// out.
var enUnitSpoken = func() map[string]string {
	m := map[string]string{}
	for _, u := range enLex.units() {
		if u.has("noitn") {
			continue
		}
		for _, f := range [][]string{u.singular, u.plural} {
			for _, w := range f {
				k := strings.ToLower(w)
				if _, dup := m[k]; !dup {
					m[k] = u.written[0]
				}
			}
		}
	}
	// A unit spelled letter by letter reads as its written form, as NeMo's
	// "c c" → "cc": "r p m" → "rpm", "k w h" → "kWh". Only written forms
	// of two to four ASCII letters, and never over a spoken word.
	for _, u := range enLex.units() {
		if u.has("noitn") {
			continue
		}
		for _, w := range u.written {
			if len(w) < 2 || len(w) > 4 || !isASCIILetters(w) {
				continue
			}
			k := strings.Join(strings.Split(strings.ToLower(w), ""), " ")
			if _, dup := m[k]; !dup {
				m[k] = u.written[0]
			}
		}
	}
	return m
}()

// enUnitMaxWords is the most words a spoken unit in enUnitSpoken has.
var enUnitMaxWords = func() int {
	n := 1
	for k := range enUnitSpoken {
		n = max(n, strings.Count(k, " ")+1)
	}
	return n
}()

// enCurrency is how TN speaks a currency; dotGroups marks the rows flagged
// dotgroups, whose amounts group thousands with dots ("Rp 50.000").
type enCurrency struct {
	one, many, subOne, subMany string
	dotGroups                  bool
}

// enCurrencies maps every written symbol or code of [currencies] to its
// spoken forms (TN).
var enCurrencies = func() map[string]enCurrency {
	m := map[string]enCurrency{}
	for _, c := range enLex.currencies() {
		cur := enCurrency{one: c.major[0], many: c.majors[0], dotGroups: hasFlag(c.extra, "dotgroups")}
		if len(c.minor) > 0 {
			cur.subOne, cur.subMany = c.minor[0], c.minors[0]
		}
		for _, s := range c.symbols {
			if _, dup := m[s]; !dup {
				m[s] = cur
			}
		}
	}
	return m
}()

// enISOCode reports whether a currency written form may follow the amount
// ("5 EUR", "20 €"): ISO codes (three upper-case letters) and non-letter
// symbols; short letter abbreviations ("Ft", "kr") are too ambiguous there.
func enISOCode(sym string) bool {
	if len(sym) == 3 && strings.ToUpper(sym) == sym && isASCIILetters(sym) {
		return true
	}
	for _, r := range sym {
		if unicode.IsLetter(r) {
			return false
		}
	}
	return sym != ""
}

func isASCIILetters(t string) bool {
	for i := 0; i < len(t); i++ {
		if c := t[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// enCurrencySpoken maps spoken currency names (singular and plural, lower
// case, possibly several words) to the symbol ITN writes; enCurrencyOne
// holds the singular ones. Rows flagged noitn stay words.
var enCurrencySpoken, enCurrencyOne, enCurrencyMaxWords = func() (map[string]string, map[string]bool, int) {
	m, one, n := map[string]string{}, map[string]bool{}, 1
	for _, c := range enLex.currencies() {
		if hasFlag(c.extra, "noitn") {
			continue
		}
		for _, f := range [][]string{c.major, c.majors} {
			for _, w := range f {
				if _, dup := m[w]; !dup {
					m[w] = c.symbols[0]
					n = max(n, strings.Count(w, " ")+1)
				}
			}
		}
		for _, w := range c.major {
			one[w] = true
		}
	}
	return m, one, n
}()

// enMinorSpoken maps spoken minor units (cent, cents, penny, pence) to the
// symbol of the first currency that has them.
var enMinorSpoken = func() map[string]string {
	m := map[string]string{}
	for _, c := range enLex.currencies() {
		if hasFlag(c.extra, "noitn") || c.perMajor != 100 {
			continue
		}
		for _, f := range [][]string{c.minor, c.minors} {
			for _, w := range f {
				if _, dup := m[w]; !dup {
					m[w] = c.symbols[0]
				}
			}
		}
	}
	return m
}()

// enScaleWord maps written scale words and abbreviations (lower case) to
// the spoken scale word (TN).
var enScaleWord = func() map[string]string {
	byPow := map[int]string{}
	for _, g := range enLex.magnitudes() {
		if !hasFlag(g.extra, "abbr") {
			if _, ok := byPow[g.power]; !ok {
				byPow[g.power] = g.words[0]
			}
		}
	}
	m := map[string]string{}
	for _, g := range enLex.magnitudes() {
		if w, ok := byPow[g.power]; ok {
			for _, a := range g.words {
				if hasFlag(g.extra, "abbr") || a == g.words[0] {
					m[strings.ToLower(a)] = w
				}
			}
		}
	}
	return m
}()

// enScaleExp maps spoken scale words to their power of 1000 (ITN).
var enScaleExp = func() map[string]int {
	m := map[string]int{}
	for _, g := range enLex.magnitudes() {
		if !hasFlag(g.extra, "abbr") && g.power%3 == 0 {
			m[g.words[0]] = g.power / 3
		}
	}
	return m
}()

// enMonths are the month names in lower case, January first.
var enMonths = func() []string {
	out := make([]string, 12)
	for _, mo := range enLex.months() {
		out[mo.num-1] = strings.ToLower(mo.names[0])
	}
	return out
}()

// enMonthIndex maps lower-case month names and abbreviations (without
// their period) to 1..12.
var enMonthIndex = func() map[string]int {
	m := map[string]int{}
	for _, mo := range enLex.months() {
		for _, w := range append(append([]string{}, mo.names...), mo.abbrs...) {
			m[strings.ToLower(strings.TrimSuffix(w, "."))] = mo.num
		}
	}
	return m
}()

// enWeekdays maps weekday names and abbreviations (lower case, without the
// period) to the full name.
var enWeekdays = func() map[string]string {
	m := map[string]string{}
	for _, d := range enLex.weekdays() {
		for _, w := range append(append([]string{}, d.names...), d.abbrs...) {
			m[strings.ToLower(strings.TrimSuffix(w, "."))] = d.names[0]
		}
	}
	return m
}()

// enDays maps dotted weekday abbreviations ("Mon.") to the full name; TN
// expands them in ranges ("Mon.-Sun.").
var enDays = func() map[string]string {
	m := map[string]string{}
	for _, d := range enLex.weekdays() {
		for _, w := range d.abbrs {
			if strings.HasSuffix(w, ".") {
				m[w] = d.names[0]
			}
		}
	}
	return m
}()

// enZoneWritten maps written zone abbreviations (as written, and dotted
// forms) to the abbreviation; enZoneLetters maps spoken letter sequences
// ("est" for "e s t") to it.
var enZoneWritten, enZoneLetters = func() (map[string]string, map[string]string) {
	w, l := map[string]string{}, map[string]string{}
	for _, z := range enLex.pairs("timezones") {
		for _, a := range z.written {
			w[a] = z.written[0]
		}
		for _, sp := range z.spoken {
			if ls := strings.Fields(sp); len(ls) > 1 && len(ls[0]) == 1 {
				l[strings.Join(ls, "")] = z.written[0]
			}
		}
	}
	return w, l
}()

// enWhitelist maps written abbreviations (case-sensitive) to their spoken
// readings, first preferred (TN).
var enWhitelist = func() map[string][]string {
	m := map[string][]string{}
	for _, p := range enLex.pairs("abbreviations") {
		for _, w := range p.written {
			if _, dup := m[w]; !dup {
				m[w] = p.spoken
			}
		}
	}
	return m
}()

// enWhitelistLens maps the first token of each written form of
// [abbreviations] that spans several tokens ("e.g.", "a/c number", "401
// (k)") to the token counts of such forms, longest first.
var enWhitelistLens = func() map[string][]int {
	m := map[string][]int{}
	for w := range enWhitelist {
		toks := tokenize(w)
		if len(toks) < 2 {
			continue
		}
		k := w[toks[0].start:toks[0].end]
		if !slices.Contains(m[k], len(toks)) {
			m[k] = append(m[k], len(toks))
		}
	}
	for _, ls := range m {
		slices.SortFunc(ls, func(a, b int) int { return b - a })
	}
	return m
}()

// enAbbrFinal holds the written forms of [abbreviations] flagged final:
// before a capitalized word their period also ends the sentence ("etc.").
var enAbbrFinal = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range enLex.pairs("abbreviations") {
		if p.has("final") {
			for _, w := range p.written {
				m[w] = true
			}
		}
	}
	return m
}()

// enAcronyms maps the letter strings of [acronyms] to the capitals TN
// writes: "acq" → "ACQ", "AfDB" → "AFDB", and an acronym's plural takes an
// apostrophe, "ADCs" → "ADC's".
var enAcronyms = func() map[string]string {
	m := map[string]string{}
	for _, r := range enLex.rows("acronyms") {
		for _, w := range alts(r[0]) {
			up := strings.ToUpper(w)
			if stem := w[:len(w)-1]; strings.HasSuffix(w, "s") && len(stem) >= 2 && strings.ToUpper(stem) == stem {
				up = stem + "'s"
			}
			m[w] = up
		}
	}
	return m
}()

// enWhitelistSpoken maps spoken forms to what ITN writes: abbreviations
// flagged itn (lower case; the matcher capitalizes after a capital) and
// the [itn_whitelist] terms (exactly as given).
var enWhitelistSpoken, enWhitelistMaxWords = func() (map[string]string, int) {
	m, n := map[string]string{}, 1
	add := func(sp, w string) {
		sp = strings.ToLower(sp)
		if _, dup := m[sp]; !dup {
			m[sp] = w
			n = max(n, strings.Count(sp, " ")+1)
		}
	}
	for _, p := range enLex.pairs("abbreviations") {
		if p.has("itn") {
			for _, sp := range p.spoken {
				if sp == strings.ToLower(sp) {
					add(sp, strings.ToLower(p.written[0]))
				}
			}
		}
	}
	for _, p := range enLex.pairs("itn_whitelist") {
		for _, sp := range p.spoken {
			add(sp, p.written[0])
		}
	}
	return m, n
}()

// enPerUnit maps a written rate unit after "/" (lower case) to its spoken
// form ("wk" → "per week").
var enPerUnit = func() map[string]string {
	m := map[string]string{}
	for _, p := range enLex.pairs("per_units") {
		for _, w := range p.written {
			m[strings.ToLower(w)] = p.spoken[0]
		}
	}
	return m
}()

// enOrdWord maps irregular ordinal words to their cardinal word (ITN);
// enOrdIrregular is the reverse (TN).
var enOrdWord, enOrdIrregular = func() (map[string]string, map[string]string) {
	o2c, c2o := map[string]string{"zeroth": "zero"}, map[string]string{}
	for _, p := range enLex.pairs("ordinal_words") {
		o2c[p.spoken[0]] = p.written[0]
		c2o[p.written[0]] = p.spoken[0]
	}
	return o2c, c2o
}()

// enElecSpoken maps a written electronic symbol to its spoken form (TN);
// enElecSym maps the spoken forms flagged itn back to the symbol (ITN).
var enElecSpoken, enElecSym = func() (map[string]string, map[string]string) {
	w2s, s2w := map[string]string{}, map[string]string{}
	for _, p := range enLex.pairs("symbols") {
		if !p.has("electronic") {
			continue
		}
		for _, w := range p.written {
			if _, dup := w2s[w]; !dup {
				w2s[w] = p.spoken[0]
			}
		}
		if p.has("itn") {
			for _, sp := range p.spoken {
				s2w[sp] = p.written[0]
			}
		}
	}
	return w2s, s2w
}()

// enVerbatimSym maps a symbol read on its own in running text ("&" →
// "and") to its [symbols] row (flag verbatim; alone = only free-standing).
var enVerbatimSym = func() map[string]lexPair {
	m := map[string]lexPair{}
	for _, p := range enLex.pairs("symbols") {
		if p.has("verbatim") {
			for _, w := range p.written {
				m[w] = p
			}
		}
	}
	return m
}()

// enStates maps US postal codes to state names ([states]).
var enStates = func() map[string]string {
	m := map[string]string{}
	for _, p := range enLex.pairs("states") {
		m[p.written[0]] = p.spoken[0]
	}
	return m
}()

// enStateAbbr maps the dotted traditional abbreviations of US states to
// their names ([state_abbreviations]).
var enStateAbbr = func() map[string]string {
	m := map[string]string{}
	for _, p := range enLex.pairs("state_abbreviations") {
		for _, w := range p.written {
			m[w] = p.spoken[0]
		}
	}
	return m
}()

// enStreetSuffix maps written street types (case-sensitive) to their
// spoken form; enStreetWords holds every street word in lower case, written
// or spoken, for spotting addresses ([street_suffixes]).
var enStreetSuffix, enStreetWords = func() (map[string]string, map[string]bool) {
	m, words := map[string]string{}, map[string]bool{}
	for _, p := range enLex.pairs("street_suffixes") {
		for _, w := range p.written {
			m[w] = p.spoken[0]
			words[strings.ToLower(w)] = true
		}
		words[strings.ToLower(p.spoken[0])] = true
	}
	return m, words
}()

// enStreetAddressOnly holds the street types of [street_suffixes] flagged
// address: read only after a house number and the street's name ("123
// Laguna dr").
var enStreetAddressOnly = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range enLex.pairs("street_suffixes") {
		if p.has("address") {
			for _, w := range p.written {
				m[w] = true
			}
		}
	}
	return m
}()

// enUpperWords and enLowerWords are the [electronic_words] TN reads as
// acronyms ("www" → "WWW") and as words ("gmail"; "jpg" → "jpeg": the
// map holds the reading) inside URLs and e-mail addresses; enTLD holds the
// [tlds].
var enUpperWords, enLowerWords, enTLD = func() (map[string]bool, map[string]string, map[string]bool) {
	up, low, tld := map[string]bool{}, map[string]string{}, map[string]bool{}
	for _, p := range enLex.pairs("electronic_words") {
		if sp := p.spoken[0]; sp == strings.ToUpper(sp) {
			up[p.written[0]] = true
		} else {
			low[p.written[0]] = sp
		}
	}
	for _, r := range enLex.rows("tlds") {
		for _, t := range alts(r[0]) {
			tld[t] = true
		}
	}
	return up, low, tld
}()

// enOrdSuffixByDigit maps a last digit ('1', '2', '3') to its ordinal suffix
// ("st", "nd", "rd"); '*' holds the suffix of every other number, and of 11
// to 13 ([ordinal_suffixes]).
var enOrdSuffixByDigit = func() map[byte]string {
	m := map[byte]string{}
	for _, p := range enLex.pairs("ordinal_suffixes") {
		if d := first(strings.Join(p.spoken, "|")); len(d) == 1 {
			m[d[0]] = p.written[0]
		}
	}
	return m
}()

// enRomanCardinalCue holds the words (lower case) after which a Roman
// numeral is a cardinal ([roman_cues]).
var enRomanCardinalCue = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range enLex.rows("roman_cues") {
		for _, w := range alts(r[0]) {
			m[w] = true
		}
	}
	return m
}()

// enRomanOrdinalCue holds the nouns (lower case) before which a Roman
// numeral is an ordinal ([roman_ordinal_cues]): "the XII century" → "the
// twelfth century".
var enRomanOrdinalCue = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range enLex.rows("roman_ordinal_cues") {
		for _, w := range alts(r[0]) {
			m[w] = true
		}
	}
	return m
}()

// enNumberCue maps abbreviations read only before a number ("p.", "Fig.")
// to their spoken form ([number_cues]).
var enNumberCue = func() map[string]string {
	m := map[string]string{}
	for _, p := range enLex.pairs("number_cues") {
		for _, w := range p.written {
			if _, dup := m[w]; !dup {
				m[w] = p.spoken[0]
			}
		}
	}
	return m
}()

// enNumberCueWord holds the spoken forms of [number_cues] ("page",
// "pages", "chapter", "figure"): written in full before a range they cue
// it as a reference ("pages 45-47" → "forty five to forty seven"), as the
// abbreviations do.
var enNumberCueWord = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range enNumberCue {
		m[w] = true
		if !strings.HasSuffix(w, "s") {
			m[w+"s"] = true // "chapters 3-5" as "chapter 3"
		}
	}
	return m
}()

// enUnitDesignator holds the words before an apartment or unit number
// ([unit_designators]).
var enUnitDesignator = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range enLex.rows("unit_designators") {
		for _, w := range alts(r[0]) {
			m[w] = true
		}
	}
	return m
}()

// enSaintAfter holds the words after which "St." is "saint" rather than a
// street suffix ([saint_cues]).
var enSaintAfter = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range enLex.rows("saint_cues") {
		for _, w := range alts(r[0]) {
			m[w] = true
		}
	}
	return m
}()

// enDialCues maps a verb of dialling to its scope ([dial_cues]): true when
// every number after it is dialled, false when only a service number is.
var enDialCues = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range enLex.rows("dial_cues") {
		for _, w := range alts(r[0]) {
			m[strings.ToLower(w)] = len(r) > 1 && r[1] == "all"
		}
	}
	return m
}()

// enSaintNames holds the names of [saint_names], before which "St." is
// "saint" whatever precedes it.
var enSaintNames = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range enLex.rows("saint_names") {
		for _, w := range alts(r[0]) {
			m[w] = true
		}
	}
	return m
}()

// enWeightCues holds the words of [weight_cues]: said just before an amount,
// they make a currency name that is also a unit of weight ("pounds") the
// weight.
var enWeightCues = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range enLex.rows("weight_cues") {
		for _, w := range alts(r[0]) {
			m[strings.ToLower(w)] = true
		}
	}
	return m
}()

// enServiceNumbers holds the emergency and service numbers of
// [service_numbers].
var enServiceNumbers = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range enLex.rows("service_numbers") {
		for _, w := range alts(r[0]) {
			m[w] = true
		}
	}
	return m
}()

// enTelPrompt is a [telephone_prompts] row: the written prompt (one
// alternative), what TN writes for it ("" keeps the prompt as written) and
// whether a card number follows it.
type enTelPrompt struct {
	written, spoken string
	card            bool
}

// enTelPrompts maps the first word of each telephone prompt, lower-cased,
// to the prompts that start with it, longest first.
var enTelPrompts = func() map[string][]enTelPrompt {
	out := map[string][]enTelPrompt{}
	for _, p := range enLex.pairs("telephone_prompts") {
		for _, w := range p.written {
			sp := p.spoken[0]
			if sp == w {
				sp = ""
			}
			toks := tokenize(w)
			k := strings.ToLower(w[toks[0].start:toks[0].end])
			out[k] = append(out[k], enTelPrompt{w, sp, p.has("card")})
		}
	}
	for _, ps := range out {
		slices.SortStableFunc(ps, func(a, b enTelPrompt) int { return len(b.written) - len(a.written) })
	}
	return out
}()

// enVulgar maps the vulgar fraction characters of [vulgar_fractions] to
// their numerator and denominator ("⅜" → 3, 8).
var enVulgar = func() map[string][2]string {
	m := map[string][2]string{}
	for _, p := range enLex.pairs("vulgar_fractions") {
		if n, d, ok := strings.Cut(p.spoken[0], "/"); ok {
			m[p.written[0]] = [2]string{n, d}
		}
	}
	return m
}()

// enDatePeriods maps the spoken financial periods of [date_periods] ("q
// one", "first half") to what ITN writes ("Q1", "H1"); enDatePeriodWords is
// the most words one has.
var enDatePeriods, enDatePeriodWords = func() (map[string]string, int) {
	m, n := map[string]string{}, 1
	for _, p := range enLex.pairs("date_periods") {
		for _, sp := range p.spoken {
			m[sp] = p.written[0]
			n = max(n, strings.Count(sp, " ")+1)
		}
	}
	return m, n
}()
