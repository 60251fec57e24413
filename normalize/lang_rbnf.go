package normalize

import (
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/sottolabs/sotto/normalize/internal/rbnf"
)

// Numbers for every CLDR language.
//
// Every language that CLDR's rule-based number formats cover and that has
// no hand-written rules here is registered from the embedded CLDR data
// (package internal/rbnf) for the cardinal and ordinal classes in TN, and
// for the date class where CLDR has a %spellout-numbering-year (a year is
// offered as a further reading of a four-digit number, never the first).
// Registration reads only the data's index; a language's rules are parsed
// the first time one of its matchers runs.
//
// Which rule sets are used:
//   - cardinals: %spellout-numbering (the form used for counting), else
//     %spellout-cardinal, else its masculine or first gendered variant;
//   - ordinals: CLDR's %digits-ordinal rule sets say how each language
//     writes an ordinal in digits ("1er" fr, "1º" it, "1-й" ru, "5वाँ" hi,
//     "thứ 1" vi, "第1" ja, "2번째" ko). Each such written form is
//     recognized and read with the %spellout-ordinal set of the same name
//     suffix (-feminine, -plural-genitive, …). Languages whose orthography
//     marks ordinals with a trailing full stop ("31." hu, "3." da) and
//     that have no marked digits-ordinal set are listed in periodOrdinal.
//
// Where the NeMo test suites follow a spoken convention that differs from
// CLDR's written one, rbnfConventions adapts the output with a general
// rule per language (documented there), never per number.

// periodOrdinal lists the languages whose standard orthography writes an
// ordinal as the number followed by a full stop (Danish, Estonian,
// Faroese, Finnish, Hungarian, Icelandic, Norwegian, Czech, Slovak,
// Slovenian, Croatian, Bosnian, Serbian, Latvian, Turkish, Basque,
// Georgian; German too, which has hand-written rules).
var periodOrdinal = map[string]bool{"da": true, "et": true, "fo": true, "fi": true, "hu": true, "is": true,
	"no": true, "nn": true, "nb": true, "cs": true, "sk": true, "sl": true, "hr": true, "bs": true, "sr": true,
	"lv": true, "tr": true, "eu": true, "ka": true, "de": true}

// rbnfConv is a language's spoken-form convention where the suites differ
// from CLDR's written form.
type rbnfConv struct {
	// zeroDigits reads a number written with leading zeros digit by digit
	// ("0001" hi: "शून्य शून्य शून्य एक"); otherwise the zeros are ignored
	// ("03" ru: "три").
	zeroDigits bool
	// words replaces whole words of the output (vi "lẻ" → "linh", the
	// Northern usage of the suites).
	words map[string]string
	// dropOne lists the words for "one" that are left out before a scale
	// word of scales ("tusen" sv, not "ettusen"; "millió" hu).
	dropOne []string
	scales  []string
	// before rewrites the end of a morpheme before a scale word (hu "két"
	// → "kettő", ar "وثمانية" → "وثمان").
	before map[string]string
	// groupJoin joins the non-zero groups of three digits of a number
	// above groupOver ("kétezer-kettő" hu, above 2000).
	groupJoin string
	groupOver int64
	// groupSpace separates the groups of three digits with a space, the
	// suites' spacing of Italian ("tremila cinquecento quarantaquattro").
	groupSpace bool
	// phrases replaces runs of whole words; an empty replacement drops
	// them.
	phrases map[string]string
	// infix replaces spellings inside words (hy reformed orthography
	// "իննսուն" for CLDR's "իննասուն").
	infix map[string]string
	// markerEnding: the spoken ordinal ends with the written marker's
	// spelling (see rbnfEnding).
	markerEnding bool
	// noSpace writes the number as one word (ko "십이만삼천", where CLDR
	// spaces the groups of 만).
	noSpace bool
	// oneBig writes "一千" for a thousand that multiplies 万, 億 or 兆
	// (ja "一千万", but "千" alone elsewhere).
	oneBig bool
	// cardinal and ordinal override the rule sets chosen by default;
	// counterMax is the largest number read with ordinal's counter set
	// (ko native numerals end at 99), larger ones take the cardinal.
	cardinal   string
	ordinal    map[string]string // digits-ordinal set → spellout set
	counterMax int64
}

// rbnfConventions holds the per-language spoken conventions; see rbnfConv.
// Each entry is a rule of the language's usage, not a list of cases.
var rbnfConventions = map[string]rbnfConv{
	// Vietnamese: Northern "linh" for the zero tens digit ("một trăm linh
	// một"), where CLDR writes the Southern "lẻ".
	// The zero hundreds of an inner group go unsaid ("một nghìn hai
	// mươi", not "một nghìn không trăm hai mươi").
	"vi": {words: map[string]string{"lẻ": "linh"}, phrases: map[string]string{"không trăm": ""}},
	// Swedish: "hundra", "tusen", "miljon" without "ett"/"en" (both are
	// standard; the suites use the short form), and the neuter "ett" in
	// counting ("tjugoett").
	"sv": {dropOne: []string{"en", "ett", "et"}, scales: []string{"hundra", "tusen", "miljon", "miljoner",
		"miljard", "miljarder", "biljon", "biljoner", "biljard", "biljarder"}},
	// Hungarian: "ezer", "millió" without "egy", "kettő" before a scale
	// word, and a hyphen between the groups of a number above 2000 (the
	// Academy's spelling rule, as in "kétezer-kettő").
	"hu": {dropOne: []string{"egy"}, scales: []string{"száz", "ezer", "millió", "milliárd", "billió",
		"billiárd", "trillió", "trilliárd"}, before: map[string]string{"két": "kettő"},
		groupJoin: "-", groupOver: 2000},
	// Hindi: numbers with leading zeros are read digit by digit; a spoken
	// ordinal ends as its written marker ("वीं", "वां").
	"hi": {zeroDigits: true, markerEnding: true},
	// Italian: groups of three digits apart.
	"it": {groupSpace: true},
	// Korean: "번째" ordinals count with native attributive numerals ("두
	// 번째") up to 99, Sino-Korean ones above; numbers are written as one
	// word.
	"ko": {ordinal: map[string]string{"%digits-ordinal": "%spellout-cardinal-native-attributive"},
		counterMax: 99, noSpace: true},
	// Japanese: "一千" before 万, 億, 兆.
	"ja": {oneBig: true},
	// Arabic: the modern spelling "مئة" for "مائة", the construct form of
	// a unit before it ("ثمان مئة", "خمس مئة"), and the suites' "اَلاف".
	"ar": {words: map[string]string{"مائة": "مئة", "آلاف": "اَلاف"}, scales: []string{"مائة"},
		before: map[string]string{"ثلاثة": "ثلاث", "أربعة": "أربع", "خمسة": "خمس", "ستة": "ست", "سبعة": "سبع",
			"ثمانية": "ثمان", "تسعة": "تسع"}},
	// Armenian: the reformed spelling ("իննսուն", "միլիոն") where CLDR
	// writes the classical one.
	"hy": {infix: map[string]string{"իննասուն": "իննսուն", "միլիօն": "միլիոն"}},
}

// rbnfLang is one CLDR language's number rules, loaded on first use.
type rbnfLang struct {
	info rbnf.LocaleInfo
	conv rbnfConv
	card string // cardinal rule set
	year string // %spellout-numbering-year or ""

	// glued: the script is written without spaces, so a number may touch
	// the words around it ("これから100数えて").
	glued bool

	once    sync.Once
	rs      *rbnf.RuleSets
	ords    []rbnfOrd // written ordinal forms
	prefix  []string  // distinct non-empty prefixes of ords
	hasSuf  bool      // some ord has a suffix
	cardErr bool
}

// rbnfOrd is one written ordinal form: digits (a %digits-ordinal set, or
// "" for the full-stop convention) read with spell.
type rbnfOrd struct {
	digits, spell string
}

func init() {
	for _, info := range rbnf.Index() {
		if strings.Contains(info.Locale, "-") {
			continue // regional variants: the registry is by base tag
		}
		l := &rbnfLang{info: info, conv: rbnfConventions[info.Locale]}
		switch info.Script {
		case "Jpan", "Hans", "Hant", "Hani", "Thai", "Laoo", "Khmr", "Mymr":
			l.glued = true
		}
		l.card = l.conv.cardinal
		for _, c := range []string{"%spellout-numbering", "%spellout-cardinal", "%spellout-cardinal-masculine"} {
			if l.card == "" && info.Has(c) {
				l.card = c
			}
		}
		for _, c := range info.Sets {
			if l.card == "" && strings.HasPrefix(c, "%spellout-cardinal") {
				l.card = c
			}
		}
		if l.card == "" {
			continue
		}
		if info.Has("%spellout-numbering-year") {
			l.year = "%spellout-numbering-year"
		}
		tn := map[string]matcher{Cardinal: l.cardinalTN}
		if l.hasOrdinals() {
			tn[Ordinal] = l.ordinalTN
		}
		if l.year != "" {
			tn[Date] = l.yearTN
		}
		script := info.Script
		if script == "Hani" {
			script = "Hans" // und's Han segments go to zh alone
		}
		register(&rules{tag: info.Locale, name: info.Name, script: script, fallback: true, tn: tn,
			itn: map[string]matcher{}})
	}
}

// hasOrdinals reports, from the index alone, whether the language has a
// spelled ordinal and a way to recognize written ones.
func (l *rbnfLang) hasOrdinals() bool {
	spell := false
	digits := periodOrdinal[l.info.Locale]
	for _, s := range l.info.Sets {
		spell = spell || strings.HasPrefix(s, "%spellout-ordinal")
		digits = digits || strings.HasPrefix(s, "%digits-ordinal")
	}
	for _, s := range l.conv.ordinal {
		spell = spell || l.info.Has(s)
	}
	return spell && digits
}

// load parses the language's rules and works out its ordinal forms.
func (l *rbnfLang) load() *rbnf.RuleSets {
	l.once.Do(func() {
		rs, err := rbnf.ForLocale(l.info.Locale)
		if err != nil {
			return
		}
		l.rs = rs
		def := ""
		for _, s := range rs.Names() {
			if def == "" && strings.HasPrefix(s, "%spellout-ordinal") {
				def = s
			}
		}
		for _, c := range []string{"%spellout-ordinal-masculine", "%spellout-ordinal"} {
			if rs.Has(c) {
				def = c
			}
		}
		for _, d := range rs.Names() {
			if !strings.HasPrefix(d, "%digits-ordinal") {
				continue
			}
			spell := l.conv.ordinal[d]
			if spell == "" {
				spell = "%spellout-ordinal" + strings.TrimPrefix(d, "%digits-ordinal")
			}
			if !rs.Has(spell) {
				spell = def
			}
			if spell == "" {
				continue
			}
			// A set that writes plain digits marks nothing.
			if w, err := rs.Format(d, 7); err != nil || w == "7" {
				continue
			}
			l.ords = append(l.ords, rbnfOrd{digits: d, spell: spell})
			if w, err := rs.Format(d, 7); err == nil {
				p, _, _ := strings.Cut(w, "7")
				if p != "" && !containsStr(l.prefix, p) {
					l.prefix = append(l.prefix, p)
				}
				if !strings.HasSuffix(w, "7") {
					l.hasSuf = true
				}
			}
		}
		if len(l.ords) == 0 && periodOrdinal[l.info.Locale] && def != "" {
			l.ords = append(l.ords, rbnfOrd{spell: def})
			l.hasSuf = true
		}
	})
	return l.rs
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// rbnfNumber reads an unsigned integer at token i: ASCII digits or a run
// of one script's decimal digits (Devanagari "१२३", Arabic-Indic "١٢"),
// with groups of three after a space, no-break space, full stop, comma or
// apostrophe ("2 300", "10.000", "1,115,000"). It returns the digits in
// ASCII, the token index after them, and whether they were grouped.
func rbnfNumber(s *stream, i int) (digits string, end int, ok bool) {
	first, j := rbnfDigitRun(s, i)
	if first == "" {
		return "", i, false
	}
	digits, end = first, j
	if len(first) <= 3 {
		for {
			sep := s.text(end)
			if !(sep == " " || sep == "\u00a0" || sep == "\u202f" || sep == "." || sep == "," || sep == "'" || sep == "’") {
				break
			}
			g, k := rbnfDigitRun(s, end+1)
			if len(g) != 3 || s.kind(k) == tNum {
				break
			}
			// "10.000" groups; "3.14" or "10.5" does not.
			digits += g
			end = k
		}
	}
	return digits, end, true
}

// rbnfDigitRun reads one run of decimal digits of a single script.
func rbnfDigitRun(s *stream, i int) (string, int) {
	if s.kind(i) == tNum {
		return s.text(i), i + 1
	}
	var b strings.Builder
	var zero rune = -1
	j := i
	for s.kind(j) == tSym {
		r, _ := utf8.DecodeRuneInString(s.text(j))
		if !unicode.IsDigit(r) {
			break
		}
		z := r - rune(digitValue(r))
		if zero >= 0 && z != zero {
			break
		}
		zero = z
		b.WriteByte(byte('0' + r - z))
		j++
	}
	return b.String(), j
}

// digitValue returns the value of a decimal digit rune: Unicode's Nd
// digits come in contiguous runs of ten from zero.
func digitValue(r rune) int {
	z := r
	for unicode.IsDigit(z - 1) {
		z--
	}
	return int(r-z) % 10
}

// spell formats n with set and applies the language's conventions. It
// returns "" when CLDR's rules fall back to digits (numbers beyond their
// range) or fail. A negative number keeps the -x rule's word ("minus") and
// spells its absolute value with the conventions.
func (l *rbnfLang) spell(set string, n int64) string {
	if l.load() == nil {
		return ""
	}
	if n < 0 {
		whole, pos := l.format(set, n), l.format(set, -n)
		if whole == "" || pos == "" || !strings.HasSuffix(whole, pos) {
			return ""
		}
		p := l.spellAbs(set, -n)
		if p == "" {
			return ""
		}
		return rbnfClean(whole[:len(whole)-len(pos)]) + p
	}
	return l.spellAbs(set, n)
}

func (l *rbnfLang) spellAbs(set string, n int64) string {
	c := &l.conv
	raw := l.format(set, n)
	whole := rbnfClean(raw)
	if (n > c.groupOver && c.groupJoin != "" || c.groupSpace && n >= 1000) && raw != "" && !strings.Contains(whole, " ") {
		// Join the groups of three digits: each higher group is spelled
		// as a cardinal with its scale, the last takes what remains of
		// the whole spelling (an ordinal ending, say), provided the
		// groups compose into the whole.
		var parts []string
		var p int64 = 1
		for p <= n/1000 {
			p *= 1000
		}
		rest, cat := n, ""
		for ; p >= 1000; p /= 1000 {
			g := rest / p * p
			rest -= g
			if g > 0 {
				q := l.format(l.card, g)
				parts = append(parts, l.convert(q))
				cat += rbnfClean(q)
			}
		}
		if last, ok := strings.CutPrefix(whole, cat); ok && cat != "" {
			if last != "" {
				parts = append(parts, l.convert(last))
			}
			join := c.groupJoin
			if c.groupSpace {
				join = " "
			}
			return rbnfFinal(strings.Join(parts, join))
		}
	}
	return rbnfFinal(l.convert(raw))
}

func (l *rbnfLang) format(set string, n int64) string {
	w, err := l.rs.Format(set, n)
	if err != nil || strings.ContainsAny(w, "0123456789") {
		return ""
	}
	return w
}

// rbnfFinal returns "" when any part failed.
func rbnfFinal(s string) string {
	if s == "" || strings.Contains(s, "\x00") {
		return ""
	}
	return s
}

// rbnfClean removes CLDR's soft hyphens (line-break hints between the
// parts of a compound: "két\u00adezer").
func rbnfClean(s string) string { return strings.ReplaceAll(s, "\u00ad", "") }

// convert applies the word-level conventions to one CLDR spelling (soft
// hyphens still marking the parts of compounds) and cleans it.
func (l *rbnfLang) convert(w string) string {
	if w == "" {
		return "\x00"
	}
	c := &l.conv
	if len(c.dropOne) > 0 || len(c.before) > 0 {
		// Split into morphemes at spaces and soft hyphens, keeping the
		// separators.
		var ms, seps []string
		start := 0
		for k, r := range w {
			if r == ' ' || r == '\u00ad' {
				ms = append(ms, w[start:k])
				seps = append(seps, string(r))
				start = k + utf8.RuneLen(r)
			}
		}
		ms = append(ms, w[start:])
		isScale := func(k int) bool {
			if k >= len(ms) {
				return false
			}
			for _, sc := range c.scales {
				if strings.HasPrefix(ms[k], sc) {
					return true
				}
			}
			return false
		}
		var b strings.Builder
		for k, m := range ms {
			wordStart := k == 0 || seps[k-1] == " "
			if wordStart && isScale(k+1) && containsStr(c.dropOne, m) {
				continue // drop the morpheme and its separator
			}
			if isScale(k + 1) {
				for from, to := range c.before {
					if stem, ok := strings.CutSuffix(m, from); ok {
						m = stem + to // "وثمانية" → "وثمان"
						break
					}
				}
			}
			b.WriteString(m)
			if k < len(seps) {
				b.WriteString(seps[k])
			}
		}
		w = b.String()
	}
	w = rbnfClean(w)
	for from, to := range c.infix {
		w = strings.ReplaceAll(w, from, to)
	}
	if c.noSpace {
		w = strings.ReplaceAll(w, " ", "")
	}
	if c.oneBig {
		w = rbnfOneBig(w)
	}
	if len(c.words) > 0 {
		f := strings.Fields(w)
		for k, x := range f {
			if r, ok := c.words[x]; ok {
				f[k] = r
			}
		}
		w = strings.Join(f, " ")
	}
	for from, to := range c.phrases {
		w = strings.Join(strings.Fields(strings.ReplaceAll(" "+w+" ", " "+from+" ", " "+to+" ")), " ")
	}
	return w
}

// rbnfOneBig writes "一千" for a "千" that starts a group multiplied by
// 万, 億, 兆 or 京.
func rbnfOneBig(w string) string {
	var b strings.Builder
	group := 0 // byte offset in b where the current group starts
	for _, r := range w {
		if r == '千' && b.Len() == group {
			// does a big unit close this group?
			b.WriteRune(r)
			continue
		}
		b.WriteRune(r)
		if !strings.ContainsRune("〇一二三四五六七八九十百千", r) {
			// a big unit ends the group; anything else ("第") starts one
			if r != '万' && r != '億' && r != '兆' && r != '京' {
				group = b.Len()
				continue
			}
		}
		if r == '万' || r == '億' || r == '兆' || r == '京' {
			if strings.HasPrefix(b.String()[group:], "千") {
				s := b.String()
				b.Reset()
				b.WriteString(s[:group] + "一" + s[group:])
			}
			group = b.Len()
		}
	}
	return b.String()
}

// readNumber reads an optionally signed number at token i and returns its
// value, its digits, the token after it and whether it is negative.
func (l *rbnfLang) readNumber(s *stream, i int) (n int64, digits string, end int, neg, ok bool) {
	j := i
	if t := s.text(i); (t == "-" || t == "−") && s.kind(i+1) != tSpace {
		neg, j = true, i+1
	}
	digits, end, ok = rbnfNumber(s, j)
	if !ok || len(digits) > 18 {
		return 0, "", i, false, false
	}
	// A decimal fraction ("3.14") is not a cardinal.
	if sep := s.text(end); (sep == "." || sep == ",") && s.kind(end+1) == tNum {
		return 0, "", i, false, false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, "", i, false, false
	}
	if neg {
		n = -n
	}
	return n, digits, end, neg, true
}

// startOK and boundary relax the stream's checks for glued scripts:
// a neighbouring word of a non-Latin script does not join the number.
func (l *rbnfLang) startOK(s *stream, i int) bool {
	return s.startOK(i) || l.glued && s.kind(i-1) == tWord && !rbnfLatin(s.text(i-1), true)
}

func (l *rbnfLang) boundary(s *stream, i int) bool {
	return s.boundary(i) || l.glued && s.kind(i) == tWord && !rbnfLatin(s.text(i), false)
}

func rbnfLatin(w string, last bool) bool {
	r, _ := utf8.DecodeRuneInString(w)
	if last {
		r, _ = utf8.DecodeLastRuneInString(w)
	}
	return r < 0x250
}

func (l *rbnfLang) cardinalTN(s *stream, i int) []match {
	if !l.startOK(s, i) {
		return nil
	}
	n, digits, end, neg, ok := l.readNumber(s, i)
	if !ok || !l.boundary(s, end) {
		return nil
	}
	// "1-ին", "5-го": a hyphen and a word of the language's script mark
	// an ordinal or a case ending, not a cardinal.
	if s.is(end, "-") && s.kind(end+1) == tWord && !rbnfLatin(s.text(end+1), false) {
		return nil
	}
	var w string
	if l.conv.zeroDigits && len(digits) > 1 && digits[0] == '0' && !neg {
		parts := make([]string, len(digits))
		for k := range digits {
			if parts[k] = l.spell(l.card, int64(digits[k]-'0')); parts[k] == "" {
				return nil
			}
		}
		w = strings.Join(parts, " ")
	} else if w = l.spell(l.card, n); w == "" {
		return nil
	}
	return one(end, Cardinal, w)
}

// yearTN offers a four-digit number from 1000 to 2999 as a year, after
// the cardinal reading.
func (l *rbnfLang) yearTN(s *stream, i int) []match {
	if s.kind(i) != tNum || len(s.text(i)) != 4 || !s.startOK(i) || !s.boundary(i+1) {
		return nil
	}
	if sep := s.text(i + 1); (sep == "." || sep == ",") && s.kind(i+2) == tNum {
		return nil
	}
	n, _ := strconv.ParseInt(s.text(i), 10, 64)
	if n < 1000 || n > 2999 {
		return nil
	}
	w := l.spell(l.year, n)
	if w == "" || w == l.spell(l.card, n) {
		return nil
	}
	return []match{{end: i + 1, readings: []reading{{text: w, class: Date, cost: 1}}}}
}

// rbnfNasal folds Devanagari candrabindu into anusvara, two spellings of
// the same nasal ("वाँ" / "वां") in ordinal endings.
func rbnfNasal(s string) string { return strings.ReplaceAll(s, "\u0901", "\u0902") }

func (l *rbnfLang) ordinalTN(s *stream, i int) []match {
	rs := l.load()
	if rs == nil || len(l.ords) == 0 || !l.startOK(s, i) {
		return nil
	}
	// A prefix form ("thứ 1", "第1") starts at a word or symbol; a
	// suffix form at the number.
	numAt := i
	pre := ""
	if s.kind(i) != tNum && len(l.prefix) > 0 {
		at := int(s.toks[i].start)
		for _, p := range l.prefix {
			if len(s.src)-at > len(p) && strings.EqualFold(s.src[at:at+len(p)], p) {
				// the number must start right after the prefix
				for k := i; k < s.n(); k++ {
					if int(s.toks[k].start) == at+len(p) {
						numAt, pre = k, p
						break
					}
					if int(s.toks[k].start) > at+len(p) {
						break
					}
				}
			}
			if pre != "" {
				break
			}
		}
		if pre == "" {
			return nil
		}
	}
	n, _, end, neg, ok := l.readNumber(s, numAt)
	if !ok || neg {
		return nil
	}
	numEnd := int(s.toks[end-1].end)
	rest := s.src[numEnd:]
	restN := rbnfNasal(rest)
	var out []match
	seen := map[string]bool{}
	for _, o := range l.ords {
		suf, p := ".", ""
		if o.digits != "" {
			w, err := rs.Format(o.digits, n)
			d := strconv.FormatInt(n, 10)
			k := strings.Index(w, d)
			if err != nil || k < 0 {
				continue
			}
			p, suf = w[:k], w[k+len(d):]
		}
		if !strings.EqualFold(p, pre) {
			continue
		}
		if suf != "" && !strings.HasPrefix(restN, rbnfNasal(suf)) {
			continue
		}
		// The written form must end at a token boundary.
		e := end
		for e < s.n() && int(s.toks[e].end) <= numEnd+len(suf) {
			e++
		}
		if e > end && int(s.toks[e-1].end) != numEnd+len(suf) || !l.boundary(s, e) {
			continue
		}
		if suf == "" && pre == "" {
			continue // plain digits are cardinals
		}
		set := o.spell
		counter := o.digits != "" && set == l.conv.ordinal[o.digits]
		if counter && l.conv.counterMax > 0 && n > l.conv.counterMax {
			set = l.card
		}
		w := l.spell(set, n)
		if w == "" {
			continue
		}
		if counter {
			w += strings.TrimSpace(suf) // a counter word: "두번째"
		}
		if l.conv.markerEnding {
			w = rbnfEnding(w, rest[:len(suf)])
		}
		if seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, match{end: e, readings: []reading{{text: w, class: Ordinal, cost: float64(len(out))}}})
	}
	return out
}

// rbnfEnding makes the spoken ordinal end as its written marker m does
// ("सातवी" + "वीं" → "सातवीं"; "पाँचवाँ" + "वां" → "पाँचवां"): the marker
// is the word's ending, spelled with either nasal sign.
func rbnfEnding(w, m string) string {
	fw, fm := rbnfNasal(w), rbnfNasal(m)
	if strings.HasSuffix(fw, fm) {
		return w[:len(w)-len(m)] + m
	}
	if t := strings.TrimSuffix(fm, "\u0902"); t != fm && strings.HasSuffix(fw, t) {
		return w[:len(w)-len(t)] + m
	}
	return w
}
