package normalize

import (
	"slices"
	"strconv"
	"strings"
)

// English ITN: spoken → written.

var enWordVal = func() map[string]int {
	m := map[string]int{}
	for k, w := range enOnes {
		m[w] = k
	}
	for k, w := range enTens {
		if w != "" {
			m[w] = k * 10
		}
	}
	return m
}()

// enWords is s.words with hyphenated compound numbers split, as writers
// and speech recognizers often spell them: "twenty-five dollars" reads as
// "twenty five dollars", "thirty-first" as "thirty first". idx[k] is the
// token index after word k, as for s.words. Without such a hyphen it
// returns s.words's shared views; with one, fresh slices.
func enWords(s *stream, i, max int) ([]string, []int) {
	ws, idx := s.words(i, max)
	if len(ws) == 0 || len(ws) >= max {
		return ws, idx
	}
	h := idx[len(ws)-1]
	if !s.is(h, "-") || s.kind(h+1) != tWord || !enHyphenCompound(ws[len(ws)-1], s.lowerAt(h+1)) {
		return ws, idx
	}
	more, midx := enWords(s, h+1, max-len(ws))
	ws = append(slices.Clip(ws), more...)
	idx = append(slices.Clip(idx), midx...)
	return ws, idx
}

// enHyphenCompound reports whether a hyphen joins tens and a unit of one
// number: "twenty-five", "ninety-nine", "forty-first".
func enHyphenCompound(tens, unit string) bool {
	t, ok := enWordVal[tens]
	if !ok || t < 20 || t%10 != 0 {
		return false
	}
	if c := enOrdToCard(unit); c != "" {
		unit = c
	}
	u, ok := enWordVal[unit]
	return ok && u >= 1 && u <= 9
}

// enNum is a parsed spoken number.
type enNum struct {
	groups   []int // groups[k] = value of the 1000^k group
	words    int   // number of words consumed (including "minus", "and")
	neg      bool
	hasScale bool // a scale word (thousand, million, ...) occurred
	lastBig  int  // exponent of the trailing scale word when the number ends with million+, else 0
	simple   bool // a single word below ten
}

func (n enNum) digits() string {
	hi := len(n.groups) - 1
	for hi > 0 && n.groups[hi] == 0 {
		hi--
	}
	var b strings.Builder
	if n.neg {
		b.WriteByte('-')
	}
	b.WriteString(strconv.Itoa(n.groups[hi]))
	for k := hi - 1; k >= 0; k-- {
		s := strconv.Itoa(n.groups[k])
		b.WriteString(strings.Repeat("0", 3-len(s)))
		b.WriteString(s)
	}
	return b.String()
}

// enParseNum parses spoken cardinal words at the start of ws ("one hundred
// and twenty three", "eleven hundred", "minus five"). It stops at the first
// word that cannot continue the number.
func enParseNum(ws []string) (enNum, bool) {
	var n enNum
	k := 0
	if len(ws) > 0 && (ws[0] == "minus" || ws[0] == "negative") {
		n.neg = true
		k++
	}
	n.groups = make([]int, len(enScales))
	cur := 0        // value below 1000 being built
	lastKind := 0   // 0 none, 1 unit, 2 teen, 3 tens, 4 hundred, 5 scale
	lastScale := 99 // scales must decrease
	used := k
	for ; k < len(ws); k++ {
		w := ws[k]
		if w == "and" {
			if (lastKind == 4 || lastKind == 5) && k+1 < len(ws) {
				if v, ok := enWordVal[ws[k+1]]; ok && v < 100 {
					continue
				}
			}
			break
		}
		if v, ok := enWordVal[w]; ok {
			switch {
			case v < 10:
				if lastKind == 1 || lastKind == 2 || (lastKind == 3 && cur%10 != 0) {
					goto done
				}
				if v == 0 && (lastKind != 0 || k+1 < len(ws) && enWordVal[ws[k+1]] > 0) {
					goto done
				}
				cur += v
				lastKind = 1
			case v < 20:
				if lastKind == 1 || lastKind == 2 || lastKind == 3 {
					goto done
				}
				cur += v
				lastKind = 2
			default:
				if lastKind == 1 || lastKind == 2 || lastKind == 3 {
					goto done
				}
				cur += v
				lastKind = 3
			}
			used = k + 1
			continue
		}
		if w == "hundred" {
			if cur == 0 || cur >= 100 || lastKind == 4 {
				break
			}
			cur *= 100
			lastKind = 4
			used = k + 1
			continue
		}
		if e, ok := enScaleExp[w]; ok {
			if cur == 0 || e >= lastScale || cur >= 1000 {
				break
			}
			if cur >= 1000 {
				break
			}
			n.groups[e] += cur
			cur, lastKind, lastScale = 0, 5, e
			n.hasScale = true
			used = k + 1
			if e >= 2 {
				n.lastBig = e
			}
			continue
		}
		break
	}
done:
	if used == 0 || n.neg && used == 1 {
		return n, false
	}
	if cur >= 1000 { // "eleven hundred twenty" within thousands: fold
		n.groups[1] += cur / 1000
		cur %= 1000
	}
	n.groups[0] += cur
	if cur != 0 || lastKind != 5 {
		n.lastBig = 0
	}
	n.words = used
	n.simple = used == 1 && cur < 10 && !n.hasScale
	return n, true
}

// enNumAt parses a spoken number at token i; it returns the number and the
// token index after its last word.
func enNumAt(s *stream, i int) (enNum, []string, []int, bool) {
	if s.kind(i) != tWord || !s.startOK(i) {
		return enNum{}, nil, nil, false
	}
	ws, idx := enWords(s, i, 40)
	n, ok := enParseNum(ws)
	if !ok {
		return n, ws, idx, false
	}
	return n, ws, idx, true
}

var enDigitWord = map[string]byte{"zero": '0', "o": '0', "oh": '0', "one": '1', "two": '2', "three": '3',
	"four": '4', "five": '5', "six": '6', "seven": '7', "eight": '8', "nine": '9'}

// enSpokenAmount reads a cardinal or decimal amount ("two point five",
// "point five o six", "four hundred", "five point two million") at words ws.
// It returns the written amount, the number of words, whether the value is
// exactly one and the trailing scale word (million+) when present.
func enSpokenAmount(ws []string) (amount string, used int, isOne bool, scale string, ok bool) {
	var n enNum
	k := 0
	intPart := ""
	if len(ws) > 0 && ws[0] != "point" {
		n, ok = enParseNum(ws)
		if !ok {
			return
		}
		k = n.words
		intPart = n.digits()
	}
	if k < len(ws) && ws[k] == "point" && n.lastBig == 0 {
		j := k + 1
		var frac []byte
		for j < len(ws) {
			d, isD := enDigitWord[ws[j]]
			if !isD {
				break
			}
			frac = append(frac, d)
			j++
		}
		if len(frac) == 0 {
			return "", 0, false, "", false
		}
		amount = intPart + "." + string(frac)
		used = j
		if j < len(ws) {
			if e, isS := enScaleExp[ws[j]]; isS && e >= 1 {
				scale = ws[j]
				used++
			}
		}
		return amount, used, false, scale, true
	}
	if intPart == "" {
		return "", 0, false, "", false
	}
	if n.lastBig > 0 && n.groups[n.lastBig] > 0 && n.digitsBelow(n.lastBig) {
		// "four hundred million" → "400 million"
		neg := ""
		if n.neg {
			neg = "-"
		}
		return neg + strconv.Itoa(n.groups[n.lastBig]), k, false, enScales[n.lastBig], true
	}
	return intPart, k, intPart == "1", "", true
}

// digitsBelow reports whether only group e and nothing else is set.
func (n enNum) digitsBelow(e int) bool {
	for k, g := range n.groups {
		if k != e && g != 0 {
			return false
		}
	}
	return true
}

// enAfterScaleAnd reports whether word i continues a number said with
// "a" that ITN leaves as words ("a hundred and fifty pounds"): the tail
// alone is no amount ("a hundred and £50").
func enAfterScaleAnd(s *stream, i int) bool {
	if i < 6 || !s.is(i-2, "and") || s.kind(i-1) != tSpace || s.kind(i-3) != tSpace || s.kind(i-5) != tSpace {
		return false
	}
	switch s.lowerAt(i - 4) {
	case "hundred", "thousand", "million", "billion":
		return s.lowerAt(i-6) == "a"
	}
	return false
}

func enCardinalITN(s *stream, i int) []match {
	n, ws, idx, ok := enNumAt(s, i)
	if !ok || enAfterScaleAnd(s, i) || n.simple || !s.boundary(idx[n.words-1]) {
		return nil
	}
	if n.words == 1 && ws[0] == "hundred" {
		return nil
	}
	// Numbers below thirteen stay words, as in NeMo's grammar ("ten
	// people", "twelve").
	if v, isWord := enWordVal[ws[0]]; n.words == 1 && isWord && v < 13 {
		return nil
	}
	// So does a signed one heading a fraction, as the unsigned one does
	// ("minus three eighths", like "three eighths"), not "-3 eighths".
	if v, isWord := enWordVal[ws[min(1, len(ws)-1)]]; n.words == 2 && ws[0] == "minus" && isWord && v < 13 && len(ws) > 2 && enDenominatorWord(ws[2]) {
		return nil
	}
	amt, used, _, scale, ok := enSpokenAmount(ws)
	if ok && scale != "" && used == n.words {
		return one(idx[used-1], Decimal, amt+" "+scale)
	}
	// Avoid turning a bare "and" tail into part of the span.
	return one(idx[n.words-1], Cardinal, n.digits())
}

func enDecimalITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	ws, idx := enWords(s, i, 40)
	amt, used, _, scale, ok := enSpokenAmount(ws)
	if !ok || !strings.Contains(amt, ".") {
		if v, n := enSpokenVersion(ws); n > 0 {
			return one(idx[n-1], Decimal, v)
		}
		return nil
	}
	if scale != "" {
		amt += " " + scale
	} else {
		// more "point" parts make a version or section number: "two
		// point zero point one" → "2.0.1"
		for used+1 < len(ws) && ws[used] == "point" {
			d, n := enSpokenDigitRun(ws[used+1:])
			if n == 0 {
				break
			}
			amt += "." + d
			used += 1 + n
		}
	}
	return one(idx[used-1], Decimal, amt)
}

// enSpokenVersion reads a version or section number said with two or more
// "point"s whose parts are numbers below a hundred or digits, which no
// decimal is: "three point twelve point one" → "3.12.1", "one point
// twenty nine point four" → "1.29.4". It returns 0 words when ws is none.
func enSpokenVersion(ws []string) (string, int) {
	d, n := enSpokenDigitRun(ws)
	if n == 0 {
		return "", 0
	}
	parts, used := []string{d}, n
	for used+1 < len(ws) && ws[used] == "point" {
		d, n := enSpokenDigitRun(ws[used+1:])
		if n == 0 {
			break
		}
		parts, used = append(parts, d), used+1+n
	}
	if len(parts) < 3 {
		return "", 0
	}
	return strings.Join(parts, "."), used
}

// enSpokenDigitRun reads the digits said one by one at the start of ws
// ("zero", "oh", "one" … "nine"), or one number below a hundred ("twelve",
// "twenty one"); it returns them and the number of words read.
func enSpokenDigitRun(ws []string) (string, int) {
	var b strings.Builder
	n := 0
	for n < len(ws) {
		v, ok := enWordVal[ws[n]]
		if ws[n] == "oh" {
			v, ok = 0, true
		}
		if !ok || v > 9 {
			break
		}
		b.WriteByte(byte('0' + v))
		n++
	}
	if n > 0 {
		return b.String(), n
	}
	if num, ok := enParseNum(ws[:min(len(ws), 2)]); ok && !num.hasScale && !num.neg && num.groups[0] < 100 && num.words > 0 {
		return strconv.Itoa(num.groups[0]), num.words
	}
	return "", 0
}

// enOrdToCard maps an ordinal word to its cardinal word, or "".
func enOrdToCard(w string) string {
	if c, ok := enOrdWord[w]; ok {
		return c
	}
	if strings.HasSuffix(w, "ieth") {
		c := w[:len(w)-4] + "y"
		if _, ok := enWordVal[c]; ok {
			return c
		}
	}
	if strings.HasSuffix(w, "th") {
		c := w[:len(w)-2]
		if _, ok := enWordVal[c]; ok {
			return c
		}
		if c == "hundred" || enScaleExp[c] > 0 {
			return c
		}
	}
	return ""
}

// enOrdinalAt parses "twenty first" at i; returns the number, token end.
func enOrdinalAt(s *stream, i int) (string, int, bool) {
	if s.kind(i) != tWord || !s.startOK(i) {
		return "", 0, false
	}
	ws, idx := enWords(s, i, 40)
	for k, w := range ws {
		c := enOrdToCard(w)
		if c == "" {
			continue
		}
		cw := append(append([]string{}, ws[:k]...), c)
		if c == "hundred" || enScaleExp[c] > 0 {
			if k == 0 {
				cw = []string{"one", c}
			}
		}
		n, ok := enParseNum(cw)
		if !ok || n.words != len(cw) || n.neg {
			return "", 0, false
		}
		if w == "second" && k == 0 {
			return "", 0, false
		}
		if !s.boundary(idx[k]) {
			return "", 0, false
		}
		return n.digits(), idx[k], true
	}
	return "", 0, false
}

func enOrdinalITN(s *stream, i int) []match {
	d, end, ok := enOrdinalAt(s, i)
	if !ok {
		return nil
	}
	v, _ := strconv.Atoi(d[max(0, len(d)-2):])
	// After a small number word the ordinal is a fraction's denominator
	// ("one third", "one fifth cup"), left as words like the number
	// before it ("two thirds"), not "one 3rd".
	if n, _ := strconv.Atoi(d); n >= 3 && end == i+1 && i >= 2 && s.kind(i-1) == tSpace && s.kind(i-2) == tWord && enSmallNumberWord[s.lowerAt(i-2)] {
		return nil
	}
	return one(end, Ordinal, d+enOrdinalSuffix(v))
}

// enDenominatorWord reports whether w names a fraction's denominator:
// "half", "quarters", or an ordinal word, singular or plural ("eighths",
// "third"); "second(s)" is left out, as it is the time unit.
func enDenominatorWord(w string) bool {
	switch w {
	case "half", "halves", "quarter", "quarters":
		return true
	case "second", "seconds":
		return false
	}
	return enOrdToCard(w) != "" || strings.HasSuffix(w, "s") && enOrdToCard(strings.TrimSuffix(w, "s")) != ""
}

// enSmallNumberWord holds the number words ITN leaves as words (below
// thirteen).
var enSmallNumberWord = wordSet("one two three four five six seven eight nine ten eleven twelve")

// Money.

// enCurrencyAt reads a spoken currency name at ws[k:] ("dollars", "us
// dollars", "pounds sterling"); it returns the symbol, the number of words
// and whether the name is singular.
func enCurrencyAt(ws []string, k int) (sym string, n int, singular bool) {
	for n = min(enCurrencyMaxWords, len(ws)-k); n >= 1; n-- {
		name := strings.Join(ws[k:k+n], " ")
		if sym, ok := enCurrencySpoken[name]; ok {
			return sym, n, enCurrencyOne[name]
		}
	}
	return "", 0, false
}

// enWeightNotMoney reports whether the currency name at ws[k:k+n], after the
// amount that starts at token i, is a unit of weight instead ("pounds" is
// both): when the units table reads the same words, and either "of"
// follows an amount without a scale ("three pounds of flour"; "three
// billion pounds of funding" stays money) or a word of [weight_cues] comes
// just before the amount ("it weighs three pounds", "lost ten pounds"), or
// the amount is said with a decimal point and no scale ("four point two
// pounds" → "4.2 lb": money is said with its pence, "four pounds twenty",
// and a scale keeps it money, "two point five billion pounds"); or the
// name begins, with "per", a unit ITN keeps as words (a noitn row: "thirty
// two pounds per square inch" → "32 pounds per square inch", as "30 miles
// per gallon"), while "ten pounds per person" stays money. (A unit compound
// written back, "five pounds per hour" → "5 lb/h", is the measure's longer
// match already.)
func enWeightNotMoney(s *stream, i int, ws []string, k, n int, amt, scale string) bool {
	if _, un := enUnitWords(ws[k : k+n]); un != n {
		return false
	}
	if k+n < len(ws) && ws[k+n] == "per" {
		for m := n + 2; m <= enUnitMaxWords && k+m <= len(ws); m++ {
			if enUnitKeptWords[strings.Join(ws[k:k+m], " ")] {
				return true
			}
		}
	}
	if scale == "" && (k+n < len(ws) && ws[k+n] == "of" || strings.Contains(amt, ".")) {
		return true
	}
	return i >= 2 && s.kind(i-1) == tSpace && s.kind(i-2) == tWord && enWeightCues[strings.ToLower(s.text(i-2))]
}

func enCentsWords(ws []string) (int, int, bool) {
	n, ok := enParseNum(ws)
	if !ok || n.hasScale || n.neg || n.groups[0] >= 100 {
		return 0, 0, false
	}
	return n.groups[0], n.words, true
}

func enMoneyITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) || enAfterScaleAnd(s, i) {
		return nil
	}
	ws, idx := enWords(s, i, 40)
	// A range of amounts said with the currency once, after the second:
	// "eight to nine billion dollars" → "$8-9 billion", "twenty to thirty
	// euros" → "€20-30", the inverse of TN's "$8–9bn", "$5-10".
	if n, ok := enParseNum(ws); ok && !n.hasScale && !n.neg && n.words+1 < len(ws) && ws[n.words] == "to" && s.kind(idx[n.words]) == tSpace {
		// The scale must stay a word ("billion"): in "ten to fifteen
		// thousand pounds" it is folded into the second amount's digits
		// and the first would lose it.
		if nb, _ := enParseNum(ws[n.words+1:]); nb.hasScale && nb.lastBig == 0 {
			return nil
		}
		if ms := enMoneyITN(s, idx[n.words]+1); len(ms) == 1 {
			r := ms[0].readings[0].text
			if p := strings.IndexAny(r, "0123456789"); p > 0 && !strings.ContainsAny(r[:p], "- ") && !strings.Contains(r, ".") {
				return one(ms[0].end, Money, r[:p]+n.digits()+"-"+r[p:])
			}
		}
	}
	// "one cent", "fifty cents"
	if c, k, ok := enCentsWords(ws); ok && k < len(ws) && enMinorSpoken[ws[k]] != "" {
		return one(idx[k], Money, enMinorSpoken[ws[k]]+"0."+twoDigits(c))
	}
	amt, used, isOne, scale, ok := enSpokenAmount(ws)
	if !ok {
		// colloquial "one fifty five dollars"
		return nil
	}
	k := used
	if k < len(ws) {
		if sym, _, _ := enCurrencyAt(ws, k); sym == "" && scale == "" {
			// "one fifty five dollars": unit followed by a two-digit number.
			if n2, ok2 := enParseNum(ws[k:]); ok2 && !n2.hasScale && n2.groups[0] >= 10 && n2.groups[0] < 100 && len(amt) == 1 {
				if sym, _, _ := enCurrencyAt(ws, k+n2.words); sym != "" {
					amt += strconv.Itoa(n2.groups[0])
					k += n2.words
					isOne = false
				}
			}
		}
	}
	if k >= len(ws) {
		return nil
	}
	sym, n, singular := enCurrencyAt(ws, k)
	if sym == "" {
		return nil
	}
	if isOne && !singular {
		return nil // "one dollars" is left alone
	}
	if enWeightNotMoney(s, i, ws, k, n, amt, scale) {
		return nil // the measure reads it: "three pounds of flour" → "3 lb of flour"
	}
	end := idx[k+n-1]
	k += n
	cents := ""
	if scale == "" && !strings.Contains(amt, ".") {
		j := k
		if j < len(ws) && ws[j] == "and" {
			j++
		}
		if c, m, ok := enCentsWords(ws[j:]); ok {
			if j+m < len(ws) && enMinorSpoken[ws[j+m]] != "" {
				cents, end = "."+twoDigits(c), idx[j+m]
			} else if j == k && m > 0 {
				cents, end = "."+twoDigits(c), idx[j+m-1]
			}
		}
	}
	out := sym + amt + cents
	if strings.HasPrefix(amt, "-") {
		out = "-" + sym + amt[1:] + cents // "minus five dollars" → "-$5"
	}
	if scale != "" {
		out += " " + scale
	}
	return one(end, Money, out)
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// Measure.

var enUnitPrefix = wordSet("kilo mega giga milli deci centi nano micro tera")

// enUnitWords reads a spoken unit at ws ("square kilometers", "kilo watt
// hours", "per square meter"); it returns the written unit and words used.
func enUnitWords(ws []string) (string, int) {
	k := 0
	per := false
	if k < len(ws) && ws[k] == "per" {
		per, k = true, k+1
	}
	best, bestN := "", 0
	// A power the table names whole ("square feet", "cubic miles") is taken
	// as it is; otherwise "square"/"cubic" raises the unit after it.
	for n := 2; n <= enUnitMaxWords && k+n <= len(ws); n++ {
		if u, ok := enUnitSpoken[strings.Join(ws[k:k+n], " ")]; ok && (ws[k] == "square" || ws[k] == "cubic") {
			best, bestN = u, n
		}
	}
	whole := bestN > 0
	pow := ""
	if !whole && k < len(ws) && (ws[k] == "square" || ws[k] == "cubic") {
		pow = map[string]string{"square": "²", "cubic": "³"}[ws[k]]
		k++
	}
	// Try 1–4 words, joining a metric prefix to the next word.
	for n := 1; n <= 4 && k+n <= len(ws) && !whole; n++ {
		parts := ws[k : k+n]
		cands := []string{strings.Join(parts, " ")}
		if enUnitPrefix[parts[0]] && n >= 2 {
			cands = append(cands, parts[0]+strings.Join(parts[1:], " "))
		}
		for _, c := range cands {
			if u, ok := enUnitSpoken[c]; ok {
				best, bestN = u, n
			}
		}
	}
	if bestN == 0 {
		return "", 0
	}
	// A unit ITN keeps as words that spans more words than the unit found
	// keeps them all: "thirty miles per gallon" stays (mpg is noitn), not
	// "30 mi per gallon".
	for n := bestN + 1; !whole && pow == "" && n <= enUnitMaxWords && k+n <= len(ws); n++ {
		if enUnitKeptWords[strings.Join(ws[k:k+n], " ")] {
			return "", 0
		}
	}
	best += pow
	k += bestN
	if per {
		best = "/" + best
	}
	// compound: "kilograms force per square centimeter"
	if k < len(ws) && ws[k] == "per" && !per {
		if u2, n2 := enUnitWords(ws[k:]); n2 > 0 {
			return best + u2, k + n2
		}
	}
	return best, k
}

func enMeasureITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) || enAfterScaleAnd(s, i) {
		return nil
	}
	ws, idx := enWords(s, i, 40)
	amt, used, _, scale, ok := enSpokenAmount(ws)
	if !ok {
		return nil
	}
	u, n := enUnitWords(ws[used:])
	if n == 0 {
		return nil
	}
	if scale != "" {
		// "two million kilometers" → "2 million km".
		amt += " " + scale
	}
	return one(idx[used+n-1], Measure, amt+" "+u)
}

// Dates.

// enYearWords parses a spoken year: "nineteen seventy six", "twenty twelve",
// "two thousand twelve", "fifteen o six", "nineteen hundred".
func enYearWords(ws []string) (string, int, bool) {
	if len(ws) >= 2 {
		if hi, ok := enWordVal[ws[0]]; ok && hi >= 10 {
			k := 1
			if k < len(ws) && enWordVal[ws[k]] >= 20 && enWordVal[ws[k]]%10 == 0 && k+1 < len(ws) {
				// "nineteen seventy six"
				if u, ok := enWordVal[ws[k+1]]; ok && u > 0 && u < 10 {
					return strconv.Itoa(hi*100 + enWordVal[ws[k]] + u), 3, true
				}
			}
			if v, ok := enWordVal[ws[k]]; ok && v >= 10 {
				return strconv.Itoa(hi*100 + v), 2, true
			}
			if (ws[k] == "o" || ws[k] == "oh") && k+1 < len(ws) {
				if u, ok := enWordVal[ws[k+1]]; ok && u > 0 && u < 10 {
					return strconv.Itoa(hi*100 + u), 3, true
				}
			}
			if ws[k] == "hundred" && (k+1 >= len(ws) || enWordVal[ws[k+1]] == 0 && ws[k+1] != "zero") {
				return strconv.Itoa(hi * 100), 2, true
			}
		}
	}
	n, ok := enParseNum(ws)
	if ok && !n.neg && n.groups[1] == 2 || ok && n.groups[1] == 1 && !n.neg {
		v, _ := strconv.Atoi(n.digits())
		if v >= 1000 && v < 2100 && n.groups[2] == 0 {
			return n.digits(), n.words, true
		}
	}
	return "", 0, false
}

func enDayWords(ws []string) (int, int, bool) {
	// ordinal or cardinal day: "twenty fifth", "thirty", "first"
	if len(ws) == 0 {
		return 0, 0, false
	}
	try := func(w []string) (int, bool) {
		n, ok := enParseNum(w)
		if !ok || n.words != len(w) || n.hasScale || n.groups[0] < 1 || n.groups[0] > 31 {
			return 0, false
		}
		return n.groups[0], true
	}
	for k := min(2, len(ws)); k >= 1; k-- {
		w := append([]string{}, ws[:k]...)
		if c := enOrdToCard(w[k-1]); c != "" {
			w[k-1] = c
		}
		if v, ok := try(w); ok {
			return v, k, true
		}
	}
	return 0, 0, false
}

// enDatePreposition holds the prepositions that take a date as their
// object; after one, "may" is the month ("on may second", "by may first").
var enDatePreposition = map[string]bool{"on": true, "by": true, "since": true, "until": true, "till": true, "from": true, "before": true, "after": true}

func enDateITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	ws, idx := enWords(s, i, 12)
	if len(ws) == 0 {
		return nil
	}
	tok := func(k int) string { return s.text(idx[k] - 1) }
	// "the twenty fifth of july twenty twelve"
	if ws[0] == "the" && len(ws) >= 4 {
		if d, n, ok := enDayWords(ws[1:]); ok && 1+n < len(ws) && ws[1+n] == "of" && 2+n < len(ws) {
			if mo := enMonth(ws[2+n]); mo != 0 && (len(ws[2+n]) > 3 || ws[2+n] == "may") {
				out := strconv.Itoa(d) + " " + tok(2+n)
				end := idx[2+n]
				if y, yn, ok := enYearWords(ws[3+n:]); ok {
					out += " " + y
					end = idx[2+n+yn]
				}
				return one(end, Date, out)
			}
		}
	}
	// "may fifth", "may the fifth twenty twenty": the month "may" before a
	// spoken ordinal day; "first" and "second" only with a year after
	// them or a preposition of time before ("on may second"), as "you may
	// first ask" and "I may second that" are the verb.
	if ws[0] == "may" && len(ws) >= 2 {
		k := 1
		if ws[1] == "the" {
			k = 2
		}
		if d, n, ok := enDayWords(ws[k:]); ok && enOrdToCard(ws[k+n-1]) != "" {
			y, yn, yok := enYearWords(ws[k+n:])
			timePrep := s.kind(i-1) == tSpace && enDatePreposition[strings.ToLower(s.text(i-2))]
			if yok || k == 2 || timePrep || ws[k+n-1] != "first" && ws[k+n-1] != "second" {
				out, end := tok(0)+" "+strconv.Itoa(d), idx[k+n-1]
				if yok {
					out, end = out+" "+y, idx[k+n-1+yn]
				}
				return one(end, Date, out)
			}
		}
	}
	// "july twenty fifth two thousand twelve", "june thirty", "july fifteen o six"
	if mo := enMonth(ws[0]); mo != 0 && len(ws[0]) > 3 && len(ws) >= 2 {
		if y, yn, ok := enYearWords(ws[1:]); ok && (yn >= 2 || len(y) == 4) {
			if _, dn, dok := enDayWords(ws[1:]); !dok || dn < yn {
				return one(idx[yn], Date, tok(0)+" "+y)
			}
		}
		// An optional "the" before an ordinal day: "june the fourth".
		k := 1
		if ws[1] == "the" && len(ws) >= 3 {
			if _, n, ok := enDayWords(ws[2:]); ok && enOrdToCard(ws[1+n]) != "" {
				k = 2
			}
		}
		if d, n, ok := enDayWords(ws[k:]); ok {
			out := tok(0) + " " + strconv.Itoa(d)
			// A day range: "january fifth to seventh" → "january 5-7".
			if j := k + n; j+1 < len(ws) && (ws[j] == "to" || ws[j] == "through") {
				if d2, n2, ok := enDayWords(ws[j+1:]); ok && d2 > d && enOrdToCard(ws[j+n2]) != "" {
					out += "-" + strconv.Itoa(d2)
					n = j + n2 + 1 - k
				}
			}
			end := idx[k+n-1]
			if y, yn, ok := enYearWords(ws[k+n:]); ok {
				out += " " + y
				end = idx[k+n-1+yn]
			}
			return one(end, Date, out)
		}
	}
	// Financial periods of [date_periods] before a year, with or without
	// "of": "second quarter of twenty twenty two" → "Q2 2022", "q one
	// twenty twenty" → "Q1 2020", "first half of ..." → "H1 ...".
	for n := min(enDatePeriodWords, len(ws)-2); n >= 1; n-- {
		p, ok := enDatePeriods[strings.Join(ws[:n], " ")]
		if !ok {
			continue
		}
		k := n
		if ws[k] == "of" {
			k++
		}
		if y, yn, ok := enYearWords(ws[k:]); ok {
			return one(idx[k+yn-1], Date, p+" "+y)
		}
	}
	// "nineteen hundreds", "two thousands"
	if len(ws) >= 2 && (ws[1] == "hundreds" || ws[1] == "thousands") {
		if hi, ok := enWordVal[ws[0]]; ok && hi > 0 {
			v := hi * 100
			if ws[1] == "thousands" {
				v = hi * 1000
			}
			if v >= 1000 && v < 3000 {
				return one(idx[1], Date, strconv.Itoa(v)+"s")
			}
		}
	}
	// Eras: "seven fifty b c" → "750BC", "nineteen hundred c e" → "1900CE"
	if y, yn, ok := enEraYear(ws); ok {
		era, en := "", 0
		for _, e := range [][]string{{"b", "c", "e"}, {"b", "c"}, {"a", "d"}, {"c", "e"}} {
			if yn+len(e) <= len(ws) && slices.Equal(ws[yn:yn+len(e)], e) {
				era, en = strings.ToUpper(strings.Join(e, "")), len(e)
				break
			}
		}
		if era != "" {
			return one(idx[yn+en-1], Date, y+era)
		}
	}
	// "nineteen eighties"
	if len(ws) >= 2 {
		if hi, ok := enWordVal[ws[0]]; ok && hi >= 10 && hi < 30 && strings.HasSuffix(ws[1], "ies") {
			if v, ok := enWordVal[strings.TrimSuffix(ws[1], "ies")+"y"]; ok && v >= 20 {
				return one(idx[1], Date, strconv.Itoa(hi*100+v)+"s")
			}
		}
	}
	// Bare years: "twenty twelve", "nineteen seventy six", "eleven fifty five".
	// After "at" a pair whose first word is an hour of the afternoon or
	// evening (13 to 23) is the time ("at fourteen oh five" → "14:05", the
	// inverse of TN's "at 14:05"); no one says a year there. With 10 to 12
	// the pair stays a year, as NeMo's "eleven fifty five" → "1155".
	if hi, ok := enWordVal[ws[0]]; ok && hi >= 10 && !(hi >= 13 && hi <= 23 && s.kind(i-1) == tSpace && strings.EqualFold(s.text(i-2), "at")) {
		if y, yn, ok := enYearWords(ws); ok && yn >= 2 && yn == len(ws) || ok && yn >= 2 && s.boundary(idx[yn-1]) && !isTimeWordAfter(ws, yn) {
			n, _ := enParseNum(ws)
			if n.words <= yn || yn == 3 {
				return one(idx[yn-1], Date, y)
			}
		}
	}
	// "two thousand and twenty"
	if n, ok := enParseNum(ws); ok && n.groups[1] == 2 && n.groups[2] == 0 && !n.neg && n.words >= 3 {
		return []match{{end: idx[n.words-1], readings: []reading{{text: n.digits(), class: Date, cost: 0.1}}}}
	}
	return nil
}

// enEraYear reads a year before an era marker, including three-digit years
// said as "seven fifty".
func enEraYear(ws []string) (string, int, bool) {
	if y, n, ok := enYearWords(ws); ok {
		return y, n, true
	}
	if len(ws) >= 2 {
		if u, ok := enWordVal[ws[0]]; ok && u > 0 && u < 10 {
			if v, ok := enWordVal[ws[1]]; ok && v >= 10 {
				n := 2
				if v >= 20 && v%10 == 0 && len(ws) > 2 {
					if x, ok := enWordVal[ws[2]]; ok && x > 0 && x < 10 {
						v, n = v+x, 3
					}
				}
				return strconv.Itoa(u*100 + v), n, true
			}
		}
	}
	n, ok := enParseNum(ws)
	if ok && !n.neg && !n.hasScale {
		return n.digits(), n.words, true
	}
	return "", 0, false
}

func isTimeWordAfter(ws []string, k int) bool {
	if k >= len(ws) {
		return false
	}
	switch ws[k] {
	case "a", "p", "am", "pm", "oclock", "o'clock":
		return true
	}
	return false
}

// Time.

func enHourWord(w string) (int, bool) {
	v, ok := enWordVal[w]
	return v, ok && v >= 1 && v <= 12 || ok && v >= 13 && v <= 24
}

func enTimeITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	ws, idx := enWords(s, i, 12)
	if len(ws) == 0 {
		return nil
	}
	// The 24-hour clock with a leading zero: "oh eight hundred hours" →
	// "08:00" (NeMo reads "hundred hours" as o'clock). Without one,
	// "fourteen hundred hours" may count hours and stays a measure.
	{
		k := 0
		if ws[0] == "oh" || ws[0] == "zero" {
			k = 1
		}
		hv, n := -1, 0
		if k < len(ws) {
			if v, ok := enWordVal[ws[k]]; ok && v <= 23 {
				hv, n = v, 1
				if v >= 20 && k+1 < len(ws) {
					if u, ok := enWordVal[ws[k+1]]; ok && u >= 1 && u <= 3 {
						hv, n = v+u, 2
					}
				}
			}
		}
		if e := k + n; hv >= 0 && n > 0 && e+1 < len(ws) && ws[e] == "hundred" && ws[e+1] == "hours" && k == 1 && hv < 10 {
			return one(idx[e+1], Time, twoDigits(hv)+":00")
		}
	}
	h, m, k := -1, 0, 0
	relative, countTo := false, false
	switch {
	case (ws[0] == "quarter" || ws[0] == "half") && len(ws) >= 3 && (ws[1] == "past" || ws[1] == "to"),
		ws[0] == "a" && len(ws) >= 4 && ws[1] == "quarter" && (ws[2] == "past" || ws[2] == "to"):
		if ws[0] == "a" { // "a quarter to five": the span starts at "a"
			ws, idx = ws[1:], idx[1:]
		}
		hv, ok := enHourWord(ws[2])
		if !ok || ws[0] == "half" && ws[1] == "to" {
			return nil
		}
		h, m, k = hv, 15, 3
		relative = true
		if ws[0] == "half" {
			m = 30
		}
		if ws[1] == "to" {
			h, m = (h+11)%12, 60-m
			if h == 0 {
				h = 12
			}
		}
	default:
		// "one min to one", "five minutes past two", "ten past four"
		mn, n, ok := enDayWords(ws)
		unit := 0
		if ok && n < len(ws)-2 && (ws[n] == "min" || ws[n] == "mins" || ws[n] == "minute" || ws[n] == "minutes") {
			unit = 1
		}
		if ok && mn < 60 && n+unit < len(ws)-1 && (ws[n+unit] == "to" || ws[n+unit] == "past") {
			hv, ok := enHourWord(ws[n+unit+1])
			if !ok {
				return nil
			}
			n += unit
			h, m, k = hv, mn, n+2
			relative = true
			if ws[n] == "to" {
				h, m = (h+11)%12, 60-mn
				if h == 0 {
					h = 12
				}
				countTo = true
			}
			break
		}
		hv, ok := enHourWord(ws[0])
		if !ok {
			return nil
		}
		h, k = hv, 1
		// The hours 21 to 23 take two words before the minutes:
		// "twenty one fifteen" → "21:15".
		if hv == 20 && len(ws) > 2 {
			if u, ok := enWordVal[ws[1]]; ok && u >= 1 && u <= 3 {
				if n, ok := enParseNum(ws[2:]); ws[2] == "oh" || ok && !n.hasScale && n.groups[0] >= 10 && n.groups[0] < 60 && n.words <= 2 {
					h, k = 20+u, 2
				}
			}
		}
		if k < len(ws) && (ws[k] == "oclock" || ws[k] == "o'clock") {
			k++
		} else if s.is(idx[0], " ") && s.is(idx[0]+1, "o") && (s.is(idx[0]+2, "'") || s.is(idx[0]+2, "’")) && s.is(idx[0]+3, "clock") {
			// "five o'clock", "five o'clock p m"
			e := idx[0] + 4
			if s.kind(e) == tSpace && s.kind(e+1) == tWord {
				after, aidx := s.words(e+1, 2)
				switch {
				case len(after) == 2 && (after[0] == "a" || after[0] == "p") && after[1] == "m":
					return one(aidx[1], Time, twoDigits(h)+":00 "+after[0]+".m.")
				case len(after) >= 1 && (after[0] == "am" || after[0] == "pm"):
					return one(aidx[0], Time, twoDigits(h)+":00 "+after[0][:1]+".m.")
				}
			}
			return one(e, Time, twoDigits(h)+":00")
		} else if k < len(ws) && (ws[k] == "o" || ws[k] == "oh") && k+1 < len(ws) {
			if u, ok := enWordVal[ws[k+1]]; ok && u > 0 && u < 10 {
				m, k = u, k+2
			}
		} else if k < len(ws) {
			n, ok := enParseNum(ws[k:])
			if ok && !n.hasScale && n.groups[0] >= 10 && n.groups[0] < 60 && n.words <= 2 {
				m, k = n.groups[0], k+n.words
			}
		}
		if k == 1 && !(k < len(ws) && (ws[k] == "a" || ws[k] == "p" || ws[k] == "am" || ws[k] == "pm")) {
			if k < len(ws) && ws[k] != "oclock" {
				return nil
			}
			if k >= len(ws) {
				return nil
			}
		}
		// Without a marker, a pair like "eleven fifty five" is read as a
		// year when the hour is 10-12; "eight fifty two" is a time.
	}
	out := twoDigits(h) + ":" + twoDigits(m)
	end := idx[k-1]
	suffix := ""
	if k+1 < len(ws) && (ws[k] == "a" || ws[k] == "p") && ws[k+1] == "m" {
		suffix = " " + ws[k] + ".m."
		if src := s.text(idx[k] - 1); src != ws[k] {
			suffix = " " + strings.ToUpper(ws[k]) + ".M."
		}
		k += 2
	} else if k < len(ws) && (ws[k] == "am" || ws[k] == "pm") {
		suffix, k = " "+ws[k][:1]+".m.", k+1
	}
	// time zones spelled as letters: "g m t", "e s t" (data/en.tsv
	// [timezones]); written as said, so "E S T" gives "EST".
	zone := ""
	for z := min(k+4, len(ws)); z >= k+2; z-- {
		letters, src := "", ""
		for _, w := range ws[k:z] {
			letters += w
		}
		if len(letters) != z-k || enZoneLetters[letters] == "" {
			continue
		}
		for q := k; q < z; q++ {
			src += s.text(idx[q] - 1)
		}
		zone, k = src, z
		break
	}
	// A pair before a street name is a house number: "two twenty one
	// baker street" → "221 baker street", as TN reads "221 Baker St."
	// "two twenty one".
	if suffix == "" && zone == "" && !relative && k < len(ws) && enStreetAhead(ws[k:]) {
		return one(idx[k-1], Cardinal, strconv.Itoa(h)+twoDigits(m))
	}
	if suffix == "" && zone == "" && h >= 10 && h <= 12 && m >= 10 && !relative {
		return nil
	}
	// "ten to four" is a time only with a marker, as in NeMo's grammar:
	// without one it is a range ("two to three hours", "nine to five").
	if countTo && suffix == "" && zone == "" {
		return nil
	}
	if m == 0 && suffix == "" && zone == "" && k > 0 && ws[k-1] != "oclock" && ws[k-1] != "o'clock" && !relative {
		return nil
	}
	out += suffix
	if zone != "" {
		out += " " + zone
	}
	if k > 0 {
		end = idx[k-1]
	}
	return one(end, Time, out)
}

// enStreetAhead reports whether ws starts with one or two words of a
// street name and then a street type of [street_suffixes] ("baker
// street", "old mill road"); a function word or pronoun is no name ("we
// drive", "the court").
func enStreetAhead(ws []string) bool {
	for n := 1; n <= 2 && n < len(ws); n++ {
		if enAddressStop[ws[n-1]] {
			return false
		}
		if enStreetWords[ws[n]] {
			return true
		}
	}
	return false
}

// enAddressStop holds words that never start a street name.
var enAddressStop = wordSet("the a an and of to in on at by for from with is are was were be it this that i you he she we they my your his her our their then and or but")

// Telephone: digit strings.

// enDigitRun reads digit words, "double"/"triple" and two-digit number words
// ("one twenty three" → "123") from ws; it stops at "dot" or any other word.
func enDigitRun(ws []string) (string, int) {
	var cur []byte
	k := 0
	for k < len(ws) {
		w := ws[k]
		if w == "double" || w == "triple" {
			if k+1 < len(ws) {
				if d, ok := enDigitWord[ws[k+1]]; ok {
					rep := 2
					if w == "triple" {
						rep = 3
					}
					for r := 0; r < rep; r++ {
						cur = append(cur, d)
					}
					k += 2
					continue
				}
			}
			break
		}
		if d, ok := enDigitWord[w]; ok {
			cur = append(cur, d)
			k++
			continue
		}
		if v, ok := enWordVal[w]; ok && v >= 10 {
			if v >= 20 && k+1 < len(ws) {
				if u, ok := enWordVal[ws[k+1]]; ok && u > 0 && u < 10 {
					v += u
					k++
				}
			}
			cur = append(cur, strconv.Itoa(v)...)
			k++
			continue
		}
		break
	}
	return string(cur), k
}

// enDialNumberITN writes the digits said after a verb of [dial_cues], the
// inverse of TN's enDialNumber: after "dial" a run of up to four spoken
// digits ("dial zero" → "dial 0", "dial one four seven one" → "dial
// 1471"), after "call", "ring" or "text" a service number ("call nine one
// one" → "call 911"). Longer runs are telephone numbers, laid out by the
// rules below.
func enDialNumberITN(s *stream, ws []string, idx []int) []match {
	if len(ws) < 2 {
		return nil
	}
	all, ok := enDialCues[ws[0]]
	if !ok {
		return nil
	}
	d, n := enDigitRun(ws[1:])
	if n == 0 || len(d) > 4 || !all && !enServiceNumbers[d] {
		return nil
	}
	return one(idx[n], Telephone, s.text(idx[0]-1)+" "+d)
}

func enTelephoneITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	ws, idx := s.words(i, 40)
	if m := enDialNumberITN(s, ws, idx); m != nil {
		return m
	}
	if m := enSerialITN(s, ws, idx); m != nil && !enClitic(s, i) {
		// A serial that starts with a spelled term of the whitelist is
		// that term and what follows ("l g a eleven fifty" → "LGA 1150",
		// "p c i e x eight" → "PCIe x8").
		if w := enWhitelistITN(s, i); w != nil {
			return nil
		}
		return m
	}
	if m, ok := enCommaPhoneITN(s, i); ok {
		return []match{m}
	}
	k := 0
	plus := false
	if len(ws) > 1 && ws[0] == "plus" {
		plus, k = true, 1
	}
	// Toll-free numbers say the area code as a number: "one eight hundred
	// five five five one two one two" → "1-800-555-1212".
	if !plus {
		j, pre := k, ""
		if j < len(ws) && ws[j] == "one" {
			j, pre = j+1, "1-"
		}
		if j+1 < len(ws) && ws[j+1] == "hundred" && (ws[j] == "eight" || ws[j] == "nine") {
			if d, n := enDigitRun(ws[j+2:]); len(d) == 7 {
				area := strconv.Itoa(enWordVal[ws[j]] * 100)
				return one(idx[j+1+n], Telephone, pre+area+"-"+d[:3]+"-"+d[3:])
			}
		}
	}
	digits, n := enDigitRun(ws[k:])
	if n == 0 {
		return nil
	}
	k += n
	// Dotted: IP addresses "one two three dot one two three dot o dot four o".
	if !plus && k < len(ws) && ws[k] == "dot" {
		parts := []string{digits}
		for k < len(ws) && ws[k] == "dot" {
			d, n := enDigitRun(ws[k+1:])
			if n == 0 {
				break
			}
			parts = append(parts, d)
			k += 1 + n
		}
		if len(parts) == 4 {
			return one(idx[k-1], Telephone, strings.Join(parts, "."))
		}
		return nil
	}
	cc := ""
	if plus {
		if len(digits) <= 10 {
			return nil
		}
		cc, digits = "+"+digits[:len(digits)-10]+" ", digits[len(digits)-10:]
	}
	out, ok := enGroupDigits(digits, plus)
	if !ok {
		return nil
	}
	return one(idx[k-1], Telephone, cc+out)
}

// enCommaPhoneITN reads a number spoken in groups separated by commas, as
// TN writes one: "five five five, one two three, four five six seven" →
// "555-123-4567", "plus one, ..." → "+1 555-123-4567", "one, eight
// hundred, ..." → "1-800-...". Every group must be digits only.
func enCommaPhoneITN(s *stream, i int) (match, bool) {
	var groups []string
	plus := false
	end, k := 0, i
	for len(groups) < 6 {
		ws, idx := s.words(k, 12)
		if len(ws) == 0 {
			break
		}
		w0 := 0
		if len(groups) == 0 && ws[0] == "plus" {
			plus, w0 = true, 1
		}
		var d string
		var n int
		if len(ws) == w0+2 && ws[w0+1] == "hundred" && (ws[w0] == "eight" || ws[w0] == "nine") && len(groups) > 0 {
			d, n = strconv.Itoa(enWordVal[ws[w0]]*100), 2
		} else {
			d, n = enDigitRun(ws[w0:])
		}
		if n == 0 || w0+n != len(ws) || strings.Trim(d, "0123456789") != "" || n < 2 && !(len(groups) == 0 && len(d) == 1) {
			break // the group must be digits, all of the run, said in two words or more
		}
		groups = append(groups, d)
		end = idx[len(ws)-1]
		if !s.is(end, ",") || s.kind(end+1) != tSpace || s.kind(end+2) != tWord {
			break
		}
		k = end + 2
	}
	if len(groups) < 2 {
		return match{}, false
	}
	// A phone's groups have two digits or more, after a leading country
	// code or "1": "five, six, seven, eight" is a count.
	for x, g := range groups {
		if len(g) < 2 && !(x == 0 && (plus || g == "1" && len(groups) >= 4)) {
			return match{}, false
		}
	}
	all := strings.Join(groups, "")
	switch {
	case plus && len(all) > 10:
		return one(end, Telephone, "+"+all[:len(all)-10]+" "+all[len(all)-10:len(all)-7]+"-"+all[len(all)-7:len(all)-4]+"-"+all[len(all)-4:])[0], true
	case len(groups) == 4 && groups[1] == "800" || len(groups) == 4 && groups[1] == "900":
		return one(end, Telephone, strings.Join(groups, "-"))[0], true
	case !plus && (len(all) == 10 || len(all) == 7 || len(all) == 9):
		out, _ := enGroupDigits(all, false)
		return one(end, Telephone, out)[0], true
	}
	return match{}, false
}

// enGroupDigits writes a spoken run of digits in the layout its length
// implies, as NeMo's telephone grammar does: a phone number 3-3-4 (after a
// country code of one to three digits when there are 11 to 13; 1-3-3-4
// for eleven digits starting with 1, the North American trunk prefix), a social
// security number 3-2-4, a local number 3-4, a card number in groups of
// four (16 digits), 4 6 4 (14) or 4 6 5 (15), after a three-digit prefix
// when there are 17 to 19. Other lengths are written solid from 11 digits
// on; shorter runs are no telephone number.
func enGroupDigits(d string, afterPlus bool) (string, bool) {
	phone := func(d string) string { return d[:3] + "-" + d[3:6] + "-" + d[6:] }
	card := func(d string) string {
		switch len(d) {
		case 14, 15:
			return d[:4] + " " + d[4:10] + " " + d[10:]
		default:
			return d[:4] + " " + d[4:8] + " " + d[8:12] + " " + d[12:]
		}
	}
	switch n := len(d); {
	case n == 10:
		return phone(d), true
	case n == 9:
		return d[:3] + "-" + d[3:5] + "-" + d[5:], true
	case n == 7:
		return d[:3] + "-" + d[3:], true
	case afterPlus:
		return d, n >= 11
	case n == 11 && d[0] == '1':
		// The North American trunk prefix: "1-888-555-0142", as the
		// toll-free "1-800-555-1212".
		return "1-" + phone(d[1:]), true
	case n >= 11 && n <= 13:
		return d[:n-10] + " " + phone(d[n-10:]), true
	case n >= 14 && n <= 16:
		return card(d), true
	case n >= 17 && n <= 19:
		return d[:3] + " " + card(d[3:]), true
	}
	return d, len(d) >= 11
}

// enClitic reports whether word i is a clitic glued by an apostrophe to
// the word before it ("it's", "we'd"): the "s" of "it's three" is no
// spelled letter ("S3" of the whitelist).
func enClitic(s *stream, i int) bool {
	return (s.is(i-1, "'") || s.is(i-1, "’")) && s.kind(i-2) == tWord
}

// enSerialITN joins spelled letters and a number: "e s three" → "es3",
// "x eighty six" → "x86".
func enSerialITN(s *stream, ws []string, idx []int) []match {
	k := 0
	var b strings.Builder
	for k < len(ws) && len(ws[k]) == 1 && ws[k] != "o" {
		b.WriteString(s.text(idx[k] - 1))
		k++
	}
	if k == 0 || k == 1 && ws[0] != "x" || k >= len(ws) {
		return nil
	}
	digits, n := enDigitRun(ws[k:])
	if n == 0 {
		return nil
	}
	if r, ok := enParseNum(ws[k:]); ok && r.words > n {
		return nil
	}
	return one(idx[k+n-1], Telephone, b.String()+digits)
}

// Electronic: "a dot b c at g mail dot com".

func enElectronicITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) {
		return nil
	}
	ws, idx := s.words(i, 60)
	if !slices.Contains(ws, "dot") {
		return nil
	}
	var b strings.Builder
	k := 0
	at, dots, longWords := 0, 0, 0
	lastDot := -1
	// Inside a web address already started ("w w w dot", "h t t p colon
	// slash slash"), a label said as two words is one label when a "dot"
	// follows it, as an e-mail domain is ("w w w dot city parks dot org"
	// → "www.cityparks.org").
	joinable := func(k int) bool {
		// The host is what follows the scheme; a slash after its last dot
		// means the path has begun, where words are not joined.
		o := b.String()
		if p := strings.Index(o, "://"); p >= 0 {
			o = o[p+3:]
		} else if !strings.HasPrefix(o, "www.") {
			return false
		}
		if strings.Contains(o[strings.LastIndexByte(o, '.')+1:], "/") {
			return false
		}
		for q := k; q < len(ws) && q < k+3; q++ {
			if ws[q] == "dot" {
				return true
			}
			if enElecSym[ws[q]] != "" || len(ws[q]) == 1 {
				return false
			}
		}
		return false
	}
	for k < len(ws) {
		w := ws[k]
		if sym, ok := enElecSym[w]; ok {
			if w == "at" {
				if at > 0 {
					// "me at john dot doe at gmail dot com": the first
					// "at" was the preposition; the address starts later.
					return nil
				}
				if b.Len() == 0 {
					break
				}
				at++
			}
			if w == "dot" {
				dots++
				lastDot = k
			}
			b.WriteString(sym)
			k++
			continue
		}
		if d, ok := enDigitWord[w]; ok && w != "o" && w != "oh" {
			b.WriteByte(d)
			k++
			continue
		}
		if len(w) == 1 {
			if at == 0 && k > 0 && len(ws[k-1]) > 1 && enElecSym[ws[k-1]] == "" && enDigitWord[ws[k-1]] == 0 {
				break // "go to w w w dot ...": a word, then spelled letters
			}
			b.WriteString(s.text(idx[k] - 1))
			k++
			continue
		}
		if at == 0 && longWords > 0 && b.Len() > 0 && !strings.ContainsAny(b.String()[b.Len()-1:], "./-_:") && !joinable(k) {
			break // a word after a word, not joined by a symbol
		}
		longWords++
		b.WriteString(s.text(idx[k] - 1))
		k++
		if lastDot == k-2 && (k >= len(ws) || enElecSym[ws[k]] == "" && len(ws[k]) > 1 && (enTLD[ws[k-1]] || !joinable(k))) {
			break
		}
	}
	out := lowerSpelledScheme(ws, b.String())
	// Must end with ".tld" and contain a dot after the @ (if any).
	if dots == 0 || lastDot < 0 || lastDot+1 >= k || strings.HasSuffix(out, ".") {
		return nil
	}
	host := out
	if p := strings.Index(host, "://"); p >= 0 {
		host = host[p+3:]
	}
	if p := strings.IndexByte(host, '/'); p >= 0 {
		host = host[:p] // the path after the domain
	}
	tld := host[strings.LastIndexByte(host, '.')+1:]
	if !enTLD[tld] && at == 0 && !strings.HasPrefix(out, "http") && !strings.HasPrefix(out, "www") {
		return nil
	}
	if strings.HasPrefix(out, "http:") || strings.HasPrefix(out, "https:") {
		// "h t t p colon slash slash" is already joined
	} else if at == 0 && strings.Count(out, ".") == 0 {
		return nil
	}
	// trim trailing tokens after the tld word
	if strings.HasPrefix(out, ".") {
		return nil
	}
	return one(idx[k-1], Electronic, out)
}

// Whitelist.

// enWhitelistITN writes the abbreviations and terms of data/en.tsv back:
// "doctor" → "dr.", "Doctor" → "Dr.", "c u d n n" → "cuDNN".
func enWhitelistITN(s *stream, i int) []match {
	if s.kind(i) != tWord || !s.startOK(i) || enClitic(s, i) {
		return nil
	}
	ws, idx := s.words(i, enWhitelistMaxWords)
	for n := len(ws); n >= 1; n-- {
		key := strings.Join(ws[:n], " ")
		if out, ok := enWhitelistSpoken[key]; ok {
			// A title ("dr.", "mr.", "st.") is written so only before a
			// name: "doctor smith" → "dr. smith", but "the doctor said",
			// "she is a doctor" keep the word.
			if enTitleAbbr(out) && (s.kind(idx[n-1]) != tSpace || s.kind(idx[n-1]+1) != tWord || enDeterminers[strings.ToLower(s.text(i-2))] && s.kind(i-1) == tSpace) {
				continue
			}
			// A street type ("drive" → "dr.") is written so only after
			// a street name: "i drive home", "we drive" keep the verb.
			if enTitleAbbr(out) && enStreetWords[key] && (s.kind(i-1) != tSpace || s.kind(i-2) != tWord || enAddressStop[strings.ToLower(s.text(i-2))]) {
				continue
			}
			// A capitalized input capitalizes the term: "Doctor" → "Dr.",
			// "E s three" → "Es3".
			if c := s.text(i); c != strings.ToLower(c) {
				out = strings.ToUpper(out[:1]) + out[1:]
			}
			return one(idx[n-1], Whitelist, out)
		}
	}
	return nil
}

// enDeterminers are words after which a title word is a common noun ("the
// doctor", "a saint").
var enDeterminers = wordSet("the a an my your his her its our their this that these those every each no any some another")

// enTitleAbbr reports whether a whitelist output is a title abbreviation
// written before a name: one lower-case word ending in a period ("dr.").
func enTitleAbbr(out string) bool {
	return len(out) >= 3 && strings.HasSuffix(out, ".") && strings.ToLower(out) == out && isASCIILetters(out[:len(out)-1])
}
