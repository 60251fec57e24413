package normalize

import (
	"strconv"
	"strings"
	"unicode"
)

// French rules (traditional spelling: "quatre-vingt-quatorze", "deux cents").

var frUnits = [...]string{"zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf",
	"dix", "onze", "douze", "treize", "quatorze", "quinze", "seize", "dix-sept", "dix-huit", "dix-neuf"}
var frTens = [...]string{"", "", "vingt", "trente", "quarante", "cinquante", "soixante", "soixante", "quatre-vingt", "quatre-vingt"}

func fr99(n int) string {
	if n < 20 {
		return frUnits[n]
	}
	t, u := n/10, n%10
	base := frTens[t]
	rest := u
	if t == 7 || t == 9 {
		rest = u + 10
	}
	switch {
	case rest == 0 && t == 8:
		return "quatre-vingts"
	case rest == 0:
		return base
	case rest == 1 && t != 8 && t != 9:
		return base + " et un"
	case rest == 11 && t == 7:
		return base + " et onze"
	}
	return base + "-" + frUnits[rest]
}

func fr999(n int, final bool) string {
	h, r := n/100, n%100
	var parts []string
	switch {
	case h == 1:
		parts = append(parts, "cent")
	case h > 1 && r == 0 && final:
		parts = append(parts, frUnits[h]+" cents")
	case h > 1:
		parts = append(parts, frUnits[h]+" cent")
	}
	if r > 0 {
		w := fr99(r)
		if !final && w == "quatre-vingts" {
			w = "quatre-vingt"
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, " ")
}

var frBig = [...][2]string{{}, {}, {"million", "millions"}, {"milliard", "milliards"}, {"billion", "billions"}, {"billiard", "billiards"}}

func frCardinal(d string) string {
	return spellGroups(d, "zéro", len(frBig), frCardinal, func(g, scale int, _, _ bool) string {
		switch {
		case scale == 0:
			return fr999(g, true)
		case scale == 1 && g == 1:
			return "mille"
		case scale == 1:
			return fr999(g, false) + " mille"
		case g == 1:
			return "un " + frBig[scale][0]
		}
		return fr999(g, true) + " " + frBig[scale][1]
	})
}

// frFrac reads decimal digits: up to three as one number, four as two pairs.
func frFrac(f string) string {
	var ws []string
	for len(f) > 0 {
		n := 3
		if len(f) == 4 {
			n = 2
		}
		n = min(n, len(f))
		p := f[:n]
		f = f[n:]
		if p[0] == '0' {
			ws = append(ws, (&latin{card: frCardinal}).digits(p))
			continue
		}
		ws = append(ws, frCardinal(p))
	}
	return strings.Join(ws, " ")
}

// frOrdinal spells n as an ordinal; fem selects "première".
func frOrdinal(d string, fem bool) string {
	if strings.TrimLeft(d, "0") == "1" {
		if fem {
			return "première"
		}
		return "premier"
	}
	w := frCardinal(d)
	cut := max(strings.LastIndexByte(w, ' '), strings.LastIndexByte(w, '-'))
	head, last := w[:cut+1], w[cut+1:]
	switch {
	case last == "un":
		last = "unième"
	case last == "cinq":
		last = "cinquième"
	case last == "neuf":
		last = "neuvième"
	case last == "vingts" || last == "cents":
		last = strings.TrimSuffix(last, "s") + "ième"
	case strings.HasSuffix(last, "e"):
		last = strings.TrimSuffix(last, "e") + "ième"
	default:
		last += "ième"
	}
	return head + last
}

var frLatin = (&latin{
	point: "virgule", minus: "moins", card: frCardinal, frac: frFrac,
	symbolAfter: true,
	scaleOfTN:   "de",
	agree:       true,
	commaGroups: true,
	hyphenTens:  true,
	format: func(a string) string {
		// only the number is grouped, not a scale word after it
		// ("5 millions" stays, "42259" → "42 259")
		a, rest, _ := strings.Cut(a, " ")
		if rest != "" {
			rest = " " + rest
		}
		ip, fp, dec := strings.Cut(a, ",")
		if dec {
			return frGroup(ip) + "," + frGroupFrac(fp) + rest
		}
		return frGroup(ip) + rest
	},
	cardFem: func(d string) string {
		w := frCardinal(d)
		return strings.TrimSuffix(w, "un") + strings.Repeat("une", btoi(strings.HasSuffix(w, "un")))
	},
	groupSep: []string{" ", "\u00a0", "\u202f", "."},
}).useLexicon("fr").finish()

// The French whitelist, from data/fr.tsv.
var frWhitelistTN, frWhitelistITN = lexWhitelist("fr", false)

var frLex = func() *numLex {
	m := map[string]lexEntry{"une": {kUnit, 1}, "et": {kAnd, 0}, "cent": {kHundredMul, 100}, "cents": {kHundredMul, 100},
		"mille": {kThousand, 1000}, "mil": {kThousand, 1000}, "vingts": {kTens, 20}, "septante": {kTens, 70},
		"huitante": {kTens, 80}, "octante": {kTens, 80}, "nonante": {kTens, 90}, "zero": {kUnit, 0}}
	for k := 0; k < 17; k++ {
		kind := kUnit
		if k >= 10 {
			kind = kTeen
		}
		m[frUnits[k]] = lexEntry{kind, k}
	}
	for k := 2; k < 7; k++ {
		m[frTens[k]] = lexEntry{kTens, k * 10}
	}
	for k := 2; k < len(frBig); k++ {
		m[frBig[k][0]] = lexEntry{kBig, 3 * k}
		m[frBig[k][1]] = lexEntry{kBig, 3 * k}
	}
	l := newLex(m)
	l.vigesimal = true
	return l
}()

func init() {
	frLatin.lex = frLex
	// decimals said in groups: "un virgule zéro zéro zéro zéro vingt-huit"
	frLatin.amountHook = func(s *stream, i int) (string, bool, string, int, bool) {
		return frLatin.groupedAmount(s, i, map[string]string{"virgule": ","})
	}
	L := frLatin
	register(&rules{
		tag: "fr", name: "French", script: "Latn",
		tn: map[string]matcher{
			Electronic: L.electronicTN(frElec),
			Cardinal:   orMatch(L.cardinalTN, L.dottedTN(frElec)), Decimal: L.decimalTN, Money: orMatch(L.moneyTN, L.rangeMoneyTN("à")), Measure: orMatch(L.measureTN, L.rangeMeasureTN("à")),
			Ordinal: frOrdinalTN, Date: orMatch(frDateTN, yearRangeTN(frCardinal, "à"), weekdayBeforeDateTN("fr", frDateTN)), Fraction: frFractionTN, Time: orMatch(frTimeTN, timeRangeTN(frTimeTN, "à")),
			Whitelist: orMatch(whitelistMatcher(frWhitelistTN), numRefTN("fr")),
			Telephone: frTelephoneTN,
		},
		itn: map[string]matcher{
			Electronic: L.electronicITN(frElec),
			Cardinal:   orMatch(L.cardinalITN, L.dottedITN(frElec)), Decimal: frDecimalITN, Money: L.moneyITN, Measure: L.measureITN,
			Ordinal: frOrdinalITN, Date: frDateITN, Time: frTimeITN, Fraction: frFractionITN,
			Telephone: frTelephoneITN,
			Whitelist: whitelistMatcher(frWhitelistITN),
		},
		score: stopScore(wordSet("le la les de des du un une et est en que qui dans pour pas au sur ne se ce il elle avec plus par son sa ses ont été être nous vous ils elles mais ou donc car je tu aux cette leur leurs")),
	})
}

func frOrdinalTN(s *stream, i int) []match {
	if m := frRomanCenturyTN(s, i); m != nil {
		return m
	}
	if m := frRegnalTN(s, i); m != nil {
		return m
	}
	if s.kind(i) != tNum || !s.startOK(i) || s.kind(i+1) != tWord && !s.is(i+1, "°") {
		return nil
	}
	suf, ok := frOrdSuffixes[s.text(i+1)]
	if !ok || !s.boundary(i+2) {
		return nil
	}
	d := strings.TrimLeft(s.text(i), "0")
	if suf.only != "*" && d != suf.only {
		return nil
	}
	var w string
	switch {
	case d == "2" && suf.only == "2":
		w = "second"
		if suf.fem {
			w = "seconde"
		}
	default:
		w = frOrdinal(s.text(i), suf.fem)
	}
	if suf.plural {
		w += "s"
	}
	return one(i+2, Ordinal, w)
}

// frRegnalTN reads a Roman numeral after a capitalized word as French
// says it, a cardinal ("Louis XIV" → "Louis quatorze", "chapitre IV" is
// the same rule: "Chapitre IV" → "Chapitre quatre"), and "Ier" as
// "premier" ("François Ier"). The numeral is in capitals, of two letters
// or more from I, V, X and L (a lone "V" or "X" may be a letter), below 40.
func frRegnalTN(s *stream, i int) []match {
	t := s.text(i)
	if s.kind(i) != tWord || !s.boundary(i+1) || s.kind(i-1) != tSpace || s.kind(i-2) != tWord {
		return nil
	}
	if r := firstRune(s.text(i - 2)); !unicode.IsUpper(r) || s.text(i-2) == strings.ToUpper(s.text(i-2)) {
		return nil
	}
	switch t {
	case "Ier", "Iᵉʳ":
		return one(i+1, Roman, "premier")
	case "Ire", "Iʳᵉ", "Ière":
		return one(i+1, Roman, "première")
	}
	if len(t) < 2 || strings.Trim(t, "IVXL") != "" {
		return nil
	}
	v, ok := parseRoman(t)
	if !ok || v >= 40 || t == "XL" {
		return nil
	}
	return one(i+1, Roman, frCardinal(strconv.Itoa(v)))
}

// frRomanCenturyTN reads a century in Roman numerals with an ordinal
// suffix, "XIXe siècle" → "dix-neuvième siècle", the form ITN writes
// (frOrdinalITN). Only before "siècle": "Ce", "De", "Le" are words.
func frRomanCenturyTN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) || s.kind(i+1) != tSpace {
		return nil
	}
	if next := strings.ToLower(s.text(i + 2)); next != "siècle" && next != "siècles" {
		return nil
	}
	w := s.text(i)
	k := strings.IndexFunc(w, func(r rune) bool { return !strings.ContainsRune("IVXLCDM", r) })
	if k <= 0 {
		return nil
	}
	suf, ok := frOrdSuffixes[w[k:]]
	n, okR := parseRoman(w[:k])
	if !ok || !okR || n > 40 || suf.only != "*" && strconv.Itoa(n) != suf.only {
		return nil
	}
	out := frOrdinal(strconv.Itoa(n), suf.fem)
	if suf.plural {
		out += "s"
	}
	return one(i+1, Ordinal, out)
}

// frOrdSuf is a written ordinal suffix of data/fr.tsv [ordinal_suffixes]:
// the number it follows ("1", "2" or "*" for any), gender and number.
type frOrdSuf struct {
	only        string
	fem, plural bool
}

// frOrdSuffixes maps each written suffix ("e", "ème", "1er", "ʳᵉ", "nde",
// "es") to what it marks.
var frOrdSuffixes = func() map[string]frOrdSuf {
	m := map[string]frOrdSuf{}
	for _, p := range lexiconFor("fr").pairs("ordinal_suffixes") {
		suf := frOrdSuf{only: first(field(p.spoken, 0)), fem: p.has("f"), plural: p.has("pl")}
		for _, w := range p.written {
			if _, taken := m[w]; !taken {
				m[w] = suf
			}
		}
	}
	m["eme"] = m["ème"] // unaccented, as typed
	return m
}()

func frMonth(w string) int {
	w = strings.ToLower(w)
	for k, m := range frLatin.months {
		if w == m {
			return k + 1
		}
	}
	return 0
}

// frMonthAbbrs maps the abbreviations of [months] to their month ("févr."
// and "févr" → 2); a dotted one is read with its period.
var frMonthAbbrs = func() map[string]int {
	m := map[string]int{}
	for _, mo := range lexiconFor("fr").months() {
		for _, a := range mo.abbrs {
			m[strings.ToLower(a)] = mo.num
		}
	}
	return m
}()

// frMonthAt reads a month's name or abbreviation at token k ("juin",
// "févr.", "sept") and returns its number and the index after it, or 0.
func frMonthAt(s *stream, k int) (int, int) {
	if mo := frMonth(s.text(k)); mo != 0 {
		return mo, k + 1
	}
	w := strings.ToLower(s.text(k))
	if s.is(k+1, ".") {
		if mo := frMonthAbbrs[w+"."]; mo != 0 {
			return mo, k + 2
		}
	}
	if mo := frMonthAbbrs[w]; mo != 0 && s.kind(k) == tWord {
		return mo, k + 1
	}
	return 0, k
}

func frDay(d string) string {
	if strings.TrimLeft(d, "0") == "1" {
		return "premier"
	}
	return frCardinal(d)
}

// frDecades reads decades ("80s"), from data/fr.tsv.
var frDecades = func() map[string]string {
	out := map[string]string{}
	for _, p := range lexiconFor("fr").pairs("decades") {
		for _, w := range p.written {
			out[w] = first(field(p.spoken, 0))
		}
	}
	return out
}()

func frDateTN(s *stream, i int) []match {
	if s.kind(i) != tNum || !s.startOK(i) {
		return nil
	}
	a := s.text(i)
	// 02/03/2003, 17.06, 02-03-2003; a day list ("17/18/19 mars") below
	if sep := s.text(i + 1); (sep == "/" || sep == "." || sep == "-") && s.kind(i+2) == tNum && len(a) <= 2 && len(s.text(i+2)) <= 2 {
		mo, _ := strconv.Atoi(s.text(i + 2))
		dd, _ := strconv.Atoi(a)
		e := i + 3
		year := s.is(e, sep) && s.kind(e+1) == tNum && len(s.text(e+1)) == 4 && s.boundary(e+2)
		if mo >= 1 && mo <= 12 && dd >= 1 && dd <= 31 && (year || sep != "-" && s.boundary(e) && !(sep == "/" && s.is(e, "/"))) {
			out := frDay(a) + " " + frLatin.months[mo-1]
			if year {
				out += " " + frCardinal(s.text(e+1))
				e += 2
			}
			return one(e, Date, out)
		}
	}
	// a decade: "80s" → "eighties"
	if s.kind(i+1) == tWord && s.boundary(i+2) {
		if w, ok := frDecades[a+s.text(i+1)]; ok {
			// preferred to the unit reading "secondes"
			return []match{{end: i + 2, readings: []reading{{text: w, class: Date, cost: -0.1}}}}
		}
	}
	// ISO 8601: "2023-12-25" → "vingt-cinq décembre deux mille vingt-trois"
	if a := s.text(i); s.kind(i) == tNum && len(a) == 4 && s.startOK(i) && s.is(i+1, "-") && s.kind(i+2) == tNum && len(s.text(i+2)) == 2 &&
		s.is(i+3, "-") && s.kind(i+4) == tNum && len(s.text(i+4)) == 2 && s.boundary(i+5) {
		mo, _ := strconv.Atoi(s.text(i + 2))
		dd, _ := strconv.Atoi(s.text(i + 4))
		if mo >= 1 && mo <= 12 && dd >= 1 && dd <= 31 {
			return one(i+5, Date, frDay(strconv.Itoa(dd))+" "+frLatin.months[mo-1]+" "+frCardinal(a))
		}
	}
	// "17 janvier", "les 17-18-19 juin 2025", "1er janvier"
	var days []string
	j := i
	for s.kind(j) == tNum && len(s.text(j)) <= 2 && j-i < 10 {
		days = append(days, s.text(j))
		if (s.is(j+1, "-") || s.is(j+1, "/")) && s.kind(j+2) == tNum {
			j += 2
			continue
		}
		j++
		break
	}
	if s.is(j, "er") || s.is(j, "ᵉʳ") {
		j++
	}
	if s.kind(j) != tSpace {
		return nil
	}
	mo, e := frMonthAt(s, j+1)
	if mo == 0 {
		return nil
	}
	var ws []string
	for _, d := range days {
		ws = append(ws, frDay(d))
	}
	out := strings.Join(ws, " ") + " " + frLatin.months[mo-1]
	if s.kind(e) == tSpace && s.kind(e+1) == tNum && len(s.text(e+1)) == 4 && s.boundary(e+2) {
		out += " " + frCardinal(s.text(e+1))
		e += 2
	}
	return one(e, Date, out)
}

func frFractionTN(s *stream, i int) []match {
	neg := ""
	j := i
	if s.is(j, "-") && s.minusOK(j) && s.kind(j+1) == tNum {
		neg, j = "moins ", j+1
	}
	sub := &stream{src: s.src, toks: s.toks[j:]}
	whole, num, den, end, ok := enScanFraction(sub, 0)
	if !ok {
		return nil
	}
	plural := strings.TrimLeft(num, "0") != "1"
	var dw string
	switch strings.TrimLeft(den, "0") {
	case "2":
		dw = "demi"
	case "3":
		dw = "tiers"
	case "4":
		dw = "quart"
	default:
		dw = frOrdinal(den, false)
		if dw == "premier" {
			dw = "unième"
		}
	}
	if plural && !strings.HasSuffix(dw, "s") {
		dw += "s"
	}
	var out string
	if whole != "" && !plural && dw == "demi" {
		out = frCardinal(whole) + " et demi"
	} else {
		out = frCardinal(num) + " " + dw
		if whole != "" {
			out = frCardinal(whole) + " et " + out
		}
	}
	return one(j+end, Fraction, neg+out)
}

func frTimeTN(s *stream, i int) []match {
	// "14 h 30", "14h30", "8 h"
	if s.kind(i) != tNum || !s.startOK(i) || len(s.text(i)) > 2 {
		return nil
	}
	h, _ := strconv.Atoi(s.text(i))
	if s.is(i+1, ":") {
		return frColonTimeTN(s, i, h)
	}
	j := i + 1
	if s.kind(j) == tSpace {
		j++
	}
	if !s.is(j, "h") {
		return nil
	}
	j++
	out := frHours(h)
	k := j
	if s.kind(k) == tSpace {
		k++
	}
	if s.kind(k) == tNum && len(s.text(k)) == 2 && s.boundary(k+1) {
		m, _ := strconv.Atoi(s.text(k))
		if m < 60 {
			if m > 0 {
				out += " " + frCardinal(s.text(k)) // "16h00" is "seize heures"
			}
			j = k + 1
		}
	}
	if !s.boundary(j) {
		return nil
	}
	// a time zone of [timezones] after the time, spelled as ITN reads it
	if s.kind(j) == tSpace {
		if z := frZoneSpoken[s.text(j+1)]; z != "" && s.boundary(j+2) {
			out += " " + z
			j += 2
		}
	}
	return one(j, Time, out)
}

// frHours says an hour of a clock time: "quatorze heures", "une heure".
func frHours(h int) string {
	if h == 1 {
		return "une heure"
	}
	return frCardinal(strconv.Itoa(h)) + " heures"
}

// frColonTimeTN reads a clock time written with colons, "14:00", "8:30",
// "14:05:10", as the "h" form is read: the hour, then the minutes when they
// are not zero ("quatorze heures", "huit heures trente"); seconds name both
// units ("quatorze heures cinq minutes et dix secondes"). Minutes and seconds
// are exactly two digits below 60 and the hour is at most 24, so a score or
// ratio such as "3:1" is left alone.
func frColonTimeTN(s *stream, i, h int) []match {
	if h > 24 || s.kind(i+2) != tNum || len(s.text(i+2)) != 2 {
		return nil
	}
	m, _ := strconv.Atoi(s.text(i + 2))
	if m > 59 {
		return nil
	}
	j, sec := i+3, -1
	if s.is(j, ":") && s.kind(j+1) == tNum && len(s.text(j+1)) == 2 {
		if v, _ := strconv.Atoi(s.text(j + 1)); v < 60 {
			sec, j = v, j+2
		}
	}
	if !s.boundary(j) {
		return nil
	}
	out := frHours(h)
	unit := func(v int, name string) string {
		w := frCardinal(strconv.Itoa(v))
		if v == 1 {
			w = "une"
		}
		if v != 1 {
			name += "s"
		}
		return w + " " + name
	}
	switch {
	case sec >= 0:
		out += " " + unit(m, "minute") + " et " + unit(sec, "seconde")
	case m > 0:
		out += " " + frCardinal(s.text(i+2))
	}
	// a time zone of [timezones] after the time, spelled as ITN reads it
	if s.kind(j) == tSpace {
		if z := frZoneSpoken[s.text(j+1)]; z != "" && s.boundary(j+2) {
			out += " " + z
			j += 2
		}
	}
	return one(j, Time, out)
}

// ITN.

func frDecimalITN(s *stream, i int) []match {
	amt, _, scale, end, ok := frLatin.amountITN(s, i)
	if !ok {
		return nil
	}
	if scale != "" && !strings.Contains(amt, ",") {
		return nil
	}
	if strings.Contains(amt, ",") {
		ip, fp, _ := strings.Cut(amt, ",")
		amt = frGroup(ip) + "," + frGroupFrac(fp)
		if scale != "" {
			amt += " " + scale
		}
		return one(end, Decimal, amt)
	}
	// "virgule trois cent trois" (number groups after the comma)
	if !(s.kind(end) == tSpace && strings.EqualFold(s.text(end+1), "virgule") && s.kind(end+2) == tSpace) {
		return nil
	}
	f, _, sc, e2, ok := frLatin.amountPlain(s, end+3)
	if !ok || sc != "" {
		return nil
	}
	return one(e2, Decimal, frGroup(amt)+","+f)
}

// frGroup writes thousands separated by spaces from 10 000 up ("1 818" too, as NeMo does).
func frGroup(d string) string {
	if len(d) <= 3 || strings.HasPrefix(d, "-") {
		return d
	}
	var b strings.Builder
	for k := 0; k < len(d); k++ {
		if k > 0 && (len(d)-k)%3 == 0 {
			b.WriteByte(' ')
		}
		b.WriteByte(d[k])
	}
	return b.String()
}

func frGroupFrac(f string) string {
	var parts []string
	for len(f) > 3 {
		parts = append(parts, f[:3])
		f = f[3:]
	}
	return strings.Join(append(parts, f), " ")
}

func frOrdinalITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	ws, ends, whole := spokenWords(s, i, frLex, 30)
	for k, w := range ws {
		if !whole[k] {
			continue
		}
		plural := false
		base := w
		if strings.HasSuffix(base, "s") && (strings.HasSuffix(base, "ièmes") || base == "premiers" || base == "premières" || base == "secondes" || base == "seconds") {
			base, plural = strings.TrimSuffix(base, "s"), true
		}
		var num, sup string
		switch base {
		case "premier":
			num, sup = "1", "ᵉʳ"
		case "première":
			num, sup = "1", "ʳᵉ"
		case "second":
			num, sup = "2", "ᵈ"
		case "seconde":
			num, sup = "2", "ᵈᵉ"
		default:
			stem, ok := strings.CutSuffix(base, "ième")
			if !ok {
				continue
			}
			card := ""
			switch {
			case stem == "un" || strings.HasSuffix(stem, "un"):
				card = stem
			case stem == "cinqu":
				card = "cinq"
			case stem == "neuv":
				card = "neuf"
			default:
				for _, c := range []string{stem, stem + "e", stem + "s"} {
					if _, ok := frLex.words[c]; ok {
						card = c
						break
					}
				}
			}
			if card == "" {
				return nil
			}
			all := append(append([]string{}, ws[:k]...), card)
			r, ok := frLex.parse(all)
			if !ok || r.used != len(all) {
				return nil
			}
			num, sup = r.val.String(), "ᵉ"
		}
		if k > 0 && (num == "1" || num == "2") {
			return nil // "premier", "second" end no compound: "cinq secondes"
		}
		if plural {
			sup += "ˢ"
		}
		// "dix-neuvième siècle" → "XIXᵉ siècle"
		if n, _ := strconv.Atoi(num); n > 0 && n < 40 && s.kind(ends[k]) == tSpace && (strings.EqualFold(s.text(ends[k]+1), "siècle") || strings.EqualFold(s.text(ends[k]+1), "siècles")) {
			return one(ends[k], Ordinal, toRoman(n)+sup)
		}
		return one(ends[k], Ordinal, num+sup)
	}
	return nil
}

func frDateITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	ws, ends, whole := spokenWords(s, i, frLex, 8)
	d := ""
	n := 0
	if len(ws) > 0 && (ws[0] == "premier" || ws[0] == "première") {
		d, n = "1ᵉʳ", 1
	} else if r, ok := frLex.parse(ws); ok {
		n = wholeWords(r.used, whole)
		if n == r.used && r.val.IsInt64() && r.val.Int64() >= 1 && r.val.Int64() <= 31 {
			d = r.val.String()
		}
	}
	if d == "" || n == 0 {
		return nil
	}
	e := ends[n-1]
	if s.kind(e) != tSpace || frMonth(s.text(e+1)) == 0 {
		return nil
	}
	out := d + " " + strings.ToLower(s.text(e+1))
	e += 2
	if s.kind(e) == tSpace {
		if y, _, sc, e2, ok := frLatin.amountPlain(s, e+1); ok && sc == "" && len(y) == 4 {
			out += " " + y
			e = e2
		}
	}
	return one(e, Date, out)
}

func frTimeITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	w := strings.ToLower(s.text(i))
	h, e := -1, i+1
	switch w {
	case "midi":
		h = 12
	case "minuit":
		h = 0
	default:
		r, _, sc, e2, ok := frLatin.amountPlain(s, i)
		if !ok || sc != "" {
			return nil
		}
		v, err := strconv.Atoi(r)
		if err != nil || v > 24 || !(s.kind(e2) == tSpace && (strings.EqualFold(s.text(e2+1), "heures") || strings.EqualFold(s.text(e2+1), "heure"))) {
			return nil
		}
		h, e = v, e2+2
	}
	m := 0
	word := func(k int) string { return strings.ToLower(s.text(k)) }
	if s.kind(e) == tSpace {
		switch {
		case word(e+1) == "et" && word(e+3) == "quart":
			m, e = 15, e+4
		case word(e+1) == "et" && (word(e+3) == "demie" || word(e+3) == "demi"):
			m, e = 30, e+4
		case word(e+1) == "et" && word(e+3) == "trois" && word(e+5) == "quarts":
			m, e = 45, e+6
		case word(e+1) == "moins" && word(e+3) == "le" && word(e+5) == "quart":
			h, m, e = (h+23)%24, 45, e+6
		case word(e+1) == "moins" && s.kind(e+2) == tSpace:
			if r, _, sc, e2, ok := frLatin.amountPlain(s, e+3); ok && sc == "" {
				if v, err := strconv.Atoi(r); err == nil && v < 60 {
					h, m, e = (h+23)%24, 60-v, e2
				}
			} else if word(e+3) == "quart" {
				h, m, e = (h+23)%24, 45, e+4
			}
		default:
			if r, _, sc, e2, ok := frLatin.amountPlain(s, e+1); ok && sc == "" {
				if v, err := strconv.Atoi(r); err == nil && v < 60 {
					m, e = v, e2
				}
			}
		}
	}
	if s.kind(e) == tSpace {
		switch {
		case word(e+1) == "du" && word(e+3) == "soir", word(e+1) == "de" && strings.HasPrefix(word(e+3), "l'après"):
			if h < 12 {
				h += 12
			}
			e += 4
		case word(e+1) == "de" && word(e+3) == "l" && strings.HasPrefix(word(e+5), "après"):
			if h < 12 {
				h += 12
			}
			e += 6
		case word(e+1) == "du" && word(e+3) == "matin":
			e += 4
		}
		if s.is(e, "-") && word(e+1) == "midi" { // "l'après" "-" "midi"
			e += 2
		}
	}
	out := strconv.Itoa(h) + " h"
	if m > 0 {
		out += " " + twoDigits(m)
	}
	if w != "midi" && w != "minuit" && e == i+1 {
		return nil
	}
	// a spoken time zone of [timezones] after the time: "u t c" → "UTC"
	if z, ze := zoneAfter(s, e, frZoneWritten); z != "" {
		out += " " + z
		e = ze
	}
	return one(e, Time, out)
}

// frZoneSpoken and frZoneWritten map the time zones of data/fr.tsv from
// the written form to the spoken and back.
var frZoneSpoken, frZoneWritten = lexTimezones("fr")

// frDenITN maps a spoken denominator ("tiers", "cinquième", "demi") to digits.
func frDenITN(w string) (string, bool) {
	w = strings.TrimSuffix(w, "s")
	switch w {
	case "demi", "demie":
		return "2", true
	case "tier":
		return "3", true
	case "quart":
		return "4", true
	}
	return "", false
}

func frFractionITN(s *stream, i int) []match {
	num, _, sc, e, ok := frLatin.amountPlain(s, i)
	if !ok || sc != "" || strings.Contains(num, ",") || s.kind(e) != tSpace {
		return nil
	}
	// "un et demi" → "1 1/2"
	if strings.EqualFold(s.text(e+1), "et") && s.kind(e+2) == tSpace {
		if d, ok := frDenITN(strings.ToLower(s.text(e + 3))); ok && d == "2" {
			return one(e+4, Fraction, num+" 1/2")
		}
		// "deux et trois quarts" → "2 3/4": a proper fraction after "et"
		for _, m := range frFractionITN(s, e+3) {
			t := m.readings[0].text
			a, b, ok := strings.Cut(t, "/")
			av, errA := strconv.Atoi(a)
			bv, errB := strconv.Atoi(b)
			if ok && errA == nil && errB == nil && av < bv {
				return one(m.end, Fraction, num+" "+t)
			}
		}
	}
	// denominator: demi, tiers, quart or an ordinal ("cinquième", "soixante-dixième")
	if d, ok := frDenITN(strings.ToLower(s.text(e + 1))); ok {
		return one(e+2, Fraction, num+"/"+d)
	}
	m := frOrdinalITN(s, e+1)
	if len(m) == 0 {
		return nil
	}
	d := m[0].readings[0].text
	plural := strings.HasSuffix(d, "ˢ")
	d = strings.TrimRight(d, "ᵉʳˢᵈ")
	// "second(e)" is no denominator (halves are "demi"): "cinq
	// secondes" are a duration
	if _, err := strconv.Atoi(d); err != nil || d == "2" {
		return nil
	}
	// "un centième", "trois centièmes": a numerator agreeing with the
	// denominator's number makes a fraction, not the ordinal "300ᵉˢ"
	cost := 0.0
	if (num == "1") != plural {
		cost = -0.1
	}
	return []match{{end: m[0].end, readings: []reading{{text: num + "/" + d, class: Fraction, cost: cost}}}}
}

// frChunk reads the space-separated word at token j (a hyphenated
// compound such as "quatre-vingt-deux" is one word) as a number below a
// hundred. It returns the value, whether the word is a single digit word
// ("deux", "zéro"), and the token index after the word.
func frChunk(s *stream, j int) (v int, digit bool, end int, ok bool) {
	if s.kind(j) != tWord {
		return 0, false, j, false
	}
	var parts []string
	e := j
	for s.kind(e) == tWord && e-j < 12 {
		w := s.lowerAt(e)
		ps, isNum := frLex.split(w)
		if !isNum {
			ps = []string{w}
		}
		parts = append(parts, ps...)
		e++
		if s.is(e, "-") && s.kind(e+1) == tWord {
			e++
			continue
		}
		break
	}
	// the tens 20–60 take "et un" (and 60 "et onze") as separate words:
	// "quarante et un", "soixante et onze"
	if s.kind(e) == tSpace && strings.EqualFold(s.text(e+1), "et") && s.kind(e+2) == tSpace && s.kind(e+3) == tWord {
		if u := s.lowerAt(e + 3); u == "un" || u == "onze" {
			ext := append(append([]string{}, parts...), "et", u)
			if r, ok := frLex.parse(ext); ok && r.used == len(ext) && r.val.IsInt64() && r.val.Int64() <= 99 && r.val.Int64() > 20 && r.bigTail == 0 {
				return int(r.val.Int64()), false, e + 4, true
			}
		}
	}
	r, ok := frLex.parse(parts)
	if !ok || r.used != len(parts) || !r.val.IsInt64() || r.val.Int64() > 99 || r.bigTail != 0 {
		return 0, false, j, false
	}
	return int(r.val.Int64()), len(parts) == 1 && r.val.Int64() < 10, e, true
}

// frTelephoneTN reads a French telephone number written in five pairs
// separated by spaces, periods or hyphens ("01 23 45 67 89",
// "06.12.34.56.78") as it is said, pair by pair ("zéro six douze …"), and
// one after a country code, where the leading zero is dropped ("+33 6 12
// 34 56 78" → "plus trente-trois six douze …"), as frTelephoneITN reads
// them back.
func frTelephoneTN(s *stream, i int) []match {
	j := i
	var out []string
	if s.is(j, "+") {
		if s.kind(j+1) != tNum || len(s.text(j+1)) > 3 || s.kind(j+2) != tSpace || s.kind(j+3) != tNum || len(s.text(j+3)) != 1 {
			return nil
		}
		out = append(out, "plus", frCardinal(s.text(j+1)), frCardinal(s.text(j+3)))
		j += 4
	} else {
		if s.kind(j) != tNum || !s.startOK(j) || len(s.text(j)) != 2 || s.text(j)[0] != '0' || s.is(j-1, ".") {
			return nil
		}
		out = append(out, "zéro", frCardinal(s.text(j)[1:]))
		j++
	}
	sep := s.text(j)
	if sep != " " && sep != "." && sep != "-" {
		return nil
	}
	for k := 0; k < 4; k++ {
		if s.text(j) != sep || s.kind(j+1) != tNum || len(s.text(j+1)) != 2 {
			return nil
		}
		p := s.text(j + 1)
		if p[0] == '0' {
			out = append(out, "zéro", frCardinal(p[1:]))
		} else {
			out = append(out, frCardinal(p))
		}
		j += 2
	}
	if !s.boundary(j) || s.is(j, sep) && s.kind(j+1) == tNum {
		return nil
	}
	return one(j, Telephone, strings.Join(out, " "))
}

// frTelephoneITN reads a French telephone number said in pairs or digit by
// digit ("zéro deux douze trente-deux trente trente", "zéro un quatre deux
// …") as five pairs of digits: "02 12 32 30 30". When the first pair is a
// single digit, the leading zero was left unsaid ("deux douze …" → "02
// 12 …"); "double deux" is "22".
func frTelephoneITN(s *stream, i int) []match {
	if !s.startOK(i) || s.kind(i) != tWord {
		return nil
	}
	j := i
	next := func() bool { // skip the space between words
		if s.kind(j) == tSpace && s.text(j) == " " && s.kind(j+1) == tWord {
			j++
			return true
		}
		return false
	}
	// pair reads two digits: a word of 10–99, two digit words, or "double"
	// and a digit word.
	pair := func(first bool) (string, bool) {
		if strings.EqualFold(s.text(j), "double") && s.kind(j+1) == tSpace {
			if v, d, e, ok := frChunk(s, j+2); ok && d {
				j = e
				return strconv.Itoa(v) + strconv.Itoa(v), true
			}
		}
		v, d, e, ok := frChunk(s, j)
		if !ok {
			return "", false
		}
		if !d {
			if v < 10 {
				return "", false
			}
			j = e
			return strconv.Itoa(v), true
		}
		save := j
		j = e
		if next() {
			if v2, d2, e2, ok := frChunk(s, j); ok && d2 && !(first && v != 0) {
				j = e2
				return strconv.Itoa(v) + strconv.Itoa(v2), true
			}
		}
		if first && v > 0 {
			// the leading zero left unsaid: "deux douze …"
			if s.kind(save+1) == tSpace {
				j = e
			}
			return "0" + strconv.Itoa(v), true
		}
		j = save
		return "", false
	}
	// after a country code ("plus trente-trois six douze …") the leading
	// zero is dropped, as frTelephoneTN reads "+33 6 12 …"
	cc := ""
	if strings.EqualFold(s.text(j), "plus") && s.kind(j+1) == tSpace {
		v, d, e, ok := frChunk(s, j+2)
		if !ok || d && v == 0 || v > 999 || s.kind(e) != tSpace {
			return nil
		}
		cc, j = "+"+strconv.Itoa(v), e
		if !next() {
			return nil
		}
	}
	first, ok := pair(true)
	if !ok || first[0] != '0' {
		return nil
	}
	if cc != "" {
		first = cc + " " + strings.TrimPrefix(first, "0")
	}
	out := []string{first}
	for len(out) < 5 {
		if !next() {
			return nil
		}
		p, ok := pair(false)
		if !ok {
			return nil
		}
		out = append(out, p)
	}
	if !s.boundary(j) {
		return nil
	}
	return one(j, Telephone, strings.Join(out, " "))
}
