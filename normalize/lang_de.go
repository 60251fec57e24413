package normalize

import (
	"strconv"
	"strings"
	"unicode"
)

// German rules (NeMo-style spoken forms: "vier und zwanzig", "zwei hundert").

var deUnits = [...]string{"null", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun",
	"zehn", "elf", "zwölf", "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn"}
var deTens = [...]string{"", "", "zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig", "achtzig", "neunzig"}

// deBig names 1000^k for k ≥ 2, singular and plural.
var deBig = [...][2]string{{}, {}, {"million", "millionen"}, {"milliarde", "milliarden"}, {"billion", "billionen"},
	{"billiarde", "billiarden"}, {"trillion", "trillionen"}}

func de99(n int, final bool) string {
	switch {
	case n == 1 && final:
		return "eins"
	case n == 1:
		return "ein"
	case n < 20:
		return deUnits[n]
	case n%10 == 0:
		return deTens[n/10]
	}
	u := deUnits[n%10]
	if n%10 == 1 {
		u = "ein"
	}
	return u + " und " + deTens[n/10]
}

func de999(n int, final bool) string {
	h, r := n/100, n%100
	var parts []string
	if h > 0 {
		hw := deUnits[h]
		if h == 1 {
			hw = "ein"
		}
		parts = append(parts, hw+" hundert")
	}
	if r > 0 {
		parts = append(parts, de99(r, final))
	}
	return strings.Join(parts, " ")
}

// deCardinal spells a digit string.
func deCardinal(d string) string { return deCard(d, true) }

func deCard(d string, final bool) string {
	return spellGroups(d, "null", len(deBig), deCardinal, func(g, scale int, _, _ bool) string {
		switch {
		case scale == 0:
			return de999(g, final)
		case scale == 1:
			return de999(g, false) + " tausend"
		case g == 1:
			return "eine " + deBig[scale][0]
		}
		return de999(g, false) + " " + deBig[scale][1]
	})
}

// splitGroups splits digits into groups of size digits (3 for thousands,
// 4 for the Chinese 万, 6 for the Spanish long scale), most significant
// first.
func splitGroups(d string, size int) []int {
	gs := make([]int, 0, (len(d)+size-1)/size)
	for len(d) > 0 {
		k := len(d) % size
		if k == 0 {
			k = size
		}
		g, _ := strconv.Atoi(d[:k])
		gs = append(gs, g)
		d = d[k:]
	}
	return gs
}

// deOrdinal spells an ordinal (masculine nominative): 1 → "erster".
func deOrdinal(d string) string {
	w := deCard(d, true)
	i := strings.LastIndexByte(w, ' ')
	head, last := w[:i+1], w[i+1:]
	switch last {
	case "eins":
		last = "erst"
	case "drei":
		last = "dritt"
	case "sieben":
		last = "siebt"
	case "acht":
		last = "acht"
	default:
		v := 0
		for k, u := range deUnits {
			if u == last {
				v = k
			}
		}
		if v > 0 || last == "null" {
			last += "t"
		} else {
			last += "st"
		}
	}
	return head + last + "er"
}

var deLatin = (&latin{
	point: "komma", minus: "minus", card: deCardinal,
	cardBefore:   func(d string) string { return deCard(d, false) },
	scaleCard:    deCardinal,
	frac:         func(f string) string { return (&latin{card: deCardinal}).digits(f) },
	groupSep:     []string{".", " "},
	strictBounds: true,
	dativeN:      true,
}).useLexicon("de").finish()

var deLex = func() *numLex {
	m := map[string]lexEntry{"null": {kUnit, 0}, "eins": {kUnit, 1}, "ein": {kUnit, 1}, "eine": {kUnit, 1},
		"einen": {kUnit, 1}, "und": {kAnd, 0}, "hundert": {kHundredMul, 100}, "tausend": {kThousand, 1000}}
	for k := 2; k < 20; k++ {
		kind := kUnit
		if k >= 10 {
			kind = kTeen
		}
		m[deUnits[k]] = lexEntry{kind, k}
	}
	m["sech"] = lexEntry{kUnit, 6} // "sechzig" is a ten; "sech" never stands alone but splits safely
	delete(m, "sech")
	for k := 2; k < 10; k++ {
		m[deTens[k]] = lexEntry{kTens, k * 10}
	}
	for k := 2; k < len(deBig); k++ {
		m[deBig[k][0]] = lexEntry{kBig, 3 * k}
		m[deBig[k][1]] = lexEntry{kBig, 3 * k}
	}
	l := newLex(m)
	l.reversed, l.compound = true, true
	return l
}()

// The German whitelist and time zones, from data/de.tsv.
var (
	deWhitelistTN, deWhitelistITN = lexWhitelist("de", false)
	deZoneSpoken, deZoneWritten   = lexTimezones("de")
)

func init() {
	deLatin.lex = deLex
	L := deLatin
	register(&rules{
		tag: "de", name: "German", script: "Latn",
		tn: map[string]matcher{
			Electronic: L.electronicTN(deElec),
			Cardinal:   orMatch(L.cardinalTN, L.dottedTN(deElec)), Decimal: L.decimalTN, Money: orMatch(L.moneyTN, L.rangeMoneyTN("bis")), Measure: orMatch(L.measureTN, L.rangeMeasureTN("bis")),
			Ordinal: deOrdinalTN, Date: orMatch(deDateTN, yearRangeTN(deYear, "bis"), weekdayBeforeDateTN("de", deDateTN)), Time: orMatch(deTimeTN, timeRangeTN(deTimeTN, "bis"), L.rangeTN("bis", deTimeTN, Time)), Fraction: deFractionTN,
			Whitelist: orMatch(whitelistMatcher(deWhitelistTN), numRefTN("de")),
			Telephone: deTelephoneTN,
		},
		itn: map[string]matcher{
			Electronic: L.electronicITN(deElec),
			Cardinal:   orMatch(L.cardinalITN, L.dottedITN(deElec)), Decimal: L.decimalITN, Money: L.moneyITN, Measure: L.measureITN,
			Ordinal: deOrdinalITN, Date: deDateITN, Time: deTimeITN, Fraction: deFractionITN,
			Whitelist: whitelistMatcher(deWhitelistITN), Telephone: deTelephoneITN,
		},
		score: stopScore(wordSet("der die das und ist nicht ein eine zu den von mit sich des auf für im dem auch es an werden aus er hat dass sie nach wird bei einer um am sind noch wie einem über so zum war haben nur oder aber vor zur bis mehr durch man ich")),
	})
}

// whitelistMatcher expands fixed strings of up to the longest key's tokens:
// as written, else lower-cased ("Usted" → "Ud.", "DR." → "doctor" where the
// table has "dr."; the table's case-sensitive keys keep their case).
func whitelistMatcher(table map[string]string) matcher {
	// firsts maps the lower-cased first token of every entry to the most
	// tokens an entry starting with it has: most positions start none.
	firsts := map[string]int{}
	for k := range table {
		toks := tokenize(k)
		if len(toks) == 0 {
			continue
		}
		f := strings.ToLower(k[toks[0].start:toks[0].end])
		firsts[f] = max(firsts[f], len(toks))
	}
	return func(s *stream, i int) []match {
		if !s.startOK(i) || s.kind(i) == tSpace {
			return nil
		}
		first := s.text(i)
		if s.kind(i) == tWord {
			first = s.lowerAt(i)
		}
		maxToks, ok := firsts[first]
		if !ok {
			if maxToks, ok = firsts[strings.ToLower(first)]; !ok {
				return nil
			}
		}
		for n := min(maxToks, s.n()-i); n >= 1; n-- {
			if !s.boundary(i+n) && !strings.HasSuffix(s.text(i+n-1), ".") {
				continue
			}
			key := s.span(i, i+n)
			if out, ok := table[key]; ok {
				return one(i+n, Whitelist, out)
			}
			if low := strings.ToLower(key); low != key {
				if out, ok := table[low]; ok {
					return one(i+n, Whitelist, out)
				}
			}
		}
		return nil
	}
}

// deOrdEndings are the ordinal endings written after digits ("2te",
// "3ter"), the word suffixes of data/de.tsv [ordinal_suffixes].
var deOrdEndings = func() map[string]bool {
	m := map[string]bool{}
	for _, p := range lexiconFor("de").pairs("ordinal_suffixes") {
		for _, w := range p.written {
			if w != "." {
				m[w] = true
			}
		}
	}
	return m
}()

func deOrdinalTN(s *stream, i int) []match {
	if s.kind(i) == tNum && s.startOK(i) && s.kind(i+1) == tWord && deOrdEndings[s.text(i+1)] && s.boundary(i+2) {
		w := strings.TrimSuffix(deOrdinal(s.text(i)), "er")
		return one(i+2, Ordinal, w+strings.TrimLeft(s.text(i+1), "st"))
	}
	if s.kind(i) != tNum || !s.startOK(i) || !s.is(i+1, ".") {
		return nil
	}
	// "24." followed by the end, a space and a word, or a closing bracket.
	if !(i+2 >= s.n() || s.kind(i+2) == tSpace && s.kind(i+3) == tWord) {
		return nil
	}
	// The period after a number that ends a sentence of words is a full
	// stop ("Er kam 2021.", "Hauptstr. 5."), and so is one after a number
	// of four digits or more before a capitalized word ("2021. Dann");
	// a number alone ("3.") stays an ordinal.
	if i+2 >= s.n() && deWordBefore(s, i) || len(s.text(i)) >= 4 && i+2 < s.n() && unicode.IsUpper(firstRune(s.text(i+3))) {
		return nil
	}
	d := s.text(i)
	return []match{{end: i + 2, readings: []reading{{text: deOrdinal(d), class: Ordinal},
		{text: deCardinal(d) + ".", class: Cardinal, cost: 1}}}}
}

// deWordBefore reports whether a word comes before token i in its segment.
func deWordBefore(s *stream, i int) bool {
	for k := i - 1; k >= 0; k-- {
		if s.kind(k) == tWord {
			return true
		}
	}
	return false
}

func deYear(d string) string {
	v, _ := strconv.Atoi(d)
	if len(d) == 4 && v >= 1100 && v < 2000 {
		w := deUnits[v/100]
		if v/100 >= 20 {
			w = de99(v/100, false)
		}
		w += " hundert"
		if v%100 != 0 {
			w += " " + de99(v%100, true)
		}
		return w
	}
	return deCardinal(d)
}

func deMonth(w string) int {
	w = strings.ToLower(strings.TrimSuffix(w, "."))
	if mo := deLatin.monthName[w]; mo != 0 {
		return mo
	}
	if mo := deLatin.monthAbbr[w]; mo != 0 {
		return mo
	}
	for k, m := range deLatin.months {
		if w == m || len(w) >= 3 && strings.HasPrefix(m, w) {
			return k + 1
		}
	}
	return 0
}

func deDateTN(s *stream, i int) []match {
	if s.kind(i) != tNum || !s.startOK(i) {
		return nil
	}
	a := s.text(i)
	// 2003-03-02
	if len(a) == 4 && s.is(i+1, "-") && s.kind(i+2) == tNum && s.is(i+3, "-") && s.kind(i+4) == tNum && s.boundary(i+5) {
		mo, _ := strconv.Atoi(s.text(i + 2))
		dd, _ := strconv.Atoi(s.text(i + 4))
		if mo >= 1 && mo <= 12 && dd >= 1 && dd <= 31 {
			return one(i+5, Date, deOrdinal(s.text(i+4))+" "+deLatin.months[mo-1]+" "+deYear(a))
		}
	}
	dd, _ := strconv.Atoi(a)
	if len(a) > 2 || dd < 1 || dd > 31 || !s.is(i+1, ".") {
		return nil
	}
	// 2.3.2003, 02.03
	if s.kind(i+2) == tNum && len(s.text(i+2)) <= 2 {
		mo, _ := strconv.Atoi(s.text(i + 2))
		if mo < 1 || mo > 12 {
			return nil
		}
		out := deOrdinal(a) + " " + deLatin.months[mo-1]
		e := i + 3
		if s.is(e, ".") && s.kind(e+1) == tNum && len(s.text(e+1)) == 4 && s.boundary(e+2) {
			out += " " + deYear(s.text(e+1))
			e += 2
		} else if s.is(e, ".") && s.kind(e+1) == tSpace && s.kind(e+2) == tWord && unicode.IsLower(firstRune(s.text(e+2))) {
			// "14.06. los": the period after the month is the date's, as
			// the running text goes on in lower case; before a capital or
			// at the end it may also end the sentence and stays
			e++
		} else if !s.boundary(e) {
			return nil
		}
		return one(e, Date, out)
	}
	// 24. juli 2013
	if s.kind(i+2) == tSpace && s.kind(i+3) == tWord {
		mo := deMonth(s.text(i + 3))
		if mo == 0 || len(s.text(i+3)) < 3 {
			return nil
		}
		e := i + 4
		// the period after an abbreviation ("3. Feb.") belongs to it; after
		// a full name ("1. Mai.") it ends the sentence
		if s.is(e, ".") && deLatin.monthName[strings.ToLower(s.text(i+3))] != mo {
			e++
		}
		out := deOrdinal(a) + " " + deLatin.monthWord(mo, s.text(i+3))
		if s.kind(e) == tSpace && s.kind(e+1) == tNum && len(s.text(e+1)) == 4 && s.boundary(e+2) {
			out += " " + deYear(s.text(e+1))
			e += 2
		}
		return one(e, Date, out)
	}
	return nil
}

func deTimeTN(s *stream, i int) []match {
	// a full hour: "2 Uhr" → "zwei uhr"
	if s.kind(i) == tNum && s.startOK(i) && len(s.text(i)) <= 2 && s.kind(i+1) == tSpace && strings.EqualFold(s.text(i+2), "uhr") && s.boundary(i+3) {
		if h, _ := strconv.Atoi(s.text(i)); h <= 24 {
			out := deCardinal(strconv.Itoa(h)) + " uhr"
			if h == 1 {
				out = "ein uhr"
			}
			e := i + 3
			if s.kind(e) == tSpace && s.kind(e+1) == tWord && s.boundary(e+2) {
				if z, ok := deZoneSpoken[s.text(e+1)]; ok {
					out += " " + z
					e += 2
				}
			}
			return one(e, Time, out)
		}
	}
	sep := s.text(i + 1)
	if s.kind(i) != tNum || !s.startOK(i) || len(s.text(i)) > 2 || sep != ":" && sep != "." || s.kind(i+2) != tNum || len(s.text(i+2)) != 2 {
		return nil
	}
	h, _ := strconv.Atoi(s.text(i))
	m, _ := strconv.Atoi(s.text(i + 2))
	if h > 24 || m > 59 {
		return nil
	}
	e := i + 3
	sec := -1
	if sep == ":" && s.is(e, ":") && s.kind(e+1) == tNum && len(s.text(e+1)) == 2 {
		sec, _ = strconv.Atoi(s.text(e + 1))
		e += 2
	}
	uhr := false
	if s.kind(e) == tSpace && strings.EqualFold(s.text(e+1), "uhr") {
		e, uhr = e+2, true
	}
	if !s.boundary(e) || sep == "." && !uhr {
		return nil
	}
	out := deCardinal(strconv.Itoa(h)) + " uhr"
	if h == 1 {
		out = "ein uhr"
	}
	unit := func(v int, one, many string) string {
		if v == 1 {
			return "eine " + one
		}
		return deCardinal(strconv.Itoa(v)) + " " + many
	}
	if sec >= 0 {
		out += " " + unit(m, "minute", "minuten") + " " + unit(sec, "sekunde", "sekunden")
	} else if m > 0 {
		out += " " + deCardinal(strconv.Itoa(m))
	}
	// a time zone: "est" → "e s t"
	if s.kind(e) == tSpace && s.kind(e+1) == tWord && s.boundary(e+2) {
		if z, ok := deZoneSpoken[s.text(e+1)]; ok {
			out += " " + z
			e += 2
		}
	}
	return one(e, Time, out)
}

func deDenominator(d string, plural bool) string {
	switch d {
	case "2":
		if plural {
			return "halbe"
		}
		return "halb"
	case "3":
		return "drittel"
	case "7":
		return "siebtel"
	case "8":
		return "achtel"
	}
	w := deCard(d, true)
	v, _ := strconv.Atoi(d)
	if d == "0" {
		return "nulltel"
	}
	if v%100 < 20 && v%100 != 0 {
		return strings.TrimSuffix(w, "eins") + "tel"
	}
	return w + "stel"
}

func deFractionTN(s *stream, i int) []match {
	if s.is(i, "-") && s.minusOK(i) && s.kind(i+1) == tNum {
		if m := deFractionTN(&stream{src: s.src, toks: s.toks[i+1:]}, 0); m != nil {
			m[0].end += i + 1
			m[0].readings[0].text = "minus " + m[0].readings[0].text
			return m
		}
		return nil
	}
	whole, num, den, end, ok := enScanFraction(s, i)
	if !ok {
		return nil
	}
	nw := deCard(num, false)
	dn := strings.TrimLeft(den, "0")
	if dn == "" {
		dn = "0"
	}
	out := nw + " " + deDenominator(dn, num != "1")
	if whole != "" {
		out = deCard(whole, false) + " " + out
	}
	if s.is(i-1, "-") && s.minusOK(i-1) {
		return nil // the minus form is matched at the sign
	}
	if u, e2, ok := deLatin.unitAt(s, end); ok {
		// more than one takes the plural ("2 1/2 h" → "zwei ein halb
		// stunden"); a fraction below one the singular ("1/2 ft")
		name := u[0]
		if w := strings.TrimLeft(whole, "0"); w != "" && u[1] != "" {
			name = u[1]
		}
		return one(e2, Measure, out+" "+name)
	}
	return one(end, Fraction, out)
}

func deTelephoneTN(s *stream, i int) []match {
	if !s.startOK(i) {
		return nil
	}
	j := i
	var parts []string
	if s.is(j, "+") && s.kind(j+1) == tNum && len(s.text(j+1)) <= 3 {
		parts = append(parts, "plus "+deCardinal(s.text(j+1)))
		j += 2
		if s.kind(j) != tSpace {
			return nil
		}
		j++
	} else if s.is(j, "(") && s.kind(j+1) == tNum && s.text(j + 1)[0] == '0' && s.is(j+2, ")") {
		parts = append(parts, deLatin.digits(s.text(j+1)))
		j += 3
		if s.kind(j) != tSpace {
			return nil
		}
		j++
	} else if s.kind(j) == tNum && s.text(j)[0] == '0' && len(s.text(j)) >= 3 && s.is(j+1, " ") && s.kind(j+2) == tNum {
		// an area code without brackets: "0411 1234-1234"
		parts = append(parts, deLatin.digits(s.text(j)))
		j += 2
	} else {
		return nil
	}
	// The number: digits in at most two groups apart by "-" or a space
	// ("1234-1234", "30 1234567"), seven characters or more, read digit
	// by digit (NeMo's German layout).
	start, groups := j, 0
	for s.kind(j) == tNum && groups < 2 {
		parts = append(parts, deLatin.digits(s.text(j)))
		groups++
		j++
		if (s.is(j, "-") || s.is(j, " ")) && s.kind(j+1) == tNum && groups < 2 {
			j++
		}
	}
	if groups == 0 || s.toks[j-1].end-s.toks[start].start < 7 || s.kind(j-1) != tNum || !s.boundary(j) {
		return nil
	}
	return one(j, Telephone, strings.Join(parts, " "))
}

// ITN.

var deOrdStems = map[string]string{"erst": "eins", "zweit": "zwei", "dritt": "drei", "viert": "vier", "fünft": "fünf",
	"sechst": "sechs", "siebt": "sieben", "acht": "acht", "neunt": "neun", "zehnt": "zehn", "elft": "elf", "zwölft": "zwölf"}

// deOrdinalWord maps an ordinal word to cardinal entries ("dreiundzwanzigstes" → drei und zwanzig).
func deOrdinalWord(w string) ([]string, bool) {
	for _, suf := range []string{"stem", "sten", "stes", "ster", "ste", "tem", "ten", "tes", "ter", "te"} {
		stem, ok := strings.CutSuffix(w, suf)
		if !ok || stem == "" {
			continue
		}
		if strings.HasPrefix(suf, "s") {
			if parts, ok := deLex.split(stem); ok {
				return parts, true
			}
			continue
		}
		// "-ter": a lexicon word ("zehnter", "dreizehntem") or a unit stem ("dritt", "siebt").
		if parts, ok := deLex.split(stem); ok {
			if r, ok := deLex.parse(parts); ok && r.used == len(parts) {
				return parts, true
			}
		}
		full := stem + "t"
		for st, c := range deOrdStems {
			if strings.HasSuffix(full, st) {
				head := strings.TrimSuffix(full, st)
				var parts []string
				if head != "" {
					p, ok := deLex.split(head)
					if !ok {
						continue
					}
					parts = p
				}
				return append(parts, c), true
			}
		}
		if parts, ok := deLex.split(stem); ok {
			return parts, true
		}
	}
	return nil, false
}

func deOrdinalAt(s *stream, i int) (string, int, bool) {
	if s.kind(i) != tWord || !s.startOK(i) {
		return "", 0, false
	}
	ws, ends, whole := spokenWords(s, i, deLex, 60)
	for k := range ws {
		if !whole[k] {
			continue
		}
		// find the first word that is an ordinal, parse everything before + it
		start := k
		for start > 0 && !whole[start-1] {
			start--
		}
		word := strings.Join(ws[start:k+1], "")
		if _, isCard := deLex.split(word); isCard {
			continue
		}
		parts, ok := deOrdinalWord(strings.ToLower(s.text(ends[k] - 1)))
		if !ok {
			return "", 0, false
		}
		all := append(append([]string{}, ws[:start]...), parts...)
		r, ok := deLex.parse(all)
		if !ok || r.used != len(all) {
			return "", 0, false
		}
		return r.val.String(), ends[k], true
	}
	return "", 0, false
}

func deOrdinalITN(s *stream, i int) []match {
	v, end, ok := deOrdinalAt(s, i)
	if !ok {
		return nil
	}
	if n, _ := strconv.Atoi(v); n < 10 && len(v) == 1 {
		return nil
	}
	return one(end, Ordinal, v+".")
}

// deMonthAbbr is how ITN writes each month in a date: its first
// abbreviation in data/de.tsv when that ends in a period ("Jan."), else its
// name ("März").
var deMonthAbbr = func() []string {
	out := make([]string, 12)
	for _, m := range lexiconFor("de").months() {
		if m.num < 1 || m.num > 12 || len(m.names) == 0 {
			continue
		}
		out[m.num-1] = m.names[0]
		if len(m.abbrs) > 0 && strings.HasSuffix(m.abbrs[0], ".") {
			out[m.num-1] = m.abbrs[0]
		}
	}
	return out
}()

// deYearITN parses "neunzehn achtzig", "neunzehnhundertachtzig", "zwei tausend neun".
func deYearITN(s *stream, i int) (string, int, bool) {
	ws, ends, whole := spokenWords(s, i, deLex, 12)
	if len(ws) >= 2 {
		hi, ok1 := deLex.words[ws[0]]
		if ok1 && (hi.kind == kTeen || hi.kind == kTens) && hi.val >= 11 {
			k := 1
			if ws[k] == "hundert" {
				k++
			}
			if k < len(ws) {
				r, ok := deLex.parse(ws[k:])
				if ok && r.val.IsInt64() && r.val.Int64() >= 10 && r.val.Int64() < 100 {
					n := wholeWords(k+r.used, whole)
					if n == k+r.used {
						return strconv.Itoa(hi.val*100 + int(r.val.Int64())), ends[n-1], true
					}
				}
			}
		}
	}
	r, ok := deLex.parse(ws)
	if ok && r.val.IsInt64() && r.val.Int64() >= 1000 && r.val.Int64() < 2100 {
		n := wholeWords(r.used, whole)
		if n == r.used {
			return r.val.String(), ends[n-1], true
		}
	}
	return "", 0, false
}

func deDateITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	if mo := deMonth(s.text(i)); mo != 0 && len(s.text(i)) > 3 && s.kind(i+1) == tSpace {
		if y, e, ok := deYearITN(s, i+2); ok {
			return one(e, Date, deMonthAbbr[mo-1]+" "+y)
		}
	}
	if d, e, ok := deOrdinalAt(s, i); ok {
		dv, _ := strconv.Atoi(d)
		if dv >= 1 && dv <= 31 && s.kind(e) == tSpace {
			if mo := deMonth(s.text(e + 1)); mo != 0 && (len(s.text(e+1)) > 3 || strings.EqualFold(s.text(e+1), deLatin.months[mo-1])) {
				out := d + ". " + deMonthAbbr[mo-1]
				end := e + 2
				if s.kind(end) == tSpace {
					if y, e2, ok := deYearITN(s, end+1); ok {
						out += " " + y
						end = e2
					}
				}
				return one(end, Date, out)
			}
		}
	}
	if y, e, ok := deYearITN(s, i); ok {
		ws, _, _ := spokenWords(s, i, deLex, 12)
		if len(ws) >= 2 {
			if first := deLex.words[ws[0]]; first.val >= 11 && first.kind != kUnit {
				return []match{{end: e, readings: []reading{{text: y, class: Date, cost: -0.1}}}}
			}
		}
	}
	return nil
}

func deTimeITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	w := strings.ToLower(s.text(i))
	hourAt := func(j int) (int, int, bool) {
		r, ok := deLex.parse([]string{strings.ToLower(s.text(j))})
		if !ok || !r.val.IsInt64() || r.val.Int64() > 24 {
			return 0, 0, false
		}
		if parts, ok := deLex.split(strings.ToLower(s.text(j))); ok && len(parts) > 1 {
			r, ok = deLex.parse(parts)
			if !ok || r.used != len(parts) {
				return 0, 0, false
			}
		}
		return int(r.val.Int64()), j + 1, true
	}
	// "halb zwölf", "viertel nach zwölf", "viertel vor zwölf", "drei vor zwölf"
	if w == "halb" && s.kind(i+1) == tSpace {
		if h, e, ok := hourAt(i + 2); ok && h > 0 {
			return one(e, Time, twoDigits(h-1)+":30 Uhr")
		}
	}
	ws, ends, whole := spokenWords(s, i, deLex, 12)
	_ = whole
	if len(ws) > 0 {
		mins := -1
		k := 0
		if w == "viertel" {
			mins, k = 15, 1
		} else if r, ok := deLex.parse(ws); ok && r.val.IsInt64() && r.val.Int64() < 60 {
			n := wholeWords(r.used, whole)
			if n == r.used && n > 0 {
				mins, k = int(r.val.Int64()), n
			}
		}
		if mins >= 0 && k > 0 {
			e := ends[k-1]
			if s.kind(e) == tSpace && (strings.EqualFold(s.text(e+1), "nach") || strings.EqualFold(s.text(e+1), "vor")) && s.kind(e+2) == tSpace {
				if h, e2, ok := hourAt(e + 3); ok {
					if strings.EqualFold(s.text(e+1), "vor") {
						h, mins = (h+23)%24, 60-mins
					}
					return one(e2, Time, twoDigits(h)+":"+twoDigits(mins)+" Uhr")
				}
			}
		}
	}
	// "vierundzwanziguhrzweiundzwanzigest": the whole expression in one word
	if k := strings.Index(w, "uhr"); k > 0 {
		if out, ok := deUhrCompound(w[:k], w[k+3:]); ok {
			e := i + 1
			if strings.HasSuffix(out, ":") {
				return nil
			}
			// a spoken zone after: "e s t"
			if z, e2 := zoneAfter(s, e, deZoneWritten); z != "" {
				out, e = out+" "+z, e2
			}
			return one(e, Time, out)
		}
	}
	// "acht uhr", "acht uhr sieben", "vierundzwanziguhr"
	r, ok := deLex.parse(ws)
	if !ok || !r.val.IsInt64() || r.val.Int64() > 24 {
		return nil
	}
	n := wholeWords(r.used, whole)
	if n != r.used || n == 0 {
		return nil
	}
	h := int(r.val.Int64())
	e := ends[n-1]
	if !(s.kind(e) == tSpace && strings.EqualFold(s.text(e+1), "uhr")) {
		return nil
	}
	e += 2
	out := strconv.Itoa(h) + " Uhr"
	if s.kind(e) == tSpace && s.kind(e+1) == tWord {
		ws2, ends2, whole2 := spokenWords(s, e+1, deLex, 6)
		if r2, ok := deLex.parse(ws2); ok && r2.val.IsInt64() && r2.val.Int64() < 60 {
			if n2 := wholeWords(r2.used, whole2); n2 == r2.used && n2 > 0 {
				mm := int(r2.val.Int64())
				out = twoDigits(h) + ":" + twoDigits(mm) + " Uhr"
				e = ends2[n2-1]
				// "... minuten drei und zwanzig sekunden"
				if mw, e3 := wordAfter(s, e); mw == "minute" || mw == "minuten" {
					e = e3
					if s.kind(e) == tSpace {
						ws3, ends3, whole3 := spokenWords(s, e+1, deLex, 6)
						if r3, ok := deLex.parse(ws3); ok && r3.val.IsInt64() && r3.val.Int64() < 60 {
							if n3 := wholeWords(r3.used, whole3); n3 == r3.used && n3 > 0 {
								if sw, e4 := wordAfter(s, ends3[n3-1]); sw == "sekunde" || sw == "sekunden" {
									out = twoDigits(h) + ":" + twoDigits(mm) + ":" + twoDigits(int(r3.val.Int64())) + " Uhr"
									e = e4
								}
							}
						}
					}
				}
			}
		}
	}
	if z, e2 := zoneAfter(s, e, deZoneWritten); z != "" {
		out, e = out+" "+z, e2
	}
	return one(e, Time, out)
}

func deFractionITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	neg := ""
	if strings.EqualFold(s.text(i), "minus") && s.kind(i+1) == tSpace {
		if m := deFractionITN(s, i+2); m != nil {
			m[0].readings[0].text = "-" + m[0].readings[0].text
			return m
		}
		return nil
	}
	ws, ends, whole := spokenWords(s, i, deLex, 12)
	r, ok := deLex.parse(ws)
	if !ok {
		return nil
	}
	n := wholeWords(r.used, whole)
	if n == 0 {
		return nil
	}
	if n < r.used {
		r, _ = deLex.parse(ws[:n])
	}
	num := r.val.String()
	e := ends[n-1]
	// The denominator: the following words up to one ending in -tel/-stel
	// or "halb(e)", joined ("ein hundertstel", "zwei und zwanzigstel").
	den, de := deDenPhrase(s, e)
	if den != "" {
		return deFracOut(s, neg+num+"/"+den, de)
	}
	// "ein ein halb" → 1 1/2
	if s.kind(e) == tSpace {
		ws2, ends2, whole2 := spokenWords(s, e+1, deLex, 6)
		if r2, ok := deLex.parse(ws2); ok && wholeWords(r2.used, whole2) == r2.used && r2.val.IsInt64() && r2.val.Int64() < 10 {
			if den, de := deDenPhrase(s, ends2[r2.used-1]); den != "" {
				return deFracOut(s, neg+num+" "+r2.val.String()+"/"+den, de)
			}
		}
	}
	return nil
}

// deFracOut appends a following unit ("ein halb fuß" → "1/2 ft").
func deFracOut(s *stream, frac string, end int) []match {
	if w, e := wordAfter(s, end); w != "" {
		if u, ok := deLatin.spokenUnit[w]; ok {
			return one(e, Measure, frac+" "+u)
		}
	}
	return one(end, Fraction, frac)
}

// deDenPhrase reads a spoken denominator after token end (skipping one space).
func deDenPhrase(s *stream, end int) (string, int) {
	if s.kind(end) != tSpace {
		return "", 0
	}
	var b strings.Builder
	j := end + 1
	for k := 0; k < 6 && s.kind(j) == tWord; k++ {
		b.WriteString(strings.ToLower(s.text(j)))
		if d := deDenITN(b.String()); d != "" {
			return d, j + 1
		}
		if !(s.kind(j+1) == tSpace && s.kind(j+2) == tWord) {
			break
		}
		j += 2
	}
	return "", 0
}

func deDenITN(w string) string {
	switch w {
	case "halb", "halbe", "halben":
		return "2"
	case "drittel":
		return "3"
	case "siebtel":
		return "7"
	case "achtel":
		return "8"
	}
	// "-stel" after most numbers, "-tel" after some ("sechstel",
	// "viertel"): try both stems
	for _, suf := range []string{"stel", "tel"} {
		stem, ok := strings.CutSuffix(w, suf)
		if !ok {
			continue
		}
		if stem == "null" || stem == "nul" {
			return "0"
		}
		parts, ok := deLex.split(stem)
		if !ok {
			continue
		}
		if r, ok := deLex.parse(parts); ok && r.used == len(parts) {
			return r.val.String()
		}
	}
	return ""
}

// deUhrCompound reads "vierundzwanzig" + "uhr" + "zweiundzwanzigest".
func deUhrCompound(hw, rest string) (string, bool) {
	hp, ok := deLex.split(hw)
	if !ok {
		return "", false
	}
	r, ok := deLex.parse(hp)
	if !ok || r.used != len(hp) || !r.val.IsInt64() || r.val.Int64() > 24 {
		return "", false
	}
	h := int(r.val.Int64())
	if rest == "" {
		return strconv.Itoa(h) + " Uhr", true
	}
	zone := ""
	for _, z := range sortedKeys(deZoneSpoken) {
		if x, ok := strings.CutSuffix(rest, z); ok && z == strings.ToLower(z) && len(z) > 2 && x != "" {
			rest, zone = x, " "+deZoneWritten[deZoneSpoken[z]]
			break
		}
	}
	mp, ok := deLex.split(rest)
	if !ok {
		return "", false
	}
	m, ok := deLex.parse(mp)
	if !ok || m.used != len(mp) || !m.val.IsInt64() || m.val.Int64() > 59 {
		return "", false
	}
	return twoDigits(h) + ":" + twoDigits(int(m.val.Int64())) + " Uhr" + zone, true
}

// deTelephoneITN reads a German telephone number said digit by digit: an
// area code starting with "null" and three more digits, then four and four
// digits, "null vier eins eins eins zwei drei vier eins zwei drei vier" →
// "(0411) 1234-1234", the layout deTelephoneTN reads; seven to thirteen
// digits otherwise, written in one run ("03012345678").
func deTelephoneITN(s *stream, i int) []match {
	if !s.startOK(i) || !strings.EqualFold(s.text(i), "null") {
		return nil
	}
	var digits []byte
	j := i
	for len(digits) < 14 && s.kind(j) == tWord {
		e, ok := deLex.words[s.lowerAt(j)]
		if !ok || e.kind != kUnit || e.val > 9 || s.lowerAt(j) == "ein" || s.lowerAt(j) == "eine" {
			break
		}
		digits = append(digits, byte('0'+e.val))
		j++
		if !(s.kind(j) == tSpace && s.text(j) == " " && s.kind(j+1) == tWord) {
			break
		}
		if e2, ok := deLex.words[s.lowerAt(j+1)]; !ok || e2.kind != kUnit || e2.val > 9 {
			break
		}
		j++
	}
	if !s.boundary(j) {
		return nil
	}
	d := string(digits)
	switch {
	case len(d) == 12:
		return one(j, Telephone, "("+d[:4]+") "+d[4:8]+"-"+d[8:])
	case len(d) >= 7 && len(d) <= 13:
		// other lengths: where the area code ends is not said, so the
		// digits are written in one run ("030 1234567" said digit by digit)
		return one(j, Telephone, d)
	}
	return nil
}
