package normalize

import (
	"strconv"
	"strings"
)

// English number words, shared by TN and ITN.

var enOnes = [...]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
	"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"}

var enTens = [...]string{"", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}

// enScales[k] names 1000^k.
var enScales = [...]string{"", "thousand", "million", "billion", "trillion", "quadrillion", "quintillion", "sextillion"}

// en99 spells 0 < n < 100.
func en99(n int) string {
	if n < 20 {
		return enOnes[n]
	}
	if n%10 == 0 {
		return enTens[n/10]
	}
	return enTens[n/10] + " " + enOnes[n%10]
}

// en999 spells 0 < n < 1000; and inserts "and" after "hundred".
func en999(n int, and bool) string {
	if n > 0 && n < 1000 {
		return en999Table[btoi(and)][n]
	}
	return en999Spell(n, and)
}

// en999Table holds en999 for 1–999, without and with "and": the spelling
// every English cardinal is made of.
var en999Table = func() (t [2][1000]string) {
	for n := 1; n < 1000; n++ {
		t[0][n], t[1][n] = en999Spell(n, false), en999Spell(n, true)
	}
	return t
}()

func en999Spell(n int, and bool) string {
	h, r := n/100, n%100
	switch {
	case h == 0:
		return en99(r)
	case r == 0:
		return enOnes[h] + " hundred"
	case and:
		return enOnes[h] + " hundred and " + en99(r)
	}
	return enOnes[h] + " hundred " + en99(r)
}

// enCardinal spells a run of ASCII digits (leading zeros ignored). With and,
// the last three-digit group carries "and" ("one hundred and twenty three",
// "eighteen thousand and one"). Numbers too long for the scale names are read
// digit by digit.
func enCardinal(digits string, and bool) string {
	digits = strings.TrimLeft(digits, "0")
	if digits == "" {
		return "zero"
	}
	if len(digits) > 3*len(enScales) {
		return enDigits(digits)
	}
	if len(digits) <= 3 { // one group: most numbers
		g, _ := strconv.Atoi(digits)
		if g == 0 {
			return ""
		}
		return en999(g, and)
	}
	var gbuf [len(enScales)]int
	groups := gbuf[:0]
	for len(digits) > 0 {
		k := len(digits) % 3
		if k == 0 {
			k = 3
		}
		g, _ := strconv.Atoi(digits[:k])
		groups = append(groups, g)
		digits = digits[k:]
	}
	var pbuf [len(enScales)]string
	parts := pbuf[:0]
	for i, g := range groups {
		scale := len(groups) - 1 - i
		if g == 0 {
			continue
		}
		last := scale == 0
		if last && and && len(groups) > 1 && g < 100 {
			parts = append(parts, "and "+en99(g))
			continue
		}
		w := en999(g, last && and)
		if scale > 0 {
			w += " " + enScales[scale]
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, " ")
}

// enDigits reads each digit: "004" → "zero zero four".
func enDigits(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(enOnes[s[i]-'0'])
	}
	return b.String()
}

// enOrdinalWords turns spelled cardinal words into the ordinal:
// "twenty one" → "twenty first".
func enOrdinalWords(card string) string {
	i := strings.LastIndexByte(card, ' ')
	head, last := card[:i+1], card[i+1:]
	if o, ok := enOrdIrregular[last]; ok {
		last = o
	} else if strings.HasSuffix(last, "y") {
		last = last[:len(last)-1] + "ieth"
	} else {
		last += "th"
	}
	return head + last
}

// enOrdinal spells digits as an ordinal without "and".
func enOrdinal(digits string) string { return enOrdinalWords(enCardinal(digits, false)) }

// enOrdinalSuffix is the written suffix for n: 1 → "st", 12 → "th".
func enOrdinalSuffix(n int) string {
	if n%100 >= 11 && n%100 <= 13 {
		return enOrdSuffixByDigit['*']
	}
	if suf, ok := enOrdSuffixByDigit[byte('0'+n%10)]; ok {
		return suf
	}
	return enOrdSuffixByDigit['*']
}

// enYear reads a four-digit year the way years are said: 1976 "nineteen
// seventy six", 1905 "nineteen oh five", 1900 "nineteen hundred", 2008 "two
// thousand eight", 2012 "twenty twelve". ok is false outside 1000..2999 or for
// other lengths.
func enYear(digits string) (string, bool) {
	if len(digits) != 4 && len(digits) != 3 || digits[0] == '0' {
		return "", false
	}
	n, err := strconv.Atoi(digits)
	if err != nil {
		return "", false
	}
	if len(digits) == 3 { // 750 → seven fifty
		if n%100 == 0 {
			return enCardinal(digits, false), true
		}
		if n%100 < 10 {
			return enOnes[n/100] + " oh " + enOnes[n%10], true
		}
		return enOnes[n/100] + " " + en99(n%100), true
	}
	hi, lo := n/100, n%100
	switch {
	case n%1000 == 0:
		return enCardinal(digits, false), true
	case n >= 2000 && n < 2010:
		return "two thousand " + enOnes[lo], true
	case lo == 0:
		return en99(hi) + " hundred", true
	case lo < 10:
		return en99(hi) + " oh " + enOnes[lo], true
	}
	return en99(hi) + " " + en99(lo), true
}

// enDecimal spells "12.50" as "twelve point five zero"; intPart may be empty
// (".5" → "point five").
func enDecimal(intPart, frac string, and bool) string {
	var b strings.Builder
	if intPart != "" {
		b.WriteString(enCardinal(intPart, and))
		b.WriteByte(' ')
	}
	b.WriteString("point")
	if frac != "" {
		b.WriteByte(' ')
		b.WriteString(enDigits(frac))
	}
	return b.String()
}

// stripCommas removes thousands separators when they group correctly
// ("1,234,567"); ok is false for misplaced commas.
func stripCommas(s string) (string, bool) {
	if !strings.Contains(s, ",") {
		return s, true
	}
	parts := strings.Split(s, ",")
	if len(parts[0]) == 0 || len(parts[0]) > 3 {
		return "", false
	}
	for _, p := range parts[1:] {
		if len(p) != 3 {
			return "", false
		}
	}
	return strings.Join(parts, ""), true
}
