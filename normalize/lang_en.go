package normalize

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// English rules. TN matchers are in this file, ITN matchers in lang_en_itn.go.

func init() {
	register(&rules{
		tag: "en", name: "English", script: "Latn", tnSpacing: SpacingSeparate,
		tn: map[string]matcher{
			Cardinal: enCardinalTN, Ordinal: enOrdinalTN, Decimal: enDecimalTN, Fraction: enFractionTN,
			Money: enMoneyTN, Measure: enMeasureTN, Date: enDateTN, Time: enTimeTN,
			Telephone: enTelephoneTN, Electronic: enElectronicTN, Roman: enRomanTN,
			Letters: enLettersTN, Whitelist: enWhitelistTN, Verbatim: enVerbatimTN,
		},
		itn: map[string]matcher{
			Cardinal: enCardinalITN, Ordinal: enOrdinalITN, Decimal: enDecimalITN,
			Money: enMoneyITN, Measure: enMeasureITN, Date: enDateITN, Time: enTimeITN,
			Telephone: enTelephoneITN, Electronic: enElectronicITN, Whitelist: enWhitelistITN,
		},
		score: stopScore(wordSet("the a an and of to in is are was were it that this with for on you he she they we not be have has at by from or but as what which")),
	})
}

// enNumber verbalizes a scanned literal as cardinal or decimal.
func enNumber(n numLit, and bool) string {
	var w string
	if n.point {
		w = enDecimal(n.intPart, n.frac, and)
	} else {
		w = enCardinal(n.intPart, and)
	}
	if n.neg {
		w = "minus " + w
	}
	return w
}

// enScaleAfter reads an optional scale word after a number ("2.5 million",
// "30b"); it returns the word and the token index after it. A lone "b"
// after a space is a scale only in an amount of money (enMoneyScaleAfter:
// "¥30 b" is thirty billion yen), not after a bare number ("option 5 b").
func enScaleAfter(s *stream, j int) (string, int) {
	return enScaleAfterIn(s, j, false)
}

// enMoneyScaleAfter is enScaleAfter inside an amount of money.
func enMoneyScaleAfter(s *stream, j int) (string, int) {
	return enScaleAfterIn(s, j, true)
}

func enScaleAfterIn(s *stream, j int, money bool) (string, int) {
	k := j
	if s.kind(k) == tSpace {
		k++
	}
	if s.kind(k) != tWord || !s.boundary(k+1) {
		return "", j
	}
	t := s.text(k)
	if k == j {
		// Inside a code ("B2B", "A4B"), letters glued on both sides are
		// not a scale.
		st := j - 1
		for st > 0 && (s.kind(st) == tNum || s.is(st, ".") || s.is(st, ",")) {
			st--
		}
		if st >= 0 && s.kind(st) == tWord && st < j-1 {
			return "", j
		}
	}
	if w, ok := enScaleWord[strings.ToLower(t)]; ok {
		if _, _, ok := enWhitelistSpanAt(s, k); ok {
			return "", j // "500 b.c": the era, not "billion"
		}
		if len(t) <= 3 && k != j && strings.ToLower(t) == t && !(t == "b" && money) && t != "bn" && t != "mln" {
			return "", j // "5 m" is five meters, not five million
		}
		if len(t) == 1 && t == "m" || (t == "K" || t == "k") && k != j {
			return "", j
		}
		return w, k + 1
	}
	return "", j
}

func enCardinalTN(s *stream, i int) []match {
	if s.kind(i) == tWord {
		return enHyphenNumber(s, i)
	}
	n, ok := scanNumber(s, i, ".", ",")
	if !ok || n.point || n.intPart == "" {
		return nil
	}
	end := n.end
	if !s.boundary(end) && s.kind(end) != tWord {
		return nil
	}
	d := n.intPart
	// Ratios and scores with a one-digit second part, which cannot be a
	// time: "2:8" → "two to eight".
	if !n.neg && !n.grouped && s.is(end, ":") && s.kind(end+1) == tNum && len(s.text(end+1)) == 1 &&
		s.boundary(end+2) && !s.is(end+2, ":") && !(s.is(end+2, ".") && s.kind(end+3) == tNum) && !s.is(end+2, "-") && !s.is(end+2, "–") && len(d) <= 3 {
		return one(end+2, Cardinal, enCardinal(d, false)+" to "+enCardinal(s.text(end+1), false))
	}
	// Ratios and map scales whose second part no clock or verse has: a
	// grouped number or four digits and more ("1:50,000", "3:10000"), or
	// three digits after 1 ("1:500") → "one to fifty thousand".
	if !n.neg && !n.grouped && s.is(end, ":") && len(d) <= 3 {
		if n2, ok := scanNumber(s, end+1, ".", ","); ok && !n2.neg && !n2.point && s.boundary(n2.end) &&
			(n2.grouped || len(n2.intPart) >= 4 || d == "1" && len(n2.intPart) == 3) && !s.is(n2.end, ":") && !(s.is(n2.end, ".") && s.kind(n2.end+1) == tNum) {
			return one(n2.end, Cardinal, enCardinal(d, false)+" to "+enCardinal(n2.intPart, false))
		}
	}
	// A span of two consecutive years written with a slash, as financial
	// and academic years are: "2024/25", "1999/2000" → "twenty twenty four
	// to twenty five" (as "2023-24" reads), not a fraction.
	if y1, ok := enYear(d); ok && !n.neg && !n.grouped && len(d) == 4 && s.is(end, "/") && s.kind(end+1) == tNum &&
		s.boundary(end+2) && !s.is(end+2, "/") && !(s.is(end+2, ".") && s.kind(end+3) == tNum) {
		d2 := s.text(end + 1)
		v1, _ := strconv.Atoi(d)
		v2, _ := strconv.Atoi(d2)
		switch {
		case len(d2) == 2 && v2 == (v1+1)%100:
			tail := en99or0(v2)
			if v2 < 10 {
				tail = "oh " + tail
			}
			return one(end+2, Date, y1+" to "+tail)
		case len(d2) == 4 && v2 == v1+1:
			if y2, ok := enYear(d2); ok {
				return one(end+2, Date, y1+" to "+y2)
			}
		}
	}
	// Ranges: 1980-1986, 1938 - 1981 (years), 28-30 → "to".
	dash, sp := end, false
	if s.kind(dash) == tSpace && (s.is(dash+1, "-") || s.is(dash+1, "–")) && s.kind(dash+2) == tSpace {
		dash, sp = dash+1, true
	}
	if !n.neg && !n.grouped && (s.is(dash, "-") || s.is(dash, "–")) && !(s.is(i-1, "-") && s.kind(i-2) != tSpace) {
		e2 := dash + 1
		if sp {
			e2++
		}
		if s.kind(e2) == tNum && s.boundary(e2+1) && s.kind(e2+1) != tWord && !s.is(e2+1, "-") && !(s.is(e2+1, ".") && s.kind(e2+2) == tNum) {
			d2 := s.text(e2)
			y1, ok1 := enYear(d)
			y2, ok2 := enYear(d2)
			if s.is(e2+1, "=") || s.kind(e2+1) == tSpace && s.is(e2+2, "=") {
				// Arithmetic: "3-2=1", "10 - 5 = 5".
				return one(e2+1, Cardinal, enCardinal(d, true)+" minus "+enCardinal(d2, true))
			}
			if ok1 && ok2 && len(d) == 4 && len(d2) == 4 {
				return one(e2+1, Date, y1+" to "+y2)
			}
			// A year range with a two-digit end: "1990-95" → "nineteen
			// ninety to ninety five", "2010-15" → "twenty ten to fifteen";
			// spaced as tokenized text writes it ("1893 - 94") it reads the
			// same.
			if v2, _ := strconv.Atoi(d2); ok1 && len(d) == 4 && len(d2) == 2 && v2 > atoiOr(d[2:], 100) {
				end := en99or0(v2)
				if v2 < 10 {
					end = "oh " + end
				}
				return one(e2+1, Date, y1+" to "+end)
			}
			if len(d) <= 4 && d2 == "0" && !sp {
				return one(e2+1, Cardinal, enCardinal(d, true)+" - zero")
			}
			if len(d) <= 4 && len(d2) <= 4 && d[0] != '0' && d2[0] != '0' {
				// NeMo keeps the dash of a bare numeric range written
				// solid ("2-5" → "two - five"); a spaced one ("28 -
				// 30", as tokenized text writes page ranges and scores)
				// one counting something ("3-4 years"), a verse or page
				// reference ("6:6-8", "pp. 5-10") read "to".
				// Each is the other's alternative.
				dc, tc := 0.0, 0.5
				// "No. 23-1147", "number 4-2" name one thing, a docket
				// or code, not a range.
				cue := s.kind(i-1) == tSpace && !strings.EqualFold(s.text(i-2), "number") && !(s.is(i-2, ".") && strings.EqualFold(s.text(i-3), "no")) && (s.is(i-2, ".") && enNumberCue[s.span(i-3, i-1)] != "" ||
					s.kind(i-2) == tWord && enNumberCueWord[strings.ToLower(s.text(i-2))] ||
					enVerbatimSym[s.text(i-2)].has("plural")) // "§§ 12–14", "¶ 3-5"
				if sp || s.kind(e2+1) == tSpace && s.kind(e2+2) == tWord || s.is(i-1, ":") || cue {
					dc, tc = tc, dc
				}
				return []match{{end: e2 + 1, readings: []reading{
					{text: enCardinal(d, true) + " - " + enCardinal(d2, true), class: Cardinal, cost: dc},
					{text: enCardinal(d, false) + " to " + enCardinal(d2, false), class: Cardinal, cost: tc}}}}
			}
		}
	}
	var rs []reading
	if !n.neg && !n.grouped && (len(d) == 3 || len(d) == 4) && d[0] != '0' && enAddressAhead(s, end) {
		return one(end, Cardinal, enHouseNumber(d))
	}
	// Model codes glued to capitals read in pairs: "A321" → "A three
	// twenty one", "F150" → "F one fifty".
	if p := s.text(i - 1); !n.neg && !n.grouped && len(d) == 3 && d[0] != '0' && s.kind(i-1) == tWord && len(p) <= 2 &&
		strings.ToUpper(p) == p && unicode.IsUpper(firstRune(p)) {
		return []match{{end: end, readings: []reading{{text: enHouseNumber(d), class: Cardinal},
			{text: enNumber(n, false), class: Cardinal, cost: 0.5}}}}
	}
	switch {
	case n.grouped:
		rs = append(rs, reading{text: enNumber(n, true), class: Cardinal})
		if v, _ := strconv.Atoi(d); !n.neg && len(d) == 4 && v%100 == 0 && v%1000 != 0 {
			// "2,500" is also said "twenty five hundred".
			rs = append(rs, reading{text: en99(v/100) + " hundred", class: Cardinal, cost: 1})
		}
	case len(d) > 1 && d[0] == '0':
		rs = append(rs, reading{text: enDigits(d), class: Cardinal}, reading{text: enNumber(n, true), class: Cardinal, cost: 1})
	case len(d) >= 6 && !n.neg, len(d) == 5 && !n.neg && enZipContext(s, i):
		rs = append(rs, reading{text: enDigits(d), class: Cardinal}, reading{text: enNumber(n, true), class: Cardinal, cost: 1})
	default:
		if y, ok := enYear(d); ok && len(d) == 4 && !n.neg {
			// The last part of a slash-separated serial that is not a
			// date ("123/261788/2021") is a plain number, and so is a
			// number beyond plausible years ("4567 items").
			yc := 0.0
			if s.is(i-1, "/") && s.kind(i-2) == tNum || d > "2999" {
				yc = 0.7
			}
			rs = append(rs, reading{text: y, class: Date, cost: yc})
		}
		// A number read on its own, with no word next to it, takes
		// "and" after "hundred" as NeMo does ("123" → "one hundred and
		// twenty three"); one counting something in running text ("170
		// acres") and one inside a serial or code ("133-ABC") do not.
		ac, pc := 0.5, 0.6
		if !enSerialNeighbour(s, i, end) && !enWordNear(s, i, end) {
			ac, pc = pc, ac
		}
		rs = append(rs, reading{text: enNumber(n, false), class: Cardinal, cost: ac},
			reading{text: enNumber(n, true), class: Cardinal, cost: pc})
	}
	if w, e := enScaleAfter(s, end); w != "" {
		// A capital glued to an apartment, suite or house number is a
		// letter: "Apt. 4B", "221B Baker Street".
		if l := s.text(end); e == end+1 && len(l) == 1 && unicode.IsUpper(rune(l[0])) && !n.grouped &&
			(enAddressAhead(s, e) || enUnitDesignator[s.text(i-2)] || s.is(i-2, ".") && enUnitDesignator[s.span(i-3, i-1)]) {
			return one(e, Cardinal, enNumber(n, false)+" "+l)
		}
		for k := range rs {
			rs[k].text += " " + w
			rs[k].class = Decimal
		}
		end = e
	}
	return []match{{end: end, readings: rs}}
}

// enSerialNeighbour reports whether the number spanning tokens [i, end)
// touches a hyphen, a slash or a letter, as in serials and codes.
func enSerialNeighbour(s *stream, i, end int) bool {
	for _, k := range []int{i - 1, end} {
		if s.is(k, "-") || s.is(k, "/") || s.kind(k) == tWord {
			return true
		}
	}
	return false
}

// enWordNear reports whether a word token lies next to tokens [i, end),
// directly or across one space.
func enWordNear(s *stream, i, end int) bool {
	return s.kind(i-1) == tWord || s.kind(i-1) == tSpace && s.kind(i-2) == tWord ||
		s.kind(end) == tWord || s.kind(end) == tSpace && s.kind(end+1) == tWord
}

func enDecimalTN(s *stream, i int) []match {
	// Dots grouping thousands, as in much of Europe, when there are two or
	// more groups: "1.000.000" → "one million" ("1.000" stays a decimal,
	// four parts are an IP address).
	if s.kind(i) == tNum && len(s.text(i)) <= 3 && s.startOK(i) && !s.is(i-1, ".") {
		k, digits := i, s.text(i)
		for s.is(k+1, ".") && s.kind(k+2) == tNum && len(s.text(k+2)) == 3 {
			digits += s.text(k + 2)
			k += 2
		}
		if (k-i == 4 || k-i >= 8) && s.boundary(k+1) && !(s.is(k+1, ".") && s.kind(k+2) == tNum) && digits[0] != '0' {
			return one(k+1, Cardinal, enCardinal(digits, false))
		}
	}
	// Version numbers: "v2.0.1", "Python 3.11.2" → "three point eleven
	// point two": three dotted parts of up to three digits, each read as a
	// cardinal. Two-digit parts only ("12.03.20") are left to dates, four
	// parts to IP addresses, groups of three ("1.000.000") to numbers.
	if s.kind(i) == tNum && s.is(i+1, ".") && s.kind(i+2) == tNum && s.is(i+3, ".") && s.kind(i+4) == tNum &&
		!(s.is(i+5, ".") && s.kind(i+6) == tNum) && s.boundary(i+5) && !s.is(i-1, ".") {
		a, b, c := s.text(i), s.text(i+2), s.text(i+4)
		if len(a) <= 3 && len(b) <= 3 && len(c) <= 3 && !(len(a) == 2 && len(b) == 2 && len(c) == 2) && !(len(b) == 3 && len(c) == 3) {
			return one(i+5, Decimal, enCardinal(a, false)+" point "+enCardinal(b, false)+" point "+enCardinal(c, false))
		}
	}
	n, ok := scanNumber(s, i, ".", ",")
	if !ok && (s.is(i, "-") || s.is(i, "−")) && s.minusOK(i) && s.is(i+1, ".") && s.kind(i+2) == tNum {
		// A signed decimal without its leading zero: "-.5" → "minus
		// point five", as "-0.5" and ".5" read.
		if n, ok = scanNumber(s, i+1, ".", ","); ok {
			n.neg = true
		}
	}
	if !ok {
		return nil
	}
	if w, e, ok := enScientific(s, i, n); ok {
		return one(e, Decimal, w)
	}
	if !n.point || n.frac == "" || !s.boundary(n.end) && s.kind(n.end) != tWord {
		return nil
	}
	txt := enNumber(n, true)
	end := n.end
	if w, e := enScaleAfter(s, end); w != "" {
		txt += " " + w
		end = e
	}
	return one(end, Decimal, txt)
}

// enScientific reads scientific notation after the number n scanned at i:
// "1.6e-19", "2.5E+8" → "one point six times ten to the power of minus
// nineteen". The mantissa has a decimal point or the exponent a sign, so
// codes such as "3e5" stay serials.
func enScientific(s *stream, i int, n numLit) (string, int, bool) {
	if !(s.is(n.end, "e") || s.is(n.end, "E")) || n.end <= i || s.kind(n.end-1) != tNum {
		return "", 0, false
	}
	k, sign := n.end+1, ""
	switch {
	case s.is(k, "-") || s.is(k, "−"):
		k, sign = k+1, "minus "
	case s.is(k, "+"):
		k, sign = k+1, "plus"
	}
	if s.kind(k) != tNum || len(s.text(k)) > 3 || !s.boundary(k+1) || !n.point && sign == "" || s.is(k+1, ".") && s.kind(k+2) == tNum {
		return "", 0, false
	}
	if sign == "plus" {
		sign = ""
	}
	exp := strings.TrimLeft(s.text(k), "0")
	if exp == "" {
		exp = "0"
	}
	return enNumber(n, false) + " times ten to the power of " + sign + enCardinal(exp, false), k + 1, true
}

func enOrdinalTN(s *stream, i int) []match {
	n, ok := scanNumber(s, i, ".", ",")
	if !ok || n.point || n.neg || s.kind(n.end) != tWord || !s.boundary(n.end+1) {
		return nil
	}
	v, err := strconv.Atoi(n.intPart)
	if err != nil {
		v = 0
		if len(n.intPart) > 2 {
			v, _ = strconv.Atoi(n.intPart[len(n.intPart)-2:])
		}
	}
	suf := strings.ToLower(s.text(n.end))
	if suf != enOrdinalSuffix(v) || len(n.intPart) > 1 && n.intPart[0] == '0' {
		return nil // "000th" is digits and a suffix, not an ordinal
	}
	return one(n.end+1, Ordinal, enOrdinal(n.intPart))
}

// enFractionDen spells a denominator: plural for numerators other than one.
func enFractionDen(den string, plural bool) string {
	var w string
	switch strings.TrimLeft(den, "0") {
	case "1":
		return "over one"
	case "2":
		w = "half"
		if plural {
			return "halves"
		}
		return w
	case "4":
		w = "quarter"
	default:
		w = enOrdinal(den)
	}
	if plural {
		w += "s"
	}
	return w
}

// enScanFraction reads "3/4", "2 1/2", "1 / 3", "1/4th" or "½" at i.
func enScanFraction(s *stream, i int) (whole, num, den string, end int, ok bool) {
	if v, isV := enVulgar[s.text(i)]; isV {
		return "", v[0], v[1], i + 1, true
	}
	if s.kind(i) != tNum || !s.startOK(i) || s.is(i-1, "/") && s.kind(i-2) == tNum {
		return // the middle of "31/31/100"
	}
	j := i
	if s.kind(j+1) == tSpace && s.kind(j+2) == tNum && s.is(j+3, "/") && s.kind(j+4) == tNum {
		whole, j = s.text(i), j+2
	} else if s.kind(j+1) == tSpace {
		if v, isV := enVulgar[s.text(j+2)]; isV {
			return s.text(i), v[0], v[1], j + 3, true
		}
	} else if v, isV := enVulgar[s.text(j+1)]; isV && s.boundary(j+2) {
		return s.text(i), v[0], v[1], j + 2, true // "1½"
	}
	k := j + 1
	sp := false
	if s.kind(k) == tSpace {
		k, sp = k+1, true
	}
	if !s.is(k, "/") {
		return
	}
	k++
	if sp {
		if s.kind(k) != tSpace {
			return
		}
		k++
	}
	if s.kind(k) != tNum || strings.TrimLeft(s.text(k), "0") == "" {
		return
	}
	num, den, end = s.text(j), s.text(k), k+1
	if s.kind(end) == tWord {
		suf := strings.ToLower(s.text(end))
		if (suf == "th" || suf == "rd" || suf == "nd" || suf == "ths" || suf == "rds" || suf == "nds") && s.boundary(end+1) {
			end++
		} else {
			return
		}
	}
	if s.is(end, "/") && s.kind(end+1) == tNum {
		return // 31/31/100 is not a fraction
	}
	return whole, num, den, end, s.boundary(end)
}

func enFractionWords(whole, num, den string) string {
	plural := strings.TrimLeft(num, "0") != "1"
	f := enCardinal(num, false) + " " + enFractionDen(den, plural)
	if whole != "" {
		if !plural && (den == "2" || den == "4") {
			f = "a " + enFractionDen(den, false)
		}
		return enCardinal(whole, false) + " and " + f
	}
	return f
}

func enFractionTN(s *stream, i int) []match {
	// A signed fraction: "-1/2", "−3/4" → "minus one half", as a signed
	// number or amount reads "minus" ("-407", "-$5").
	if (s.is(i, "-") || s.is(i, "−")) && s.startOK(i) && s.kind(i+1) == tNum && (i == 0 || s.kind(i-1) == tSpace || s.is(i-1, "(")) {
		ms := enFractionTN(s, i+1)
		for k := range ms {
			for r := range ms[k].readings {
				ms[k].readings[r].text = "minus " + ms[k].readings[r].text
			}
		}
		return ms
	}
	whole, num, den, end, ok := enScanFraction(s, i)
	if !ok {
		return nil
	}
	rs := []reading{{text: enFractionWords(whole, num, den), class: Fraction}}
	if whole == "" {
		// Read as a division: "2/8" → "two divided by eight".
		rs = append(rs, reading{text: enCardinal(num, false) + " divided by " + enCardinal(den, false), class: Fraction, cost: 1.5})
		if d, ok := enDateFromParts(num, den, ""); ok {
			// After a weekday ("Tue (2/22)") it is a date.
			c := 1.0
			if _, wd := enWeekdayBefore(s, i); wd {
				c = -1
			}
			rs = append(rs, reading{text: d, class: Date, cost: c})
		}
	}
	return []match{{end: end, readings: rs}}
}

// Money.

func enMoneyTN(s *stream, i int) []match {
	if s.kind(i) == tNum {
		return enMoneyAfterTN(s, i)
	}
	// A negative amount: "-$5", "−€3.2 million" → "minus five dollars".
	if (s.is(i, "-") || s.is(i, "−")) && s.startOK(i) && s.kind(i+1) == tSym && (i == 0 || s.kind(i-1) == tSpace || s.is(i-1, "(")) {
		ms := enMoneyTN(s, i+1)
		for k := range ms {
			for r := range ms[k].readings {
				ms[k].readings[r].text = "minus " + ms[k].readings[r].text
			}
		}
		return ms
	}
	sym := s.text(i)
	j := i + 1
	// Letters glued to a symbol: "US$", "HK$", "A$", "R$".
	if s.kind(i) == tWord && s.kind(i+1) == tSym {
		if _, ok := enCurrencies[sym+s.text(i+1)]; ok {
			sym, j = sym+s.text(i+1), i+2
		}
	}
	if !s.startOK(i) && s.kind(i) == tWord {
		return nil
	}
	// An abbreviated code with its period: "Rs. 500".
	if s.kind(i) == tWord && s.is(j, ".") && s.kind(j+1) == tSpace && s.kind(j+2) == tNum {
		if _, ok := enCurrencies[sym+"."]; ok {
			sym, j = sym+".", j+1
		}
	}
	cur, ok := enCurrencies[sym]
	if !ok {
		return nil
	}
	// "CHF 5", "Rs. 500", and "$ 60" as tokenized text writes it.
	if s.kind(j) == tSpace && j < s.n() && s.kind(j+1) == tNum && (s.kind(i) == tSym || s.kind(i) == tWord && len(sym) >= 2) {
		j++
	}
	m, ok := enMoneyAmount(s, j, cur)
	if !ok {
		return nil
	}
	// Rates: £10/wk → "ten pounds per week".
	if s.is(m.end, "/") && s.kind(m.end+1) == tWord && s.boundary(m.end+2) {
		if per, ok := enPerUnit[strings.ToLower(s.text(m.end+1))]; ok {
			return one(m.end+2, Money, m.readings[0].text+" "+per)
		}
		if u, e, ok := enUnitAt(s, m.end+1); ok && e > m.end+1 {
			return one(e, Money, m.readings[0].text+" per "+u.one)
		}
	}
	// Ranges: $50.00-$100.00; "$5-10" → "five to ten dollars"; with an
	// en dash as with a hyphen, and a scale glued to the second amount
	// ("$8–9bn" → "eight to nine billion dollars").
	dash := s.is(m.end, "-") || s.is(m.end, "–")
	if dash && s.is(m.end+1, sym) {
		if m2, ok := enMoneyAmount(s, m.end+2, cur); ok {
			return one(m2.end, Money, m.readings[0].text+" to "+m2.readings[0].text)
		}
	}
	if dash && s.kind(m.end+1) == tNum {
		dec, group := ".", ","
		if cur.dotGroups {
			dec, group = ",", "." // "Rp 5.000-10.000"
		}
		n1, ok1 := scanNumber(s, j, dec, group)
		n2, ok2 := scanNumber(s, m.end+1, dec, group)
		if ok1 && ok2 && !n1.point && n1.end == m.end && (s.boundary(n2.end) || s.kind(n2.end) == tWord) {
			if w, e := enMoneyScaleAfter(s, n2.end); w != "" {
				return one(e, Money, enNumber(n1, false)+" to "+enNumber(n2, false)+" "+w+" "+cur.many)
			}
			if !n2.point && s.boundary(n2.end) && s.kind(n2.end) != tWord {
				return one(n2.end, Money, enNumber(n1, false)+" to "+enNumber(n2, false)+" "+cur.many)
			}
		}
	}
	return []match{m}
}

// enMoneyAfterTN reads an amount followed by a currency code or symbol:
// "5 EUR", "100 CHF", "20 €", "3.50 USD".
func enMoneyAfterTN(s *stream, i int) []match {
	if !s.startOK(i) {
		return nil
	}
	n, ok := scanNumber(s, i, ".", ",")
	if !ok || n.neg {
		return nil
	}
	// The continental amount ("12,50 €", "1.234,56 EUR"), as before a
	// prefix symbol in enMoneyAmount.
	if eu, euOK := scanNumber(s, i, ",", "."); euOK && !eu.neg && eu.point && len(eu.frac) == 2 && eu.end > n.end {
		n = eu
	}
	k := n.end
	scale, ke := enMoneyScaleAfter(s, k)
	if scale != "" {
		k = ke
	}
	if s.kind(k) == tSpace {
		k++
	}
	if s.kind(k) == tNum || k >= s.n() {
		return nil
	}
	// A code is one word token; a symbol one symbol token.
	sym := s.text(k)
	cur, ok := enCurrencies[sym]
	if !ok || !enISOCode(sym) || !s.boundary(k+1) {
		return nil
	}
	// Reuse the prefix grammar on the amount alone, then drop what it
	// consumed after the number.
	m, ok := enMoneyAmount(s, i, cur)
	if !ok {
		return nil
	}
	if scale != "" {
		return one(k+1, Money, enNumber(n, false)+" "+scale+" "+cur.many)
	}
	if m.end != n.end {
		return nil
	}
	m.end = k + 1
	return []match{m}
}

func enMoneyAmount(s *stream, j int, cur enCurrency) (match, bool) {
	n, ok := scanNumber(s, j, ".", ",")
	// An amount written the continental way ("€1.234,56", "€2,50": periods
	// between groups of three, a comma before two digits) has no English
	// reading (English groups hold three digits); read it as the amount it is.
	if eu, euOK := scanNumber(s, j, ",", "."); euOK && eu.point && len(eu.frac) == 2 && eu.end > n.end && s.boundary(eu.end) {
		n, ok = eu, true
	} else if euOK && cur.dotGroups && eu.grouped && !eu.point && eu.end >= n.end {
		// A currency whose cash has no sub-unit and whose amounts group
		// thousands with dots ([currencies] flag dotgroups): "Rp 50.000",
		// "₫1.500.000" are thousands, every dot before exactly three digits.
		n, ok = eu, true
	}
	if !ok || n.neg {
		return match{}, false
	}
	end := n.end
	unit := func(one bool) string {
		if one {
			return cur.one
		}
		return cur.many
	}
	w, e := enMoneyScaleAfter(s, end)
	if w == "" && s.kind(end) == tWord && s.boundary(end+1) {
		// After an amount, a glued abbreviation is a scale: "£5m", "$20k".
		w, e = enScaleWord[strings.ToLower(s.text(end))], end+1
	}
	if w != "" {
		return match{end: e, readings: []reading{{text: enNumber(n, false) + " " + w + " " + cur.many, class: Money}}}, true
	}
	if !s.boundary(end) {
		return match{}, false
	}
	ip := strings.TrimLeft(n.intPart, "0")
	frac := n.frac
	if n.point && len(frac) == 3 && frac[2] == '0' {
		frac = frac[:2]
	}
	var rs []reading
	switch {
	case !n.point || strings.Trim(frac, "0") == "":
		rs = append(rs, reading{text: enCardinal(n.intPart, true) + " " + unit(ip == "1"), class: Money},
			reading{text: enCardinal(n.intPart, false) + " " + unit(ip == "1"), class: Money, cost: 0.5})
	case len(frac) == 2 && cur.subOne != "":
		// (A currency without a sub-unit reads the decimal: "₫20.50".)
		c, _ := strconv.Atoi(frac)
		sub := enCardinal(frac, false) + " "
		if c == 1 {
			sub += cur.subOne
		} else {
			sub += cur.subMany
		}
		if ip == "" {
			rs = append(rs, reading{text: sub, class: Money})
			break
		}
		// NeMo joins the main unit and the subunit without "and"
		// ("twenty dollars one cent"); "and" between them, and no "and"
		// after "hundred", are common spoken alternatives.
		main := enCardinal(n.intPart, true) + " " + unit(ip == "1")
		plain := enCardinal(n.intPart, false) + " " + unit(ip == "1")
		rs = append(rs, reading{text: main + " " + sub, class: Money})
		if cur.one != "pound" {
			rs = append(rs, reading{text: main + " and " + sub, class: Money, cost: 0.3})
		}
		if plain != main {
			rs = append(rs, reading{text: plain + " and " + sub, class: Money, cost: 0.5},
				reading{text: plain + " " + sub, class: Money, cost: 0.6})
		}
		rs = append(rs, reading{text: enDecimal(n.intPart, n.frac, false) + " " + cur.many, class: Money, cost: 1})
	default:
		// The zero is read as written, as in a decimal ("$0.001" → "zero
		// point zero zero one dollars", "$.001" → "point zero zero one").
		rs = append(rs, reading{text: enDecimal(n.intPart, n.frac, true) + " " + cur.many, class: Money})
	}
	return match{end: end, readings: rs}, true
}

// Measure.

// enUnitAt reads a unit at j (after an optional single space); returns the
// unit key and the token index after it.
func enUnitAt(s *stream, j int) (enUnit, int, bool) {
	k := j
	if s.kind(k) == tSpace {
		k++
	}
	// A compass letter before a street name is no unit: "11 W 53rd St"
	// (West, not watts), "40 N Main St".
	if t := s.text(k); len(t) == 1 && strings.Contains("NSEW", t) && enAddressAhead(s, j) {
		return enUnit{}, j, false
	}
	// Try the longest composition first: up to 6 tokens ("km/h", "sq ft",
	// "°C", "sq. ft.").
	for w := 6; w >= 1; w-- {
		e := k + w
		if e > s.n() || !s.boundary(e) {
			continue
		}
		raw := s.span(k, e)
		if strings.ContainsAny(raw, "\t\n") {
			continue
		}
		// As written first ("mA", "L"); then, for units of two or more
		// letters, in any case ("KM", "Kg"). A lone capital is a letter
		// or a scale ("3D", "5G", "5M").
		key := strings.ToLower(raw)
		u, ok := enUnitsExact[raw]
		if !ok && utf8.RuneCountInString(raw) >= 2 {
			u, ok = enUnits[key]
		}
		if ok {
			if key == "in" || key == "t" || key == "a" {
				// "5 in" is usually the preposition, unless the clause ends
				// there: a preposition needs its object ("9 in." is inches).
				// A lone "t" ending the clause is the unit as well ("it
				// weighs 2.5 t."), and either before "of", which only a
				// measure takes there ("37,000 t of oil", "9 in of snow").
				if (k != j || w != 1) && !((key == "in" || raw == "t") && w == 1 && (enClauseEnd(s, e) || enUnitPeriod(s, e) || s.kind(e) == tSpace && strings.EqualFold(s.text(e+1), "of"))) {
					continue
				}
			}
			return u, e, true
		}
	}
	return enUnit{}, j, false
}

// enUnitPeriod reports whether the period at e after a unit abbreviation
// is the abbreviation's own, the sentence going on after it: a lower-case
// word, a comma, semicolon, colon or closing bracket follows ("14 in. of
// snow", "9 in., then"). It makes "in" a unit there as a clause end does;
// the period itself stays, as LibriTTS writes it ("2 lbs. of" → "two
// pounds. of", "400 ft., then" → "four hundred feet., then").
func enUnitPeriod(s *stream, e int) bool {
	if !s.is(e, ".") {
		return false
	}
	if s.kind(e+1) == tSpace && s.kind(e+2) == tWord {
		return unicode.IsLower(firstRune(s.text(e + 2)))
	}
	t := s.text(e + 1)
	return s.kind(e+1) == tSym && t != "" && strings.Contains(",;:)", t)
}

func enMeasureTN(s *stream, i int) []match {
	// A unit after the word "per" is read as a unit: "420 per km²" →
	// "… per square kilometer", "£5 per kg" (as "/kg" is). The units that
	// are also words ("in", "a", "t") stay words (enUnitAt).
	if s.kind(i) == tWord && strings.EqualFold(s.text(i), "per") && s.startOK(i) && s.kind(i+1) == tSpace {
		if u, e, ok := enUnitAt(s, i+1); ok && (e >= s.n() || s.kind(e) != tWord && s.kind(e) != tNum) {
			return one(e, Measure, s.text(i)+" "+u.one)
		}
		return nil
	}
	return enMeasure(s, i, true)
}

// enMeasure reads a measure at i; with ranges, a second measure after a
// spaced or en dash joins it ("5 kg - 10 kg"), one level deep.
func enMeasure(s *stream, i int, ranges bool) []match {
	if _, ok := enMilitaryTime(s, i); ok {
		return nil // "at 1600 hours" is a time
	}
	var val string
	var isOne bool
	var end int
	if whole, num, den, e, ok := enScanFraction(s, i); ok {
		val, end, isOne = enFractionWords(whole, num, den), e, false
		if whole == "" && strings.TrimLeft(num, "0") == "1" {
			isOne = true
		}
	} else {
		n, ok := scanNumber(s, i, ".", ",")
		if !ok {
			return nil
		}
		// A continental decimal comma before a unit: "19,6 %", "2,5 kg"
		// (an English group has three digits, so "19,6" has no other
		// reading); a list ("12,50 and 60") has no unit after it.
		if !n.point && !n.grouped && s.is(n.end, ",") && s.kind(n.end+1) == tNum && len(s.text(n.end+1)) <= 2 {
			if eu, ok := scanNumber(s, i, ",", "."); ok && eu.point && eu.end == n.end+2 {
				k := eu.end
				if s.kind(k) == tSpace {
					k++
				}
				if _, _, ok := enUnitAt(s, k); ok {
					n = eu
				}
			}
		}
		val, end, isOne = enNumber(n, true), n.end, n.isOne()
		// A unit after scientific notation: "9.46e12 km".
		if w, e, ok := enScientific(s, i, n); ok {
			if s.kind(e) == tSpace {
				if u, e2, ok := enUnitAt(s, e+1); ok && e2 > e+1 {
					return one(e2, Measure, w+" "+u.many)
				}
			}
			return nil
		}
		// A unit after a scale word: "5 million km" → "five million
		// kilometers".
		if w, e := enScaleAfter(s, end); w != "" {
			if u, e2, ok := enUnitAt(s, e); ok && e2 > e {
				return one(e2, Measure, enNumber(n, false)+" "+w+" "+u.many)
			}
		}
		// "2-5lb", "1980-1970 kg", "10–15%", "5 - 10 kg" → "to"; "2x8 m2",
		// "25 x 7 m" → "by".
		k, join, and2 := end, "", true
		switch {
		case (s.is(k, "-") || s.is(k, "–")) && s.kind(k+1) == tNum:
			join, k = " to ", k+1
		case s.kind(k) == tSpace && (s.is(k+1, "-") || s.is(k+1, "–")) && s.kind(k+2) == tSpace && s.kind(k+3) == tNum:
			// Spaced, the numbers read as the spaced range of bare
			// numbers does, without "and" ("2010 - 86 %").
			join, k, val, and2 = " to ", k+3, enNumber(n, false), false
		case (s.is(k, "x") || s.is(k, "×")) && s.kind(k+1) == tNum:
			join, k = " by ", k+1
		case s.kind(k) == tSpace && (s.is(k+1, "x") || s.is(k+1, "×")) && s.kind(k+2) == tSpace && s.kind(k+3) == tNum:
			join, k = " by ", k+3
		}
		if join != "" {
			if n2, ok := scanNumber(s, k, ".", ","); ok && !n2.neg {
				if u, e, ok := enUnitAt(s, n2.end); ok {
					return one(e, Measure, val+join+enNumber(n2, and2)+" "+u.many)
				}
			}
		}
	}
	// A multiplier glued to its number before a word: "2.5x faster", "10x
	// zoom" → "two point five times faster", "ten times zoom" (a factor; a
	// lone "2x" is a serial, "two x").
	if (s.is(end, "x") || s.is(end, "×")) && s.kind(end+1) == tSpace && s.kind(end+2) == tWord {
		return one(end+1, Measure, val+" times")
	}
	// An abbreviated unit joined by a hyphen makes an adjective, read in
	// the singular: "a 10-km race" → "a ten-kilometer race", "a 2.5-mg
	// dose" → "a two point five milligram dose".
	if s.is(end, "-") && s.kind(end+1) == tWord && s.boundary(end+2) && !s.is(end+2, "-") {
		if u, e, ok := enUnitAt(s, end+1); ok && e == end+2 && !strings.EqualFold(s.text(end+1), u.one) && !strings.EqualFold(s.text(end+1), u.many) {
			if strings.Contains(val, "point") {
				return one(e, Measure, val+" "+u.one)
			}
			return one(e, Measure, val+"-"+u.one)
		}
	}
	// "12/kg" → "twelve per kilogram"; a unit with its power too, as
	// densities are written: "4,507.4/km²", "280/km2" → "… per square
	// kilometer".
	if s.is(end, "/") {
		if u, e, ok := enUnitAt(s, end+1); ok && e >= end+2 {
			return one(e, Measure, val+" per "+u.one)
		}
	}
	// "7.2-millimeter": number, hyphen, spelled unit (integers keep the hyphen).
	if s.is(end, "-") && s.kind(end+1) == tWord && s.boundary(end+2) {
		w := strings.ToLower(s.text(end + 1))
		for _, u := range enUnits {
			if w == u.one || w == u.many {
				if strings.Contains(val, "point") {
					return one(end+2, Measure, val+" "+s.text(end+1))
				}
				return one(end, Measure, val)
			}
		}
		// "7-eleven"
		if v, ok := enWordVal[w]; ok && v > 0 && !strings.Contains(val, " ") {
			return one(end+2, Cardinal, val+" "+w)
		}
	}
	// Feet and inches with prime marks: 6'2", 5′ 10″ → "six feet two
	// inches". A lone 5' stays as written (a quote or a possessive).
	if (s.is(end, "'") || s.is(end, "′")) && !strings.Contains(val, "point") {
		k := end + 1
		if s.kind(k) == tSpace {
			k++
		}
		if n2, ok := scanNumber(s, k, ".", ","); ok && !n2.neg && (s.is(n2.end, "\"") || s.is(n2.end, "″") || s.is(n2.end, "''")) && s.boundary(n2.end+1) {
			ft := " feet "
			if isOne {
				ft = " foot "
			}
			in := " inches"
			if n2.isOne() {
				in = " inch"
			}
			return one(n2.end+1, Measure, val+ft+enNumber(n2, true)+in)
		}
	}
	// 12" → twelve inches
	if s.is(end, "\"") && s.boundary(end+1) && (end+1 >= s.n() || s.kind(end+1) == tSpace) && s.kind(i-1) != tSym && !enClosesQuote(s, end) {
		if isOne {
			return one(end+1, Measure, val+" inch")
		}
		return one(end+1, Measure, val+" inches")
	}
	u, e, ok := enUnitAt(s, end)
	if !ok {
		// A unit the table keeps from TN alone is one before a rate's
		// slash: "250 N/m" → "two hundred fifty newtons per meter".
		k := end
		if s.kind(k) == tSpace {
			k++
		}
		if u2, ok2 := enUnitsAny[s.text(k)]; ok2 && k > i && s.is(k+1, "/") {
			if _, _, ok3 := enRateAfter(s, k+2); ok3 {
				u, e, ok = u2, k+1, true
			}
		}
	}
	if ok && (s.is(e, "'") || s.is(e, "’")) && s.is(e+1, "s") {
		ok = false // "the 5 W's": a letter's plural, not watts
	}
	if !ok {
		// A lone "s" after a free-standing number is the letter, read as
		// NeMo does: "80 s", "4s" → "eighty S", "four S".
		k := end
		if s.kind(k) == tSpace {
			k++
		}
		if s.is(k, "s") && s.boundary(k+1) && !s.is(k+1, "'") && s.kind(i-1) != tWord && !s.is(i-1, "-") && !s.is(i-1, "/") {
			return []match{{end: k + 1, readings: []reading{{text: val + " S", class: Measure, cost: 0.3}}}}
		}
		return nil
	}
	// A power sign after a unit the table does not name whole: "5 yd²"
	// → "five square yards".
	if pw := map[string]string{"²": "square ", "³": "cubic "}[s.text(e)]; pw != "" && s.boundary(e+1) {
		u, e = enUnit{pw + u.one, pw + u.many}, e+1
	} else if pw := map[string]string{"2": "square ", "3": "cubic "}[s.text(e+1)]; s.is(e, "^") && pw != "" && s.boundary(e+2) {
		u, e = enUnit{pw + u.one, pw + u.many}, e+2
	}
	name := u.many
	if isOne {
		name = u.one
	}
	out := val + " " + name
	// "6 ft 2 in": inches after feet, where "in" cannot be the preposition.
	if u.many == "feet" && s.kind(e) == tSpace && s.kind(e+1) == tNum {
		if n2, ok := scanNumber(s, e+1, ".", ","); ok && !n2.neg {
			k := n2.end
			if s.kind(k) == tSpace {
				k++
			}
			if (s.is(k, "in") || s.is(k, "inches") || s.is(k, "\"")) && s.boundary(k+1) {
				in := " inches"
				if n2.isOne() {
					in = " inch"
				}
				return one(k+1, Measure, out+" "+enNumber(n2, true)+in)
			}
		}
	}
	// Rates, one or more denominators: "10 ft/s", "5 mg/kg/day", "6.2
	// L/100 km".
	for n := 0; n < 3 && s.is(e, "/"); n++ {
		w, e2, ok := enRateAfter(s, e+1)
		if !ok {
			break
		}
		out, e = out+" "+w, e2
	}
	// Two measures joined by a multiplication sign: "30 cm x 20 cm" →
	// "thirty centimeters by twenty centimeters", as "25 x 7 m" reads.
	if ranges {
		k := e
		if s.kind(k) == tSpace && (s.is(k+1, "x") || s.is(k+1, "×")) && s.kind(k+2) == tSpace {
			k += 3
		} else if s.is(k, "×") {
			k++
		}
		if k > e && s.kind(k) == tNum {
			if m2 := enMeasure(s, k, false); len(m2) == 1 && m2[0].readings[0].class == Measure {
				return one(m2[0].end, Measure, out+" by "+m2[0].readings[0].text)
			}
		}
	}
	// A range of two measures with a spaced dash or an en dash: "5 kg - 10
	// kg", "10%–20%" → "ten percent to twenty percent". A solid hyphen
	// stays, as NeMo keeps it ("2%-10%" → "two percent-ten percent").
	if j, ok := enDashAt(s, e); ok && ranges && !s.is(e, "-") && s.kind(j) == tNum {
		if m2 := enMeasure(s, j, false); len(m2) == 1 && m2[0].readings[0].class == Measure {
			return one(m2[0].end, Measure, out+" to "+m2[0].readings[0].text)
		}
	}
	return one(e, Measure, out)
}

// enRateAfter reads the denominator of a rate after its slash at j: a
// unit of the table ("/kg" → "per kilogram", "10 ft/s", "5 mol/h"), a rate
// unit of [per_units] of two or more letters ("/day" → "per day"; a lone
// "s" is NeMo's spelled letter, below), a number and a unit ("/100 km"
// → "per one hundred kilometers"), or an unknown one-letter unit, spelled
// ("3 cc/s" → "three CC per S").
func enRateAfter(s *stream, j int) (string, int, bool) {
	if s.kind(j) == tSpace {
		return "", j, false
	}
	if u, e, ok := enUnitAt(s, j); ok && e >= j+1 {
		return "per " + u.one, e, true
	}
	if u, ok := enUnitsRate[s.text(j)]; ok && s.boundary(j+1) {
		return "per " + u.one, j + 1, true
	}
	if w, ok := enPerUnit[strings.ToLower(s.text(j))]; ok && s.kind(j) == tWord && len(s.text(j)) >= 2 && s.boundary(j+1) && strings.HasPrefix(w, "per ") {
		return w, j + 1, true
	}
	if n, ok := scanNumber(s, j, ".", ","); ok && !n.neg && s.kind(n.end) == tSpace {
		if u, e, ok := enUnitAt(s, n.end+1); ok {
			return "per " + enNumber(n, false) + " " + u.many, e, true
		}
	}
	if t := s.text(j); s.kind(j) == tWord && len(t) == 1 && s.boundary(j+1) {
		return "per " + strings.ToUpper(t), j + 1, true
	}
	return "", j, false
}

// Dates.

// enMonth recognizes a month name or abbreviation; it returns 1..12 or 0.
func enMonth(w string) int {
	if len(w) < 3 || len(w) > 9 {
		return 0
	}
	if v, ok := enMonthIndex[w]; ok {
		return v
	}
	return enMonthIndex[strings.ToLower(w)]
}

// enDateFromParts reads numeric a/b[/y]: month-first when a ≤ 12, otherwise
// day-first. It returns false when no reading is a valid date.
func enDateFromParts(a, b, y string) (string, bool) {
	ai, _ := strconv.Atoi(a)
	bi, _ := strconv.Atoi(b)
	yw := ""
	if y != "" {
		if len(y) == 2 {
			yi, _ := strconv.Atoi(y)
			if yi < 10 {
				yw = " oh " + enOnes[yi]
			} else {
				yw = " " + en99(yi)
			}
		} else if w, ok := enYear(y); ok {
			yw = " " + w
		} else {
			return "", false
		}
	}
	switch {
	case ai >= 1 && ai <= 12 && bi >= 1 && bi <= 31:
		return enMonths[ai-1] + " " + enOrdinal(b) + yw, true
	case bi >= 1 && bi <= 12 && ai >= 1 && ai <= 31:
		return "the " + enOrdinal(a) + " of " + enMonths[bi-1] + yw, true
	}
	return "", false
}

func enDateTN(s *stream, i int) []match {
	if !s.startOK(i) {
		return nil
	}
	// Fiscal quarters: 3Q22, 1Q2024, 4Q05 ("the fourth quarter of oh five").
	if q := s.text(i); s.kind(i) == tNum && len(q) == 1 && q >= "1" && q <= "4" && s.is(i+1, "Q") && s.kind(i+2) == tNum && s.boundary(i+3) {
		y := s.text(i + 2)
		var yw string
		switch len(y) {
		case 2:
			yw = enCardinal(y, false)
			switch {
			case y == "00":
				yw = "two thousand"
			case y[0] == '0':
				yw = "oh " + enOnes[y[1]-'0']
			}
		case 4:
			yw, _ = enYear(y)
		}
		if yw != "" {
			return one(i+3, Date, "the "+enOrdinal(q)+" quarter of "+yw)
		}
	}
	// Decades: 1980s, '80s.
	if s.kind(i) == tNum && len(s.text(i)) == 4 && s.is(i+1, "s") && s.boundary(i+2) {
		d := s.text(i)
		if d[3] == '0' {
			y, _ := enYear(d)
			w := enPluralTens(y)
			if strings.HasSuffix(y, "thousand") || strings.HasSuffix(y, "hundred") {
				w = y + "s"
			}
			if s.is(i+2, "-") && s.kind(i+3) == tNum && len(s.text(i+3)) == 4 && s.is(i+4, "s") && s.boundary(i+5) {
				if y2, ok := enYear(s.text(i + 3)); ok {
					return one(i+5, Date, w+" to "+enPluralTens(y2))
				}
			}
			return one(i+2, Date, w)
		}
	}
	if s.kind(i) == tNum && len(s.text(i)) == 2 && s.is(i+1, "s") && s.boundary(i+2) {
		v, _ := strconv.Atoi(s.text(i))
		if v%10 == 0 && v >= 20 {
			return one(i+2, Date, enPluralTens(en99(v)))
		}
	}
	if (s.is(i, "'") || s.is(i, "’")) && s.kind(i+1) == tNum && len(s.text(i+1)) == 2 && s.is(i+2, "s") && s.boundary(i+3) {
		v, _ := strconv.Atoi(s.text(i + 1))
		if v%10 == 0 && v >= 20 {
			return one(i+3, Date, enPluralTens(en99(v)))
		}
	}
	// "1980 s" → "nineteen eighties"; "340 A.D", "750 BC" → "three forty AD"
	if s.kind(i) == tNum && (len(s.text(i)) == 3 || len(s.text(i)) == 4) && s.kind(i+1) == tSpace {
		d := s.text(i)
		if s.is(i+2, "s") && s.boundary(i+3) && len(d) == 4 && d[3] == '0' {
			if y, ok := enYear(d); ok {
				return one(i+3, Date, enPluralTens(y))
			}
		}
		era, e := "", i+2
		switch {
		case (s.is(e, "A") || s.is(e, "B")) && s.is(e+1, ".") && (s.is(e+2, "D") || s.is(e+2, "C")):
			era, e = s.text(e)+s.text(e+2), e+3
			if s.is(e, ".") {
				e++
			}
		case s.is(e, "AD") || s.is(e, "BC") || s.is(e, "CE") || s.is(e, "BCE"):
			era, e = s.text(e), e+1
		}
		if era != "" && s.boundary(e) {
			if y, ok := enYear(d); ok {
				return one(e, Date, y+" "+era)
			}
		}
	}
	// Numeric dates: yyyy-mm-dd, yyyy/mm/dd, mm/dd/yyyy, dd.mm.yyyy, mm/dd/yy.
	if s.kind(i) == tNum {
		sep := s.text(i + 1)
		if (sep == "-" || sep == "/" || sep == ".") && s.kind(i+2) == tNum && s.is(i+3, sep) && s.kind(i+4) == tNum && s.boundary(i+5) {
			a, b, c := s.text(i), s.text(i+2), s.text(i+4)
			if len(a) == 4 && len(b) <= 2 && len(c) <= 2 {
				if d, ok := enDateFromParts(b, c, a); ok && !strings.HasPrefix(d, "the ") {
					return one(i+5, Date, d)
				}
			}
			if len(a) <= 2 && len(b) <= 2 && (len(c) == 4 || len(c) == 2 && sep == "/") {
				if d, ok := enDateFromParts(a, b, c); ok {
					return one(i+5, Date, d)
				}
			}
		}
		// ISO 8601 date and time: "2023-09-12T08:45:00Z" → "september
		// twelfth twenty twenty three at eight forty five UTC".
		if sep == "-" && s.kind(i+2) == tNum && s.is(i+3, sep) && s.kind(i+4) == tNum && len(s.text(i)) == 4 && len(s.text(i+2)) == 2 && len(s.text(i+4)) == 2 {
			if d, ok := enDateFromParts(s.text(i+2), s.text(i+4), s.text(i)); ok && !strings.HasPrefix(d, "the ") {
				if t, e, ok := enISOTime(s, i+5); ok {
					return one(e, Date, d+" at "+t)
				}
			}
		}
	}
	// Month-first: "july 25 2012", "Jan. 15, 2020", "Jan-15-2020", "july 1506".
	if s.kind(i) == tWord {
		mo := enMonth(s.text(i))
		if mo == 0 {
			return nil
		}
		j := i + 1
		if s.is(j, ".") {
			j++
		}
		dash := s.is(j, "-")
		if s.kind(j) != tSpace && !dash {
			return nil
		}
		j++
		if s.kind(j) != tNum {
			return nil
		}
		mw := enMonths[mo-1]
		d := s.text(j)
		if len(d) == 4 && s.boundary(j+1) {
			if y, ok := enYear(d); ok {
				return one(j+1, Date, mw+" "+y)
			}
		}
		dv, _ := strconv.Atoi(d)
		if len(d) > 2 || dv < 1 || dv > 31 {
			return nil
		}
		k := j + 1
		if s.kind(k) == tWord && strings.EqualFold(s.text(k), enOrdinalSuffix(dv)) {
			k++
		}
		if !s.boundary(k) {
			return nil
		}
		out := mw + " " + enOrdinal(d)
		// A day range: "January 5-7, 2020" → "january fifth to seventh".
		if d2, k2, ok := enDayRangeEnd(s, k, dv); ok && !dash {
			out, k = out+" to "+enOrdinal(d2), k2
		}
		e := k
		y := k
		// The comma before the year is not read: "May 12, 1981" → "may
		// twelfth nineteen eighty one" (the references disagree; most
		// drop it).
		if s.is(y, ",") {
			y++
		} else if s.kind(y) == tSpace && s.is(y+1, ",") {
			y += 2
		}
		if dash && s.is(y, "-") || !dash && s.kind(y) == tSpace {
			if s.kind(y+1) == tNum && len(s.text(y+1)) == 4 && s.boundary(y+2) {
				if yw, ok := enYear(s.text(y + 1)); ok {
					out += " " + yw
					e = y + 2
				}
			}
		}
		if mw == "may" && s.text(i) == "may" && e == k {
			return nil // "may 5" is too often the verb
		}
		return one(e, Date, out)
	}
	// Day-first: "25 july 2012", "25th July", "the 26th May", "the 5th of
	// May", "5-7 May".
	if s.kind(i) == tNum && len(s.text(i)) <= 2 {
		d := s.text(i)
		dv, _ := strconv.Atoi(d)
		if dv < 1 || dv > 31 {
			return nil
		}
		j := i + 1
		ofForm := false
		if s.kind(j) == tWord && strings.EqualFold(s.text(j), enOrdinalSuffix(dv)) {
			j++
			// The written "of" of an ordinal day: "the 5th of May".
			if s.kind(j) == tSpace && strings.EqualFold(s.text(j+1), "of") && s.kind(j+2) == tSpace && enMonth(s.text(j+3)) != 0 {
				j += 2
				ofForm = true
			}
		}
		day := enOrdinal(d)
		if d2, j2, ok := enDayRangeEnd(s, j, dv); ok {
			day, j = day+" to "+enOrdinal(d2), j2
		}
		if s.kind(j) != tSpace || s.kind(j+1) != tWord {
			return nil
		}
		mo := enMonth(s.text(j + 1))
		if mo == 0 || len(s.text(j+1)) < 3 {
			return nil
		}
		e := j + 2
		// The period of an abbreviation ("14 Sept.") belongs to it; after a
		// full name ("14 July.") it ends the sentence.
		if s.is(e, ".") && len(s.text(j+1)) <= 4 && !strings.EqualFold(s.text(j+1), enMonths[mo-1]) {
			e++
		}
		if !s.boundary(e) {
			return nil
		}
		month := enMonths[mo-1]
		if ofForm && strings.EqualFold(s.text(j+1), month) {
			// Written out with "of", only the day is read and the month
			// stays as written: "the 9th of April, 1865" → "the ninth of
			// April, eighteen sixty five" (every visible case of the form,
			// 71 dev, keeps the month's case; 19 of 19 keep the comma).
			month = s.text(j + 1)
		}
		out := day + " of " + month
		// "14 July" is said "the fourteenth of July"; written with "of",
		// the words are the writer's, so no article is added ("a 10th of
		// August", "20th of December, that I": 5 of 5 dev sentences of the
		// sentence sets).
		if !ofForm && !strings.EqualFold(s.text(i-2), "the") {
			out = "the " + out
		}
		if s.kind(e) == tSpace && s.kind(e+1) == tNum && len(s.text(e+1)) == 4 && s.boundary(e+2) {
			if yw, ok := enYear(s.text(e + 1)); ok {
				out += " " + yw
				e += 2
			}
		} else if y := enCommaYear(s, e); y > e && !ofForm && !enLoneSpan(s, i, y+1) {
			// A comma before the year is not read in running text ("on
			// the 15th November, 1577." → "… of november fifteen seventy
			// seven"); a date standing alone keeps it ("16 July, 1943").
			// Counted over the visible cases: docs/bench/normalize.md.
			yw, _ := enYear(s.text(y))
			out += " " + yw
			e = y + 1
		}
		return one(e, Date, out)
	}
	return nil
}

// enCommaYear returns the index of a four-digit year after a comma at e
// (", 1943" or " , 1943"), or e when there is none.
func enCommaYear(s *stream, e int) int {
	k := e
	if s.kind(k) == tSpace && s.is(k+1, ",") {
		k++
	}
	if !s.is(k, ",") || s.kind(k+1) != tSpace || s.kind(k+2) != tNum || len(s.text(k+2)) != 4 || !s.boundary(k+3) {
		return e
	}
	if _, ok := enYear(s.text(k + 2)); !ok {
		return e
	}
	return k + 2
}

// enLoneSpan reports whether tokens [i, e) stand alone in the text: only
// spaces and punctuation before and after them.
func enLoneSpan(s *stream, i, e int) bool {
	for k := 0; k < s.n(); k++ {
		if k == i {
			k = e - 1
			continue
		}
		if s.kind(k) == tWord || s.kind(k) == tNum {
			return false
		}
	}
	return true
}

// enISOTime reads the time part of an ISO 8601 date-time at j: "T",
// hh:mm, optional :ss (and a fraction), then an optional "Z" (UTC) or
// offset ("+05:30" → "UTC plus five thirty").
func enISOTime(s *stream, j int) (string, int, bool) {
	if !s.is(j, "T") || s.kind(j+1) != tNum || !s.is(j+2, ":") || s.kind(j+3) != tNum || len(s.text(j+1)) != 2 || len(s.text(j+3)) != 2 {
		return "", 0, false
	}
	h, _ := strconv.Atoi(s.text(j + 1))
	m, _ := strconv.Atoi(s.text(j + 3))
	if h > 24 || m > 59 {
		return "", 0, false
	}
	e, sec := j+4, 0
	if s.is(e, ":") && s.kind(e+1) == tNum && len(s.text(e+1)) == 2 {
		sec, _ = strconv.Atoi(s.text(e + 1))
		e += 2
		if s.is(e, ".") && s.kind(e+1) == tNum {
			e += 2 // fractions of a second are not read
		}
	}
	var w string
	switch {
	case sec != 0:
		w = enUnitCount(h, "hour", "hours") + " " + enUnitCount(m, "minute", "minutes") + " and " + enUnitCount(sec, "second", "seconds")
	case m == 0:
		w = en99or0(h) + " o'clock"
	case m < 10:
		w = en99or0(h) + " oh " + enOnes[m]
	default:
		w = en99or0(h) + " " + en99(m)
	}
	switch {
	case s.is(e, "Z"):
		w, e = w+" UTC", e+1
	case (s.is(e, "+") || s.is(e, "-")) && s.kind(e+1) == tNum && len(s.text(e+1)) == 2 && s.is(e+2, ":") && s.kind(e+3) == tNum && len(s.text(e+3)) == 2:
		oh, _ := strconv.Atoi(s.text(e + 1))
		om, _ := strconv.Atoi(s.text(e + 3))
		sign := " UTC plus "
		if s.is(e, "-") {
			sign = " UTC minus "
		}
		w += sign + en99or0(oh)
		if om != 0 {
			w += " " + en99(om)
		}
		e += 4
	}
	if !s.boundary(e) {
		return "", 0, false
	}
	return w, e, true
}

// enUnitCount reads v and its unit: "one hour", "zero minutes".
func enUnitCount(v int, one, many string) string {
	if v == 1 {
		return en99or0(v) + " " + one
	}
	return en99or0(v) + " " + many
}

// enDayRangeEnd reads the end of a day range at k: a dash (hyphen or en
// dash) and a later day of the month, with its ordinal suffix if written
// ("5-7", "5th–7th"). It returns the day and the token index after it.
func enDayRangeEnd(s *stream, k, from int) (string, int, bool) {
	if !(s.is(k, "-") || s.is(k, "–")) || s.kind(k+1) != tNum || len(s.text(k+1)) > 2 {
		return "", k, false
	}
	d2 := s.text(k + 1)
	v2, _ := strconv.Atoi(d2)
	if v2 <= from || v2 > 31 {
		return "", k, false
	}
	e := k + 2
	if s.kind(e) == tWord && strings.EqualFold(s.text(e), enOrdinalSuffix(v2)) {
		e++
	}
	if !s.boundary(e) {
		return "", k, false
	}
	return d2, e, true
}

// enAddressAhead reports whether a street name follows token j: an optional
// compass letter, one to three capitalized words or an ordinal, then a street
// suffix ("123 Laguna Ct", "708 N 1st St").
func enAddressAhead(s *stream, j int) bool {
	if s.kind(j) != tSpace {
		return false
	}
	k := j + 1
	if t := s.text(k); t == "N" || t == "S" || t == "E" || t == "W" {
		switch {
		case s.kind(k+1) == tSpace:
			k += 2
		case s.is(k+1, ".") && s.kind(k+2) == tSpace:
			k += 3
		}
	}
	for n := 0; n < 3; n++ {
		switch {
		case s.kind(k) == tNum && s.kind(k+1) == tWord && enOrdinalSuffixOK(s.text(k), s.text(k+1)):
			k += 2
		case s.kind(k) == tWord && unicode.IsUpper(firstRune(s.text(k))):
			k++
		default:
			return false
		}
		if s.kind(k) != tSpace || s.kind(k+1) != tWord {
			return false
		}
		if enStreetWords[s.lowerAt(k+1)] {
			return true
		}
		k++
	}
	return false
}

func enOrdinalSuffixOK(d, suf string) bool {
	v, _ := strconv.Atoi(d[max(0, len(d)-2):])
	return strings.EqualFold(suf, enOrdinalSuffix(v))
}

// enHouseNumber reads a house number in pairs: 123 "one twenty three", 708
// "seven zero eight", 2788 "twenty seven eighty eight".
func enHouseNumber(d string) string {
	hi, lo := d[:len(d)-2], d[len(d)-2:]
	var h string
	if len(hi) == 1 {
		h = enOnes[hi[0]-'0']
	} else {
		v, _ := strconv.Atoi(hi)
		h = en99(v)
	}
	switch {
	case lo == "00":
		return h + " hundred"
	case lo[0] == '0':
		return h + " zero " + enOnes[lo[1]-'0']
	}
	v, _ := strconv.Atoi(lo)
	return h + " " + en99(v)
}

// enPluralTens makes "nineteen eighty" → "nineteen eighties", "ten" → "tens".
func enPluralTens(w string) string {
	if strings.HasSuffix(w, "y") {
		return w[:len(w)-1] + "ies"
	}
	return w + "s"
}

// Time.

// enAMPM reads am/pm markers at j (after an optional space): am, a.m., a.m,
// AM, pm, p.m., and the spaced capitals of older print, A. M., P. M.
func enAMPM(s *stream, j int) (string, int) {
	k := j
	if s.kind(k) == tSpace {
		k++
	}
	t := strings.ToLower(s.text(k))
	switch t {
	case "am", "pm":
		if s.boundary(k + 1) {
			return strings.ToUpper(t), k + 1
		}
	case "a", "p":
		m := k + 2
		if s.is(k+1, ".") && s.kind(m) == tSpace && s.text(m+1) == "M" && s.text(k) != t && s.is(m+2, ".") {
			m++ // older print spaces the capitals: "4.30 A. M."
		}
		if s.is(k+1, ".") && strings.EqualFold(s.text(m), "m") {
			// The closing period belongs to the abbreviation unless
			// other punctuation follows it ("4A.M.?" keeps ".?"); before
			// a comma it goes ("9:30 a.m., I" → "nine thirty AM, I"), as
			// every visible case with a comma there has it.
			e := m + 1
			// Before a dash and a number it goes too, a range
			// following ("10 a.m.–6 p.m.").
			rng := (s.is(e+1, "-") || s.is(e+1, "–")) && s.kind(e+2) == tNum
			if s.is(e, ".") && (rng || !(s.kind(e+1) == tSym && !s.is(e+1, ".") && !s.is(e+1, ","))) && !enAMPMEndsSentence(s, e) {
				e++
			}
			if s.boundary(e) {
				return strings.ToUpper(t) + "M", e
			}
		}
	}
	return "", j
}

// enClosesQuote reports whether the straight double quote at q closes a
// quotation rather than marking inches: the nearest quote before it opens
// one (at the start or after a space or bracket, with a word right after
// it), and the text's straight quotes pair up. `He said "be there at 9"
// and left` closes; `12"`, `the 12" pipe and the 6" one` and NeMo's
// unpaired `"text 7" text "` are inches.
func enClosesQuote(s *stream, q int) bool {
	open := -1
	for k := q - 1; k >= 0; k-- {
		if s.is(k, "\"") {
			open = k
			break
		}
	}
	if open < 0 || s.kind(open+1) == tSpace || open+1 >= q {
		return false
	}
	if open > 0 && s.kind(open-1) != tSpace && !strings.Contains("([{", s.text(open-1)) {
		return false
	}
	n := 0
	for k := 0; k < s.n(); k++ {
		if s.is(k, "\"") {
			n++
		}
	}
	return n%2 == 0
}

// enAMPMEndsSentence reports whether the period at e closing "a.m." or
// "p.m." also ends the sentence: a capitalized word follows that is no
// time zone, weekday or month ("at 6 p.m. The doors" keeps the period as
// "Elm St. It was" does; "6 p.m. EST", "6 p.m. Friday" do not).
func enAMPMEndsSentence(s *stream, e int) bool {
	if s.kind(e+1) != tSpace || s.kind(e+2) != tWord || !unicode.IsUpper(firstRune(s.text(e+2))) {
		return false
	}
	w := s.text(e + 2)
	if _, ok := enWeekdays[strings.ToLower(w)]; ok || enMonth(w) != 0 {
		return false
	}
	if z, _ := enZoneAfter(s, e+1); z != "" {
		return false
	}
	return true
}

// enZoneAfter reads a time zone after a time at j (after an optional
// space): "EST", "est", "E.S.T.", "GMT" (data/en.tsv [timezones]). It
// returns the abbreviation as TN says it and the token index after it.
func enZoneAfter(s *stream, j int) (string, int) {
	k := j
	if s.kind(k) == tSpace {
		k++
	}
	if s.kind(k) != tWord {
		return "", j
	}
	for w := 6; w >= 1; w-- {
		e := k + w
		if e > s.n() || !s.boundary(e) {
			continue
		}
		t := strings.ToUpper(s.span(k, e))
		if strings.ContainsAny(t, " \t\n") {
			continue
		}
		z, ok := enZoneWritten[t]
		if !ok && strings.Count(t, ".") > 1 {
			// "E.S.T.": the closing period belongs to the abbreviation.
			z, ok = enZoneWritten[strings.TrimSuffix(t, ".")]
		}
		if ok && (w > 1 || len(t) >= 3 || s.text(k) == t) {
			return z, e
		}
	}
	return "", j
}

func enTimeTN(s *stream, i int) []match {
	if m, ok := enMilitaryTime(s, i); ok {
		return []match{m}
	}
	if s.kind(i) != tNum || !s.startOK(i) || len(s.text(i)) > 2 {
		return nil
	}
	h, _ := strconv.Atoi(s.text(i))
	if w, e, ok := enSplitTime(s, i); ok {
		return one(e, Time, w)
	}
	if h > 24 {
		return enMinutesSeconds(s, i, h)
	}
	m := enTimeOne(s, i, h)
	if m == nil {
		// A bare hour before a dash and a time with a marker: "1-2 pm",
		// "11 - 12:30 am".
		j, ok := enDashAt(s, i+1)
		if !ok || h == 0 || h > 12 || s.kind(j) != tNum || len(s.text(j)) > 2 {
			return nil
		}
		h2, _ := strconv.Atoi(s.text(j))
		if m2 := enTimeOne(s, j, h2); m2 != nil && strings.HasSuffix(m2.readings[0].text, "M") {
			r := m2.readings[0].text
			if z, e := enZoneAfter(s, m2.end); z != "" {
				r, m2.end = r+" "+z, e
			}
			return one(m2.end, Time, en99(h)+" to "+r)
		}
		return nil
	}
	if z, e := enZoneAfter(s, m.end); z != "" {
		m.end = e
		for k := range m.readings {
			m.readings[k].text += " " + z
		}
	}
	// Ranges: "2pm-5pm", "5pm-7 pm", "9 am - 5 pm", "2:30–3:30 pm": a
	// dash (solid or spaced, hyphen or en dash) between two times, the
	// first of which has a marker or minutes, reads "to".
	if j, ok := enDashAt(s, m.end); ok && s.kind(j) == tNum && len(s.text(j)) <= 2 {
		h2, _ := strconv.Atoi(s.text(j))
		first := strings.HasSuffix(m.readings[0].text, "M") || s.is(i+1, ":") && s.is(j+1, ":")
		if m2 := enTimeOne(s, j, h2); m2 != nil && first {
			r := m2.readings[0].text
			if z, e := enZoneAfter(s, m2.end); z != "" {
				r, m2.end = r+" "+z, e
			}
			return one(m2.end, Time, m.readings[0].text+" to "+r)
		}
	}
	return []match{*m}
}

// enMilitaryTime reads a 24-hour time written as four digits before
// "hours" (or "hrs", or a glued "h"): "0800 hours" → "oh eight hundred
// hours", "1630h" → "sixteen thirty hours".
func enMilitaryTime(s *stream, i int) (match, bool) {
	t := s.text(i)
	if s.kind(i) != tNum || len(t) != 4 || !s.startOK(i) {
		return match{}, false
	}
	hh, _ := strconv.Atoi(t[:2])
	mm, _ := strconv.Atoi(t[2:])
	if hh > 23 || mm > 59 {
		return match{}, false
	}
	// "1200 hours of testing" counts hours: without a leading zero, a
	// clock time follows a word that places it in time.
	switch strings.ToLower(s.text(i - 2)) {
	case "at", "by", "from", "until", "till", "before", "after", "since", "to":
	default:
		if t[0] != '0' || s.kind(i-1) != tSpace && i > 0 {
			return match{}, false
		}
	}
	e := i + 1
	switch {
	case (s.is(e, "h") || s.is(e, "hrs")) && s.boundary(e+1):
		e++
	case s.kind(e) == tSpace && (s.is(e+1, "hours") || s.is(e+1, "hrs")) && s.boundary(e+2):
		e += 2
	default:
		return match{}, false
	}
	var w string
	switch {
	case hh == 0:
		w = "zero"
	case hh < 10:
		w = "oh " + enOnes[hh]
	default:
		w = en99(hh)
	}
	switch {
	case mm == 0:
		w += " hundred"
	case mm < 10:
		w += " oh " + enOnes[mm]
	default:
		w += " " + en99(mm)
	}
	return one(e, Time, w+" hours")[0], true
}

// enSuperscript returns the digits a run of superscript digits stands
// for ("⁶" → "6"), or "" when t is anything else.
func enSuperscript(t string) string {
	var b strings.Builder
	for _, r := range t {
		d := strings.IndexRune("⁰¹²³⁴⁵⁶⁷⁸⁹", r)
		if d < 0 {
			return ""
		}
		b.WriteByte('0' + byte(utf8.RuneCountInString("⁰¹²³⁴⁵⁶⁷⁸⁹"[:d])))
	}
	return b.String()
}

// enDashAt reports whether a range dash starts at j: "-" or "–" written
// solid, or spaced on both sides. It returns the token index after it.
func enDashAt(s *stream, j int) (int, bool) {
	if s.is(j, "-") || s.is(j, "–") {
		return j + 1, true
	}
	if s.kind(j) == tSpace && (s.is(j+1, "-") || s.is(j+1, "–")) && s.kind(j+2) == tSpace {
		return j + 3, true
	}
	return j, false
}

// enSplitTime reads a duration with fractions of a second, as race and lap
// times are written: m:ss.f ("1:27.097" → "one minute twenty seven point
// zero nine seven seconds") and h:mm:ss.f ("2:08:17.5" → "two hours eight
// minutes and seventeen point five seconds"). No clock time has a decimal
// fraction after its seconds.
func enSplitTime(s *stream, i int) (string, int, bool) {
	two := func(k int) (int, bool) {
		if s.kind(k) != tNum || len(s.text(k)) != 2 {
			return 0, false
		}
		v, _ := strconv.Atoi(s.text(k))
		return v, v <= 59
	}
	first, _ := strconv.Atoi(s.text(i))
	if !s.is(i+1, ":") {
		return "", 0, false
	}
	b, ok := two(i + 2)
	if !ok {
		return "", 0, false
	}
	hours, k := -1, i+3
	if s.is(k, ":") {
		c, ok := two(k + 1)
		if !ok {
			return "", 0, false
		}
		hours, k = first, k+2
		first, b = b, c
	}
	if !s.is(k, ".") || s.kind(k+1) != tNum || !s.boundary(k+2) || s.is(k+2, ":") || s.is(k+2, ".") && s.kind(k+3) == tNum {
		return "", 0, false
	}
	if hours < 0 && first > 59 {
		return "", 0, false
	}
	if ap, _ := enAMPM(s, k+2); ap != "" {
		return "", 0, false
	}
	sec := en99or0(b) + " point " + enDigits(s.text(k+1)) + " seconds"
	if hours >= 0 {
		return enUnitCount(hours, "hour", "hours") + " " + enUnitCount(first, "minute", "minutes") + " and " + sec, k + 2, true
	}
	if first == 0 {
		return sec, k + 2, true // "0:58.3" → "fifty eight point three seconds"
	}
	return enUnitCount(first, "minute", "minutes") + " " + sec, k + 2, true
}

// enMinutesSeconds reads "mm:ss" whose first part is no hour of the day
// (25 to 59) the way people say such pairs, without units: race times,
// durations, ratios and verses alike ("25:30" → "twenty five thirty",
// "45:05" → "forty five oh five", "30:00" → "thirty minutes"). A third
// part or a decimal makes it something else and is left alone.
func enMinutesSeconds(s *stream, i, mm int) []match {
	if mm > 59 || !s.is(i+1, ":") || s.kind(i+2) != tNum || len(s.text(i+2)) != 2 || !s.boundary(i+3) ||
		s.is(i+3, ":") || (s.is(i+3, ".") && s.kind(i+4) == tNum) {
		return nil
	}
	ss, _ := strconv.Atoi(s.text(i + 2))
	var w string
	switch {
	case ss > 59:
		return nil
	case ss == 0:
		w = en99(mm) + " minutes"
	case ss < 10:
		w = en99(mm) + " oh " + enOnes[ss]
	default:
		w = en99(mm) + " " + en99(ss)
	}
	return one(i+3, Time, w)
}

func enTimeOne(s *stream, i, h int) *match {
	j := i + 1
	sep := s.text(j)
	if (sep == ":" || sep == ".") && s.kind(j+1) == tNum && len(s.text(j+1)) == 2 {
		mm, _ := strconv.Atoi(s.text(j + 1))
		if mm > 59 {
			return nil
		}
		k := j + 2
		// h:mm:ss, with a marker read after it ("5:30:15 am" → "… AM", as
		// NeMo's "10:00:05 a.m.").
		ssAP, ssEnd := enAMPM(s, k+2)
		if sep == ":" && s.is(k, ":") && s.kind(k+1) == tNum && len(s.text(k+1)) == 2 && (s.boundary(k+2) || ssAP != "") {
			ss, _ := strconv.Atoi(s.text(k + 1))
			w := enUnitCount(h, "hour", "hours") + " " + enUnitCount(mm, "minute", "minutes") + " and " + enUnitCount(ss, "second", "seconds")
			if ssAP != "" {
				return &one(ssEnd, Time, w+" "+ssAP)[0]
			}
			return &one(k+2, Time, w)[0]
		}
		ap, e := enAMPM(s, k)
		if sep == "." && ap == "" {
			return nil
		}
		if ap == "" && !s.boundary(k) {
			return nil
		}
		hw := en99or0(h)
		var w string
		switch {
		case mm == 0 && ap != "":
			w = hw
		case mm == 0:
			w = hw + " o'clock"
		case mm < 10:
			w = hw + " oh " + enOnes[mm]
		default:
			w = hw + " " + en99(mm)
		}
		if ap != "" {
			w += " " + ap
		} else {
			e = k
		}
		return &one(e, Time, w)[0]
	}
	ap, e := enAMPM(s, j)
	if ap == "" || h == 0 || h > 12 {
		return nil
	}
	return &one(e, Time, en99(h)+" "+ap)[0]
}

func en99or0(n int) string {
	if n == 0 {
		return "zero"
	}
	return en99(n)
}

// Telephone numbers and IP addresses.

func enTelephoneTN(s *stream, i int) []match {
	if !s.startOK(i) {
		return nil
	}
	if s.kind(i) == tWord {
		if m := enTelephonePrompt(s, i); m != nil {
			return m
		}
		if m := enDialNumber(s, i); m != nil {
			return m
		}
	}
	if m, ok := enVanityNumber(s, i); ok {
		return []match{m}
	}
	j := i
	var groups []string
	plus := false
	if s.is(j, "+") && s.kind(j+1) == tNum && len(s.text(j+1)) <= 3 {
		plus = true
		groups = append(groups, s.text(j+1))
		j += 2
		if s.is(j, "-") || s.kind(j) == tSpace {
			j++
		}
	}
	// IP address: d.d.d.d
	if !plus && s.kind(j) == tNum && s.is(j+1, ".") {
		k, parts := j, []string{}
		for s.kind(k) == tNum && len(s.text(k)) <= 3 && k-j < maxScan {
			parts = append(parts, s.text(k))
			if !s.is(k+1, ".") || s.kind(k+2) != tNum {
				k++
				break
			}
			k += 2
		}
		if len(parts) == 4 && s.boundary(k) {
			ws := make([]string, len(parts))
			for x, p := range parts {
				ws[x] = enDigits(p)
			}
			return one(k, Telephone, strings.Join(ws, " dot "))
		}
	}
	// Card numbers written in spaced groups: "4111 1111 1111 1111",
	// "3782 822463 10005" (the layouts ITN writes); issuers' numbers
	// start with 3 to 6, and a run of years ("2020 2021 ...") is no card.
	if t := s.text(j); !plus && s.kind(j) == tNum && len(t) == 4 && t[0] >= '3' && t[0] <= '6' {
		var gs []string
		k := j
		for s.kind(k) == tNum && len(gs) < 4 {
			gs = append(gs, s.text(k))
			if s.kind(k+1) != tSpace || s.kind(k+2) != tNum {
				k++
				break
			}
			k += 2
		}
		lens := make([]int, len(gs))
		for x, g := range gs {
			lens[x] = len(g)
		}
		if s.boundary(k) && (slices.Equal(lens, []int{4, 4, 4, 4}) || slices.Equal(lens, []int{4, 6, 5}) || slices.Equal(lens, []int{4, 6, 4})) {
			ws := make([]string, len(gs))
			for x, g := range gs {
				ws[x] = enDigits(g)
			}
			return one(k, Telephone, strings.Join(ws, ", "))
		}
	}
	// A national number written in spaced groups after its trunk zero:
	// "0800 123 456", "020 7946 0958", "07700 900123" (UK, Australia,
	// much of Europe) → each group digit by digit, groups apart. It
	// needs the leading zero, two or three groups of 2 to 6 digits and 9
	// to 11 digits in all, so counts ("0 5 10") and years stay numbers.
	if t := s.text(j); !plus && s.kind(j) == tNum && len(t) >= 2 && len(t) <= 5 && t[0] == '0' && s.kind(j+1) == tSpace && s.kind(j+2) == tNum {
		gs, k, total := []string{t}, j+2, len(t)
		for s.kind(k) == tNum && len(gs) < 3 {
			if g := s.text(k); len(g) < 2 || len(g) > 6 {
				break
			}
			gs, total = append(gs, s.text(k)), total+len(s.text(k))
			if s.kind(k+1) != tSpace || s.kind(k+2) != tNum || len(gs) == 3 {
				k++
				break
			}
			k += 2
		}
		if len(gs) >= 2 && total >= 9 && total <= 11 && s.boundary(k) && !((s.is(k, ".") || s.is(k, ",")) && s.kind(k+1) == tNum) {
			ws := make([]string, len(gs))
			for x, g := range gs {
				ws[x] = enDigits(g)
			}
			return one(k, Telephone, strings.Join(ws, ", "))
		}
	}
	for j-i < maxScan {
		paren := s.is(j, "(")
		k := j
		if paren {
			k++
		}
		if s.kind(k) != tNum {
			break
		}
		groups = append(groups, s.text(k))
		k++
		if paren {
			if !s.is(k, ")") {
				return nil
			}
			k++
		}
		j = k
		if paren && s.kind(j) == tNum {
			continue
		}
		if (s.is(j, "-") || s.is(j, ".") && !plus) && (s.kind(j+1) == tNum || s.is(j+1, "(")) {
			j++
			continue
		}
		// The North American trunk 1 before a bracketed area code, as
		// "1-800-…" and "+1 (123)": "1 (800) 555-0177", "1(800)555-0177".
		if !plus && len(groups) == 1 && groups[0] == "1" && j == i+1 && (s.is(j, "(") || s.kind(j) == tSpace && s.is(j+1, "(")) {
			if s.kind(j) == tSpace {
				j++
			}
			continue
		}
		if s.kind(j) == tSpace && (s.kind(j+1) == tNum && (len(s.text(j+1)) >= 3 || plus) || s.is(j+1, "(")) && (len(groups) < 5 || plus && len(groups) < 7) && (paren || plus || len(groups) >= 2) {
			j++
			continue
		}
		break
	}
	if !s.boundary(j) {
		return nil
	}
	total := 0
	for _, g := range groups {
		total += len(g)
	}
	lead := 0
	if plus {
		lead = 1
	}
	body := groups[lead:]
	if len(body) < 2 {
		return nil
	}
	// After a country code any grouping of a national number of 6 to 12
	// digits is a telephone number ("+49 30 1234567", "+33 1 42 68 53 00").
	national := total
	if plus {
		national -= len(groups[0])
	}
	ok := total >= 10 && len(body) >= 3 ||
		len(body) == 3 && len(body[0]) == 3 && len(body[1]) == 2 && len(body[2]) == 4 ||
		len(body) == 2 && len(body[0]) == 3 && len(body[1]) == 4 && (plus || s.is(i, "(")) ||
		plus && national >= 6 && national <= 12 && (len(groups[0]) > 1 || groups[0] == "1" || groups[0] == "7") // E.164: 1 and 7 are the one-digit codes
	if !ok {
		return nil
	}
	ws := make([]string, 0, len(groups))
	for x, g := range groups {
		w := enDigits(g)
		if x == 0 && plus {
			w = "plus " + w
		}
		if g == "800" && x < len(groups)-2 {
			w = "eight hundred" // the toll-free area code: "1-800-555-0199"
		}
		ws = append(ws, w)
	}
	return one(j, Telephone, strings.Join(ws, ", "))
}

// enDialNumber reads a number dialled after a verb of [dial_cues] digit by
// digit: after "dial" any number ("dial 0", "dialled 1471"), after "call",
// "ring" or "text" a service number of [service_numbers] ("call 911" →
// "call nine one one"; "call 20 people" stays a count). A number that goes
// on ("call 911-555", "dial 0.5") is left to the other rules.
func enDialNumber(s *stream, i int) []match {
	if s.kind(i+1) != tSpace || s.kind(i+2) != tNum || !s.boundary(i+3) {
		return nil
	}
	all, ok := enDialCues[strings.ToLower(s.text(i))]
	if !ok {
		return nil
	}
	t := s.text(i + 2)
	if len(t) > 15 || !all && !enServiceNumbers[t] {
		return nil
	}
	if n := s.text(i + 3); (n == "-" || n == "." || n == "," || n == ":" || n == "/") && s.kind(i+4) == tNum {
		return nil
	}
	return one(i+3, Telephone, s.text(i)+" "+enDigits(t))
}

// enTelephonePrompt reads a prompt of [telephone_prompts] and the number
// it introduces: "ssn is 123-45-6789" → "SSN is one two three, four five,
// six seven eight nine", "my number is 555 123 4567" (spaced groups, which
// only a prompt makes a telephone number), "card ending in 1234" → "card
// ending in one two three four".
func enTelephonePrompt(s *stream, i int) []match {
	// The first word lower-cased without allocating (prompts are ASCII).
	t := s.text(i)
	if len(t) > 16 {
		return nil
	}
	var buf [16]byte
	for k := 0; k < len(t); k++ {
		c := t[k]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[k] = c
	}
	for _, p := range enTelPrompts[string(buf[:len(t)])] {
		e, k := i, 0
		for k < len(p.written) && e < s.n() && e-i < 8 {
			t := s.text(e)
			if len(t) > len(p.written)-k || !strings.EqualFold(t, p.written[k:k+len(t)]) {
				break
			}
			k += len(t)
			e++
		}
		if k != len(p.written) || s.kind(e) != tSpace || !s.boundary(e) {
			continue
		}
		lead := p.spoken
		if lead == "" {
			lead = s.span(i, e)
		}
		if p.card {
			if r, end, ok := enCardDigits(s, e+1); ok {
				return one(end, Telephone, lead+" "+r)
			}
			continue
		}
		if ms := enTelephoneTN(s, e+1); len(ms) > 0 {
			return one(ms[0].end, Telephone, lead+" "+ms[0].readings[0].text)
		}
		if r, end, ok := enSpacedGroups(s, e+1, []int{3, 3, 4}, []int{3, 4}); ok {
			return one(end, Telephone, lead+" "+r)
		}
	}
	return nil
}

// enCardDigits reads a card number after a card cue at token j: one run of
// 4 to 16 digits, or two to four groups of four, digit by digit.
func enCardDigits(s *stream, j int) (string, int, bool) {
	if r, e, ok := enSpacedGroups(s, j, []int{4, 4, 4, 4}, []int{4, 4, 4}, []int{4, 4}); ok {
		return r, e, true
	}
	if t := s.text(j); s.kind(j) == tNum && len(t) >= 4 && len(t) <= 16 && s.boundary(j+1) && !((s.is(j+1, ".") || s.is(j+1, ",") || s.is(j+1, "-") || s.is(j+1, " ")) && s.kind(j+2) == tNum) {
		return enDigits(t), j + 1, true
	}
	return "", j, false
}

// enSpacedGroups reads digit groups separated by single spaces or hyphens
// at token j when their lengths are one of the layouts (longest first),
// each group digit by digit, groups apart.
func enSpacedGroups(s *stream, j int, layouts ...[]int) (string, int, bool) {
	for _, l := range layouts {
		k, ws := j, make([]string, 0, len(l))
		for x, n := range l {
			if s.kind(k) != tNum || len(s.text(k)) != n {
				break
			}
			ws = append(ws, enDigits(s.text(k)))
			k++
			if x < len(l)-1 {
				if !(s.is(k, " ") || s.is(k, "-")) {
					break
				}
				k++
			}
		}
		if len(ws) == len(l) && s.boundary(k) && !((s.is(k, ".") || s.is(k, ",") || s.is(k, "-")) && s.kind(k+1) == tNum) {
			return strings.Join(ws, ", "), k, true
		}
	}
	return "", j, false
}

// enVanityNumber reads a toll-free number spelled partly in letters,
// "1-800-GO-2-HAUL" → "one, eight hundred, GO two, HAUL": the seven
// characters after the prefix fall into groups of three and four, letters
// stay as written and digits are read one by one.
func enVanityNumber(s *stream, i int) (match, bool) {
	j := i
	var out []string
	if s.is(j, "1") && s.is(j+1, "-") {
		out = append(out, "one")
		j += 2
	}
	p := s.text(j)
	if s.kind(j) != tNum || len(p) != 3 || p[0] != '8' || p[1] != p[2] || !s.is(j+1, "-") {
		return match{}, false
	}
	out = append(out, enOnes[8]+" hundred")
	if p != "800" {
		out[len(out)-1] = "eight " + enDigits(p[1:])
	}
	j += 2
	var parts []string // the pieces of the current group
	n, letters := 0, false
	for n < 7 && j < s.n() {
		t := s.text(j)
		switch s.kind(j) {
		case tWord:
			if strings.ToUpper(t) != t || !isASCII(t) {
				return match{}, false
			}
			letters = true
			parts = append(parts, t)
		case tNum:
			parts = append(parts, enDigits(t))
		default:
			return match{}, false
		}
		n += len(t)
		j++
		if n == 3 || n == 7 {
			out = append(out, strings.Join(parts, " "))
			parts = nil
		} else if n > 7 || n > 3 && len(out) < 3 && out[0] == "one" || n > 3 && len(out) < 2 {
			return match{}, false
		}
		if n < 7 {
			if !s.is(j, "-") {
				if n == 3 || s.kind(j) == tSpace || j >= s.n() {
					return match{}, false
				}
				continue
			}
			j++
		}
	}
	if n != 7 || !letters || !s.boundary(j) {
		return match{}, false
	}
	return match{end: j, readings: []reading{{text: strings.Join(out, ", "), class: Telephone}}}, true
}

func isASCII(t string) bool {
	for k := 0; k < len(t); k++ {
		if t[k] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Electronic: e-mail addresses and URLs.

// enElectronicEnd finds the end of an address starting at i: the token
// before the next space, minus trailing punctuation.
func enElectronicEnd(s *stream, i int) (int, bool) {
	j := i
	dot := false
	for j < s.n() && s.kind(j) != tSpace {
		if j-i >= 4*maxScan {
			return i, false
		}
		if s.kind(j) == tHan {
			break
		}
		if s.text(j) == "." {
			dot = true
		}
		j++
	}
	for j > i && s.kind(j-1) == tSym && strings.ContainsAny(s.text(j-1), ".,;:!?)\"'") {
		j--
	}
	// A scheme makes an address without a dot: "http://localhost:8080".
	return j, dot || enHasScheme(s.span(i, j))
}

// enHasScheme reports whether src starts with a URL scheme, letters and
// "://" ("https://", "ftp://", "file://").
func enHasScheme(src string) bool {
	p := strings.Index(src, "://")
	if p < 2 || p+3 >= len(src) {
		return false
	}
	for _, r := range src[:p] {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			return false
		}
	}
	return true
}

func enElectronicTN(s *stream, i int) []match {
	if !s.startOK(i) || s.kind(i) != tWord && s.kind(i) != tNum {
		return nil
	}
	end, ok := enElectronicEnd(s, i)
	if !ok || end <= i+2 {
		return nil
	}
	src := s.span(i, end)
	low := strings.ToLower(src)
	isURL := enHasScheme(src) || strings.HasPrefix(low, "www.")
	isMail := strings.Count(src, "@") == 1
	if !isURL && !isMail {
		// bare domain: word.tld
		host, _, _ := strings.Cut(low, "/")
		dot := strings.LastIndexByte(host, '.')
		if dot < 0 || !enTLD[host[dot+1:]] && !enPlainDomain(src) {
			return nil
		}
		for _, r := range host[:dot] {
			if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '-') {
				return nil
			}
		}
		if s.kind(end-1) == tNum {
			return nil
		}
	}
	if isMail {
		local, dom, _ := strings.Cut(src, "@")
		if local == "" || !strings.Contains(dom, ".") {
			return nil
		}
	}
	return one(end, Electronic, enSpellElectronic(s, i, end))
}

// enPlainDomain reports whether src is two lower-case labels of letters
// joined by a dot, "test.abc": a domain name even with a TLD not in enTLD.
func enPlainDomain(src string) bool {
	a, b, ok := strings.Cut(src, ".")
	if !ok || len(a) < 2 || len(b) < 2 || len(b) > 6 {
		return false
	}
	for _, r := range a + b {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

func enSpellElectronic(s *stream, i, end int) string {
	var ws []string
	low := strings.ToLower(s.span(i, end))
	// Full addresses (with a scheme, www or an @) read product names in
	// their paths as acronyms, as NeMo does: "/dgx-basepod" → "DGX dash
	// BASEPOD", "/rtx-6000" → "RTX dash six thousand", "/123-sm" → "dash
	// SM".
	full := strings.Contains(low, "://") || strings.HasPrefix(low, "www.") || strings.Contains(low, "@")
	inPath := false
	afterAcronym := func(k int) bool {
		return full && inPath && s.is(k-1, "-") && enUpperWords[strings.ToLower(s.text(k-2))]
	}
	for k := i; k < end; k++ {
		t := s.text(k)
		if t == "/" && !s.is(k-1, "/") && !s.is(k+1, "/") && !s.is(k-1, ":") {
			inPath = true
		}
		switch s.kind(k) {
		case tNum:
			if afterAcronym(k) {
				ws = append(ws, enCardinal(t, false))
			} else {
				ws = append(ws, enDigits(t))
			}
		case tWord:
			lw := strings.ToLower(t)
			switch {
			case afterAcronym(k):
				ws = append(ws, strings.ToUpper(t))
			case t == lw && enLowerWords[lw] != "":
				// a word of the table is read as the table says wherever
				// it stands: ".../photo.jpg" → "photo dot jpeg", "/drive-sim"
				ws = append(ws, enLowerWords[lw])
			case full && inPath && len(t) <= 3 && t == lw && (s.is(k-1, "-") || s.is(k-1, ".")) &&
				(k == end-1 || s.is(k+1, "/") || s.is(k+1, ".")):
				ws = append(ws, strings.ToUpper(t))
			case t == lw && s.is(k-1, "/") && s.is(k+1, "/"):
				// a lower-case directory name is a word: "/build/html/"
				ws = append(ws, lw)
			case enUpperWords[lw]:
				ws = append(ws, strings.ToUpper(t))
			case s.is(k-1, ".") && s.is(k+1, "/") && !enTLD[lw] && len(t) <= 3:
				// an unknown short label ending the host is spelled: "gmail.abc/"
				ws = append(ws, strings.ToUpper(t))
			case enLowerWords[lw] != "":
				ws = append(ws, enLowerWords[lw])
			case full && k == end-1 && s.is(k-1, ".") && !enTLD[lw] && len(t) <= 4 || k == end-1 && s.is(k-1, ".") && len(t) == 2:
				ws = append(ws, strings.ToUpper(t))
			default:
				ws = append(ws, lw)
			}
		default:
			if w, ok := enElecSpoken[t]; ok {
				ws = append(ws, w)
			} else {
				ws = append(ws, t)
			}
		}
	}
	return strings.Join(ws, " ")
}

// Roman numerals.

var romanVal = map[byte]int{'I': 1, 'V': 5, 'X': 10, 'L': 50, 'C': 100, 'D': 500, 'M': 1000}

// parseRoman parses an upper-case Roman numeral in canonical form.
func parseRoman(t string) (int, bool) {
	if t == "" || len(t) > 15 {
		return 0, false
	}
	total := 0
	for k := 0; k < len(t); k++ {
		v, ok := romanVal[t[k]]
		if !ok {
			return 0, false
		}
		if k+1 < len(t) && romanVal[t[k+1]] > v {
			total -= v
		} else {
			total += v
		}
	}
	if total <= 0 || total >= 4000 || toRoman(total) != t {
		return 0, false
	}
	return total, true
}

func toRoman(n int) string {
	vals := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	syms := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	var b strings.Builder
	for k, v := range vals {
		for n >= v {
			b.WriteString(syms[k])
			n -= v
		}
	}
	return b.String()
}

func enRomanTN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) || !s.boundary(i+1) {
		return nil
	}
	// A numeral with an ordinal suffix is an ordinal, as NeMo's Roman
	// grammar reads it: "the XIVth century" → "the fourteenth century";
	// after a name it is regnal ("Louis XIVth" → "Louis the fourteenth").
	if t := s.text(i); len(t) >= 3 && strings.HasSuffix(t, "th") {
		if v, ok := parseRoman(t[:len(t)-2]); ok && v >= 2 && v < 40 {
			ord := enOrdinalWords(enCardinal(strconv.Itoa(v), false))
			if prev := s.text(i - 2); s.kind(i-1) == tSpace && s.kind(i-2) == tWord && unicode.IsUpper(firstRune(prev)) && enNameLike(prev) && !strings.EqualFold(prev, "the") && !enRomanCardinalCue[strings.ToLower(prev)] {
				ord = "the " + ord
			}
			return one(i+1, Roman, ord)
		}
	}
	v, ok := parseRoman(s.text(i))
	if !ok {
		return nil
	}
	// A lone L, C, D or M after a name is an initial ("Thomas C. Campbell").
	if t := s.text(i); len(t) == 1 && strings.Contains("LCDM", t) {
		return nil
	}
	// Before "century", "dynasty" ([roman_ordinal_cues]) the numeral
	// counts: "the XII century" → "the twelfth century", "XIX-century".
	if k := i + 2; v < 40 && (s.kind(i+1) == tSpace || s.is(i+1, "-")) && enRomanOrdinalCue[strings.ToLower(s.text(k))] && s.boundary(k+1) &&
		(len(s.text(i)) >= 2 || s.is(i-2, "the") || s.is(i-2, "The")) {
		return one(i+1, Roman, enOrdinalWords(enCardinal(strconv.Itoa(v), false)))
	}
	prev := s.text(i - 2)
	if i == 0 && len(s.text(i)) >= 2 && (i+1 >= s.n() || s.is(i+1, ".")) {
		return one(i+1, Roman, enCardinal(strconv.Itoa(v), false))
	}
	if s.kind(i-1) != tSpace || s.kind(i-2) != tWord {
		return nil
	}
	card := enCardinal(strconv.Itoa(v), false)
	if enRomanCardinalCue[strings.ToLower(prev)] {
		return []match{{end: i + 1, readings: []reading{{text: card, class: Roman}, {text: "the " + enOrdinalWords(card), class: Roman, cost: 1}}}}
	}
	r, _ := utf8.DecodeRuneInString(prev)
	if !unicode.IsUpper(r) {
		return nil
	}
	// A regnal number follows a name, a capitalized word of three letters
	// or more ("HENRY VII" too): after a letter or a short code ("12 V
	// DC") it is no numeral. Regnal numbers stay small: "Washington DC"
	// and "Super Bowl LV" are no kings (NeMo reads names' numerals up to
	// XIX; popes reach XXIII).
	if utf8.RuneCountInString(prev) < 3 || v >= 40 {
		return nil
	}
	// "I" is the pronoun unless a name precedes it and nothing but a
	// period, a dash or the end follows: "Charles I." is "the first",
	// "Sam I am", "Then I." and "said I." keep the pronoun.
	if v == 1 && len(s.text(i)) == 1 && (!(i+1 >= s.n() || s.is(i+1, ".") || s.is(i+1, "-")) ||
		enRomanCardinalCue[strings.ToLower(prev)] || !enNameLike(prev)) {
		return nil
	}
	// The numeral's own period goes before a possessive ("Louis XIV.'s
	// ears" → "the fourteenth's"); before a comma or a word it stays, as
	// LibriTTS keeps it ("Louis the fourteenth. was": dropping it there
	// too failed 50 of its dev sentences that had passed).
	e := i + 1
	if s.is(e, ".") && (s.is(e+1, "'") || s.is(e+1, "’")) && s.text(e+2) == "s" && s.boundary(e+3) {
		e++
	}
	return []match{{end: e, readings: []reading{{text: "the " + enOrdinalWords(card), class: Roman},
		{text: enOrdinalWords(card), class: Roman, cost: 0.5}, {text: card, class: Roman, cost: 1}}}}
}

// Letters: dotted abbreviations "U.S.A." → "USA".

func enLettersTN(s *stream, i int) []match {
	if !s.startOK(i) {
		return nil
	}
	if _, _, ok := enStateAbbrAt(s, i); ok {
		return nil // "Albany, N.Y." is the state ([state_abbreviations])
	}
	var b strings.Builder
	j := i
	for s.kind(j) == tWord && utf8.RuneCountInString(s.text(j)) == 1 && s.is(j+1, ".") && j-i < maxScan {
		b.WriteString(strings.ToUpper(s.text(j)))
		j += 2
		if s.kind(j) == tSpace && s.kind(j+1) == tWord && utf8.RuneCountInString(s.text(j+1)) == 1 && s.is(j+2, ".") {
			j++
		}
	}
	if b.Len() < 2 || !s.boundary(j) {
		return enInitialism(s, i)
	}
	if _, ok := enWhitelist[s.span(i, j)]; ok {
		return nil // a whitelisted abbreviation is read as listed ("e.g.")
	}
	// "U.S.A.." keeps the sentence period after the abbreviation's own.
	if s.is(j, ".") {
		return one(j, Letters, b.String()+".")
	}
	return one(j, Letters, b.String())
}

// Whitelist: fixed expansions.

// enWeekdayBefore reports the token index of a weekday name right before
// token i, allowing a period, a comma, an opening parenthesis and spaces in
// between ("Tu (2/22)", "Mon., 3/4").
func enWeekdayBefore(s *stream, i int) (int, bool) {
	k := i - 1
	for k >= 0 && (s.kind(k) == tSpace || s.is(k, "(") || s.is(k, ",") || s.is(k, ".")) && i-k <= 4 {
		k--
	}
	if s.kind(k) != tWord {
		return 0, false
	}
	_, ok := enWeekdays[strings.ToLower(s.text(k))]
	return k, ok
}

// enWeekdayAbbrev expands a capitalized weekday abbreviation that is
// followed by a numeric date ("Tu (2/22)" → "Tuesday"); elsewhere "Sat"
// and "Sun" are ordinary words. It returns the end token and the name.
func enWeekdayAbbrev(s *stream, i int) (int, string, bool) {
	t := s.text(i)
	full, ok := enWeekdays[strings.ToLower(t)]
	if !ok || len(t) > 5 || !unicode.IsUpper(firstRune(t)) || strings.EqualFold(t, full) {
		return 0, "", false
	}
	end := i + 1
	if s.is(end, ".") {
		end++
	}
	k := end
	for k < s.n() && (s.kind(k) == tSpace || s.is(k, "(") || s.is(k, ",")) && k-end < 3 {
		k++
	}
	switch {
	case k > end && s.kind(k) == tNum && s.is(k+1, "/") && s.kind(k+2) == tNum:
	// "Mon., Feb. 3", "Tue. 5 March": a date after the dotted abbreviation
	// ("Sun." and "Sat." only with the comma: "the Sun. May I")
	case end == i+2 && k > end && (s.kind(k) == tNum || s.kind(k) == tWord && enMonth(s.text(k)) != 0 && unicode.IsUpper(firstRune(s.text(k)))) &&
		(s.is(end, ",") || full != "Sunday" && full != "Saturday"):
	default:
		return 0, "", false
	}
	return end, full, true
}

// enWhitelistSpanAt finds a written form of [abbreviations] of several
// tokens that starts at token i ("e.g.", "a/c number", "401(k)"); it
// returns the token after it and the form.
func enWhitelistSpanAt(s *stream, i int) (int, string, bool) {
	for _, w := range enWhitelistLens[s.text(i)] {
		if i+w <= s.n() && s.boundary(i+w) {
			if key := s.span(i, i+w); enWhitelist[key] != nil {
				return i + w, key, true
			}
		}
	}
	return 0, "", false
}

func enWhitelistTN(s *stream, i int) []match {
	if !s.startOK(i) {
		return nil
	}
	if s.kind(i) == tNum {
		// Forms that begin with a number: "3-D", "401(k)", "2.5G".
		if e, key, ok := enWhitelistSpanAt(s, i); ok {
			return enWhitelistReadings(s, i, e, key, enWhitelist[key])
		}
		return nil
	}
	if s.kind(i) != tWord {
		return nil
	}
	t := s.text(i)
	// Multi-token keys with dots: e.g., i.e., Ph.D.; day ranges "Mon.-Sun."
	if d1, ok := enDays[s.span(i, i+2)]; ok && s.is(i+2, "-") && s.kind(i+3) == tWord && s.is(i+4, ".") {
		if d2, ok := enDays[s.span(i+3, i+5)]; ok {
			return one(i+5, Whitelist, d1+" to "+d2)
		}
	}
	// Ranges of weekday or month abbreviations without periods: "Mon-Fri",
	// "Jan–Mar" → "Monday to Friday", "january to march".
	if (s.is(i+1, "-") || s.is(i+1, "–")) && s.kind(i+2) == tWord && s.boundary(i+3) && !s.is(i+3, "-") {
		a, b := s.text(i), s.text(i+2)
		if d1, ok := enDays[a+"."]; ok {
			if d2, ok := enDays[b+"."]; ok {
				return one(i+3, Whitelist, d1+" to "+d2)
			}
		}
		if m1, m2 := enMonth(a), enMonth(b); m1 != 0 && m2 != 0 && m1 != m2 && unicode.IsUpper(firstRune(a)) && unicode.IsUpper(firstRune(b)) {
			return one(i+3, Date, enMonths[m1-1]+" to "+enMonths[m2-1])
		}
	}
	// "VOL 24 NO 39", "No 10 Downing Street": the number abbreviation
	// without its period, before a number.
	if (t == "NO" || t == "No") && s.kind(i+1) == tSpace && s.kind(i+2) == tNum && !enSentenceStart(s, i) {
		return one(i+1, Whitelist, "number")
	}
	if e, full, ok := enWeekdayAbbrev(s, i); ok {
		return one(e, Whitelist, full)
	}
	// "p. 5", "Fig. 3", "c. 1500": abbreviations read only before a number.
	if sp, ok := enNumberCue[s.span(i, i+2)]; ok && s.is(i+1, ".") && s.kind(i+2) == tSpace && s.kind(i+3) == tNum {
		return one(i+2, Whitelist, sp)
	}
	if sp, ok := enNumberCue[s.span(i, i+2)]; ok && s.is(i+1, ".") && s.kind(i+2) == tNum {
		return one(i+2, Whitelist, sp+" ") // "No.1", "p.5"
	}
	if e, name, ok := enStateAbbrAt(s, i); ok {
		return one(e, Whitelist, name)
	}
	if e, key, ok := enWhitelistSpanAt(s, i); ok {
		return enWhitelistReadings(s, i, e, key, enWhitelist[key])
	}
	if s.boundary(i + 1) {
		if rs, ok := enWhitelist[t]; ok {
			return one(i+1, Whitelist, rs[0])
		}
		// A letter string of [acronyms], not a label of a dotted name
		// ("BioLib.cz").
		if up, ok := enAcronyms[t]; ok && !(s.is(i-1, ".") && s.kind(i-2) == tWord) && !(s.is(i+1, ".") && s.kind(i+2) == tWord) {
			return one(i+1, Whitelist, up)
		}
		if len(t) > 2 || t[0] < 'A' || t[0] > 'Z' {
			// only the upper-case codes below remain
		} else if st, ok := enStates[t]; ok && s.kind(i-1) == tSpace && s.is(i-2, ",") &&
			// A code that is also a word ("Thanks, OK", "Fine, IN") is a
			// state before a ZIP code, or after a place name that does not
			// begin the sentence ("moved to Tulsa, OK, in 2019").
			(!enStateWord[t] || enNameLike(s.text(i-3)) && !enSentenceStart(s, i-3) || s.kind(i+1) == tSpace && s.kind(i+2) == tNum) &&
			(i+1 >= s.n() || s.is(i+1, ",") || s.kind(i+1) == tSpace && s.kind(i+2) == tNum ||
				// A sentence ending on the state after a place name:
				// "in Boston, MA." (not a list of codes, "BA, MA.", nor a
				// code that is also a word, "Thanks, OK.").
				s.is(i+1, ".") && (i+2 >= s.n() || s.kind(i+2) == tSpace) && enNameLike(s.text(i-3)) && !enStateWord[t]) {
			return one(i+1, Whitelist, st)
		}
		// Compass points in addresses: "1211 E Arques Ave", "708 N 1st St",
		// "4500 N. Michigan Ave.".
		if d, ok := enCompass[t]; ok && s.kind(i-1) == tSpace && s.kind(i-2) == tNum {
			e := i + 1
			if s.is(e, ".") {
				e++
			}
			if s.kind(e) == tSpace && (s.kind(e+1) == tNum || s.kind(e+1) == tWord && unicode.IsUpper(firstRune(s.text(e+1)))) &&
				(e == i+1 || enAddressAhead(s, i-1)) {
				return one(e, Whitelist, d)
			}
		}
		// "the St Lawrence": St without a period before a name, and not
		// after a capitalized street name, is "saint".
		if (t == "St" || t == "st") && s.kind(i+1) == tSpace && s.kind(i+2) == tWord && unicode.IsUpper(firstRune(s.text(i+2))) &&
			(enSaintNames[s.text(i+2)] && !(s.kind(i-3) == tSpace && s.kind(i-4) == tNum) || !(s.kind(i-1) == tSpace && s.kind(i-2) == tWord && unicode.IsUpper(firstRune(s.text(i-2))) && !enSaintAfter[s.text(i-2)] && !enSentenceStart(s, i-2))) {
			return one(i+1, Whitelist, "saint")
		}
		// Street suffixes after a capitalized street name: "Elm St", "Laguna Ct".
		if full, ok := enStreetSuffix[t]; ok && s.kind(i-1) == tSpace && s.kind(i-2) == tWord && (!enStreetAddressOnly[t] || enAfterHouseNumber(s, i-2)) {
			r, _ := utf8.DecodeRuneInString(s.text(i - 2))
			if unicode.IsUpper(r) || s.kind(i-2) == tWord && enOrdinalSuffix(0) != "" && s.kind(i-3) == tNum {
				e := i + 1
				if s.is(e, ".") {
					e++
				}
				return one(e, Whitelist, full)
			}
		}
	}
	return nil
}

// enAfterHouseNumber reports whether the street name ending at word token
// k follows a house number: capitalized words, ordinals ("1st") and a
// compass letter back to a number ("123 Laguna", "708 N 1st").
func enAfterHouseNumber(s *stream, k int) bool {
	for n := 0; n < 5 && k > 1; n++ {
		switch {
		case s.kind(k) == tWord && s.kind(k-1) == tNum && enOrdinalSuffixOK(s.text(k-1), s.text(k)):
			k-- // the ordinal's number
		case s.kind(k) == tWord && unicode.IsUpper(firstRune(s.text(k))):
		default:
			return false
		}
		if s.kind(k-1) != tSpace {
			return false
		}
		if s.kind(k-2) == tNum && s.startOK(k-2) {
			return true
		}
		k -= 2
	}
	return false
}

// enCompass maps the compass letters of addresses to their words.
var enCompass = map[string]string{"N": "North", "S": "South", "E": "East", "W": "West"}

// enStateAbbrAt reads a dotted state abbreviation at i ("Va.", "N.Y.")
// after a capitalized place name and a comma that does not begin the
// sentence ("Norfolk, Va. in 1853" → "Norfolk, Virginia in 1853"; "Thanks,
// Miss." stays). Its period ends the sentence as well when the text ends
// there or a capitalized word follows, so it is left in place then.
func enStateAbbrAt(s *stream, i int) (int, string, bool) {
	if s.kind(i-1) != tSpace || !s.is(i-2, ",") || s.kind(i-3) != tWord || !unicode.IsUpper(firstRune(s.text(i-3))) || enSentenceStart(s, i-3) {
		return 0, "", false
	}
	for w := 4; w >= 2; w-- {
		if i+w > s.n() || !s.is(i+w-1, ".") || !s.boundary(i+w) {
			continue
		}
		name, ok := enStateAbbr[s.span(i, i+w)]
		if !ok {
			continue
		}
		e := i + w
		if e == s.n() || s.kind(e) == tSpace && !(s.kind(e+1) == tWord && unicode.IsLower(firstRune(s.text(e+1)))) {
			e-- // the period ends the sentence too
		}
		return e, name, true
	}
	return 0, "", false
}

// enStateWord lists the postal codes that are also common words or
// interjections when written in capitals ("OK.", "HI.", "OH."); only an
// address context with more than a closing period reads them as states.
var enStateWord = map[string]bool{"OK": true, "HI": true, "OH": true, "IN": true, "OR": true, "ME": true, "ID": true, "AS": true}

// enNameLike reports whether w looks like a personal name: capitalized,
// then lower case, at least three letters, not a common function word.
func enNameLike(w string) bool {
	if utf8.RuneCountInString(w) < 3 || strings.ToLower(w[1:]) != w[1:] {
		return false
	}
	switch strings.ToLower(w) {
	case "then", "and", "but", "now", "here", "there", "so", "yes", "not", "nor", "than", "did", "was", "said", "am", "have", "had", "who", "what", "why", "when", "where", "how", "could", "would", "should", "must", "may", "might", "can", "will", "shall", "do", "does":
		return false
	}
	return true
}

// enSentenceStart reports whether word token k begins a sentence: it is the
// first token, or only spaces and opening quotes separate it from a
// sentence-final mark.
func enSentenceStart(s *stream, k int) bool {
	j := k - 1
	for j >= 0 && (s.kind(j) == tSpace || strings.Contains("\"“'‘(", s.text(j))) {
		j--
	}
	return j < 0 || s.is(j, ".") || s.is(j, "!") || s.is(j, "?")
}

func enWhitelistReadings(s *stream, i, end int, key string, rs []string) []match {
	if key == "St." || key == "Dr." {
		// After a capitalized word (a street name): Street/Drive, and a
		// following capitalized word starts a new sentence, so the period
		// stays. Otherwise Saint/Doctor.
		// Titles and place prefixes ("Lord St. Maur", "Mount St. Helens")
		// and a word capitalized only because it starts the sentence
		// ("Imagine St. Paul") do not name a street.
		pr := firstRune(s.text(i - 2))
		// An ordinal street name is a street too: "5th St.", "42nd St.".
		ord := key == "St." && s.kind(i-2) == tWord && s.kind(i-3) == tNum && enOrdinalSuffixOK(s.text(i-3), s.text(i-2))
		// A saint's name after it ("Glen St. Mary Church") keeps Saint,
		// unless a house number makes it an address ("12 Main St. Paul").
		saint := key == "St." && !ord && end < s.n() && s.kind(end) == tSpace && enSaintNames[s.text(end+1)] && !(s.kind(i-3) == tSpace && s.kind(i-4) == tNum)
		if s.kind(i-1) == tSpace && s.kind(i-2) == tWord && (unicode.IsUpper(pr) && !enSaintAfter[s.text(i-2)] && !enSentenceStart(s, i-2) || ord) && !saint {
			rs = []string{rs[1], rs[0]}
			// The period also ends the sentence unless a lower-case word
			// ("on 5th St. now") or other punctuation ("Elm St., Boston")
			// follows.
			if end < s.n() && s.kind(end) == tSpace && !(s.kind(end+1) == tWord && unicode.IsLower(firstRune(s.text(end+1)))) {
				end--
			}
		}
	}
	// "…, etc. Then": the period ends the sentence too, so it stays.
	if enAbbrFinal[key] && s.is(end-1, ".") && s.kind(end) == tSpace && s.kind(end+1) == tWord && unicode.IsUpper(firstRune(s.text(end+1))) {
		end--
	}
	var out []reading
	for k, r := range rs {
		out = append(out, reading{text: r, class: Whitelist, cost: float64(k)})
	}
	return []match{{end: end, readings: out}}
}

// Verbatim: symbols read as words.

// markupTag reads an SSML-like tag at i: "<", an optional "/", a name, then
// anything but spaces and angle brackets up to ">". It returns the token
// index after the tag.
func markupTag(s *stream, i int) (int, bool) {
	if !s.is(i, "<") {
		return i, false
	}
	j := i + 1
	if s.is(j, "/") {
		j++
	}
	if s.kind(j) != tWord {
		return i, false
	}
	for j++; j < s.n() && j-i < maxScan; j++ {
		switch {
		case s.is(j, ">"):
			return j + 1, true
		case s.kind(j) == tSpace || s.is(j, "<"):
			return i, false
		}
	}
	return i, false
}

// enLoneCompound reports whether the hyphen at i joins the only two words
// of the text, as a word of a dictionary or a class file stands alone
// ("x-ray", "co-operate", "Check-in"): NeMo's word cases keep such a
// compound as written ("mother-in-law"), where running text (LibriTTS's
// "baking-tins" → "baking tins") drops the hyphen.
func enLoneCompound(s *stream, i int) bool {
	for k := 0; k < i-1; k++ {
		if s.kind(k) != tSpace {
			return false
		}
	}
	for k := i + 2; k < s.n(); k++ {
		if s.kind(k) != tSpace && !strings.ContainsAny(s.text(k), ".!?,;:") {
			return false
		}
	}
	return true
}

// enNumPrefix lists prefixes whose hyphen before a number is silent.
var enNumPrefix = map[string]bool{"mid": true, "pre": true, "post": true, "early": true, "late": true}

func enVerbatimTN(s *stream, i int) []match {
	// Markup tags ("<pitch=-.3>", "</pitch>") pass through unchanged.
	if e, ok := markupTag(s, i); ok {
		return one(e, Verbatim, s.span(i, e))
	}
	// "baking-tins" → "baking tins": a hyphen inside a lower-case compound,
	// also one capitalized only as a sentence's first word ("Check-in is").
	if s.is(i, "-") && s.kind(i-1) == tWord && s.kind(i+1) == tWord &&
		(unicode.IsLower(firstRune(s.text(i-1))) || enSentenceStart(s, i-1) && strings.ToLower(s.text(i - 1)[1:]) == s.text(i - 1)[1:]) &&
		unicode.IsLower(firstRune(s.text(i+1))) && !s.is(i+2, "-") && !s.is(i-2, "-") && !enLoneCompound(s, i) {
		return []match{{end: i + 1, readings: []reading{{text: " ", class: Verbatim}, {text: "-", class: Verbatim, cost: 1}}}}
	}
	// "mid-80s" → "mid eighties": a prefix hyphenated to a number.
	if s.is(i, "-") && s.kind(i-1) == tWord && s.kind(i+1) == tNum && enNumPrefix[s.text(i-1)] && s.startOK(i-1) {
		return one(i+1, Verbatim, " ")
	}
	if s.kind(i) != tSym {
		return nil
	}
	t := s.text(i)
	// Powers: "x^2" → "x squared", "m^3" → "m cubed", "10^6" → "ten to
	// the power of six".
	// A signed exponent reads its sign: "10^-6" → "ten to the power of
	// minus six".
	if t == "^" && s.kind(i-1) == tNum && (s.is(i+1, "-") || s.is(i+1, "−")) && s.kind(i+2) == tNum && len(s.text(i+2)) <= 3 && s.boundary(i+3) {
		return one(i+3, Verbatim, " to the power of minus "+enCardinal(s.text(i+2), false))
	}
	if t == "^" && (s.kind(i-1) == tWord || s.kind(i-1) == tNum) && s.kind(i+1) == tNum && s.boundary(i+2) {
		switch p := s.text(i + 1); p {
		case "2":
			return one(i+2, Verbatim, " squared")
		case "3":
			return one(i+2, Verbatim, " cubed")
		default:
			if len(p) <= 3 {
				return one(i+2, Verbatim, " to the power of "+enCardinal(p, false))
			}
		}
	}
	// Superscript powers: "x²" → "x squared", "10⁶" → "ten to the power
	// of six".
	if strings.HasPrefix(t, "⁻") && s.kind(i-1) == tNum {
		// "10⁻⁶" → "ten to the power of minus six".
		p, e := enSuperscript(strings.TrimPrefix(t, "⁻")), i+1
		for q := enSuperscript(s.text(e)); (p != "" || t == "⁻") && q != "" && e-i < 4; q = enSuperscript(s.text(e)) {
			p, e = p+q, e+1
		}
		if p != "" && s.boundary(e) && len(p) <= 3 {
			return one(e, Verbatim, " to the power of minus "+enCardinal(p, false))
		}
	}
	if p := enSuperscript(t); p != "" && (s.kind(i-1) == tWord || s.kind(i-1) == tNum) {
		e := i + 1
		for q := enSuperscript(s.text(e)); q != "" && e-i < 4; q = enSuperscript(s.text(e)) {
			p, e = p+q, e+1
		}
		if s.boundary(e) {
			switch p {
			case "2":
				return one(e, Verbatim, " squared")
			case "3":
				return one(e, Verbatim, " cubed")
			default:
				if len(p) <= 3 {
					return one(e, Verbatim, " to the power of "+enCardinal(p, false))
				}
			}
		}
	}
	// "2 * 10", "3*4", "6 · 7": an asterisk or a middle dot between numbers
	// multiplies (NeMo's measure/math_operation.tsv), as does a
	// multiplication sign glued to them ("6.02×10^23"; spaced, "3 × 4",
	// it is the symbol table's "times").
	if t == "*" || t == "·" || t == "×" && s.kind(i-1) == tNum && s.is(i+1, "10") && (s.is(i+2, "^") || strings.HasPrefix(s.text(i+2), "⁻") || enSuperscript(s.text(i+2)) != "") {
		a, b := i-1, i+1
		if s.kind(a) == tSpace && s.kind(b) == tSpace {
			a, b = a-1, b+1
		}
		if s.kind(a) == tNum && s.kind(b) == tNum {
			return one(i+1, Verbatim, "times")
		}
	}
	// "#7", "# 7": the number sign before a number reads "number".
	if t == "#" && s.startOK(i) {
		k := i + 1
		if s.kind(k) == tSpace {
			k++
		}
		if d := s.text(k); s.kind(k) == tNum && s.boundary(k+1) && !((s.is(k+1, ".") || s.is(k+1, ",")) && s.kind(k+2) == tNum) {
			w := enCardinal(d, false)
			if len(d) > 1 && d[0] == '0' {
				w = enDigits(d)
			}
			return one(k+1, Cardinal, "number "+w)
		}
	}
	// Typographic quotes and apostrophes become their ASCII forms
	// ("I’m" → "I'm", “so” → "so").
	switch t {
	case "’", "‘":
		return one(i+1, Verbatim, "'")
	case "“", "”":
		return one(i+1, Verbatim, "\"")
	}
	// LaTeX-style quotes glued to text ("``test``") are a double quote; a
	// free-standing "``" token of tokenized corpora stays as written.
	if t == "`" && s.is(i+1, "`") && !s.is(i-1, "`") && !s.is(i+2, "`") && !(s.kind(i-1) == tSpace && s.kind(i+2) == tSpace) {
		return one(i+2, Verbatim, "\"")
	}
	// C1 control characters (stray cp1252 quotes) read as a pause.
	if r := firstRune(t); r >= 0x80 && r <= 0x9f {
		return one(i+1, Verbatim, " ")
	}
	// "upgrade/update", "upgrade / update" (but "and/or" stays).
	if t == "/" {
		// A slash trailing a number before a space ("14/ they") is read out.
		if s.kind(i-1) == tNum && s.kind(i+1) == tSpace && s.kind(i+2) != tNum {
			return one(i+1, Verbatim, "slash")
		}
		// An f-number: "f/1.8", "f/11" → "f one point eight", "f eleven"
		// (the slash is not said).
		if s.is(i-1, "f") && (i < 2 || s.kind(i-2) == tSpace || s.is(i-2, "(")) && s.kind(i+1) == tNum {
			return one(i+1, Verbatim, " ")
		}
		// A rate after a counted noun: "1,000 requests/hour", "3
		// items/page" → "… requests per hour" ([per_units] of two or more
		// letters, the same table as "$5/wk").
		if s.kind(i-1) == tWord && s.kind(i-2) == tSpace && s.kind(i-3) == tNum && s.kind(i+1) == tWord && s.boundary(i+2) && len(s.text(i+1)) >= 2 {
			if w, ok := enPerUnit[strings.ToLower(s.text(i+1))]; ok && strings.HasPrefix(w, "per ") {
				return one(i+2, Verbatim, w)
			}
		}
		a, b := i-1, i+1
		if s.kind(a) == tSpace && s.kind(b) == tSpace {
			a, b = a-1, b+1
		}
		if s.kind(a) == tWord && s.kind(b) == tWord && !(strings.EqualFold(s.text(a), "and") && strings.EqualFold(s.text(b), "or")) &&
			utf8.RuneCountInString(s.text(a)) > 1 && utf8.RuneCountInString(s.text(b)) > 1 {
			st, e := i, i+1
			if b == i+2 {
				st, e = i-1, i+2
			}
			if st < i {
				// include the spaces: "upgrade / update" → "upgrade slash update"
				return []match{{end: e, readings: []reading{{text: " slash ", class: Verbatim}}}}
			}
			return one(e, Verbatim, "slash")
		}
		return nil
	}
	sym, ok := enVerbatimSym[t]
	if !ok {
		return nil
	}
	// Written twice, a symbol of the plural flag reads its plural: "§§
	// 12–14" → "sections twelve to fourteen", "¶¶ 3-5".
	if sym.has("plural") && s.is(i+1, t) {
		return one(i+2, Verbatim, sym.spoken[0]+"s")
	}
	if sym.has("alone") && !(s.startOK(i) && s.boundary(i+1)) {
		return nil
	}
	if sym.has("spaced") && !((i == 0 || s.kind(i-1) == tSpace) && (i+1 == s.n() || s.kind(i+1) == tSpace || strings.Contains(",.;:!?)", s.text(i+1)))) {
		return nil
	}
	return one(i+1, Verbatim, sym.spoken[0])
}

// US state codes, read out after a comma in addresses ("Santa Clara, CA").

// enZipContext reports whether the number at token i follows a US state
// ("CA 95051", "Florida, 32801"), so five digits are a ZIP code read digit
// by digit.
func enZipContext(s *stream, i int) bool {
	k := i - 1
	for k >= 0 && (s.kind(k) == tSpace || s.is(k, ",")) {
		k--
	}
	if s.kind(k) != tWord {
		return false
	}
	t := s.text(k)
	if _, ok := enStates[t]; ok {
		return true
	}
	for _, name := range enStates {
		if t == name || strings.HasSuffix(name, " "+t) && strings.HasSuffix(s.span(k-2, k+1), name) {
			return true
		}
	}
	return false
}

func firstRune(t string) rune {
	r, _ := utf8.DecodeRuneInString(t)
	return r
}

// enInitialism spells all-capital words without vowels ("GPS", "DC") as
// letters: "g p s".
func enInitialism(s *stream, i int) []match {
	t := s.text(i)
	if s.kind(i) != tWord || len(t) < 3 || len(t) > 5 || !s.boundary(i+1) {
		return nil
	}
	for k := 0; k < len(t); k++ {
		c := t[k]
		if c < 'A' || c > 'Z' || strings.IndexByte("AEIOUY", c) >= 0 {
			return nil
		}
	}
	if _, roman := parseRoman(t); roman {
		return nil
	}
	// A code joined to a number by a hyphen keeps its letters as written,
	// as NeMo's serials do ("133-ABC", "COVID-19"): "GPT-4" → "GPT-four".
	if s.is(i+1, "-") && s.kind(i+2) == tNum || s.is(i-1, "-") && s.kind(i-2) == tNum {
		return nil
	}
	if _, st := enStates[t]; st && s.is(i-2, ",") {
		return nil
	}
	lw := strings.ToLower(t)
	return []match{{end: i + 1, readings: []reading{{text: strings.Join(strings.Split(lw, ""), " "), class: Letters, cost: 0.2}}}}
}

// enHyphenNumber reads spelled compounds "twenty-first", "thirty-nine" as
// "twenty first".
func enHyphenNumber(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.is(i+1, "-") || s.kind(i+2) != tWord || !s.startOK(i) || !s.boundary(i+3) {
		return nil
	}
	a, b := strings.ToLower(s.text(i)), strings.ToLower(s.text(i+2))
	if v, ok := enWordVal[a]; !ok || v < 20 || v%10 != 0 {
		return nil
	}
	if v, ok := enWordVal[b]; ok && v > 0 && v < 10 || enOrdToCard(b) != "" && enWordVal[enOrdToCard(b)] < 10 && enWordVal[enOrdToCard(b)] > 0 {
		cls := Cardinal
		if enOrdToCard(b) != "" {
			cls = Ordinal
		}
		return one(i+3, cls, s.text(i)+" "+s.text(i+2))
	}
	return nil
}

// enClauseEnd reports whether a clause ends at token e: the end of the text,
// or a closing punctuation mark (". , ; : ! ? )") that ends the text or is
// followed by a space.
func enClauseEnd(s *stream, e int) bool {
	if e >= s.n() {
		return true
	}
	if s.kind(e) != tSym || !strings.Contains(".,;:!?)", s.text(e)) || s.text(e) == "" {
		return false
	}
	return e+1 >= s.n() || s.kind(e+1) == tSpace
}
