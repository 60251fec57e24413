package normalize

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/sottolabs/sotto/normalize/internal/rbnf"
)

// Portuguese rules (Brazilian spelling: "dezesseis", "bilhão").

var ptUnits = [...]string{"zero", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove",
	"dez", "onze", "doze", "treze", "catorze", "quinze", "dezesseis", "dezessete", "dezoito", "dezenove"}
var ptTens = [...]string{"", "", "vinte", "trinta", "quarenta", "cinquenta", "sessenta", "setenta", "oitenta", "noventa"}
var ptHundreds = [...]string{"", "cento", "duzentos", "trezentos", "quatrocentos", "quinhentos", "seiscentos",
	"setecentos", "oitocentos", "novecentos"}
var ptBig = [...][2]string{{}, {}, {"milhão", "milhões"}, {"bilhão", "bilhões"}, {"trilhão", "trilhões"},
	{"quatrilhão", "quatrilhões"}}

func pt99(n int) string {
	if n < 20 {
		return ptUnits[n]
	}
	if n%10 == 0 {
		return ptTens[n/10]
	}
	return ptTens[n/10] + " e " + ptUnits[n%10]
}

func pt999(n int) string {
	if n == 100 {
		return "cem"
	}
	h, r := n/100, n%100
	switch {
	case h == 0:
		return pt99(r)
	case r == 0:
		return ptHundreds[h]
	}
	return ptHundreds[h] + " e " + pt99(r)
}

// ptCardinal spells a digit string: "e" joins the last group when it is
// below one hundred or a round hundred ("dois mil e cem", "um trilhão e um").
func ptCardinal(d string) string {
	return spellGroups(d, "zero", len(ptBig), ptCardinal, func(g, scale int, first, last bool) string {
		var w string
		switch scale {
		case 0:
			w = pt999(g)
		case 1:
			w = "mil"
			if g > 1 {
				w = pt999(g) + " mil"
			}
		default:
			if g == 1 {
				w = "um " + ptBig[scale][0]
			} else {
				w = pt999(g) + " " + ptBig[scale][1]
			}
		}
		// "e" before the last non-zero group when it is below one hundred
		// or round: "dois mil e cem", "um milhão e dez mil".
		if !first && last && (g < 100 || g%100 == 0) {
			w = "e " + w
		}
		return w
	})
}

// ptCardFem spells d for a feminine noun: "uma", "duas", "duzentas".
func ptCardFem(d string) string {
	w := " " + ptCardinal(d) + " "
	w = strings.ReplaceAll(w, " um ", " uma ")
	w = strings.ReplaceAll(w, " dois ", " duas ")
	w = strings.ReplaceAll(w, "entos ", "entas ")
	return strings.TrimSpace(w)
}

var ptOrdUnits = [...]string{"", "primeir", "segund", "terceir", "quart", "quint", "sext", "sétim", "oitav", "non"}
var ptOrdTens = [...]string{"", "décim", "vigésim", "trigésim", "quadragésim", "quinquagésim", "sexagésim",
	"septuagésim", "octogésim", "nonagésim"}
var ptOrdHundreds = [...]string{"", "centésim", "ducentésim", "trecentésim", "quadringentésim", "quingentésim",
	"sexcentésim", "septingentésim", "octingentésim", "nongentésim"}

// ptOrdinal spells 1..999 as an ordinal with gender ending g ("o" or "a").
func ptOrdinal(n int, g string) string {
	var parts []string
	if h := n / 100; h > 0 {
		parts = append(parts, ptOrdHundreds[h]+g)
	}
	if t := n / 10 % 10; t > 0 {
		parts = append(parts, ptOrdTens[t]+g)
	}
	if u := n % 10; u > 0 {
		parts = append(parts, ptOrdUnits[u]+g)
	}
	return strings.Join(parts, " ")
}

var ptLatin = (&latin{
	point: "vírgula", minus: "menos", card: ptCardinal,
	frac:        func(f string) string { return (&latin{card: ptCardinal}).digits(f) },
	cardFem:     ptCardFem,
	groupSep:    []string{".", " "},
	scaleOf:     "de",
	centsJoin:   "e",
	symbolSpace: true,
	agree:       true,
}).useLexicon("pt").finish()

var ptLex = func() *numLex {
	m := map[string]lexEntry{"uma": {kUnit, 1}, "duas": {kUnit, 2}, "e": {kAnd, 0}, "cem": {kHundreds, 100},
		"mil": {kThousand, 1000}, "quatorze": {kTeen, 14}, "dezasseis": {kTeen, 16}, "dezassete": {kTeen, 17}, "dezanove": {kTeen, 19}}
	for k, w := range ptUnits {
		if k < 10 {
			m[w] = lexEntry{kUnit, k}
		} else {
			m[w] = lexEntry{kTeen, k}
		}
	}
	for k := 2; k < 10; k++ {
		m[ptTens[k]] = lexEntry{kTens, k * 10}
	}
	for k := 1; k < 10; k++ {
		m[ptHundreds[k]] = lexEntry{kHundreds, k * 100}
		if k > 1 {
			m[strings.TrimSuffix(ptHundreds[k], "os")+"as"] = lexEntry{kHundreds, k * 100}
		}
	}
	for k := 2; k < len(ptBig); k++ {
		m[ptBig[k][0]] = lexEntry{kBig, 3 * k}
		m[ptBig[k][1]] = lexEntry{kBig, 3 * k}
	}
	m["quintilhão"], m["quintilhões"] = lexEntry{kBig, 18}, lexEntry{kBig, 18}
	m["sextilhão"], m["sextilhões"] = lexEntry{kBig, 21}, lexEntry{kBig, 21}
	return newLex(m)
}()

// ptWhitelistTN holds the [abbreviations] of data/pt.tsv (the symbols of
// NeMo's Portuguese TN whitelist).
var ptWhitelistTN, _ = lexWhitelist("pt", false)

func init() {
	ptLatin.lex = ptLex
	ptLatin.amountHook = func(s *stream, i int) (string, bool, string, int, bool) {
		return ptLatin.groupedAmount(s, i, map[string]string{"vírgula": ",", "ponto": "."})
	}
	L := ptLatin
	register(&rules{
		tag: "pt", name: "Portuguese", script: "Latn",
		tn: map[string]matcher{
			Electronic: L.electronicTN(ptElec),
			Cardinal:   orMatch(L.cardinalTN, L.dottedTN(ptElec)), Decimal: L.decimalTN, Money: orMatch(L.moneyTN, L.rangeMoneyTN("a")), Measure: orMatch(L.measureTN, L.rangeMeasureTN("a")),
			Ordinal: ptOrdinalTN, Date: orMatch(ptDateTN, yearRangeTN(ptCardinal, "a")), Time: orMatch(ptTimeTN, timeRangeTN(ptTimeTN, "a")), Fraction: ptFractionTN, Telephone: ptTelephoneTN,
			Whitelist: orMatch(whitelistMatcher(ptWhitelistTN), numRefTN("pt")),
		},
		itn: map[string]matcher{
			Electronic: L.electronicITN(ptElec),
			Cardinal:   orMatch(L.cardinalITN, L.dottedITN(ptElec)), Decimal: L.decimalITN, Money: L.moneyITN, Measure: L.measureITN,
			Ordinal: ptOrdinalITN, Telephone: ptTelephoneITN, Whitelist: ptWeekdayITN, Time: ptTimeITN,
			Date: ptDateITN,
		},
		score: stopScore(wordSet("o a os as de do da dos das que e em um uma para com não por mais se na no nas nos ao aos como mas foi ele ela isso são também")),
	})
}

func ptOrdinalTN(s *stream, i int) []match {
	if s.kind(i) != tNum || !s.startOK(i) || !s.boundary(i+2) {
		return nil
	}
	g := ""
	switch s.text(i + 1) {
	case "º", "°", "o":
		g = "o"
	case "ª", "a":
		g = "a"
	default:
		return nil
	}
	v, err := strconv.Atoi(s.text(i))
	if err != nil || v < 1 {
		return nil
	}
	if v <= 999 {
		return one(i+2, Ordinal, ptOrdinal(v, g))
	}
	// From a thousand on, CLDR's ordinal rules ("milésimo primeiro"); below,
	// the hand-written ones, which agree with CLDR but for the 300s
	// ("trecentésimo", CLDR's "tricentésimo").
	rs, err := rbnf.ForLocale("pt")
	if err != nil {
		return nil
	}
	set := "%spellout-ordinal-masculine"
	if g == "a" {
		set = "%spellout-ordinal-feminine"
	}
	w, err := rs.Format(set, int64(v))
	if err != nil || strings.ContainsAny(w, "0123456789") {
		return nil
	}
	return one(i+2, Ordinal, w)
}

func ptOrdinalITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	total, j, g := 0, i, ""
	for n := 0; n < 3; n++ {
		w := strings.ToLower(s.text(j))
		v, gg := 0, ""
		for _, tab := range []struct {
			stems [10]string
			mul   int
		}{{ptOrdUnits, 1}, {ptOrdTens, 10}, {ptOrdHundreds, 100}} {
			for k := 1; k < 10; k++ {
				if rest, ok := strings.CutPrefix(w, tab.stems[k]); ok && (rest == "o" || rest == "a") {
					v, gg = k*tab.mul, rest
				}
			}
		}
		if v == 0 {
			break
		}
		total, g = total+v, gg
		j++
		if !(s.kind(j) == tSpace && s.kind(j+1) == tWord) {
			break
		}
		j++
	}
	if total < 10 {
		return nil // "primeiro", "terceira" stay words
	}
	if s.kind(j-1) == tSpace {
		j--
	}
	suf := "º"
	if g == "a" {
		suf = "ª"
	}
	return one(j, Ordinal, strconv.Itoa(total)+suf)
}

func ptDay(d string) string {
	if strings.TrimLeft(d, "0") == "1" {
		return "primeiro"
	}
	return ptCardinal(d)
}

// ptDateTN reads dd/mm/yyyy, dd.mm.yyyy, dd-mm-yyyy, yyyy-mm-dd and
// "10 de Dezembro de 1999" as "dez de dezembro de mil novecentos e noventa e nove".
func ptDateTN(s *stream, i int) []match {
	if s.kind(i) != tNum || !s.startOK(i) {
		return nil
	}
	a := s.text(i)
	if sep := s.text(i + 1); (sep == "/" || sep == "-" || sep == ".") && s.kind(i+2) == tNum && s.is(i+3, sep) && s.kind(i+4) == tNum && s.boundary(i+5) {
		d, m, y := a, s.text(i+2), s.text(i+4)
		if len(a) == 4 {
			d, y = y, a
		}
		mo, _ := strconv.Atoi(m)
		dd, _ := strconv.Atoi(d)
		if mo < 1 || mo > 12 || dd < 1 || dd > 31 || len(y) != 4 {
			return nil
		}
		return one(i+5, Date, ptDay(d)+" de "+ptLatin.months[mo-1]+" de "+ptCardinal(y))
	}
	dd, _ := strconv.Atoi(a)
	if len(a) > 2 || dd < 1 || dd > 31 || s.kind(i+1) != tSpace || !s.is(i+2, "de") || s.kind(i+3) != tSpace {
		return nil
	}
	mo := 0
	for k, m := range ptLatin.months {
		if strings.EqualFold(s.text(i+4), m) {
			mo = k + 1
		}
	}
	if mo == 0 {
		return nil
	}
	out := ptDay(a) + " de " + ptLatin.months[mo-1]
	e := i + 5
	if s.kind(e) == tSpace && s.is(e+1, "de") && s.kind(e+2) == tSpace && s.kind(e+3) == tNum && len(s.text(e+3)) == 4 && s.boundary(e+4) {
		out += " de " + ptCardinal(s.text(e+3))
		e += 4
	}
	return one(e, Date, out)
}

// ptHours spells an hour count for the feminine "hora": "uma", "duas",
// "vinte e uma"; "zero" for midnight.
func ptHours(h int) string {
	return ptCardFem(strconv.Itoa(h))
}

// ptTimeTN reads 14:30, 14h30, 14H, 9:00:31, optionally followed by "da
// manhã", "da tarde" or "da noite", as "catorze horas e trinta": minutes
// follow "e" without their noun unless seconds are said too ("nove horas e
// zero minutos e trinta e um segundos"); round hours drop the minutes.
// Before "da tarde" (13–18 h) and "da noite" (19–23 h) the hour is said on
// the twelve-hour clock ("duas horas … da tarde").
func ptTimeTN(s *stream, i int) []match {
	if s.kind(i) != tNum || !s.startOK(i) || len(s.text(i)) > 2 {
		return nil
	}
	h, _ := strconv.Atoi(s.text(i))
	m, sec, hasM, hasS := 0, 0, false, false
	end := i + 1
	switch sep := s.text(i + 1); {
	case sep == ":" && s.kind(i+2) == tNum && len(s.text(i+2)) == 2:
		m, _ = strconv.Atoi(s.text(i + 2))
		hasM, end = true, i+3
		if s.is(end, ":") && s.kind(end+1) == tNum && len(s.text(end+1)) == 2 {
			sec, _ = strconv.Atoi(s.text(end + 1))
			hasS, end = true, end+2
		}
	case sep == "h" || sep == "H":
		end = i + 2
		if s.kind(i+2) == tNum && len(s.text(i+2)) == 2 {
			m, _ = strconv.Atoi(s.text(i + 2))
			hasM, end = true, i+3
		}
	default:
		return nil
	}
	if h > 24 || m > 59 || sec > 59 || !s.boundary(end) {
		return nil
	}
	tail, tailEnd := "", end
	if s.kind(end) == tSpace && strings.EqualFold(s.text(end+1), "da") && s.kind(end+2) == tSpace {
		switch p := strings.ToLower(s.text(end + 3)); p {
		case "manhã", "tarde", "noite":
			tail, tailEnd = " da "+s.text(end+3), end+4
			if p == "tarde" && h >= 13 && h <= 18 || p == "noite" && h >= 19 && h <= 23 {
				h -= 12
			}
		}
	}
	w := ptHours(h) + " horas"
	if h == 1 {
		w = "uma hora"
	}
	switch {
	case hasS:
		w += " e " + ptCardinal(strconv.Itoa(m)) + ptNoun(m, " minuto", " minutos") +
			" e " + ptCardinal(strconv.Itoa(sec)) + ptNoun(sec, " segundo", " segundos")
	case hasM && m > 0:
		w += " e " + ptCardinal(strconv.Itoa(m))
	}
	return one(tailEnd, Time, w+tail)
}

func ptNoun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// ptDenominators are the fraction words of the denominators said as
// ordinals; any other denominator is its cardinal and "avos" ("cinco
// treze avos").
var ptDenominators = map[int]string{2: "meio", 3: "terço", 4: "quarto", 5: "quinto", 6: "sexto", 7: "sétimo",
	8: "oitavo", 9: "nono", 10: "décimo", 100: "centésimo", 1000: "milésimo"}

// ptFractionTN reads a/b as "dois terços", "um meio", "cinco treze avos".
func ptFractionTN(s *stream, i int) []match {
	if s.kind(i) != tNum || !s.startOK(i) || !s.is(i+1, "/") || s.kind(i+2) != tNum || !s.boundary(i+3) || s.is(i+3, "/") {
		return nil
	}
	a, err1 := strconv.Atoi(s.text(i))
	b, err2 := strconv.Atoi(s.text(i + 2))
	if err1 != nil || err2 != nil || b < 2 || len(s.text(i+2)) > 1 && s.text(i + 2)[0] == '0' {
		return nil
	}
	den, ok := ptDenominators[b]
	switch {
	case !ok:
		den = ptCardinal(s.text(i+2)) + " avos"
	case a != 1:
		den += "s"
	}
	return one(i+3, Fraction, ptCardinal(s.text(i))+" "+den)
}

// ptTelephoneTN reads Brazilian telephone numbers digit by digit: an
// optional area code in brackets, then 3–5 digits, a hyphen and 4 digits
// ("(11) 3333-4444", "99999-1234"), and an extension after "ext."
// ("extensão um dois"). Four-digit pairs without an area code are left to
// the other classes (they are year ranges as often).
var ptPrompts = lexTelPrompts("pt")

func ptTelephoneTN(s *stream, i int) []match {
	if !s.startOK(i) && !s.is(i, "(") {
		return nil
	}
	// "endereço de ip 10.0.0.1" → "endereço de i p um zero ponto …"
	if sp, j := ptPrompts.ipAt(s, i); sp != "" {
		if m := ptIPTN(s, j); m != nil {
			return one(m[0].end, Telephone, sp+" "+m[0].readings[0].text)
		}
	}
	if m := ptIPTN(s, i); m != nil {
		return m
	}
	// after "ligue para", "meu número é": digits to dial, not an amount
	if s.kind(i) == tNum && ptPrompts.before(s, i) {
		if d, e := promptedDigits(s, i); e > i {
			return []match{{end: e, readings: []reading{{text: ptLatin.digits(d), class: Telephone, cost: -1}}}}
		}
	}
	j := i
	var parts []string
	// country code: "+55" → "mais cinco cinco"
	if s.is(j, "+") && s.kind(j+1) == tNum && len(s.text(j+1)) <= 3 {
		parts = append(parts, "mais "+ptLatin.digits(s.text(j+1)))
		j += 2
		if s.is(j, "-") || s.is(j, ".") {
			j++
		}
		if s.kind(j) == tSpace {
			j++
		}
	}
	// area code: "(11)" or "11" before a space
	area := false
	if s.is(j, "(") && s.kind(j+1) == tNum && len(s.text(j+1)) == 2 && s.is(j+2, ")") {
		parts = append(parts, ptLatin.digits(s.text(j+1)))
		area, j = true, j+3
		if s.kind(j) == tSpace {
			j++
		}
	} else if s.kind(j) == tNum && len(s.text(j)) == 2 && s.is(j+1, " ") && s.kind(j+2) == tNum && (s.is(j+3, "-") || s.is(j+3, ".")) {
		parts = append(parts, ptLatin.digits(s.text(j)))
		area, j = true, j+2
	}
	// the number: 5, 4 or (without an area code) 3 digits, a hyphen or a
	// full stop, 4 digits
	if s.kind(j) != tNum || !(s.is(j+1, "-") || s.is(j+1, ".")) || s.kind(j+2) != tNum || len(s.text(j+2)) != 4 {
		return nil
	}
	first, last := s.text(j), s.text(j+2)
	if n := len(first); n < 3 || n > 5 || n == 3 && area {
		return nil
	}
	if len(parts) == 0 && len(first) == 4 && ptYearRange(first, last) && s.is(j+1, "-") {
		return nil // "1990-1995" is a range of years
	}
	end := j + 3
	if !s.boundary(end) || s.is(end, "-") || s.is(end, ".") && s.kind(end+1) == tNum {
		return nil
	}
	parts = append(parts, ptLatin.digits(first), ptLatin.digits(last))
	// extension: "ramal 12", "extensão 12", "ext. 12"
	k := end
	if s.kind(k) == tSpace {
		k++
	}
	word := ""
	switch {
	case strings.EqualFold(s.text(k), "ramal"):
		word, k = "ramal", k+1
	case strings.EqualFold(s.text(k), "extensão"):
		word, k = "extensão", k+1
	case strings.EqualFold(s.text(k), "ext") && s.is(k+1, "."):
		word, k = "extensão", k+2
	}
	if word != "" && s.kind(k) == tSpace && s.kind(k+1) == tNum && len(s.text(k+1)) <= 4 && s.boundary(k+2) {
		parts = append(parts, word+" "+ptLatin.digits(s.text(k+1)))
		end = k + 2
	}
	return one(end, Telephone, strings.Join(parts, " "))
}

// ptYearRange reports whether a and b (four digits each) read as a range
// of years: both from 1000 to 2099, the second later.
func ptYearRange(a, b string) bool {
	x, _ := strconv.Atoi(a)
	y, _ := strconv.Atoi(b)
	return x >= 1000 && y <= 2099 && x < y
}

// ptIPTN reads an IPv4 address digit by digit with "ponto" between the
// groups: "192.168.1.1" → "um nove dois ponto um seis oito ponto um ponto
// um".
func ptIPTN(s *stream, i int) []match {
	var parts []string
	j := i
	for g := 0; g < 4; g++ {
		if g > 0 {
			if !s.is(j, ".") {
				return nil
			}
			j++
		}
		t := s.text(j)
		if s.kind(j) != tNum || len(t) > 3 {
			return nil
		}
		if v, _ := strconv.Atoi(t); v > 255 {
			return nil
		}
		parts = append(parts, ptLatin.digits(t))
		j++
	}
	if !s.boundary(j) || s.is(j, ".") && s.kind(j+1) == tNum {
		return nil
	}
	return one(j, Telephone, strings.Join(parts, " ponto "))
}

// ptWeekdayITN writes the weekdays "segunda feira" … "sexta feira" with
// their hyphen ("segunda-feira").
func ptWeekdayITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) || s.kind(i+1) != tSpace || !strings.EqualFold(s.text(i+2), "feira") {
		return nil
	}
	switch strings.ToLower(s.text(i)) {
	case "segunda", "terça", "quarta", "quinta", "sexta":
		return one(i+3, Whitelist, s.text(i)+"-"+s.text(i+2))
	}
	return nil
}

// ptDigitWords are the spoken digits of a telephone number ("meia" is
// six, from "meia dúzia").
var ptDigitWords = map[string]int{"zero": 0, "um": 1, "dois": 2, "três": 3, "quatro": 4, "cinco": 5, "seis": 6,
	"meia": 6, "sete": 7, "oito": 8, "nove": 9}

// ptTelephoneITN writes a run of spoken digits and two-digit numbers
// ("nove oito sete seis cinquenta e quatro zero zero") of 8 to 11 digits
// as a Brazilian telephone number: 1234-5678, 12345-6789, (45) 1234-5678,
// (45) 12345-6789.
func ptTelephoneITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	var digits strings.Builder
	j, end, chunks := i, i, 0
	for digits.Len() < 12 {
		w := ptLower(s, j)
		if d, ok := ptDigitWords[w]; ok && s.kind(j) == tWord {
			digits.WriteByte(byte('0' + d))
			end, chunks = j+1, chunks+1
		} else if v, e := ptTwoDigits(s, j); v >= 10 {
			digits.WriteString(strconv.Itoa(v))
			end, chunks = e, chunks+1
		} else {
			break
		}
		if s.kind(end) != tSpace || s.kind(end+1) != tWord {
			break
		}
		j = end + 1
	}
	d := digits.String()
	if chunks < 3 || len(d) < 8 || len(d) > 11 {
		return nil
	}
	var w string
	switch len(d) {
	case 8, 9:
		w = d[:len(d)-4] + "-" + d[len(d)-4:]
	default:
		w = "(" + d[:2] + ") " + d[2:len(d)-4] + "-" + d[len(d)-4:]
	}
	return one(end, Telephone, w)
}

// ptTwoDigits reads a spoken number from 10 to 99 at token j ("dez",
// "vinte e sete") and returns it with the token after it; 0 if none.
func ptTwoDigits(s *stream, j int) (int, int) {
	w := ptLower(s, j)
	if e, ok := ptLex.words[w]; ok && e.kind == kTeen {
		return e.val, j + 1
	}
	e, ok := ptLex.words[w]
	if !ok || e.kind != kTens {
		return 0, j
	}
	if s.kind(j+1) == tSpace && ptLower(s, j+2) == "e" && s.kind(j+3) == tSpace {
		if u, ok := ptLex.words[ptLower(s, j+4)]; ok && u.kind == kUnit && u.val > 0 {
			return e.val + u.val, j + 5
		}
	}
	return e.val, j + 1
}

// ptLower returns token j in lower case, "" past the end or for a
// non-word.
func ptLower(s *stream, j int) string {
	if j < 0 || j >= s.n() || s.kind(j) != tWord {
		return ""
	}
	return s.lowerAt(j)
}

// ptSmall reads a spoken number from 0 to 99 at token j ("vinte e três",
// "uma") and returns it with the token after it; ok is false if none.
func ptSmall(s *stream, j int) (int, int, bool) {
	if v, e := ptTwoDigits(s, j); v >= 10 {
		return v, e, true
	}
	if u, ok := ptLex.words[ptLower(s, j)]; ok && u.kind == kUnit {
		return u.val, j + 1, true
	}
	return 0, j, false
}

// ptWordAt reports whether token j is the word w and returns the token
// after it and the space that follows (if any).
func ptWordAt(s *stream, j int, w string) (int, bool) {
	if ptLower(s, j) != w {
		return j, false
	}
	return j + 1, true
}

// ptSpaced reads " w" (a space, then word w) after token j.
func ptSpaced(s *stream, j int, w string) (int, bool) {
	if s.kind(j) != tSpace {
		return j, false
	}
	return ptWordAt(s, j+1, w)
}

// ptClockWord reads "meio dia" (12) or "meia noite" (0) at token j.
func ptClockWord(s *stream, j int) (int, int, bool) {
	switch ptLower(s, j) {
	case "meio":
		if e, ok := ptSpaced(s, j+1, "dia"); ok {
			return 12, e, true
		}
	case "meia":
		if e, ok := ptSpaced(s, j+1, "noite"); ok {
			return 0, e, true
		}
	}
	return 0, j, false
}

// ptTimeITN writes spoken times after "às", "as", "à", "a" or "ao", as
// NeMo's Portuguese grammar does: "onze e trinta" → 11:30, "três horas e
// trinta minutos" → 3:30, "sete horas" → 7:00, "meio dia e meia" → 12:30,
// "meia noite e quinze" → 0:15, and minutes before an hour ("quinze para
// as quatro" → 3:45, "quinze pro meio dia" → 11:45, "dez pra uma" →
// 12:50). A bare hour ("às duas") and "meia noite" alone stay words.
func ptTimeITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) || s.kind(i-1) != tSpace {
		return nil
	}
	switch ptLower(s, i-2) {
	case "às", "as", "à", "a", "ao":
	default:
		return nil
	}
	h, end, ok := ptClockWord(s, i)
	if !ok {
		if m := ptMinutesTo(s, i); m != nil {
			return m
		}
		if h, end, ok = ptSmall(s, i); !ok || h > 23 {
			return nil
		}
	}
	hours := false // "horas" said after the hour
	if e2, ok := ptSpacedAny(s, end, "hora", "horas"); ok {
		end, hours = e2, true
	}
	e, ok := ptSpaced(s, end, "e")
	if !ok || s.kind(e) != tSpace {
		if hours && s.boundary(end) {
			// a clock time after "às", rather than the duration "7 h"
			return []match{{end: end, readings: []reading{{text: fmt.Sprintf("%d:00", h), class: Time, cost: -0.1}}}}
		}
		return nil
	}
	m, mEnd := 0, e+1
	switch w := ptLower(s, e+1); w {
	case "meia", "meio":
		m, mEnd = 30, e+2
		if e2, ok := ptSpaced(s, mEnd, "hora"); ok {
			mEnd = e2
		}
	default:
		var ok bool
		if m, mEnd, ok = ptSmall(s, e+1); !ok || m == 0 || m > 59 {
			return nil
		}
		if e2, ok := ptSpacedAny(s, mEnd, "minuto", "minutos"); ok {
			mEnd = e2
		}
	}
	if !s.boundary(mEnd) {
		return nil
	}
	return one(mEnd, Time, fmt.Sprintf("%d:%02d", h, m))
}

// ptMinutesTo reads minutes before an hour at token i: "quinze para as
// quatro" (3:45), "dez pras duas", "quinze pro meio dia" (11:45), "cinco
// pra meia noite" (23:55), "quinze pra uma" (12:45).
func ptMinutesTo(s *stream, i int) []match {
	m, e, ok := ptSmall(s, i)
	if !ok || m < 1 || m > 59 {
		return nil
	}
	if e2, ok := ptSpacedAny(s, e, "minuto", "minutos"); ok {
		e = e2
	}
	j, ok := ptSpacedAny(s, e, "para", "pra", "pras", "pro")
	if !ok || s.kind(j) != tSpace {
		return nil
	}
	j++
	if e3, ok := ptSpacedAny(s, j-1, "o", "a", "as"); ok && s.kind(e3) == tSpace {
		j = e3 + 1
	}
	hh, end, ok := ptClockWord(s, j)
	if !ok {
		if hh, end, ok = ptSmall(s, j); !ok || hh < 1 || hh > 23 {
			return nil
		}
		if e4, ok := ptSpacedAny(s, end, "hora", "horas"); ok {
			end = e4
		}
	}
	if !s.boundary(end) {
		return nil
	}
	switch hh {
	case 0:
		hh = 24 // before midnight
	case 1:
		hh = 13 // "pra uma": a quarter to one is 12:45
	}
	return one(end, Time, fmt.Sprintf("%d:%02d", hh-1, 60-m))
}

// ptSpacedAny is ptSpaced for any of the words ws.
func ptSpacedAny(s *stream, j int, ws ...string) (int, bool) {
	for _, w := range ws {
		if e, ok := ptSpaced(s, j, w); ok {
			return e, true
		}
	}
	return j, false
}

// ptDateITN writes a spoken day and month: "primeiro de dezembro" → "01
// de dezembro", "dois do dois" → "02/02", "um do um de mil novecentos e
// oitenta e sete" → "01/01/1987".
func ptDateITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	d, end, ok := 1, i+1, ptLower(s, i) == "primeiro"
	if !ok {
		if d, end, ok = ptSmall(s, i); !ok || d < 1 || d > 31 {
			return nil
		}
	}
	if e, ok := ptSpaced(s, end, "de"); ok && s.kind(e) == tSpace {
		for _, m := range ptLatin.months {
			if ptLower(s, e+1) == m {
				return one(e+2, Date, fmt.Sprintf("%02d de %s", d, s.text(e+1)))
			}
		}
		return nil
	}
	e, ok := ptSpaced(s, end, "do")
	if !ok || s.kind(e) != tSpace {
		return nil
	}
	mo, mEnd, ok := ptSmall(s, e+1)
	if !ok || mo < 1 || mo > 12 {
		return nil
	}
	out := fmt.Sprintf("%02d/%02d", d, mo)
	if y, ok := ptSpaced(s, mEnd, "de"); ok && s.kind(y) == tSpace {
		if ms := ptLatin.cardinalITN(s, y+1); len(ms) > 0 && len(ms[0].readings) > 0 {
			if t := ms[0].readings[0].text; len(t) == 4 && strings.Trim(t, "0123456789") == "" {
				return one(ms[0].end, Date, out+"/"+t)
			}
		}
	}
	return one(mEnd, Date, out)
}
