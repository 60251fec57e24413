package normalize

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Mandarin Chinese rules. Every Han character is its own token, so matchers
// walk rune by rune.

var zhDigits = []string{"零", "一", "二", "三", "四", "五", "六", "七", "八", "九"}

// zhSection spells 0 < n < 10000; lead drops "一" before 十 at the start.
func zhSection(n int, lead bool) string {
	var b strings.Builder
	units := []string{"千", "百", "十", ""}
	ds := [4]int{n / 1000, n / 100 % 10, n / 10 % 10, n % 10}
	zero := false
	started := false
	for k, d := range ds {
		if d == 0 {
			if started {
				zero = true
			}
			continue
		}
		if zero {
			b.WriteString("零")
			zero = false
		}
		switch {
		case lead && !started && k == 2 && d == 1:
		case k == 0 && d == 2:
			b.WriteString("两")
		default:
			b.WriteString(zhDigits[d])
		}
		b.WriteString(units[k])
		started = true
	}
	return b.String()
}

var zhBigUnits = []string{"", "万", "亿", "万亿"}

// zhCardinal spells a digit string in Chinese numerals.
func zhCardinal(d string) string {
	d = strings.TrimLeft(d, "0")
	if d == "" {
		return "零"
	}
	if len(d) > 16 {
		return zhDigitsRead(d)
	}
	secs := splitGroups(d, 4)
	var b strings.Builder
	pendingZero := false
	for k, v := range secs {
		scale := len(secs) - 1 - k
		if v == 0 {
			pendingZero = b.Len() > 0
			continue
		}
		lead := b.Len() == 0
		if b.Len() > 0 && (pendingZero || v < 1000) {
			b.WriteString("零")
			// a 万 or 亿 group of ten to nineteen after 零 reads as at the
			// head: 10000100000 → 一百亿零十万 (the last group keeps 一十:
			// 10010 → 一万零一十)
			lead = scale > 0 && v < 100
		}
		pendingZero = false
		if v == 2 && scale > 0 && b.Len() == 0 {
			// a lone 2 heading the number before 万 or 亿 counts them:
			// 20000 → 两万, 200000000 → 两亿 (as 2000 → 两千)
			b.WriteString("两")
		} else {
			b.WriteString(zhSection(v, lead))
		}
		b.WriteString(zhBigUnits[scale])
	}
	return b.String()
}

func zhDigitsRead(d string) string {
	var b strings.Builder
	for k := 0; k < len(d); k++ {
		if d[k] >= '0' && d[k] <= '9' {
			b.WriteString(zhDigits[d[k]-'0'])
		}
	}
	return b.String()
}

func zhNumber(n numLit) string {
	w := zhCardinal(n.intPart)
	if n.point {
		w += "点" + zhDigitsRead(n.frac)
	}
	if n.neg {
		w = "负" + w
	}
	return w
}

// The Chinese word tables, from data/zh.tsv: TN reads a unit or currency
// by its written form, ITN by its Chinese name, from the same rows.
var (
	zhUnitsTN     = map[string]string{} // written unit → name
	zhCurrencyTN  = map[string]string{} // symbol or code → name
	zhUnitITN     = zhTermSet{}         // name → written unit
	zhCurrencyITN = zhTermSet{}         // name → symbol
	zhMinorITN    = zhTermSet{}         // minor unit name → symbol ("美分" → "US$")
	zhWhitelist   = map[string]string{} // Chinese term → Latin-letter term (ITN)
	zhTNTerms     = map[string]string{} // written term of several tokens → reading (TN)
	zhTNTermFirst = map[string]int{}    // first token of a zhTNTerms key → most tokens
	zhCurFirst    = map[string]int{}    // first token of a currency symbol → most tokens
	zhTeams       = map[string]bool{}   // sport teams, before a score
	zhTeamRunes   = 0                   // the most runes a team name has
	zhUpper       = map[string]string{} // Latin-letter term, lower-cased → its written form (TN)
	zhMath        = map[string]string{} // math symbol → reading (TN)
	zhClassifiers = zhTermSet{}         // measure words before which 2 reads 两
)

// zhTerm pairs a Chinese name with what ITN writes for it; n is the
// name's length in characters (tokens).
type zhTerm struct {
	word, sym string
	n         int
}

// zhTermSet indexes terms by their first character, longest first.
type zhTermSet map[string][]zhTerm

func (ts zhTermSet) add(word, sym string) {
	first := string([]rune(word)[:1])
	ts[first] = append(ts[first], zhTerm{word, sym, utf8.RuneCountInString(word)})
	slices.SortStableFunc(ts[first], func(a, b zhTerm) int { return b.n - a.n })
}

// prefixOf reports whether a term of the set begins the string w.
func (ts zhTermSet) prefixOf(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	for _, t := range ts[string(r)] {
		if strings.HasPrefix(w, t.word) {
			return true
		}
	}
	return false
}

func init() {
	lx := lexiconFor("zh")
	claimed := map[string]bool{}
	for _, u := range lx.units() {
		for _, w := range u.written {
			if _, taken := zhUnitsTN[w]; !taken {
				zhUnitsTN[w] = u.singular[0]
			}
		}
		if u.has("noitn") {
			continue
		}
		for _, name := range u.singular {
			if !claimed[name] {
				claimed[name] = true
				zhUnitITN.add(name, u.written[0])
			}
		}
	}
	for _, c := range lx.currencies() {
		for _, w := range c.symbols {
			if _, taken := zhCurrencyTN[w]; !taken {
				zhCurrencyTN[w] = c.major[0]
				toks := tokenize(w)
				f := w[toks[0].start:toks[0].end]
				zhCurFirst[f] = max(zhCurFirst[f], len(toks))
			}
		}
		for _, name := range c.major {
			if !claimed[name] {
				claimed[name] = true
				zhCurrencyITN.add(name, c.symbols[0])
			}
		}
		for _, name := range c.minor {
			if !claimed[name] {
				claimed[name] = true
				zhMinorITN.add(name, c.symbols[0])
			}
		}
	}
	for _, p := range lx.pairs("abbreviations") {
		if p.has("itn") {
			for _, sp := range p.spoken {
				zhWhitelist[sp] = p.written[0]
			}
		}
	}
	// phrases ITN leaves as written although they hold numerals
	// ("三心二意", "一会"): each reads as itself, and the longest match wins
	for _, r := range lx.rows("itn_keep") {
		for _, w := range alts(r[0]) {
			zhWhitelist[w] = w
		}
	}
	for _, p := range lx.pairs("tn_terms") {
		for _, w := range p.written {
			zhTNTerms[w] = p.spoken[0]
			toks := tokenize(w)
			f := w[toks[0].start:toks[0].end]
			zhTNTermFirst[f] = max(zhTNTermFirst[f], len(toks))
		}
	}
	for _, r := range lx.rows("sport_teams") {
		for _, w := range alts(r[0]) {
			zhTeams[w] = true
			zhTeamRunes = max(zhTeamRunes, utf8.RuneCountInString(w))
		}
	}
	for _, r := range lx.rows("upper_terms") {
		ws := alts(r[0])
		for _, w := range ws {
			zhUpper[strings.ToLower(w)] = ws[0]
		}
	}
	for _, p := range lx.pairs("math") {
		for _, w := range p.written {
			zhMath[w] = p.spoken[0]
		}
	}
	for _, r := range lx.rows("classifiers") {
		for _, w := range alts(r[0]) {
			zhClassifiers.add(w, w)
		}
	}
}

// zhLiang returns the reading of the digit string d before token j: the
// number 2 counting something ("2个", "2点", "2公里") is 两, not 二; after
// 第 it is an ordinal and stays 二.
func zhLiang(s *stream, i, j int, d, reading string) string {
	if d != "2" || reading != "二" || s.is(i-1, "第") {
		return reading
	}
	if zhTermLen(s, j, zhClassifiers) > 0 {
		return "两"
	}
	// the first number of a range counts what the second does: "2-3天"
	// 两到三天 (WeTextProcessing's measure rule)
	if zhRangeDash(s.text(j)) && s.kind(j+1) == tNum {
		if n, ok := scanNumber(s, j+1, ".", ","); ok && !n.neg && zhTermLen(s, n.end, zhClassifiers) > 0 {
			return "两"
		}
	}
	return reading
}

func zhRangeDash(t string) bool { return t == "-" || t == "~" || t == "～" || t == "–" }

// zhRangeTN reads the dash or tilde of a range as 到, as WeTextProcessing's
// measure, time and range rules do: a count or a measure ("3-5天" 三到五天,
// "1-2岁" 一到两岁, "5kg-10kg"), two clock times ("08:30-10:00"
// 八点三十分到十点) and two dates ("5月1日-5月5日", "1-2月"). What
// follows the dash decides: a number and then a unit, a measure word or a
// date's 月 日 号, or a clock time after a clock time. Other dashes
// (telephone numbers, scores, codes, a minus sign) are left to the other
// rules.
func zhRangeTN(s *stream, i int) []match {
	if i == 0 || !zhRangeDash(s.text(i)) || s.kind(i+1) != tNum {
		return nil
	}
	prev := s.text(i - 1)
	dateEnd := prev == "月" || prev == "日" || prev == "号"
	if (s.is(i+2, ":") || s.is(i+2, "：")) && s.kind(i+3) == tNum {
		if s.kind(i-1) == tNum && (s.is(i-2, ":") || s.is(i-2, "：")) {
			return one(i+1, Time, "到")
		}
		return nil
	}
	n, ok := scanNumber(s, i+1, ".", ",")
	if !ok || n.neg {
		return nil
	}
	e := n.end
	switch t := s.text(e); {
	case t == "月" || t == "日" || t == "号":
		if s.kind(i-1) == tNum && !s.is(i-2, "-") || dateEnd {
			return one(i+1, Date, "到")
		}
	case zhPercent(s, e):
		if zhPercent(s, i-1) { // "3%-5%" 百分之三到百分之五
			return one(i+1, Measure, "到")
		}
	case zhTermLen(s, e, zhClassifiers) > 0 || zhUnitEnds(s, e):
		if s.kind(i-1) == tNum && !s.is(i-2, "-") || zhTermLen(s, i-1, zhClassifiers) == 1 || zhUnitsTN[prev] != "" {
			return one(i+1, Measure, "到")
		}
	}
	return nil
}

// zhUnitEnds reports whether a written unit starts at j and ends a word.
func zhUnitEnds(s *stream, j int) bool {
	u, _ := zhUnitAt(s, j)
	return u != ""
}

func init() {
	register(&rules{
		tag: "zh", name: "Chinese (Mandarin)", script: "Hani", variant: zhVariant,
		tn: map[string]matcher{
			Cardinal: zhCardinalTN, Decimal: zhDecimalTN, Fraction: zhFractionTN, Money: zhMoneyTN,
			Measure: zhMeasureTN, Date: zhDateTN, Time: zhTimeTN, Whitelist: zhWhitelistTN,
			Telephone: zhTelephoneTN, Verbatim: orMatch(zhVerbatimTN, zhMathTN, zhRatioTN, zhSportTN, zhRangeTN),
		},
		itn: map[string]matcher{
			Cardinal: zhCardinalITN, Decimal: zhDecimalITN, Fraction: zhFractionITN, Money: zhMoneyITN,
			Date: zhDateITN, Time: zhTimeITN, Ordinal: zhOrdinalITN, Whitelist: zhWhitelistITN,
			Measure: zhMeasureITN,
		},
	})
}

// zhScan reads a number in written Chinese text: ASCII digits with an
// optional decimal part and minus sign ("-" or 负).
func zhScan(s *stream, i int) (numLit, int, bool) {
	j := i
	neg := false
	if (s.is(j, "负") || s.is(j, "-") && (j == 0 || s.kind(j-1) == tHan && !zhRangeLeft(s, j-1) || s.kind(j-1) == tSpace || s.kind(j-1) == tSym && !(zhPercent(s, j-1) && zhPercentRange(s, j)))) && s.kind(j+1) == tNum {
		neg, j = true, j+1
	}
	n, ok := scanNumber(s, j, ".", ",")
	if !ok {
		return n, i, false
	}
	if neg {
		n.neg = true
	}
	return n, n.end, true
}

// zhRangeLeft reports whether the Han token k can end the first half of a
// range, so that a dash after it is not a minus sign: a date's 月 日 号 or
// a measure word ("5月1日-5月5日", "3个-5个"; "气温-5℃" keeps its sign).
func zhRangeLeft(s *stream, k int) bool {
	t := s.text(k)
	return t == "月" || t == "日" || t == "号" || zhTermLen(s, k, zhClassifiers) == 1 && s.kind(k-1) == tNum
}

func zhCardinalTN(s *stream, i int) []match {
	n, end, ok := zhScan(s, i)
	if !ok || n.point || s.kind(end) == tWord && !zhAllowedAfter(s.text(end)) {
		return nil
	}
	// Years: digits before 年 are read one by one, except durations
	// ("2年后" → "两年后", "20年内" → "二十年内").
	if s.is(end, "年") {
		// a decade: "80年代" → "八十年代" (a full year stays digits:
		// "1980年代" → "一九八零年代")
		if len(n.intPart) == 2 && n.intPart[1] == '0' && n.intPart[0] != '0' && s.is(end+1, "代") {
			return one(end, Cardinal, zhCardinal(n.intPart))
		}
		// after a word that counts time it is a duration too ("住了15年",
		// "过了20年", "约30年", "近10年"), and after 第 an ordinal ("第15年")
		prev := s.text(i - 1)
		counted := prev != "" && utf8.RuneCountInString(prev) == 1 && strings.Contains("了过近约共满整第每这那达逾超", prev) && n.intPart[0] != '0'

		if len(n.intPart) <= 2 && !n.neg && (counted || strings.Contains("后前内里来多间半", s.text(end+1)) && s.text(end+1) != "") {
			w := zhCardinal(n.intPart)
			if w == "二" && prev != "第" {
				w = "两"
			}
			return one(end, Cardinal, w)
		}
		return one(end, Date, zhDigitsRead(n.intPart))
	}
	// A generation by decade of birth: "90后" → "九零后".
	if s.is(end, "后") && len(n.intPart) == 2 && n.intPart[1] == '0' {
		return one(end, Cardinal, zhDigitsRead(n.intPart))
	}
	// Digit strings after 尾号/号码/电话 are read digit by digit ("幺" for 1).
	for _, cue := range []string{"尾号", "尾号是", "尾号为", "号码", "号码是", "电话", "电话是"} {
		k := utf8.RuneCountInString(cue)
		if i >= k && s.span(i-k, i) == cue {
			return one(end, Telephone, strings.ReplaceAll(zhDigitsRead(n.intPart), "一", "幺"))
		}
	}
	if len(n.intPart) > 1 && n.intPart[0] == '0' || len(n.intPart) > 16 {
		return one(end, Cardinal, zhDigitsRead(n.intPart))
	}
	if !n.neg {
		return one(end, Cardinal, zhLiang(s, i, end, n.intPart, zhNumber(n)))
	}
	return one(end, Cardinal, zhNumber(n))
}

// zhPhoneDigits reads a telephone number's digits one by one, 1 as 幺.
func zhPhoneDigits(d string) string { return strings.ReplaceAll(zhDigitsRead(d), "一", "幺") }

// zhTelephoneTN reads telephone numbers digit by digit, 1 as 幺 (the
// reading after 电话 or 号码): a mobile number of eleven digits starting
// 13–19, whole or grouped 3-4-4 ("138 0013 8000"); a number with an area
// code, "010-12345678", "0755-1234567"; a service number "400-123-4567";
// and any of them after a country code, "+86 138 0013 8000" (加八六…).
// The group separators are dropped.
func zhTelephoneTN(s *stream, i int) []match {
	j := i
	prefix := ""
	if s.is(j, "+") || s.is(j, "＋") {
		if s.kind(j+1) != tNum || len(s.text(j+1)) > 3 || !(s.kind(j+2) == tSpace || s.is(j+2, "-")) || s.kind(j+3) != tNum {
			return nil
		}
		prefix = "加" + zhPhoneDigits(s.text(j+1))
		j += 3
	}
	if s.kind(j) != tNum || j == i && (s.kind(j-1) == tWord || s.is(j-1, ".") || s.is(j-1, "-")) {
		return nil
	}
	// the groups: digits joined by "-" or single spaces
	groups := []string{s.text(j)}
	e := j + 1
	for (s.is(e, "-") || s.kind(e) == tSpace && s.is(e, " ")) && s.kind(e+1) == tNum && len(groups) < 4 {
		groups = append(groups, s.text(e+1))
		e += 2
	}
	// stop at the last group that makes a number
	for len(groups) > 0 {
		// a count ("13800138000人") is no number to call
		if zhPhoneShape(groups) && (e >= s.n() || s.kind(e) != tNum && !s.is(e, ".") && !s.is(e, "%") && s.kind(e) != tWord && zhTermLen(s, e, zhClassifiers) == 0) {
			// preferred to the cardinal reading of the same digits
			return []match{{end: e, readings: []reading{{text: prefix + zhPhoneDigits(strings.Join(groups, "")), class: Telephone, cost: -0.1}}}}
		}
		groups = groups[:len(groups)-1]
		e -= 2
	}
	return nil
}

// zhPhoneShape reports whether digit groups have a telephone number's
// shape (see zhTelephoneTN).
func zhPhoneShape(g []string) bool {
	all := strings.Join(g, "")
	mobile := len(all) == 11 && all[0] == '1' && all[1] >= '3' && (len(g) == 1 || len(g) == 3 && len(g[0]) == 3 && len(g[1]) == 4)
	area := len(g) == 2 && g[0][0] == '0' && (len(g[0]) == 3 || len(g[0]) == 4) && (len(g[1]) == 7 || len(g[1]) == 8)
	service := len(g) == 3 && (g[0] == "400" || g[0] == "800") && len(g[1]) == 3 && len(g[2]) == 4
	return mobile || area || service
}

// zhPercent reports whether token j is a percent sign.
func zhPercent(s *stream, j int) bool { return s.is(j, "%") || s.is(j, "％") }

// zhPercentRange reports whether a range dash at token j is followed by a
// percentage, a number and a percent sign ("3-5%" from the 3).
func zhPercentRange(s *stream, j int) bool {
	if !zhRangeDash(s.text(j)) || s.kind(j+1) != tNum {
		return false
	}
	n, ok := scanNumber(s, j+1, ".", ",")
	return ok && !n.neg && zhPercent(s, n.end)
}

func zhAllowedAfter(w string) bool { return w == "am" || w == "pm" }

func zhDecimalTN(s *stream, i int) []match {
	n, end, ok := zhScan(s, i)
	if !ok || !n.point {
		return nil
	}
	return one(end, Decimal, zhNumber(n))
}

func zhFractionTN(s *stream, i int) []match {
	// percent: 5%, -98%, 0.4%
	if n, end, ok := zhScan(s, i); ok && (zhPercent(s, end) || zhPercentRange(s, end)) {
		w := zhNumber(numLit{intPart: n.intPart, frac: n.frac, point: n.point})
		out := "百分之" + w
		if n.neg {
			out = "负" + out
		}
		if !zhPercent(s, end) {
			// a range of percentages written with one sign: "3-5%"
			// 百分之三到百分之五, as "3%-5%" reads
			n2, _ := scanNumber(s, end+1, ".", ",")
			return one(n2.end+1, Fraction, out+"到百分之"+zhNumber(numLit{intPart: n2.intPart, frac: n2.frac, point: n2.point}))
		}
		return one(end+1, Fraction, out)
	}
	j := i
	neg := ""
	if s.is(j, "负") || s.is(j, "-") && s.minusOK(j) {
		neg, j = "负", j+1
	}
	if neg != "" && s.is(j, "百") && s.is(j+1, "分") && s.is(j+2, "之") {
		return one(j, Fraction, neg) // "-百分之1": the sign alone
	}
	if s.kind(j) == tNum && s.is(j+1, "/") && s.kind(j+2) == tNum && !s.is(j+3, "/") && !s.is(j-1, "/") {
		return one(j+3, Fraction, neg+zhCardinal(s.text(j+2))+"分之"+zhCardinal(s.text(j)))
	}
	if s.kind(j) == tNum && s.kind(j+1) == tSpace && s.is(j+2, "/") && s.kind(j+3) == tSpace && s.kind(j+4) == tNum {
		return one(j+5, Fraction, neg+zhCardinal(s.text(j+4))+"分之"+zhCardinal(s.text(j)))
	}
	return nil
}

func zhMoneyTN(s *stream, i int) []match {
	// the longest symbol of up to three tokens: "HKD$", "S/.", "$"
	var cur string
	j := i
	for k := min(zhCurFirst[s.text(i)], s.n()-i); k >= 1; k-- {
		if c, ok := zhCurrencyTN[s.span(i, i+k)]; ok {
			cur, j = c, i+k
			break
		}
	}
	if cur == "" {
		return nil
	}
	if s.kind(j) == tSpace && s.kind(j-1) == tWord {
		j++
	}
	n, end, ok := zhScan(s, j)
	if !ok || n.neg {
		return nil
	}
	out := zhNumber(n)
	if s.is(end, "万") || s.is(end, "亿") {
		out += s.text(end)
		end++
	}
	return one(end, Money, out+cur)
}

func zhMeasureTN(s *stream, i int) []match {
	n, end, ok := zhScan(s, i)
	if !ok {
		n2, ok2 := scanNumber(s, i, ".", ",")
		if !ok2 {
			return nil
		}
		n, end = n2, n2.end
	}
	// a written unit after 万 or 亿 ("300万t" 三百万吨), as ITN writes
	// "五百万吨"
	scale := ""
	if (s.is(end, "万") || s.is(end, "亿")) && s.kind(end+1) != tHan {
		if u, _ := zhUnitAt(s, end+1); u != "" {
			scale = s.text(end)
			end++
		}
	}
	start := end
	if s.kind(start) == tSpace && s.kind(start+1) == tWord {
		start++ // "5 kg": a Latin unit after a space
	}
	u, e := zhUnitAt(s, start)
	if u == "" || start > end && e < s.n() && s.kind(e) == tWord {
		return nil
	}
	// a rate: "2MB/s" → 二兆字节每秒
	if s.is(e, "/") {
		if u2, e2 := zhUnitAt(s, e+1); u2 != "" {
			u, e = u+"每"+u2, e2
		}
	}
	w := zhNumber(n)
	if !n.neg && !n.point && start == end && s.kind(start) == tHan {
		w = zhLiang(s, i, start, n.intPart, w) // "2公里" → "两公里"
	} else if !n.neg && !n.point && n.intPart == "2" && w == "二" && !s.is(i-1, "第") && zhClassifiers.prefixOf(u) {
		w = "两" // a Latin-written unit reads as its Han name does: "2h" → "两小时"
	}
	return one(e, Measure, w+scale+u)
}

// zhUnitAt reads a written unit of up to three tokens at j, as written or
// lower-cased (the lower-cased form only for units of two letters or more:
// "G" is not "g"), and returns its name and the index after it.
func zhUnitAt(s *stream, j int) (string, int) {
	for w := 3; w >= 1; w-- {
		e := j + w
		if e > s.n() {
			continue
		}
		key := s.span(j, e)
		u, ok := zhUnitsTN[key]
		if !ok && utf8.RuneCountInString(key) > 1 {
			u, ok = zhUnitsTN[strings.ToLower(key)]
		}
		if ok && (e >= s.n() || s.kind(e) != tWord) {
			return u, e
		}
	}
	return "", j
}

func zhDateTN(s *stream, i int) []match {
	if s.kind(i) != tNum || !s.startOK(i) {
		return nil
	}
	a := s.text(i)
	// IP addresses: 127.0.0.1 → 一二七点零点零点一
	if s.is(i+1, ".") && s.kind(i+2) == tNum && s.is(i+3, ".") && s.kind(i+4) == tNum && s.is(i+5, ".") && s.kind(i+6) == tNum && s.boundary(i+7) {
		parts := []string{zhDigitsRead(a), zhDigitsRead(s.text(i + 2)), zhDigitsRead(s.text(i + 4)), zhDigitsRead(s.text(i + 6))}
		return one(i+7, Telephone, strings.Join(parts, "点"))
	}
	// year-month (2008-08, 08/2008) and month/day with leading zeros (08/08)
	if sep := s.text(i + 1); (sep == "/" || sep == "." || sep == "-") && s.kind(i+2) == tNum && !s.is(i+3, sep) && s.boundary(i+3) && !(s.kind(i+3) == tNum) {
		b := s.text(i + 2)
		y, m := "", ""
		switch {
		case len(a) == 4 && len(b) == 2:
			y, m = a, b
		case len(a) == 2 && len(b) == 4:
			y, m = b, a
		}
		if mv, _ := strconv.Atoi(m); y != "" && mv >= 1 && mv <= 12 {
			return zhDate(i+3, zhDigitsRead(y)+"年"+zhCardinal(strings.TrimLeft(m, "0"))+"月")
		}
		if len(a) == 2 && len(b) == 2 && a[0] == '0' {
			mv, _ := strconv.Atoi(a)
			dv, _ := strconv.Atoi(b)
			if mv >= 1 && mv <= 12 && dv >= 1 && dv <= 31 {
				return zhDate(i+3, zhCardinal(strconv.Itoa(mv))+"月"+zhCardinal(strconv.Itoa(dv))+"日")
			}
		}
	}
	// a year range: "2021~2022年", "1990-1995年", "2010至2020年" (years
	// are read digit by digit)
	if sep := s.text(i + 1); len(a) == 4 && (sep == "~" || sep == "-" || sep == "–" || sep == "到" || sep == "至") && s.kind(i+2) == tNum && len(s.text(i+2)) == 4 && s.is(i+3, "年") {
		to := sep
		if to != "至" {
			to = "到"
		}
		return zhDate(i+3, zhDigitsRead(a)+to+zhDigitsRead(s.text(i+2)))
	}
	// y/m/d, y.m.d
	if sep := s.text(i + 1); (sep == "/" || sep == "." || sep == "-") && s.kind(i+2) == tNum && s.is(i+3, sep) && s.kind(i+4) == tNum && !s.is(i+5, sep) {
		m, _ := strconv.Atoi(s.text(i + 2))
		d, _ := strconv.Atoi(s.text(i + 4))
		if len(a) != 4 && len(s.text(i+4)) == 4 && len(a) <= 2 && len(s.text(i+2)) <= 2 {
			// m/d/yyyy as written in English ("12/25/2023"), d.m.yyyy or
			// d-m-yyyy as in Europe: the year is read first, as 年月日
			mv, _ := strconv.Atoi(a)
			dv := m
			if sep != "/" || mv > 12 {
				mv, dv = m, mv
			}
			if mv > 12 || mv < 1 || dv < 1 || dv > 31 {
				mv, dv = dv, mv
			}
			if mv >= 1 && mv <= 12 && dv >= 1 && dv <= 31 {
				return zhDate(i+5, zhDigitsRead(s.text(i+4))+"年"+zhCardinal(strconv.Itoa(mv))+"月"+zhCardinal(strconv.Itoa(dv))+"日")
			}
		}
		if (len(a) == 4 || len(a) == 2) && m >= 1 && m <= 12 && d >= 1 && d <= 31 {
			return one(i+5, Date, zhDigitsRead(a)+"年"+zhCardinal(s.text(i+2))+"月"+zhCardinal(s.text(i+4))+"日")
		}
	}
	// a version or section number: "2.0.1" → "二点零点一"
	if s.is(i+1, ".") && s.kind(i+2) == tNum && s.is(i+3, ".") && s.kind(i+4) == tNum && !(s.is(i+5, ".") && s.kind(i+6) == tNum) {
		parts := []string{a, s.text(i + 2), s.text(i + 4)}
		for k, p := range parts {
			if len(p) > 1 && p[0] == '0' {
				parts[k] = zhDigitsRead(p)
			} else {
				parts[k] = zhCardinal(p)
			}
		}
		return one(i+5, Cardinal, strings.Join(parts, "点"))
	}
	// 2934ad, 2334bc, 1234b.c.
	k := i + 1
	var suf strings.Builder
	for k < s.n() && k < i+5 && (s.kind(k) == tWord || s.is(k, ".")) {
		suf.WriteString(strings.ToLower(s.text(k)))
		k++
	}
	switch strings.ReplaceAll(suf.String(), ".", "") {
	case "ad":
		return one(k, Date, "公元"+zhDigitsRead(a)+"年")
	case "bc":
		return one(k, Date, "公元前"+zhDigitsRead(a)+"年")
	}
	// 08月, 08号 → 日
	if s.is(i+1, "月") || s.is(i+1, "日") {
		return zhDate(i+1, zhCardinal(strings.TrimLeft(a, "0")))
	}
	if s.is(i+1, "号") && len(a) <= 2 {
		return zhDate(i+2, zhCardinal(strings.TrimLeft(a, "0"))+"日")
	}
	return nil
}

// zhDate is a date reading preferred to the fraction, decimal or digit
// reading of the same span ("08/08" 八月八日, not 八分之八).
func zhDate(end int, text string) []match {
	return []match{{end: end, readings: []reading{{text: text, class: Date, cost: -0.1}}}}
}

func zhTimeTN(s *stream, i int) []match {
	if s.kind(i) != tNum || !s.startOK(i) || len(s.text(i)) > 2 || !(s.is(i+1, ":") || s.is(i+1, "：")) || s.kind(i+2) != tNum || len(s.text(i+2)) != 2 {
		return nil
	}
	h, _ := strconv.Atoi(s.text(i))
	m, _ := strconv.Atoi(s.text(i + 2))
	if h > 24 || m > 59 {
		return nil
	}
	hw := zhCardinal(strconv.Itoa(h))
	if h == 2 {
		hw = "两" // 两点, as 2点 reads
	}
	out := hw + "点"
	if m > 0 {
		out += zhCardinal(strconv.Itoa(m)) + "分"
	}
	e := i + 3
	if s.is(e, s.text(i+1)) && s.kind(e+1) == tNum && len(s.text(e+1)) == 2 {
		sec, _ := strconv.Atoi(s.text(e + 1))
		out += zhCardinal(strconv.Itoa(sec)) + "秒"
		e += 2
	}
	return one(e, Time, out)
}

// zhRatioTN reads two integers joined by a colon that cannot be a clock
// time (the minutes not two digits, or past 59, or the hour past 24) as a
// ratio or a score, with 比: "2:0" → "二比零", "78:96" → "七十八比九十六",
// "1:50000" → "一比五万"; "10:30" stays a time.
func zhRatioTN(s *stream, i int) []match {
	if s.kind(i) != tNum || !s.startOK(i) || !(s.is(i+1, ":") || s.is(i+1, "：")) || s.kind(i+2) != tNum {
		return nil
	}
	if s.is(i+3, s.text(i+1)) || s.is(i+3, ".") || s.is(i+3, ",") || s.kind(i+3) == tNum || s.kind(i+3) == tWord {
		return nil // h:m:s, a decimal, or a code
	}
	a, b := s.text(i), s.text(i+2)
	if len(a) > 9 || len(b) > 9 {
		return nil
	}
	h, _ := strconv.Atoi(a)
	m, _ := strconv.Atoi(b)
	if len(a) <= 2 && len(b) == 2 && h <= 24 && m <= 59 {
		return nil // a clock time
	}
	return one(i+3, Verbatim, zhCardinal(strconv.Itoa(h))+"比"+zhCardinal(strconv.Itoa(m)))
}

// zhSportTN reads a score after a team's name with 比: "中国1-2" →
// "中国一比二", "拉齐奥 2/2" → "拉齐奥二比二" (the space goes, so the
// match starts at the name's last character). The score is two numbers
// joined by "-", "/" or ":", followed by no further digit, separator or
// letter, nor by a date's or a count's word ("中国1-2月" is a range).
func zhSportTN(s *stream, i int) []match {
	at, pre := i, ""
	if s.kind(i) == tHan && s.kind(i+1) == tSpace && s.is(i+1, " ") {
		pre, at = s.text(i), i+2
	}
	if s.kind(at) != tNum || s.kind(at+2) != tNum || len(s.text(at)) > 3 || len(s.text(at+2)) > 3 {
		return nil
	}
	sep := s.text(at + 1)
	if sep != "-" && sep != "/" && sep != ":" && sep != "：" {
		return nil
	}
	if n := s.text(at + 3); s.kind(at+3) == tNum || s.kind(at+3) == tWord || n == sep || n == "." || n == "," ||
		strings.Contains("月日号年点时分秒岁", n) && n != "" || zhTermLen(s, at+3, zhClassifiers) > 0 {
		return nil
	}
	// the name ends at token at-1 (no space) or at i (before the space)
	end := at - 1
	if pre != "" {
		end = i
	}
	if end < 0 || s.kind(end) == tSpace {
		return nil
	}
	before := s.src[:s.toks[end].end]
	found := false
	for k, n := len(before), 0; k > 0 && n < zhTeamRunes; n++ {
		_, size := utf8.DecodeLastRuneInString(before[:k])
		k -= size
		if zhTeams[before[k:]] {
			found = true
			break
		}
	}
	if !found {
		return nil
	}
	a, _ := strconv.Atoi(s.text(at))
	b, _ := strconv.Atoi(s.text(at + 2))
	return one(at+3, Verbatim, pre+zhCardinal(strconv.Itoa(a))+"比"+zhCardinal(strconv.Itoa(b)))
}

func zhWhitelistTN(s *stream, i int) []match {
	// a term of several tokens ("O2O" → "O to O", "X X L" → "XXL"),
	// standing apart from Latin letters and digits on both sides
	if n := zhTNTermFirst[s.text(i)]; n > 0 && s.startOK(i) {
		for k := min(n, s.n()-i); k >= 2; k-- {
			if r, ok := zhTNTerms[s.span(i, i+k)]; ok && s.boundary(i+k) {
				return one(i+k, Whitelist, r)
			}
		}
	}
	up, ok := zhUpper[strings.ToLower(s.text(i))]
	if s.kind(i) != tWord || !ok || up == s.text(i) {
		return nil
	}
	return one(i+1, Whitelist, up)
}

// ITN.

var zhNumVal = map[string]int{"零": 0, "〇": 0, "一": 1, "幺": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5,
	"六": 6, "七": 7, "八": 8, "九": 9, "壹": 1, "贰": 2, "貳": 2, "叁": 3, "參": 3, "肆": 4, "伍": 5, "陆": 6, "陸": 6,
	"柒": 7, "捌": 8, "玖": 9}
var zhMul = map[string]int{"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
var zhBig = map[string]int{"万": 4, "萬": 4, "亿": 8, "億": 8}

// zhNum is a parsed Chinese numeral.
type zhNum struct {
	val      *big.Int
	end      int    // token index after it
	digits   bool   // read digit by digit ("一二三四")
	text     string // digits read one by one (for digits)
	tailBig  string // a trailing 万/亿 with nothing after it
	tailVal  string // value before the trailing 万/亿, written
	hasUnits bool
}

// zhParse reads a Chinese numeral at token i.
// The result is cached in the stream: every zh matcher parses the
// numeral at its position. Callers must not modify r.val.
func zhParse(s *stream, i int) (zhNum, bool) {
	k := memoKey{"zh", i}
	if m, ok := s.memo[k].(zhParsed); ok {
		return m.r, m.ok
	}
	r, ok := zhParseAt(s, i)
	if s.memo == nil {
		s.memo = map[memoKey]any{}
	}
	s.memo[k] = zhParsed{r, ok}
	return r, ok
}

type zhParsed struct {
	r  zhNum
	ok bool
}

func zhParseAt(s *stream, i int) (zhNum, bool) {
	var r zhNum
	// Every numeral starts with a digit or a multiplier ("十五"); most
	// tokens are neither.
	if t := s.text(i); t != "洞" && t != "拐" {
		if _, ok := zhNumVal[t]; !ok {
			if _, ok := zhMul[t]; !ok {
				return r, false
			}
		}
	}
	j := i
	// Digit-by-digit sequences: at least two digits, no multipliers.
	var seq strings.Builder
	for j < s.n() && j-i < maxScan {
		t := s.text(j)
		v, ok := zhNumVal[t]
		if t == "洞" {
			v, ok = 0, true
		} else if t == "拐" {
			v, ok = 7, true
		}
		if !ok || (t == "两" || t == "兩") && seq.Len() == 0 {
			break
		}
		seq.WriteByte(byte('0' + v))
		j++
	}
	if n := seq.Len(); n >= 2 && !(j < s.n() && (zhMul[s.text(j)] > 0 || zhBig[s.text(j)] > 0)) {
		r.digits, r.text, r.end = true, seq.String(), j
		r.val, _ = new(big.Int).SetString(seq.String(), 10)
		return r, true
	}
	// Standard: sections of 千百十 with 万/亿 scales.
	j = i
	total := new(big.Int)
	section := new(big.Int) // value below the current big unit
	grp, digit := 0, -1
	lastBig := 99
	lastMul := 100000
	any := false
	for j < s.n() && j-i < maxScan {
		t := s.text(j)
		if v, ok := zhNumVal[t]; ok {
			if digit >= 0 && v != 0 {
				break
			}
			if v == 0 {
				digit = -1
				j++
				any = true
				lastMul = 10000
				continue
			}
			digit = v
			any = true
			j++
			continue
		}
		if m, ok := zhMul[t]; ok {
			if m >= lastMul {
				break
			}
			d := digit
			if d < 0 {
				if m != 10 || any {
					if !(m == 10 && grp == 0) {
						break
					}
				}
				d = 1
			}
			grp += d * m
			digit, lastMul, any = -1, m, true
			r.hasUnits = true
			j++
			continue
		}
		if e, ok := zhBig[t]; ok {
			if e >= lastBig || !any {
				break
			}
			if digit > 0 {
				grp += digit
			}
			sec := new(big.Int).Add(section, big.NewInt(int64(grp)))
			if sec.Sign() == 0 {
				break
			}
			mul := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil)
			if e == 4 && lastBig == 8 || e == 4 {
				total.Add(total, new(big.Int).Mul(sec, mul))
				section.SetInt64(0)
			} else {
				// 亿: everything so far (including 万 parts) is multiplied
				total.Add(total, sec)
				total.Mul(total, mul)
				section.SetInt64(0)
			}
			r.tailBig, r.tailVal = t, sec.String()
			grp, digit, lastMul, lastBig = 0, -1, 100000, e
			r.hasUnits = true
			j++
			continue
		}
		break
	}
	if !any || j == i {
		return r, false
	}
	if digit > 0 {
		// "六百三" is 630, "两千三" 2300: a bare digit right after 百/千
		// counts in the next lower place.
		if lastMul >= 100 && lastMul <= 1000 && j > i && zhMul[s.text(j-2)] == lastMul {
			digit *= lastMul / 10
		} else if e, ok := zhBig[s.text(j-2)]; ok && j-2 > i {
			// "三万五" is 35000
			total.Add(total, new(big.Int).Mul(big.NewInt(int64(digit)), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e-1)), nil)))
			digit = 0
		}
		grp += digit
		r.tailBig = ""
	}
	if grp > 0 {
		r.tailBig = ""
	}
	total.Add(total, section)
	total.Add(total, big.NewInt(int64(grp)))
	if r.tailBig != "" {
		// Keep "1,100万" only when nothing but that group was said.
		tv, _ := new(big.Int).SetString(r.tailVal, 10)
		tv.Mul(tv, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(zhBig[r.tailBig])), nil))
		if tv.Cmp(total) != 0 {
			r.tailBig = ""
		}
	}
	r.val, r.end = total, j
	return r, true
}

// zhComma writes n with thousands separators.
func zhComma(d string) string {
	neg := strings.HasPrefix(d, "-")
	d = strings.TrimPrefix(d, "-")
	var b strings.Builder
	for k := 0; k < len(d); k++ {
		if k > 0 && (len(d)-k)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(d[k])
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// zhWritten formats a parsed numeral: "1,100万", "10,050", or digits.
func zhWritten(r zhNum, comma bool) string {
	if r.digits {
		return r.text
	}
	f := func(x string) string {
		if comma {
			return zhComma(x)
		}
		return x
	}
	if r.tailBig != "" {
		return f(r.tailVal) + r.tailBig
	}
	return f(r.val.String())
}

func zhCardinalITN(s *stream, i int) []match {
	j := i
	neg := ""
	if s.is(j, "负") || s.is(j, "負") {
		neg, j = "-", j+1
	}
	r, ok := zhParse(s, j)
	if !ok {
		return nil
	}
	if r.end-j < 2 && !r.hasUnits {
		return nil
	}
	// Approximate numbers ("十几万", "几十万") stay as written.
	if s.is(r.end, "几") || s.is(j-1, "几") || s.is(r.end, "多") && s.is(r.end+1, "万") {
		return nil
	}
	// 点 followed by digits belongs to the decimal or time matcher.
	if s.is(r.end, "点") || s.is(r.end, "點") {
		return nil
	}
	comma := !r.digits && !s.is(r.end, "年")
	return one(r.end, Cardinal, neg+zhWritten(r, comma))
}

func zhFracDigits(s *stream, j int) (string, int) {
	var b strings.Builder
	for j < s.n() && b.Len() < maxScan {
		v, ok := zhNumVal[s.text(j)]
		if !ok {
			break
		}
		b.WriteByte(byte('0' + v))
		j++
	}
	return b.String(), j
}

func zhDecimalITN(s *stream, i int) []match {
	j := i
	neg := ""
	if s.is(j, "负") || s.is(j, "負") {
		neg, j = "-", j+1
	}
	r, ok := zhParse(s, j)
	if !ok || !(s.is(r.end, "点") || s.is(r.end, "點")) {
		return nil
	}
	f, e := zhFracDigits(s, r.end+1)
	if f == "" || s.is(e, "分") || s.is(e, "刻") || s.is(e, "秒") {
		return nil
	}
	out := neg + zhComma(r.val.String()) + "." + f
	if s.is(e, "万") || s.is(e, "亿") {
		out = neg + r.val.String() + "." + f + s.text(e)
		e++
	}
	return one(e, Decimal, out)
}

func zhFractionITN(s *stream, i int) []match {
	if (s.is(i, "负") || s.is(i, "負")) && i+1 < s.n() {
		if m := zhFractionITN(s, i+1); m != nil {
			m[0].readings[0].text = "-" + m[0].readings[0].text
			return m
		}
		return nil
	}
	j := i
	prefix := ""
	if w, ok := zhParse(s, j); ok && s.is(w.end, "又") {
		prefix, j = w.val.String()+"又", w.end+1
	}
	den, ok := zhParse(s, j)
	if !ok || !s.is(den.end, "分") || !s.is(den.end+1, "之") {
		return nil
	}
	if den.end+2 < s.n() && s.is(den.end+2, "百") {
		return nil
	}
	num, ok := zhParse(s, den.end+2)
	if !ok {
		return nil
	}
	return one(num.end, Fraction, prefix+num.val.String()+"/"+den.val.String())
}

func zhMoneyITN(s *stream, i int) []match {
	r, ok := zhParse(s, i)
	if !ok {
		return nil
	}
	amt := zhWritten(r, false)
	e := r.end
	if s.is(e, "点") {
		f, e2 := zhFracDigits(s, e+1)
		if f == "" {
			return nil
		}
		amt, e = r.val.String()+"."+f, e2
		if s.is(e, "万") || s.is(e, "亿") {
			amt += s.text(e)
			e++
		}
	}
	cents := func(v *big.Int) (string, bool) { // 0–99 as two digits
		if !v.IsInt64() || v.Int64() > 99 {
			return "", false
		}
		return twoDigits(int(v.Int64())), true
	}
	if t, n := zhTermAt(s, e, zhCurrencyITN); n > 0 {
		e += n
		// "十美元五十" → US$10.50: the minor amount said after the major
		if !strings.Contains(amt, ".") && r.tailBig == "" {
			if r2, ok := zhParse(s, e); ok && !r2.digits && r2.tailBig == "" {
				if c, ok := cents(r2.val); ok && (r2.end >= s.n() || s.kind(r2.end) != tWord || zhTermLen(s, r2.end, zhMinorITN) > 0) {
					end := r2.end + zhTermLen(s, r2.end, zhMinorITN)
					return one(end, Money, t.sym+amt+"."+c)
				}
			}
		}
		return one(e, Money, t.sym+amt)
	}
	// the minor unit alone: "五十美分" → US$0.50
	if t, n := zhTermAt(s, e, zhMinorITN); n > 0 && !strings.Contains(amt, ".") && r.tailBig == "" {
		if c, ok := cents(r.val); ok {
			return one(e+n, Money, t.sym+"0."+c)
		}
	}
	return zhKuaiITN(s, i, r)
}

// zhKuaiITN writes the colloquial yuan amounts with their characters kept,
// as NeMo's Chinese grammar does: "三块" → "3块", "五毛" → "5毛", "三块五毛
// 二分" → "3块5毛2分". A 分 alone is left to the time grammar (minutes).
func zhKuaiITN(s *stream, i int, r zhNum) []match {
	if r.digits || r.tailBig != "" {
		return nil
	}
	var b strings.Builder
	b.WriteString(r.val.String())
	e := r.end
	unit := s.text(e)
	if unit == "塊" {
		unit = "块"
	}
	if unit != "块" && unit != "毛" && unit != "角" {
		return nil
	}
	b.WriteString(unit)
	e++
	for _, next := range []string{"毛角", "分"} {
		if unit == "毛" || unit == "角" {
			if next != "分" {
				continue
			}
		}
		if v, ok := zhNumVal[s.text(e)]; ok && strings.Contains(next, s.text(e+1)) && s.text(e+1) != "" {
			b.WriteString(strconv.Itoa(v) + s.text(e+1))
			e += 2
		}
	}
	// the next smaller unit left unsaid after a unit: "三块五" (3块5),
	// "九毛九" (9毛9); not the start of another number or a count
	if last := s.text(e - 1); last == "块" || last == "塊" || last == "毛" || last == "角" {
		if v, ok := zhNumVal[s.text(e)]; ok && v <= 9 && s.text(e) != "零" {
			nx := s.text(e + 1)
			if _, num := zhNumVal[nx]; !num && zhMul[nx] == 0 && zhBig[nx] == 0 && zhTermLen(s, e+1, zhClassifiers) == 0 && nx != "分" {
				b.WriteString(strconv.Itoa(v))
				e++
			}
		}
	}
	return one(e, Money, b.String())
}

// zhTermAt returns the longest term of ts written at token j, and its
// length in tokens (0 when none).
func zhTermAt(s *stream, j int, ts zhTermSet) (zhTerm, int) {
	for _, t := range ts[s.text(j)] {
		if j+t.n <= s.n() && s.span(j, j+t.n) == t.word {
			return t, t.n
		}
	}
	return zhTerm{}, 0
}

func zhTermLen(s *stream, j int, ts zhTermSet) int {
	_, n := zhTermAt(s, j, ts)
	return n
}

func zhDateITN(s *stream, i int) []match {
	j := i
	var b strings.Builder
	for _, era := range []struct{ in, out string }{{"公元前", "公元前"}, {"纪元前", "公元前"}, {"公元", "公元"}, {"纪元", "公元"}} {
		n := utf8.RuneCountInString(era.in)
		if j+n <= s.n() && s.span(j, j+n) == era.in {
			b.WriteString(era.out)
			j += n
			break
		}
	}
	start := b.Len()
	for _, unit := range []string{"年", "月", "日", "号"} {
		r, ok := zhParse(s, j)
		if !ok || !s.is(r.end, unit) {
			continue
		}
		if unit == "年" && !r.digits && r.val.Cmp(big.NewInt(100)) >= 0 {
			continue
		}
		b.WriteString(zhWritten(r, false))
		b.WriteString(unit)
		j = r.end + 1
	}
	if b.Len() == start || j == i {
		return nil
	}
	return one(j, Date, b.String())
}

func zhTimeITN(s *stream, i int) []match {
	// a duration or a bare time unit: "五分钟" → "5分钟", "三個小時" →
	// "3个小时" (traditional characters written simplified)
	if r, ok := zhParse(s, i); ok && !r.digits && r.tailBig == "" {
		for _, u := range zhTimeUnits {
			n := utf8.RuneCountInString(u[0])
			if r.end+n <= s.n() && s.span(r.end, r.end+n) == u[0] && !(u[0] == "点" || u[0] == "點" || u[0] == "时" || u[0] == "時") {
				return one(r.end+n, Time, r.val.String()+u[1])
			}
		}
	}
	h, ok := zhParse(s, i)
	if !ok || h.digits || !(s.is(h.end, "点") || s.is(h.end, "點") || s.is(h.end, "时") || s.is(h.end, "時")) || !h.val.IsInt64() || h.val.Int64() > 24 {
		return nil
	}
	mark := map[string]string{"點": "点", "時": "时"}[s.text(h.end)]
	if mark == "" {
		mark = s.text(h.end)
	}
	hv := int(h.val.Int64())
	j := h.end + 1
	m, ok := zhParse(s, j)
	if ok && s.is(m.end, "分") && m.val.IsInt64() && m.val.Int64() < 60 {
		out := twoDigits(hv) + ":" + twoDigits(int(m.val.Int64()))
		e := m.end + 1
		if sec, ok := zhParse(s, e); ok && s.is(sec.end, "秒") && sec.val.IsInt64() && sec.val.Int64() < 60 {
			out += ":" + twoDigits(int(sec.val.Int64()))
			e = sec.end + 1
		}
		return one(e, Time, out)
	}
	if ok && s.is(m.end, "刻") {
		return one(m.end+1, Time, strconv.Itoa(hv)+mark+m.val.String()+"刻")
	}
	if s.is(j, "半") {
		return one(j+1, Time, strconv.Itoa(hv)+mark+"半")
	}
	if _, isNum := zhNumVal[s.text(j)]; isNum {
		return nil // decimal
	}
	return one(j, Time, strconv.Itoa(hv)+mark)
}

// zhTimeUnits are the time words after a number that ITN keeps, with the
// form it writes (simplified), longest first: "五分钟" → "5分钟".
var zhTimeUnits = [][2]string{
	{"个钟头", "个钟头"}, {"個鐘頭", "个钟头"}, {"个小时", "个小时"}, {"個小時", "个小时"},
	{"分钟", "分钟"}, {"分鐘", "分钟"}, {"秒钟", "秒钟"}, {"秒鐘", "秒钟"}, {"小时", "小时"}, {"小時", "小时"},
	{"个点", "个点"}, {"個點", "个点"}, {"刻钟", "刻钟"}, {"分", "分"}, {"秒", "秒"},
}

func zhOrdinalITN(s *stream, i int) []match {
	if !s.is(i, "第") {
		return nil
	}
	r, ok := zhParse(s, i+1)
	if !ok {
		return nil
	}
	return one(r.end, Ordinal, "第"+zhWritten(r, false))
}

func zhWhitelistITN(s *stream, i int) []match {
	var out []match
	r, _ := utf8.DecodeRuneInString(s.text(i))
	for _, k := range zhWhitelistByFirst()[r] {
		n := utf8.RuneCountInString(k)
		if i+n <= s.n() && s.span(i, i+n) == k {
			out = append(out, one(i+n, Whitelist, zhWhitelist[k])...)
		}
	}
	return out
}

// zhWhitelistByFirst holds the keys of zhWhitelist by their first rune,
// each list sorted: most positions start no entry.
// (built on first use: zhWhitelist is filled at init).
var zhWhitelistByFirst = sync.OnceValue(func() map[rune][]string {
	m := map[rune][]string{}
	for _, k := range sortedKeys(zhWhitelist) {
		r, _ := utf8.DecodeRuneInString(k)
		m[r] = append(m[r], k)
	}
	return m
})

// zhMeasureITN converts percentages ("百分之三十" → "30%") and amounts with
// metric units ("三百二十四点七五克" → "324.75g").
func zhMeasureITN(s *stream, i int) []match {
	// 零下 ("below zero") before a temperature is its minus sign:
	// "零下五摄氏度" → "-5°C", as TN reads "-23°C" 负二十三摄氏度
	if s.is(i, "零") && s.is(i+1, "下") {
		for _, m := range zhMeasureITN(s, i+2) {
			if t := m.readings[0].text; len(m.readings) == 1 && strings.Contains(t, "°") && !strings.HasPrefix(t, "-") && !strings.HasSuffix(t, "%") {
				return one(m.end, Measure, "-"+t)
			}
		}
		return nil
	}
	// 负 before a percentage is its sign: "负百分之十二点五" → "-12.5%", as
	// TN reads "-12.5%" 负百分之十二点五 (and "负四分之三" is "-3/4")
	if (s.is(i, "负") || s.is(i, "負")) && s.is(i+1, "百") && s.is(i+2, "分") {
		for _, m := range zhMeasureITN(s, i+1) {
			if t := m.readings[0].text; len(m.readings) == 1 && strings.HasSuffix(t, "%") {
				return one(m.end, Measure, "-"+t)
			}
		}
		return nil
	}
	if s.is(i, "百") && s.is(i+1, "分") {
		j := i + 2
		if s.is(j, "之") {
			j++
		}
		if s.is(j, "百") && !s.is(j+1, "分") {
			if _, isNum := zhNumVal[s.text(j+1)]; !isNum {
				return one(j+1, Measure, "100%")
			}
		}
		r, ok := zhParse(s, j)
		if !ok {
			return nil
		}
		v, e := r.val.String(), r.end
		if s.is(e, "点") {
			if f, e2 := zhFracDigits(s, e+1); f != "" {
				v, e = v+"."+f, e2
			}
		}
		return one(e, Measure, v+"%")
	}
	r, ok := zhParse(s, i)
	if !ok || r.digits {
		return nil
	}
	// "五千克" is 5 kg, not 5000 g: a unit name that begins with the
	// number's last multiplier (千克, 千米, 千瓦) takes it back
	// (not after 万 or 亿: "一万五千米" is 15000 m, the 千 is the number's)
	if k := r.end - 1; k > i && (zhMul[s.text(k)] > 0 || zhBig[s.text(k)] > 0) && zhTermLen(s, k, zhUnitITN) > 0 && !zhHasBig(s, i, k) {
		if r2, ok := zhParse(&stream{src: s.src, toks: s.toks[:k]}, i); ok && r2.end == k && !r2.digits {
			r = r2
		}
	}
	// a round number of 万 or 亿 keeps its word, as cardinals and money
	// do ("五百万吨" → "500万t", as "一百万" → "100万")
	v, e := zhWritten(r, false), r.end
	if s.is(e, "点") {
		f, e2 := zhFracDigits(s, e+1)
		if f == "" || r.tailBig != "" {
			return nil
		}
		v, e = v+"."+f, e2
	}
	if u, n := zhTermAt(s, e, zhUnitITN); n > 0 {
		return one(e+n, Measure, v+u.sym)
	}
	return nil
}

// zhHasBig reports whether tokens [i, k) hold 万 or 亿 (any script).
func zhHasBig(s *stream, i, k int) bool {
	for j := i; j < k; j++ {
		if zhBig[s.text(j)] > 0 {
			return true
		}
	}
	return false
}

// zhVerbatimTN reads math symbols between numbers: "1+2" → "一加二",
// "2 = 1 + 1" → "二等于一加一" (the spaces around the symbol are absorbed).
func zhVerbatimTN(s *stream, i int) []match {
	start, j := i, i
	if s.kind(j) == tSpace {
		j++
	}
	if s.kind(j) != tSym {
		return nil
	}
	sym, e := s.text(j), j+1
	if (sym == "<" || sym == ">") && s.is(e, "=") {
		sym, e = sym+"=", e+1
	}
	w, ok := zhMath[sym]
	if !ok {
		return nil
	}
	prev := s.kind(start - 1)
	if s.kind(e) == tSpace {
		e++
	}
	if prev != tNum && !(start > 0 && s.kind(start-1) == tSpace && s.kind(start-2) == tNum) || s.kind(e) != tNum && !s.is(e, "-") {
		return nil
	}
	return one(e, Verbatim, w)
}

// zhMathTN reads an expression of numbers joined by math symbols, with or
// without spaces around the symbols: "2 = 1 + 1" → "二等于一加一", "2 ≤ 4"
// → "二小于等于四". The symbols' readings come from data/zh.tsv ([math]).
func zhMathTN(s *stream, i int) []match {
	if s.kind(i) != tNum || !s.startOK(i) {
		return nil
	}
	n, end, ok := zhScan(s, i)
	if !ok {
		return nil
	}
	var b strings.Builder
	b.WriteString(zhNumber(n))
	j, ops := end, 0
	for j-i < maxScan {
		k := j
		if s.kind(k) == tSpace {
			k++
		}
		if s.kind(k) != tSym {
			break
		}
		sym, e := s.text(k), k+1
		if (sym == "<" || sym == ">") && s.is(e, "=") {
			sym, e = sym+"=", e+1
		}
		w, ok := zhMath[sym]
		if !ok {
			break
		}
		if s.kind(e) == tSpace {
			e++
		}
		n2, e2, ok := zhScan(s, e)
		if !ok {
			break
		}
		b.WriteString(w + zhNumber(n2))
		j, ops = e2, ops+1
	}
	if ops == 0 || s.kind(j) == tNum {
		return nil
	}
	return one(j, Verbatim, b.String())
}
