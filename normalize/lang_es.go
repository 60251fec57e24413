package normalize

import (
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Spanish rules.

var esUnits = [...]string{"cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve",
	"diez", "once", "doce", "trece", "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve",
	"veinte", "veintiuno", "veintidós", "veintitrés", "veinticuatro", "veinticinco", "veintiséis", "veintisiete",
	"veintiocho", "veintinueve"}
var esTens = [...]string{"", "", "veinte", "treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"}
var esHundreds = [...]string{"", "ciento", "doscientos", "trescientos", "cuatrocientos", "quinientos", "seiscientos",
	"setecientos", "ochocientos", "novecientos"}

// es99 spells 0 < n < 100; apocope gives "un"/"veintiún" before a noun.
func es99(n int, apocope bool) string {
	var w string
	switch {
	case n < 30:
		w = esUnits[n]
	case n%10 == 0:
		w = esTens[n/10]
	default:
		w = esTens[n/10] + " y " + esUnits[n%10]
	}
	if apocope {
		switch {
		case strings.HasSuffix(w, "veintiuno"):
			w = strings.TrimSuffix(w, "veintiuno") + "veintiún"
		case strings.HasSuffix(w, "uno"):
			w = strings.TrimSuffix(w, "uno") + "un"
		}
	}
	return w
}

func es999(n int, apocope bool) string {
	if n >= 0 && n < 1000 {
		a := 0
		if apocope {
			a = 1
		}
		return es999Table[a][n]
	}
	return es999Spell(n, apocope)
}

// es999Table holds es999 for 0–999, without and with apocope: spelling
// is the TN grammar's commonest call.
var es999Table = func() (t [2][1000]string) {
	for n := range 1000 {
		t[0][n], t[1][n] = es999Spell(n, false), es999Spell(n, true)
	}
	return t
}()

func es999Spell(n int, apocope bool) string {
	h, r := n/100, n%100
	if n == 100 {
		return "cien"
	}
	var parts []string
	if h > 0 {
		parts = append(parts, esHundreds[h])
	}
	if r > 0 {
		parts = append(parts, es99(r, apocope))
	}
	return strings.Join(parts, " ")
}

// es6 spells 0 < n < 1,000,000.
func es6(n int, apocope bool) string {
	th, r := n/1000, n%1000
	head := ""
	switch {
	case th == 1:
		head = "mil"
	case th > 1:
		head = es999(th, true) + " mil"
	}
	switch {
	case r == 0:
		return head
	case head == "":
		return es999(r, apocope)
	}
	return head + " " + es999(r, apocope)
}

var esBig = [...][2]string{{}, {"millón", "millones"}, {"billón", "billones"}, {"trillón", "trillones"}}

func esCard(d string, apocope bool) string {
	d = strings.TrimLeft(d, "0")
	if d == "" {
		return "cero"
	}
	if len(d) > 6*len(esBig) {
		return (&latin{card: esCardinal}).digits(d)
	}
	if len(d) <= 6 { // one group: most numbers
		g, _ := strconv.Atoi(d)
		return es6(g, apocope)
	}
	groups := splitGroups(d, 6)
	var parts []string
	for k, g := range groups {
		scale := len(groups) - 1 - k
		if g == 0 {
			continue
		}
		if scale == 0 {
			parts = append(parts, es6(g, apocope))
			continue
		}
		if g == 1 {
			parts = append(parts, "un "+esBig[scale][0])
		} else {
			parts = append(parts, es6(g, true)+" "+esBig[scale][1])
		}
	}
	return strings.Join(parts, " ")
}

func esCardinal(d string) string { return esCard(d, false) }

// esCardFem spells d for a feminine noun: "una", "doscientas", "veintiuna".
func esCardFem(d string) string {
	w := esCard(d, false)
	head, tail := "", w
	if k := strings.LastIndex(w, "llones "); k >= 0 {
		head, tail = w[:k+7], w[k+7:]
	} else if k := strings.LastIndex(w, "llón "); k >= 0 {
		head, tail = w[:k+5], w[k+5:]
	}
	tail = strings.ReplaceAll(tail, "ientos", "ientas")
	if strings.HasSuffix(tail, "uno") {
		tail = strings.TrimSuffix(tail, "uno") + "una"
	}
	tail = strings.ReplaceAll(tail, "veintiún", "veintiuna")
	return head + tail
}

// esFrac reads decimal digits in pairs: "253002" → "veinticinco treinta cero dos".
func esFrac(f string) string {
	var ws []string
	for len(f) > 0 {
		if len(f) == 1 {
			ws = append(ws, esUnits[f[0]-'0'])
			break
		}
		p := f[:2]
		f = f[2:]
		if p[0] == '0' {
			ws = append(ws, "cero", esUnits[p[1]-'0'])
			continue
		}
		v, _ := strconv.Atoi(p)
		ws = append(ws, es99(v, false))
	}
	return strings.Join(ws, " ")
}

var esLatin = (&latin{
	point: "coma", minus: "menos", card: esCardinal,
	cardBefore: func(d string) string { return esCard(d, true) },
	frac:       esFrac,
	groupSep:   []string{".", " "},
	scaleOf:    "de",
	cardFem:    esCardFem,
	agree:      true,
}).useLexicon("es").finish()

var esLex = func() *numLex {
	m := map[string]lexEntry{"un": {kUnit, 1}, "una": {kUnit, 1}, "veintiún": {kTeen, 21}, "veintiuna": {kTeen, 21},
		"y": {kAnd, 0}, "cien": {kHundreds, 100}, "mil": {kThousand, 1000}}
	for k, w := range esUnits {
		switch {
		case k < 10:
			m[w] = lexEntry{kUnit, k}
		default:
			m[w] = lexEntry{kTeen, k} // 10-29 are single words
		}
	}
	for k := 3; k < 10; k++ {
		m[esTens[k]] = lexEntry{kTens, k * 10}
	}
	for k := 1; k < 10; k++ {
		m[esHundreds[k]] = lexEntry{kHundreds, k * 100}
		if k > 1 {
			m[strings.TrimSuffix(esHundreds[k], "os")+"as"] = lexEntry{kHundreds, k * 100}
		}
	}
	for k := 1; k < len(esBig); k++ {
		m[esBig[k][0]] = lexEntry{kBig, 6 * k}
		m[esBig[k][1]] = lexEntry{kBig, 6 * k}
	}
	m["millardo"], m["millardos"] = lexEntry{kBig, 9}, lexEntry{kBig, 9}
	m["cuatrillón"], m["cuatrillones"] = lexEntry{kBig, 24}, lexEntry{kBig, 24}
	return newLex(m)
}()

func init() {
	esLatin.lex = esLex
	esLatin.amountHook = esAmount
	L := esLatin
	register(&rules{
		tag: "es", name: "Spanish", script: "Latn",
		tn: map[string]matcher{
			Electronic: esElectronicTN(L.electronicTN(esElec)),
			Cardinal:   orMatch(esCardinalTN, L.dottedTN(esElec)), Decimal: L.decimalTN, Money: orMatch(L.moneyTN, L.rangeMoneyTN("a")), Measure: esMeasureTN,
			Ordinal: esOrdinalTN, Date: orMatch(esDateTN, yearRangeTN(esCardinal, "a")), Time: orMatch(esTimeTN, timeRangeTN(esTimeTN, "a")), Fraction: esFractionTN,
			Telephone: esTelephoneTN, Roman: esRomanTN,
			Whitelist: orMatch(whitelistMatcher(esWhitelistTN), numRefTN("es")),
		},
		itn: map[string]matcher{
			Electronic: L.electronicITN(esElec),
			Cardinal:   orMatch(L.cardinalITN, L.dottedITN(esElec)), Decimal: esDecimalITN, Money: L.moneyITN, Measure: L.measureITN,
			Ordinal: esOrdinalITN, Telephone: esTelephoneITN, Time: esTimeITN, Date: esDateITN, Fraction: esFractionITN,
			Whitelist: whitelistMatcher(esWhitelistITN),
		},
		score: stopScore(wordSet("el la los las de del que y en un una es por con para no se lo como más pero sus le ya o este sí porque esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante todos uno les ni contra otros ese eso ante ellos e esto mí antes algunos qué unos yo otro otras otra él tanto esa estos mucho quienes nada muchos cual poco ella estar estas algunas algo nosotros")),
	})
}

var esOrdUnits = [...]string{"", "primer", "segund", "tercer", "cuart", "quint", "sext", "séptim", "octav", "noven"}
var esOrdTens = [...]string{"", "décim", "vigésim", "trigésim", "cuadragésim", "quincuagésim", "sexagésim",
	"septuagésim", "octogésim", "nonagésim"}
var esOrdHundreds = [...]string{"", "centésim", "ducentésim", "tricentésim", "cuadringentésim", "quingentésim",
	"sexcentésim", "septingentésim", "octingentésim", "noningentésim"}

// esOrdinal spells 1..999 as an ordinal with gender ending g ("o", "a") or
// "" for the apocopated masculine ("primer", "tercer").
func esOrdinal(n int, g string) string {
	if n >= 1000 && n < 1000000 { // Roman numerals reach 3999
		return esOrdinalThousands(n, g)
	}
	if n < 1 || n >= 1000000 {
		return esCardinal(strconv.Itoa(n))
	}
	end := func(stem string, last bool) string {
		if last && g == "" && (stem == "primer" || stem == "tercer") {
			return stem
		}
		if stem == "primer" || stem == "tercer" {
			if g == "a" {
				return stem + "a"
			}
			return stem + "o"
		}
		if g == "" {
			return stem + "o"
		}
		return stem + g
	}
	var parts []string
	h, t, u := n/100, n/10%10, n%10
	if h > 0 {
		parts = append(parts, end(esOrdHundreds[h], t == 0 && u == 0))
	}
	if (t == 1 || t == 2) && u > 0 {
		pre := "decimo"
		if t == 2 {
			pre = "vigesimo"
		}
		w := end(esOrdUnits[u], true)
		if strings.HasPrefix(w, "o") {
			pre = strings.TrimSuffix(pre, "o")
		}
		parts = append(parts, pre+w)
		return strings.Join(parts, " ")
	}
	if t > 0 {
		parts = append(parts, end(esOrdTens[t], u == 0))
	}
	if u > 0 {
		parts = append(parts, end(esOrdUnits[u], true))
	}
	return strings.Join(parts, " ")
}

func esOrdinalTN(s *stream, i int) []match {
	if s.kind(i) != tNum || !s.startOK(i) {
		return nil
	}
	n, ok := esLatin.scanNum(s, i)
	if !ok || n.point || n.neg {
		return nil
	}
	// "1.000ª": scanNum stops before a group glued to its marker
	if !n.grouped && len(s.text(i)) <= 3 && s.is(i+1, ".") {
		d, j := s.text(i), i+1
		for s.is(j, ".") && s.kind(j+1) == tNum && len(s.text(j+1)) == 3 && j-i < maxScan {
			d += s.text(j + 1)
			j += 2
		}
		g := map[string]string{"º": "o", "ª": "a"}[s.text(j)]
		if j > i+1 && g != "" && s.boundary(j+1) {
			return esOrdinalOut(numLit{intPart: d}, g, j+1)
		}
	}
	// "1ro", "1ra", "28°": markers right after the digits
	if s.kind(n.end) == tWord || s.is(n.end, "°") {
		g, ok := esOrdSuffixes[strings.ToLower(s.text(n.end))]
		if !ok || !s.boundary(n.end+1) {
			return nil
		}
		return esOrdinalOut(n, g, n.end+1)
	}
	if !s.is(n.end, ".") {
		return nil
	}
	// "1.º", "1.ª", "1.er"
	g, ok := esOrdSuffixes[s.text(n.end+1)]
	if !ok || !s.boundary(n.end+2) || s.kind(n.end+1) == tWord && len(s.text(n.end+1)) == 1 {
		return nil
	}
	return esOrdinalOut(n, g, n.end+2)
}

// esOrdSuffixes maps the written ordinal markers of data/es.tsv
// ([ordinal_suffixes]) to the ending they select: "o" (masculine), "a"
// (feminine) or "" (the apocope: primer, tercer). A leading period is
// dropped: the tokenizer splits "1.º" at it.
var esOrdSuffixes = func() map[string]string {
	out := map[string]string{}
	for _, p := range lexiconFor("es").pairs("ordinal_suffixes") {
		g := map[string]string{"m": "o", "f": "a", "apocope": ""}[field(p.spoken, 0)]
		for _, w := range p.written {
			out[strings.TrimPrefix(w, ".")] = g
		}
	}
	return out
}()

func esOrdinalOut(n numLit, g string, end int) []match {
	v, err := strconv.Atoi(n.intPart)
	if err != nil || v < 1 || v >= 1000000 {
		return nil
	}
	return one(end, Ordinal, esOrdinal(v, g))
}

// esOrdinalThousands reads the ordinals from 1000 to 999 999: "milésimo",
// "dosmilésimo", "milésimo primero".
func esOrdinalThousands(v int, g string) string {
	if v%1000 == 0 {
		pre := ""
		if v/1000 > 1 {
			pre = es999(v/1000, true)
		}
		suf := "milésimo"
		if g == "a" {
			suf = "milésima"
		}
		return strings.TrimSpace(pre + suf)
	}
	pre := "milésimo"
	if v/1000 > 1 {
		pre = es999(v/1000, true) + "milésimo"
	}
	if g == "a" {
		pre = strings.TrimSuffix(pre, "o") + "a"
	}
	return pre + " " + esOrdinal(v%1000, g)
}

func esMonth(w string) int {
	return esMonthNames[strings.ToLower(w)]
}

// esMonthNames maps month names (lower case) to their number, and
// esMonthAbbrs the written abbreviations ("ene.", "sept", "DIC"), from
// data/es.tsv.
var esMonthNames, esMonthAbbrs = func() (map[string]int, map[string]int) {
	names, abbrs := map[string]int{}, map[string]int{}
	for _, m := range lexiconFor("es").months() {
		for _, n := range m.names {
			names[strings.ToLower(n)] = m.num
		}
		for _, a := range m.abbrs {
			abbrs[a] = m.num
			if strings.HasSuffix(a, ".") { // "Ene." as "ene."; "MAR" only as written
				abbrs[strings.ToLower(a)] = m.num
			}
		}
	}
	return names, abbrs
}()

// esEras maps the spoken eras of data/es.tsv to their written form, and
// esTimeSuffixes the spoken parts of day ("pe eme", "de la tarde").
var (
	_, esEras         = lexPairMaps("es", "eras")
	_, esTimeSuffixes = lexPairMaps("es", "time_suffixes")
)

// esMonthAt reads a month name or abbreviation at token j ("mayo", "ene.",
// "sept") and returns its number and the index after it (0 when none).
func esMonthAt(s *stream, j int) (int, int) {
	if s.kind(j) != tWord {
		return 0, j
	}
	w := s.text(j)
	if mo := esMonth(w); mo != 0 {
		return mo, j + 1
	}
	if s.is(j+1, ".") {
		if mo := esMonthAbbrs[w+"."]; mo != 0 {
			return mo, j + 2
		}
		if mo := esMonthAbbrs[strings.ToLower(w)+"."]; mo != 0 {
			return mo, j + 2
		}
	}
	if mo := esMonthAbbrs[w]; mo != 0 && s.boundary(j+1) {
		return mo, j + 1
	}
	return 0, j
}

func esDateTN(s *stream, i int) []match {
	if !s.startOK(i) {
		return nil
	}
	if s.kind(i) == tWord {
		// "abril 30", "junio 11 2000"
		if mo, me := esMonthAt(s, i); mo != 0 && s.kind(me) == tSpace && s.kind(me+1) == tNum && len(s.text(me+1)) <= 2 && s.boundary(me+2) {
			out := esDay(s.text(me+1)) + " de " + esLatin.monthWord(mo, s.text(i))
			e := me + 2
			if s.kind(e) == tSpace && s.kind(e+1) == tNum && len(s.text(e+1)) == 4 && s.boundary(e+2) {
				out += " de " + esCardinal(s.text(e+1))
				e += 2
			}
			return one(e, Date, out)
		}
		return nil
	}
	if s.kind(i) != tNum {
		return nil
	}
	a := s.text(i)
	year := func(y string) string { return esCardinal(y) }
	// 1990-02-30, 30-2-1990, 30/2/1990, 01.04.2010
	if sep := s.text(i + 1); (sep == "-" || sep == "/" || sep == "." && len(a) <= 2 && len(s.text(i+2)) <= 2 && len(s.text(i+4)) == 4) && s.kind(i+2) == tNum && s.is(i+3, sep) && s.kind(i+4) == tNum && s.boundary(i+5) {
		b, c := s.text(i+2), s.text(i+4)
		d, m, y := a, b, c
		if len(a) == 4 {
			d, y = c, a
			// "1990-20-01": the middle part is no month, the last is
			if bv, _ := strconv.Atoi(b); bv > 12 {
				d, m = b, c
			}
		}
		mo, _ := strconv.Atoi(m)
		dd, _ := strconv.Atoi(d)
		if mo >= 1 && mo <= 12 && dd >= 1 && dd <= 31 && len(y) == 4 {
			return one(i+5, Date, esDay(d)+" de "+esLatin.months[mo-1]+" de "+year(y))
		}
	}
	dd, _ := strconv.Atoi(a)
	if len(a) > 2 || dd < 1 || dd > 31 || s.kind(i+1) != tSpace {
		return nil
	}
	// "20 de marzo", "10 mayo 1990", "10 de mayo de 1990"
	j := i + 2
	if s.is(j, "de") && s.kind(j+1) == tSpace {
		j += 2
	}
	mo, e := esMonthAt(s, j)
	if mo == 0 {
		return nil
	}
	out := esDay(a) + " de " + esLatin.monthWord(mo, s.text(j))
	k := e
	if s.kind(k) == tSpace && s.is(k+1, "de") && s.kind(k+2) == tSpace {
		k += 2
	}
	if s.kind(k) == tSpace && s.kind(k+1) == tNum && len(s.text(k+1)) == 4 && s.boundary(k+2) {
		out += " de " + year(s.text(k+1))
		e = k + 2
	}
	return one(e, Date, out)
}

// esDay reads the day of a date: the first is "primero" ("1 de mayo" →
// "primero de mayo", as NeMo's Spanish grammar and common usage say it),
// every other day its cardinal.
func esDay(d string) string {
	if strings.TrimLeft(d, "0") == "1" {
		return "primero"
	}
	return esCardinal(d)
}

func esHour(h int) string {
	if h == 1 || h == 21 {
		return strings.TrimSuffix(esCardinal(strconv.Itoa(h)), "uno") + "una"
	}
	return esCardinal(strconv.Itoa(h))
}

func esTimeTN(s *stream, i int) []match {
	if s.kind(i) != tNum || !s.startOK(i) || len(s.text(i)) > 2 {
		return nil
	}
	h, _ := strconv.Atoi(s.text(i))
	if h > 24 {
		return nil
	}
	if m := esUnitClockTN(s, i, h); m != nil {
		return m
	}
	// a whole hour with a.m. or p.m.: "a las 3 p.m." → "tres de la tarde"
	if ap, e := enAMPM(s, i+1); ap != "" && h >= 1 && h <= 12 && s.kind(i+1) == tSpace {
		out := esClock(h, 0, -1) + esPeriod(ap, h)
		if z, e2 := esZoneAt(s, e); z != "" {
			out += " " + z
			e = e2
		}
		return one(e, Time, out)
	}
	sep := s.text(i + 1)
	if !((sep == ":" || sep == ".") && s.kind(i+2) == tNum && len(s.text(i+2)) == 2) {
		return nil
	}
	m, _ := strconv.Atoi(s.text(i + 2))
	if m > 59 {
		return nil
	}
	e := i + 3
	sec := -1
	if sep == ":" && s.is(e, ":") && s.kind(e+1) == tNum && len(s.text(e+1)) == 2 {
		sec, _ = strconv.Atoi(s.text(e + 1))
		if sec > 59 {
			return nil
		}
		e += 2
	}
	if s.kind(e) == tSpace && s.is(e+1, "h") && s.boundary(e+2) {
		e += 2
	}
	if s.is(e, ".") && s.kind(e+1) == tNum {
		return nil // 1.000.000
	}
	// a.m. / p.m.
	period := ""
	if ap, e2 := enAMPM(s, e); ap != "" {
		period = esPeriod(ap, h)
		e = e2
	}
	if !s.boundary(e) {
		return nil
	}
	out := esClock(h, m, sec) + period
	if z, e2 := esZoneAt(s, e); z != "" {
		out += " " + z
		e = e2
	}
	return one(e, Time, out)
}

// esPeriod is the part of the day said for a.m. ("AM") or p.m. ("PM") after
// hour h: "de la mañana", "de la tarde", and at twelve "de la noche" or
// "del mediodía".
func esPeriod(ap string, h int) string {
	switch {
	case ap == "AM" && h == 12:
		return " de la noche"
	case ap == "AM":
		return " de la mañana"
	case h == 12:
		return " del mediodía"
	}
	return " de la tarde"
}

// esClock reads a time of day: "cinco y dos", "doce y cuarto", or with
// seconds "tres horas dos minutos y treinta y dos segundos". sec < 0 means
// no seconds were written; zero seconds are not read ("12:00:00" → "doce").
func esClock(h, m, sec int) string {
	if sec > 0 {
		unit := func(v int, one, many string) string {
			if v == 1 {
				return "un " + one
			}
			return esCardinal(strconv.Itoa(v)) + " " + many
		}
		hw := esHour(h) + " horas"
		if h == 1 {
			hw = "una hora"
		}
		return hw + " " + unit(m, "minuto", "minutos") + " y " + unit(sec, "segundo", "segundos")
	}
	out := esHour(h)
	switch {
	case m == 15:
		out += " y cuarto"
	case m == 30:
		out += " y media" // NeMo's Spanish minutes table: 15 cuarto, 30 media
	case m > 0:
		out += " y " + esCardinal(strconv.Itoa(m))
	}
	return out
}

// The Spanish time zones, whitelist and month abbreviations, from
// data/es.tsv.
var (
	esZoneSpoken, esZoneWritten   = lexTimezones("es")
	esWhitelistTN, esWhitelistITN = lexWhitelist("es", true)
)

// esZoneAt reads a time zone after a time at token e (which must be a
// space): "est" → "e s t", "pyt" → "hora estándar de paraguay", with an
// optional offset "gmt-3" → "g m t menos tres", "utc +1:30" → "u t c más una
// treinta". It returns "" when there is none.
func esZoneAt(s *stream, e int) (string, int) {
	if s.kind(e) != tSpace || s.kind(e+1) != tWord {
		return "", e
	}
	out, ok := esZoneSpoken[s.text(e+1)]
	if !ok {
		return "", e
	}
	j := e + 2
	if !s.boundary(j) {
		return "", e
	}
	// offset: "-3", "+1", " +1", "-4:30"
	k := j
	if s.kind(k) == tSpace {
		k++
	}
	if sign := s.text(k); (sign == "+" || sign == "-" || sign == "−") && s.kind(k+1) == tNum && len(s.text(k+1)) <= 2 {
		oh, _ := strconv.Atoi(s.text(k + 1))
		w := "más "
		if sign != "+" {
			w = "menos "
		}
		k += 2
		switch {
		case oh > 14:
		case s.is(k, ":") && s.kind(k+1) == tNum && len(s.text(k+1)) == 2 && s.boundary(k+2):
			om, _ := strconv.Atoi(s.text(k + 1))
			switch {
			case om == 0: // "gmt+2:00" → "g m t más dos"
				out += " " + w + esCardinal(strconv.Itoa(oh))
				j = k + 2
			case om < 60:
				out += " " + w + esHour(oh) + " " + esCardinal(strconv.Itoa(om))
				j = k + 2
			}
		case s.boundary(k):
			out += " " + w + esCardinal(strconv.Itoa(oh))
			j = k
		}
	}
	return out, j
}

// esUnitClockTN reads a time written with unit letters at token i (hour h):
// "12h02m00s" → "doce y dos", "15 h 10 min 40 seg" → "quince horas diez
// minutos y cuarenta segundos", and an hour before a time zone, "10 h
// utc+1" → "diez u t c más uno". It returns nil otherwise.
func esUnitClockTN(s *stream, i, h int) []match {
	// next returns the token after an optional space at k.
	next := func(k int) int {
		if s.kind(k) == tSpace {
			return k + 1
		}
		return k
	}
	j := next(i + 1)
	if !s.is(j, "h") {
		return nil
	}
	j++
	if !s.boundary(j) && s.kind(j) != tNum {
		return nil
	}
	// "10 h utc": the hour alone before a zone
	if z, e := esZoneAt(s, j); z != "" {
		return one(e, Time, esHour(h)+" "+z)
	}
	k := next(j)
	if s.kind(k) != tNum || len(s.text(k)) > 2 {
		return nil
	}
	m, _ := strconv.Atoi(s.text(k))
	k = next(k + 1)
	if w := s.text(k); !(w == "m" || w == "min") || m > 59 {
		return nil
	}
	k++
	sec := -1
	if q := next(k); s.kind(q) == tNum && len(s.text(q)) <= 2 {
		if w := next(q + 1); s.is(w, "s") || s.is(w, "seg") || s.is(w, "sec") {
			sec, _ = strconv.Atoi(s.text(q))
			k = w + 1
		}
	}
	// a bare "15 h 10 min" stays a measure
	if sec < 0 || sec > 59 || !s.boundary(k) {
		return nil
	}
	out := esClock(h, m, sec)
	if z, e := esZoneAt(s, k); z != "" {
		out += " " + z
		k = e
	}
	return one(k, Time, out)
}

var esDenoms = map[int]string{2: "medio", 3: "tercio", 4: "cuarto", 5: "quinto", 6: "sexto", 7: "séptimo",
	8: "octavo", 9: "noveno", 10: "décimo", 100: "centésimo", 1000: "milésimo"}

// esDenominator spells a denominator; ok is false when Spanish says "uno
// sobre N" instead.
// esUnaccent drops the acute accents of a spelled number ("dieciséis" →
// "dieciseis" before "-avo").
var esUnaccent = strings.NewReplacer("á", "a", "é", "e", "í", "i", "ó", "o", "ú", "u")

func esDenominator(d int, plural bool) (string, bool) {
	w, ok := esDenoms[d]
	switch {
	case ok:
	case d < 100:
		c := esCardinal(strconv.Itoa(d))
		c = strings.ReplaceAll(c, " y ", "i")
		c = esUnaccent.Replace(c)
		switch {
		case strings.HasSuffix(c, "uno"):
			c = strings.TrimSuffix(c, "o")
		case strings.HasSuffix(c, "a"):
			c = strings.TrimSuffix(c, "a")
		}
		w = c + "avo"
	case d%100 == 0 && d < 1000:
		w = esOrdHundreds[d/100] + "o"
	case d%1000 == 0 && d < 1000000:
		w = strings.ReplaceAll(esCard(strconv.Itoa(d/1000), true), " ", "") + "milésimo"
	case d%1000000 == 0:
		w = strings.ReplaceAll(esCard(strconv.Itoa(d/1000000), true), " ", "") + "millonésimo"
		w = strings.Replace(w, "unmillonésimo", "millonésimo", 1)
	default:
		return "", false
	}
	if plural {
		w += "s"
	}
	return w, true
}

func esFractionTN(s *stream, i int) []match {
	neg := ""
	j := i
	if s.is(j, "-") && s.minusOK(j) && s.kind(j+1) == tNum {
		neg, j = "menos ", j+1
	}
	sub := &stream{src: s.src, toks: s.toks[j:]}
	whole, num, den, end, ok := esScanFraction(sub)
	if !ok || (j > i && !sub.startOK(0) && false) {
		return nil
	}
	dv, _ := strconv.Atoi(den)
	nv, _ := strconv.Atoi(num)
	if dv == 0 {
		return nil
	}
	dw, ok := esDenominator(dv, nv != 1)
	out := esCard(num, true) + " " + dw
	if !ok {
		out = esCardinal(num) + " sobre " + esCardinal(den)
	}
	e := j + end
	u, e2, hasUnit := esLatin.unitAt(s, e)
	if whole != "" {
		w := esCard(whole, false)
		if hasUnit && esLatin.fem[strings.Fields(u[0])[0]] {
			w = esCardFem(whole)
		}
		out = w + " y " + out
	}
	// "3 3/5 m" → "tres y tres quintos de metro"
	if hasUnit {
		out += " de " + u[0]
		e = e2
	}
	if nv == 1 && dv == 2 && !hasUnit {
		// a half is "medio" in speech: "1 1/2" → "uno y medio"; a bare
		// "1/2" stays "un medio" first, with "medio" beside it
		half := "medio"
		if whole != "" {
			half = esCard(whole, false) + " y medio"
			return []match{{end: e, readings: []reading{{text: neg + half, class: Fraction},
				{text: neg + out, class: Fraction, cost: 1}}}}
		}
		return []match{{end: e, readings: []reading{{text: neg + out, class: Fraction},
			{text: neg + half, class: Fraction, cost: 1}}}}
	}
	return one(e, Fraction, neg+out)
}

var esPrompts = lexTelPrompts("es")

func esTelephoneTN(s *stream, i int) []match {
	if !s.startOK(i) {
		return nil
	}
	// "el ip es 10.0.0.1" → "el i p es uno cero punto …"
	if sp, j := esPrompts.ipAt(s, i); sp != "" {
		if m := esIPTN(s, j); m != nil {
			return one(m[0].end, Telephone, sp+" "+m[0].readings[0].text)
		}
	}
	if m := esIPTN(s, i); m != nil {
		return m
	}
	// after "llámame al", "mi número es": digits to dial, not an amount
	if s.kind(i) == tNum && esPrompts.before(s, i) {
		if d, e := promptedDigits(s, i); e > i {
			return []match{{end: e, readings: []reading{{text: esLatin.digits(d), class: Telephone, cost: -1}}}}
		}
	}
	j := i
	var parts []string
	if s.is(j, "+") && s.kind(j+1) == tNum && len(s.text(j+1)) <= 3 {
		parts = append(parts, "más "+esCardinal(s.text(j+1)))
		j += 2
		if s.kind(j) == tSpace || s.is(j, "-") {
			j++
		}
	}
	// Find the groups first and spell them only for a telephone number:
	// most runs of numbers are not one.
	n, groups := 0, 0
	var at []int // token index of each group's digits
	for j-i < maxScan {
		paren := s.is(j, "(")
		k := j
		if paren {
			k++
		}
		if s.kind(k) != tNum {
			break
		}
		at = append(at, k)
		n += len(s.text(k))
		groups++
		k++
		if paren {
			if !s.is(k, ")") {
				return nil
			}
			k++
		}
		j = k
		if (s.is(j, "-") || s.is(j, " ")) && (s.kind(j+1) == tNum || s.is(j+1, "(")) {
			j++
			continue
		}
		break
	}
	if groups < 2 || n < 7 {
		return nil
	}
	for _, k := range at {
		parts = append(parts, esLatin.digits(s.text(k)))
	}
	// "123-5678-12": a trailing two-digit group is an extension
	if groups >= 4 && len(s.text(j-1)) == 2 && s.is(j-2, "-") {
		parts[len(parts)-1] = "extensión " + parts[len(parts)-1]
	}
	if s.kind(j) == tSpace && s.is(j+1, "ext") && s.is(j+2, ".") && s.kind(j+3) == tSpace && s.kind(j+4) == tNum {
		parts = append(parts, "extensión "+esLatin.digits(s.text(j+4)))
		j += 5
	}
	if !s.boundary(j) {
		return nil
	}
	return one(j, Telephone, strings.Join(parts, " "))
}

// ITN.

func esDecimalITN(s *stream, i int) []match {
	amt, _, scale, end, ok := esLatin.amountITN(s, i)
	if !ok || !strings.Contains(amt, ",") {
		return nil
	}
	if scale != "" {
		amt += " " + scale
	}
	return one(end, Decimal, amt)
}

// esAmount reads a spoken Spanish amount with grouped decimals. Results
// are cached in the stream: the money, measure, cardinal and decimal
// matchers all read the amount at the same token.
func esAmount(s *stream, i int) (string, bool, string, int, bool) {
	k := memoKey{"es-amount", i}
	if a, ok := s.memo[k].(esAmt); ok {
		return a.amount, a.isOne, a.scale, a.end, a.ok
	}
	var a esAmt
	a.amount, a.isOne, a.scale, a.end, a.ok = esLatin.groupedAmount(s, i, esPoints)
	if s.memo == nil {
		s.memo = map[memoKey]any{}
	}
	s.memo[k] = a
	return a.amount, a.isOne, a.scale, a.end, a.ok
}

var esPoints = map[string]string{"coma": ",", "punto": "."}

type esAmt struct {
	amount, scale string
	isOne, ok     bool
	end           int
}

// esIntAmount reads the integer part of a spoken Spanish amount (cached
// like esAmount).
func esIntAmount(s *stream, i int) (string, bool, string, int, bool) {
	k := memoKey{"es-int", i}
	if a, ok := s.memo[k].(esAmt); ok {
		return a.amount, a.isOne, a.scale, a.end, a.ok
	}
	var a esAmt
	a.amount, a.isOne, a.scale, a.end, a.ok = esLatin.intAmount(s, i)
	if s.memo == nil {
		s.memo = map[memoKey]any{}
	}
	s.memo[k] = a
	return a.amount, a.isOne, a.scale, a.end, a.ok
}

var esHourWords = map[string]int{"una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7,
	"ocho": 8, "nueve": 9, "diez": 10, "once": 11, "doce": 12, "trece": 13, "catorce": 14, "quince": 15,
	"dieciséis": 16, "diecisiete": 17, "dieciocho": 18, "diecinueve": 19, "veinte": 20, "veintiuna": 21,
	"veintidós": 22, "veintitrés": 23, "veinticuatro": 24}

func esTimeITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	art := strings.ToLower(s.text(i))
	artSrc := s.text(i)
	j := i
	if art == "la" || art == "las" {
		j = i + 2
		if s.kind(i+1) != tSpace {
			return nil
		}
	} else {
		art = ""
	}
	// "un cuarto para las dos", "cuarto para las dos", "diez para las doce"
	pre := -1
	if art == "" {
		k := i
		if strings.EqualFold(s.text(k), "un") && s.kind(k+1) == tSpace {
			k += 2
		}
		mins := -1
		e2 := k + 1
		if strings.EqualFold(s.text(k), "cuarto") {
			mins = 15
		} else if amt, _, sc, e3, ok := esIntAmount(s, k); ok && sc == "" && k == i {
			if v, err := strconv.Atoi(amt); err == nil && v < 60 {
				mins, e2 = v, e3
			}
		}
		if mins > 0 && s.kind(e2) == tSpace && strings.EqualFold(s.text(e2+1), "para") &&
			(strings.EqualFold(s.text(e2+3), "las") || strings.EqualFold(s.text(e2+3), "la")) {
			pre, j = mins, e2+5
		}
	}
	h, ok := esHourWords[strings.ToLower(s.text(j))]
	if !ok {
		return nil
	}
	e := j + 1
	m := 0
	word := func(k int) string { return strings.ToLower(s.text(k)) }
	if pre >= 0 {
		h, m = (h+11)%12, 60-pre
		if h == 0 {
			h = 12
		}
	} else if s.kind(e) == tSpace {
		w := word(e + 1)
		k := e + 2
		conn := w == "y" || w == "con"
		if conn || w == "menos" {
			if s.kind(k) != tSpace {
				return nil
			}
			k++
			w = word(k)
			k++
		} else {
			k = e + 1
		}
		mins := -1
		switch w {
		case "cuarto":
			mins = 15
		case "media":
			mins = 30
		default:
			if amt, _, sc, e2, ok := esLatin.amountPlain(s, k-btoi(conn || word(e+1) == "menos")); ok && sc == "" {
				if v, err := strconv.Atoi(amt); err == nil && v < 60 {
					mins = v
					k = e2
				}
			}
		}
		if mins >= 0 {
			if word(e+1) == "menos" {
				h, m = (h+11)%12, 60-mins
				if h == 0 {
					h = 12
				}
			} else {
				m = mins
			}
			e = k
			if w == "cuarto" || w == "media" {
				e = k
			}
		}
	}
	// the part of day ("pe eme", "de la tarde"), from data/es.tsv
	dayPart, dayEnd := zoneAfter(s, e, esTimeSuffixes)
	daytime := dayPart != "" && strings.HasPrefix(word(e+1), "de")
	if art == "" && pre < 0 && !(daytime && e > j+1) {
		return nil
	}
	if m == 0 && e == j+1 && pre < 0 {
		// "las tres personas" stays; "las dos a eme", "la una de la tarde"
		// convert below
		if dayPart == "" {
			return nil
		}
	}
	out := strconv.Itoa(h) + ":" + twoDigits(m)
	suffix := ""
	if dayPart != "" {
		suffix, e = " "+dayPart, dayEnd
	}
	// a spoken time zone with an optional offset: "u t c más cuatro" →
	// "UTC+4"
	if z, ze := zoneAfter(s, e, esZoneWritten); z != "" {
		suffix += " " + z
		e = ze
		if sw, se := wordAfter(s, e); (sw == "más" || sw == "menos") && s.kind(se) == tSpace {
			if amt, _, sc, e2, ok := esLatin.amountPlain(s, se+1); ok && sc == "" {
				if v, err := strconv.Atoi(amt); err == nil && v <= 14 {
					suffix += map[string]string{"más": "+", "menos": "-"}[sw] + amt
					e = e2
				}
			}
		}
	}
	prefix := "las "
	if h == 1 {
		prefix = "la "
	}
	if artSrc != art && artSrc != "" {
		prefix = strings.ToUpper(prefix[:1]) + prefix[1:]
	}
	if art == "" && pre < 0 {
		prefix = ""
	}
	if art == "" && pre < 0 && daytime {
		return one(e, Time, out+suffix)
	}
	if pre >= 0 || art != "" {
		if art == "" {
			prefix = "la "
			if h != 1 {
				prefix = "las "
			}
		}
	}
	_ = suffix
	return one(e, Time, prefix+out+suffix)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func esOrdinalITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	// Accept a sequence of ordinal words: "vigésimo primero", "decimoprimer".
	total, j, g, apo := 0, i, "", false
	for j-i < 8 {
		w := strings.ToLower(s.text(j))
		v, gg, ap, ok := esOrdWordValue(w)
		if !ok {
			break
		}
		total += v
		g, apo = gg, ap
		if !(s.kind(j+1) == tSpace && s.kind(j+2) == tWord) {
			j++
			break
		}
		if _, _, _, ok := esOrdWordValue(strings.ToLower(s.text(j + 2))); !ok {
			j++
			break
		}
		j += 2
	}
	if total < 10 {
		return nil
	}
	suf := ".º"
	switch {
	case apo:
		suf = ".ᵉʳ"
	case g == "a":
		suf = ".ª"
	}
	return one(j, Ordinal, strconv.Itoa(total)+suf)
}

// esOrdStems lists the ordinal stems with their value k×mul, accented and
// plain ("vigésim", "vigesim").
var esOrdStems = func() []struct {
	stem, plain string
	k, mul      int
} {
	var out []struct {
		stem, plain string
		k, mul      int
	}
	for _, tab := range []struct {
		stems [10]string
		mul   int
	}{{esOrdUnits, 1}, {esOrdTens, 10}, {esOrdHundreds, 100}} {
		for k := 1; k < 10; k++ {
			out = append(out, struct {
				stem, plain string
				k, mul      int
			}{tab.stems[k], strings.ReplaceAll(tab.stems[k], "é", "e"), k, tab.mul})
		}
	}
	return out
}()

func esOrdWordValue(w string) (int, string, bool, bool) {
	for stem, v := range map[string]int{"undécim": 11, "undecim": 11, "duodécim": 12, "duodecim": 12} {
		if rest, ok := strings.CutPrefix(w, stem); ok && (rest == "o" || rest == "a" || rest == "os" || rest == "as") {
			return v, rest[:1], false, true
		}
	}
	if strings.HasPrefix(w, "decimo") && len(w) > 6 {
		v, g, ap, ok := esOrdWordValue(w[6:])
		if ok && v < 10 {
			return 10 + v, g, ap, true
		}
		return 0, "", false, false
	}
	for _, st := range esOrdStems {
		k, tab := st.k, st
		{
			for _, base := range []string{st.stem, st.plain} {
				rest, ok := strings.CutPrefix(w, base)
				if !ok {
					continue
				}
				switch rest {
				case "o", "os":
					return k * tab.mul, "o", false, true
				case "a", "as":
					return k * tab.mul, "a", false, true
				case "":
					if base == "primer" || base == "tercer" {
						return k, "", true, true
					}
				}
				// "vigesimosegundo", "vigesimoctavo" (elided o)
				if tab.mul == 10 && len(rest) > 1 && (rest[0] == 'o' || rest[0] == 'a') {
					if v, g, ap, ok := esOrdWordValue(rest[1:]); ok && v < 10 {
						return k*10 + v, g, ap, true
					}
					if v, g, ap, ok := esOrdWordValue(rest); ok && v < 10 {
						return k*10 + v, g, ap, true
					}
				}
			}
		}
	}
	return 0, "", false, false
}

func esTelephoneITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	j := i
	plus := ""
	if strings.EqualFold(s.text(j), "más") && s.kind(j+1) == tSpace {
		ws, ends, _ := spokenWords(s, j+2, esLex, 4)
		if len(ws) == 0 {
			return nil
		}
		r, ok := esLex.parse(ws[:1])
		if !ok {
			return nil
		}
		plus, j = "+"+r.val.String()+"-", ends[0]
		if s.kind(j) != tSpace {
			return nil
		}
		j++
	}
	var digits strings.Builder
	last := j
	for s.kind(j) == tWord && j-i < maxScan {
		w := strings.ToLower(s.text(j))
		rep := 1
		if w == "doble" || w == "triple" {
			rep = 2
			if w == "triple" {
				rep = 3
			}
			if s.kind(j+1) != tSpace {
				break
			}
			j += 2
			w = strings.ToLower(s.text(j))
		}
		v, e, ok := esTelGroup(s, j)
		if !ok {
			break
		}
		for k := 0; k < rep; k++ {
			digits.WriteString(v)
		}
		last = e
		if s.kind(last) == tSpace && s.kind(last+1) == tWord {
			j = last + 1
			continue
		}
		break
	}
	d := digits.String()
	var out string
	switch len(d) {
	case 10:
		out = d[:3] + "-" + d[3:6] + "-" + d[6:]
	case 9:
		out = d[:3] + "-" + d[3:6] + "-" + d[6:]
	case 8:
		out = d[:4] + "-" + d[4:]
	default:
		return nil
	}
	return one(last, Telephone, plus+out)
}

// esTelGroup reads the spoken group of a telephone number at token j (a
// number below 100: "cuarenta y cinco") and returns its digits and the
// token after it. The result is cached in the stream: a run of spoken
// numbers is read again from every start.
func esTelGroup(s *stream, j int) (string, int, bool) {
	type telGroup struct {
		v   string
		end int
		ok  bool
	}
	k := memoKey{"es-tel", j}
	if g, ok := s.memo[k].(telGroup); ok {
		return g.v, g.end, g.ok
	}
	var g telGroup
	ws, ends, whole := spokenWords(s, j, esLex, 4)
	if r, ok := esLex.parse(ws); ok && r.bigTail == 0 {
		if n := wholeWords(r.used, whole); n > 0 {
			if n < r.used {
				r, _ = esLex.parse(ws[:n])
			}
			if r.val.IsInt64() && r.val.Int64() < 100 {
				g = telGroup{r.val.String(), ends[n-1], true}
			}
		}
	}
	if s.memo == nil {
		s.memo = map[memoKey]any{}
	}
	s.memo[k] = g
	return g.v, g.end, g.ok
}

// esVulgar are the vulgar fractions esScanFraction reads itself.
var esVulgar = map[string][2]string{"⅖": {"2", "5"}, "⅗": {"3", "5"}, "⅘": {"4", "5"}, "⅙": {"1", "6"}, "⅚": {"5", "6"}, "⅜": {"3", "8"}, "⅝": {"5", "8"}, "⅞": {"7", "8"}}

// esScanFraction is enScanFraction with Spanish group separators in the
// denominator ("1/100.000.000").
func esScanFraction(s *stream) (whole, num, den string, end int, ok bool) {
	if v, isV := esVulgar[s.text(0)]; isV {
		return "", v[0], v[1], 1, true
	}
	if s.kind(0) != tNum {
		return enScanFraction(s, 0)
	}
	defer func() {
		if !ok {
			whole, num, den, end, ok = enScanFraction(s, 0)
		}
	}()
	// denominator with groups
	j := 0
	if s.kind(1) == tSpace && s.kind(2) == tNum && s.is(3, "/") {
		whole, j = s.text(0), 2
	}
	if !s.is(j+1, "/") {
		return "", "", "", 0, false
	}
	n, ok2 := esLatin.scanNum(s, j+2)
	if !ok2 || n.point || !n.grouped || !s.boundary(n.end) {
		return "", "", "", 0, false
	}
	return whole, s.text(j), n.intPart, n.end, true
}

// esDateITN: "el primero de diciembre" → "el 1 de diciembre", "treinta y uno
// de diciembre de mil novecientos noventa y dos" → "31 de diciembre de 1992",
// "siglo diecinueve" → "siglo xix", "doscientos tres antes de cristo" → "203 a. c.".
func esDateITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	w := strings.ToLower(s.text(i))
	if w == "siglo" && s.kind(i+1) == tSpace {
		if amt, _, sc, e, ok := esIntAmount(s, i+2); ok && sc == "" {
			if v, err := strconv.Atoi(amt); err == nil && v > 0 && v < 40 {
				return one(e, Date, s.text(i)+" "+strings.ToLower(toRoman(v)))
			}
		}
	}
	d, e := "", 0
	if w == "primero" {
		d, e = "1", i+1
	} else if amt, _, sc, e2, ok := esIntAmount(s, i); ok && sc == "" {
		v, err := strconv.Atoi(amt)
		if err != nil {
			return nil
		}
		// "doscientos tres antes de cristo" → "203 a. c."
		if era, e3 := zoneAfter(s, e2, esEras); era != "" {
			if s.span(e2+1, e3) != strings.ToLower(s.span(e2+1, e3)) {
				era = strings.ToUpper(era)
			}
			return one(e3, Date, amt+" "+era)
		}
		if v < 1 || v > 31 {
			return nil
		}
		d, e = amt, e2
	} else {
		return nil
	}
	if !(s.kind(e) == tSpace && strings.EqualFold(s.text(e+1), "de") && s.kind(e+2) == tSpace && esMonth(s.text(e+3)) != 0) {
		return nil
	}
	out := d + " de " + s.text(e+3)
	end := e + 4
	if s.kind(end) == tSpace && strings.EqualFold(s.text(end+1), "de") && s.kind(end+2) == tSpace {
		if y, _, sc, e3, ok := esIntAmount(s, end+3); ok && sc == "" && len(y) == 4 {
			out += " de " + y
			end = e3
		}
	}
	return one(end, Date, out)
}

// esDenNames maps every denominator TN says from 2 to 1000, singular, to
// its value, so that ITN reads what TN writes ("dieciseisavo", whose
// cardinal "dieciséis" loses its accent before -avo, as "veintitresavo").
var esDenNames = sync.OnceValue(func() map[string]int {
	m := map[string]int{}
	for d := 2; d <= 1000; d++ {
		if w, ok := esDenominator(d, false); ok {
			if _, dup := m[w]; !dup {
				m[w] = d
			}
		}
	}
	return m
})

// esDenITN maps a spoken denominator ("tercios", "veinteavos", "vigésimos") to digits.
func esDenITN(w string) (string, bool) {
	base := strings.TrimSuffix(w, "s")
	for d, name := range esDenoms {
		if base == name || base == strings.TrimSuffix(name, "o")+"a" {
			return strconv.Itoa(d), true
		}
	}
	if d, ok := esDenNames()[base]; ok {
		return strconv.Itoa(d), true
	}
	if stem, ok := strings.CutSuffix(base, "avo"); ok && stem != "" {
		for _, c := range []string{stem, stem + "a", stem + "e", stem + "o", strings.Replace(stem, "i", "a y ", 1), strings.Replace(stem, "i", " y ", 1)} {
			ws := strings.Fields(c)
			if r, ok := esLex.parse(ws); ok && r.used == len(ws) {
				return r.val.String(), true
			}
		}
		return "", false
	}
	if v, _, _, ok := esOrdWordValue(w); ok && v >= 10 {
		return strconv.Itoa(v), true
	}
	return "", false
}

func esFractionITN(s *stream, i int) []match {
	amt, _, sc, e, ok := esIntAmount(s, i)
	if !ok || sc != "" || s.kind(e) != tSpace {
		return nil
	}
	// "dos y dos tercios", "menos cuatro y un quinto"
	if strings.EqualFold(s.text(e+1), "y") && s.kind(e+2) == tSpace {
		if n2, _, sc2, e2, ok := esIntAmount(s, e+3); ok && sc2 == "" && s.kind(e2) == tSpace {
			if d, ok := esDenITN(strings.ToLower(s.text(e2 + 1))); ok {
				return esLatin.fractionUnit(s, amt+" "+n2+"/"+d, e2+2, "de")
			}
		}
	}
	w := strings.ToLower(s.text(e + 1))
	d, ok := esDenITN(w)
	if !ok {
		return nil
	}
	if (amt == "1" || amt == "-1") && (w == "medio" || w == "cuarto") {
		return nil // "un cuarto", "medio" stay words
	}
	return esLatin.fractionUnit(s, amt+"/"+d, e+2, "de")
}

// esRomanTN reads Roman numerals after "siglo", "año", "tomo", "capítulo"
// (lower or upper case): "siglo xix" → "siglo diecinueve"; "ec" after a
// century is "era común".
func esRomanTN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.boundary(i+1) {
		return nil
	}
	// "el XI apóstol" → "el undécimo apóstol"; a lone "V" → "quinto", and
	// a lone lower-case numeral of four letters or more ("cmxcix"; shorter
	// ones are words: "mi", "di", "mil")
	if v, ok := parseRoman(strings.ToUpper(s.text(i))); ok && i == 0 && s.n() == 1 && len(s.text(i)) >= 4 && s.text(i) == strings.ToLower(s.text(i)) {
		return one(i+1, Roman, esOrdinal(v, "o"))
	}
	if v, ok := parseRoman(s.text(i)); ok && (i == 0 && s.n() == 1 || s.kind(i-1) == tSpace && (s.is(i-2, "el") || s.is(i-2, "la")) && len(s.text(i)) > 1) {
		g := "o"
		if s.is(i-2, "la") {
			g = "a"
		}
		w := esOrdinal(v, g)
		switch v {
		case 11:
			w = "undécim" + g
		case 12:
			w = "duodécim" + g
		}
		return one(i+1, Roman, w)
	}
	if s.kind(i-1) != tSpace {
		return nil
	}
	switch strings.ToLower(s.text(i - 2)) {
	case "siglo", "año", "tomo", "capítulo", "libro", "volumen", "parte":
	default:
		return esRegnalTN(s, i)
	}
	v, ok := parseRoman(strings.ToUpper(s.text(i)))
	if !ok {
		return nil
	}
	out := esCardinal(strconv.Itoa(v))
	e := i + 1
	if s.kind(e) == tSpace && strings.EqualFold(s.text(e+1), "ec") && s.boundary(e+2) {
		out += " era común"
		e += 2
	}
	return one(e, Roman, out)
}

// esCardinalTN is the Latin cardinal matcher plus hyphenated compounds of
// words and numbers.
func esCardinalTN(s *stream, i int) []match {
	return append(esLatin.cardinalTN(s, i), esDashTN(s, i)...)
}

// esDashTN reads a hyphenated compound of words and numbers with spaces for
// the hyphens: "a-5" → "a cinco", "0-800-hermano" → "cero ochocientos
// hermano", "covid-19" → "covid diecinueve". A compound of numbers only
// (a date, a range, a telephone number) is left to the other matchers.
func esDashTN(s *stream, i int) []match {
	if !s.startOK(i) {
		return nil
	}
	var parts []string
	words, nums := 0, 0
	j := i
	for j-i < maxScan {
		switch s.kind(j) {
		case tNum:
			// "a-5,5", "a-1.000": not a plain integer part
			if (s.is(j+1, ",") || s.is(j+1, ".")) && s.kind(j+2) == tNum {
				return nil
			}
			parts = append(parts, "") // spelled below, once the compound holds
			nums++
		case tWord:
			for _, r := range s.text(j) {
				if !unicode.IsLetter(r) {
					return nil
				}
			}
			parts = append(parts, s.text(j))
			words++
		default:
			return nil
		}
		j++
		if s.is(j, "-") && (s.kind(j+1) == tNum || s.kind(j+1) == tWord) {
			j++
			continue
		}
		break
	}
	if words == 0 || nums == 0 || !s.boundary(j) {
		return nil
	}
	for k, t := 0, i; k < len(parts); t++ {
		switch s.kind(t) {
		case tNum:
			if d := s.text(t); len(d) > 1 && d[0] == '0' {
				parts[k] = esLatin.digits(d)
			} else {
				parts[k] = esCardinal(d)
			}
			k++
		case tWord:
			k++
		}
	}
	return one(j, Cardinal, strings.Join(parts, " "))
}

// esMeasureTN is the Latin measure matcher plus arithmetic.
func esMeasureTN(s *stream, i int) []match {
	return append(append(esLatin.measureTN(s, i), esMathTN(s, i)...), esRangeMeasureTN(s, i)...)
}

var esRangeMeasureTN = esLatin.rangeMeasureTN("a")

// esMathOps are the spoken arithmetic operators, from data/es.tsv.
var esMathOps, _ = lexPairMaps("es", "math")

// esMathTN reads an arithmetic expression over written numbers: "2 + 2 - 1
// = 3" → "dos más dos menos uno es igual a tres". A chain whose only
// operator is "-" is a range or a date, not arithmetic, and is left alone.
func esMathTN(s *stream, i int) []match {
	n, ok := esLatin.scanNum(s, i)
	if !ok {
		return nil
	}
	if k := n.end + btoi(s.kind(n.end) == tSpace); esMathOps[s.text(k)] == "" {
		return nil // no operator follows: most numbers
	}
	ws := []string{esLatin.number(n)}
	j, end := n.end, -1
	arith := false
	for j-i < maxScan {
		k := j
		if s.kind(k) == tSpace {
			k++
		}
		op, isOp := esMathOps[s.text(k)]
		if !isOp {
			break
		}
		k++
		if s.kind(k) == tSpace {
			k++
		}
		if s.kind(k) != tNum {
			break
		}
		m, ok := esLatin.scanNum(s, k)
		if !ok {
			break
		}
		arith = arith || op != "menos"
		ws = append(ws, op, esLatin.number(m))
		j = m.end
		end = j
	}
	if end < 0 || !arith || !s.boundary(end) {
		return nil
	}
	return one(end, Measure, strings.Join(ws, " "))
}

// esElectronicTN wraps the electronic matcher: a sentence period right after
// an address is set off by a space ("www.x.net." → "… punto net ."), so that
// it is not read as part of the address.
func esElectronicTN(elec matcher) matcher {
	return func(s *stream, i int) []match {
		ms := elec(s, i)
		for k, m := range ms {
			if !s.is(m.end, ".") || !(m.end+1 == s.n() || s.kind(m.end+1) == tSpace) {
				continue
			}
			rs := make([]reading, len(m.readings))
			for r, rd := range m.readings {
				rd.text += " ."
				rs[r] = rd
			}
			ms[k] = match{end: m.end + 1, readings: rs}
		}
		return ms
	}
}

// esFemNames lists common feminine given names that do not end in -a (a
// name ending in -a is taken as feminine), for the gender of a regnal
// ordinal ("Isabel II" → "Isabel segunda").
var esFemNames = wordSet("isabel leonor beatriz inés mercedes carmen pilar")

// esRegnalTN reads a Roman numeral after a one-word given name, as kings,
// queens and popes are numbered: "Felipe II" → "Felipe segundo", "maría
// vii" → "maría séptima", "Alfonso XIII" → "Alfonso trece" (ordinals up to
// ten, cardinals above, as Spanish reads regnal numbers). The name is a
// capitalized word not itself after a capitalized word ("Guerra Mundial II"
// is a title, not a name), or a lower-case word before a lower-case numeral
// of two letters or more; the name's gender follows its ending.
func esRegnalTN(s *stream, i int) []match {
	t := s.text(i)
	v, ok := parseRoman(strings.ToUpper(t))
	if !ok || v > 39 || s.kind(i-2) != tWord {
		return nil
	}
	name := s.text(i - 2)
	first, _ := utf8.DecodeRuneInString(name)
	lowerNum := t == strings.ToLower(t)
	switch {
	case lowerNum:
		// a lower-case "vi" or "xi" after a name is a word or a name ("Juan
		// vi", "Li xi"), so lower case needs two letters besides
		if len(t) < 2 || t == "vi" || t == "xi" || t == "di" || t == "mi" || t == "li" || name != strings.ToLower(name) {
			return nil
		}
	case t != strings.ToUpper(t) || !unicode.IsUpper(first) || name == strings.ToUpper(name):
		return nil
	}
	if prev := s.text(i - 4); s.kind(i-3) == tSpace && s.kind(i-4) == tWord {
		if r, _ := utf8.DecodeRuneInString(prev); unicode.IsUpper(r) {
			return nil
		}
	}
	if v > 10 {
		return one(i+1, Roman, esCardinal(strconv.Itoa(v)))
	}
	low := strings.ToLower(name)
	g := "o"
	if strings.HasSuffix(low, "a") || esFemNames[low] {
		g = "a"
	}
	return one(i+1, Roman, esOrdinal(v, g))
}

// esIPTN reads an IPv4 address digit by digit: "123.123.0.40" → "uno dos
// tres punto uno dos tres punto cero punto cuatro cero".
func esIPTN(s *stream, i int) []match {
	var parts []string
	j := i
	for k := 0; k < 4; k++ {
		if k > 0 {
			if !s.is(j, ".") {
				return nil
			}
			j++
		}
		d := s.text(j)
		// "1.000.000.000" is a number: octets have no leading zeros
		if s.kind(j) != tNum || len(d) > 3 || len(d) > 1 && d[0] == '0' {
			return nil
		}
		if v, _ := strconv.Atoi(d); v > 255 {
			return nil
		}
		parts = append(parts, esLatin.digits(d))
		j++
	}
	if !s.boundary(j) || s.is(j, ".") && s.kind(j+1) == tNum {
		return nil
	}
	return one(j, Telephone, strings.Join(parts, " punto "))
}
