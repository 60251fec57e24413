package normalize

import (
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/sottolabs/sotto/normalize/internal/rbnf"
)

// Numbers for every CLDR language.
//
// Every language that CLDR's rule-based number formats cover and that has
// no hand-written rules here is registered from the embedded CLDR data
// (package internal/rbnf) for the cardinal and ordinal classes in TN and
// ITN, and for the date class in TN where CLDR has a
// %spellout-numbering-year (a year is offered as a further reading of a
// four-digit number, never the first). Registration reads only the data's
// index; a language's rules are parsed the first time one of its matchers
// runs, and the ITN inverse (see "ITN" below) is built on first ITN use.
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
//     A language CLDR spells no ordinal for may derive them from its
//     cardinals (rbnfConv.derive, Armenian), and a language's data file
//     may list whole written ordinals ([ordinal_words] in
//     data/<tag>.tsv: Hindi "3rd" → "थर्ड").
//
// Where the NeMo test suites follow a spoken convention that differs from
// CLDR's written one, rbnfConventions adapts the output with a general
// rule per language (documented there), never per number.

// periodOrdinal lists the languages whose standard orthography writes an
// ordinal as the number followed by a full stop (Danish, Estonian,
// Faroese, Finnish, Hungarian, Icelandic, Norwegian, Czech, Slovak,
// Slovenian, Croatian, Bosnian, Serbian, Polish, Latvian, Turkish, Basque,
// Georgian; German too, which has hand-written rules).
var periodOrdinal = map[string]bool{"da": true, "et": true, "fo": true, "fi": true, "hu": true, "is": true,
	"no": true, "nn": true, "nb": true, "cs": true, "sk": true, "sl": true, "hr": true, "bs": true, "sr": true,
	"pl": true, "lv": true, "tr": true, "eu": true, "ka": true, "de": true}

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
	// spaceBefore writes these parts of a compound as words of their own
	// (CLDR joins them with a soft hyphen).
	spaceBefore []string
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
	// itnGroup separates groups of three digits in ITN's cardinals (ja
	// "50,000").
	itnGroup string
	// itnWords maps spoken variants to the words CLDR spells (vi "ngàn",
	// the Southern "nghìn"), for ITN; itnInfix does so inside words (hi
	// "निन्यानवे" → "निन्यानबे").
	itnWords map[string]string
	itnInfix map[string]string
	// counters are ordinal counter words written after digits in ITN
	// ("三番目" → "3番目", "다섯번째" → "5번째"), without digit grouping.
	counters []string
	// nativeZero is the zero of the digits ITN writes (hi '०'); 0 means
	// ASCII digits.
	nativeZero rune
	// idWords are words after which a number is an identifier read digit
	// by digit, not a quantity (ja "番号1234" → "番号一二三四"; "電話番号",
	// "部屋番号" end with the same word); the digits are joined without
	// spaces.
	idWords []string
	// ordFirst lists %digits-ordinal sets tried before the others when
	// two sets write the same marker (ru "-е": the plural "пятые" before
	// the neuter "пятое").
	ordFirst []string
	// ordPhrases replaces runs of whole words at the start of an ordinal
	// (ru "одна тысяча" → "тысяча": "тысяча девятьсот шестидесятых").
	ordPhrases map[string]string
	// periodOrdinal reads a number followed by a full stop as an ordinal
	// besides the marked forms CLDR writes (sv "20." as well as "20:e").
	periodOrdinal bool
	// spaceAfter writes a space after these parts of a cardinal when a
	// word other than a scale word follows ("cinquecento quarantaquattro"
	// it, but "duecentomila"); noSpaceBefore lists the scale words.
	spaceAfter, noSpaceBefore []string
	// pointSign and point: a number with a fraction after the decimal
	// sign pointSign is read as the integer, the word point and the
	// fraction's digits one by one (ja "九点九九"); percent is said
	// after a number followed by "%".
	pointSign, point, percent string
	// derive builds the ordinals of a language CLDR spells no ordinal for
	// (hy); see rbnfDerived.
	derive *rbnfDerived
	// spoken adds ITN spellings CLDR does not write, the language's
	// colloquial forms (vi "sáu bảy" = 67); spell gives CLDR's cardinal
	// spelling after the conventions.
	spoken func(spell func(int64) string, add func(w string, v int64))
}

// rbnfDerived builds a language's ordinals from its cardinals: the
// cardinal spelling, its last word adjusted by stems, plus suffix; words
// holds the suppletive ordinals of whole numbers. A written ordinal is
// the digits and a marker: marks[n] for the number n, else mark.
type rbnfDerived struct {
	suffix string
	words  map[int64]string
	stems  map[string]string
	marks  map[int64]string
	mark   string
}

// derivedSet names the derived ordinal in the inverse and in spell.
const derivedSet = "%spellout-ordinal"

// markFor returns the written marker of the ordinal n.
func (d *rbnfDerived) markFor(n int64) string {
	if m, ok := d.marks[n]; ok {
		return m
	}
	return d.mark
}

// rbnfConventions holds the per-language spoken conventions; see rbnfConv.
// Each entry is a rule of the language's usage, not a list of cases.
var rbnfConventions = map[string]rbnfConv{
	// Vietnamese: Northern "linh" for the zero tens digit ("một trăm linh
	// một"), where CLDR writes the Southern "lẻ".
	// The zero hundreds of an inner group go unsaid ("một nghìn hai
	// mươi", not "một nghìn không trăm hai mươi").
	// ITN also reads the Southern "ngàn" and the spelling "tỉ".
	// The ordinal 2 is the everyday "thứ hai" (as NeMo's Vietnamese
	// grammar says it), not CLDR's literary "thứ nhì"; 1 and 4 keep
	// "nhất" and "tư".
	// ITN reads the colloquial forms too (viSpoken).
	"vi": {words: map[string]string{"lẻ": "linh", "nhì": "hai"}, phrases: map[string]string{"không trăm": ""},
		itnWords: map[string]string{"ngàn": "nghìn", "tỉ": "tỷ"}, spoken: viSpoken},
	// Swedish: "hundra", "tusen", "miljon" without "ett"/"en" (both are
	// standard; the suites use the short form), and the neuter "ett" in
	// counting ("tjugoett").
	// Hungarian: "ezer", "millió" without "egy", "kettő" before a scale
	// word, and a hyphen between the groups of a number above 2000 (the
	// Academy's spelling rule, as in "kétezer-kettő").
	"hu": {dropOne: []string{"egy"}, scales: []string{"száz", "ezer", "millió", "milliárd", "billió",
		"billiárd", "trillió", "trilliárd"}, before: map[string]string{"két": "kettő"},
		groupJoin: "-", groupOver: 2000},
	// Hindi: numbers with leading zeros are read digit by digit; a spoken
	// ordinal ends as its written marker ("वीं", "वां").
	// ITN writes Devanagari digits.
	// ITN also reads the spellings "-नवे" of the nineties ("निन्यानवे",
	// CLDR's "निन्यानबे") and "छः" for six.
	"hi": {zeroDigits: true, markerEnding: true, nativeZero: '०', itnInfix: map[string]string{"ानवे": "ानबे"},
		itnWords: map[string]string{"छः": "छह", "छे": "छह"}},
	// Italian: groups of three digits apart, the hundreds apart from
	// what follows in their group ("tremila cinquecento quarantaquattro",
	// "cento uno", but "duecentomila"), and "tre" unaccented inside and
	// at the end of a compound ("quarantatremila", "ventitre"), as NeMo's
	// Italian grammar spells them.
	"it": {groupSpace: true, spaceAfter: []string{"cento"}, noSpaceBefore: []string{"mila", "milion", "miliard"},
		infix: map[string]string{"tré": "tre"}},
	// Korean: "번째" ordinals count with native attributive numerals ("두
	// 번째") up to 99, Sino-Korean ones above; numbers are written as one
	// word.
	"ko": {ordinal: map[string]string{"%digits-ordinal": "%spellout-cardinal-native-attributive"},
		counterMax: 99, noSpace: true, counters: []string{"번째"}},
	// Japanese: "一千" before 万, 億, 兆; ITN groups digits with commas.
	// A decimal fraction is read with "点" and its digits one by one
	// ("〇点〇〇五"), "%" as "パーセント".
	"ja": {oneBig: true, itnGroup: ",", counters: []string{"番目"}, pointSign: ".", point: "点", percent: "パーセント",
		idWords: []string{"番号"}},
	// Arabic: the modern spelling "مئة" for "مائة", the construct form of
	// a unit before it ("ثمان مئة", "خمس مئة"), and the suites' "اَلاف";
	// "اثنان", "اثنا عشر" with the plain alif (hamzat al-wasl) where CLDR
	// writes "إثنان", and the nominative "ألفان" for CLDR's "ألفين", as
	// NeMo's Arabic decimals and money say them; ITN reads both spellings
	// of "اثنان".
	"ar": {words: map[string]string{"مائة": "مئة", "آلاف": "اَلاف", "ألفين": "ألفان"}, scales: []string{"مائة"},
		infix: map[string]string{"إثن": "اثن"}, itnInfix: map[string]string{"إثن": "اثن"},
		before: map[string]string{"ثلاثة": "ثلاث", "أربعة": "أربع", "خمسة": "خمس", "ستة": "ست", "سبعة": "سبع",
			"ثمانية": "ثمان", "تسعة": "تسع"}},
	// Armenian: the reformed spelling ("իննսուն", "միլիոն") where CLDR
	// writes the classical one; hundreds as two words ("ութ հարյուր"),
	// and "հարյուր", "հազար" without "մեկ".
	// Ordinals, which CLDR does not spell for Armenian: "առաջին",
	// "երկրորդ", "երրորդ", "չորրորդ" for 1–4, otherwise the cardinal and
	// "-երորդ" ("հինգերորդ", "քսանմեկերորդ", "իններորդ" from "ինը"),
	// written "1-ին" and "5-րդ".
	"hy": {infix: map[string]string{"իննասուն": "իննսուն", "միլիօն": "միլիոն"}, spaceBefore: []string{"հարյուր"},
		dropOne: []string{"մեկ"}, scales: []string{"հարյուր", "հազար"},
		derive: &rbnfDerived{suffix: "երորդ",
			words: map[int64]string{1: "առաջին", 2: "երկրորդ", 3: "երրորդ", 4: "չորրորդ"},
			stems: map[string]string{"ինը": "ինն", "տասը": "տասն"},
			marks: map[int64]string{1: "-ին"}, mark: "-րդ"}},
	// Russian: "-е" is read as the plural ("1990-е", "пятые"), the
	// reading of decades and lists, rather than the neuter; an ordinal
	// of a thousand and more starts with "тысяча", not CLDR's "одна
	// тысяча" ("тысяча девятьсот шестидесятых").
	"ru": {ordFirst: []string{"%digits-ordinal-plural"}, ordPhrases: map[string]string{"одна тысяча": "тысяча"}},
	// Swedish: besides CLDR's "20:e", "2:a", a number followed by a full
	// stop is an ordinal ("20.", "2. jan."), as NeMo's Swedish grammar
	// reads it.
	"sv": {dropOne: []string{"en", "ett", "et"}, scales: []string{"hundra", "tusen", "miljon", "miljoner",
		"miljard", "miljarder", "biljon", "biljoner", "biljard", "biljarder"}, periodOrdinal: true},
}

// viSpoken adds the colloquial Vietnamese numbers ITN reads: two digits
// without "mươi" ("sáu bảy" 67, "ba mốt" 31, "chín lăm" 95); a digit after
// the hundreds standing for the tens ("một trăm hai" 120, "năm trăm tư"
// 540, "một trăm mốt" 110); "tư", "lăm" as the units after "linh"/"lẻ"
// ("một trăm lẻ tư" 104); and "rưỡi", half the unit before it ("tám trăm
// rưỡi" 850, "năm nghìn rưỡi" 5500). "một" alone after the hundreds stays
// ambiguous (101 or 110) and is not added.
func viSpoken(spell func(int64) string, add func(string, int64)) {
	unit := func(d int64, afterTens bool) []string {
		w := []string{spell(d)}
		switch {
		case d == 1 && afterTens:
			w = []string{"mốt"}
		case d == 4:
			w = append(w, "tư")
		case d == 5:
			w = append(w, "lăm", "nhăm")
		}
		return w
	}
	for a := int64(2); a <= 9; a++ {
		for b := int64(1); b <= 9; b++ {
			for _, u := range unit(b, true) {
				add(spell(a)+" "+u, 10*a+b)
			}
		}
	}
	for h := int64(1); h <= 9; h++ {
		head := spell(h * 100)
		for y := int64(2); y <= 9; y++ {
			for _, u := range unit(y, false) {
				add(head+" "+u, 100*h+10*y)
			}
		}
		add(head+" mốt", 100*h+10)
		for _, lk := range []string{"linh", "lẻ"} {
			add(head+" "+lk+" tư", 100*h+4)
			add(head+" "+lk+" lăm", 100*h+5)
		}
		add(head+" rưỡi", 100*h+50)
	}
	for x := int64(1); x <= 99; x++ {
		add(spell(x)+" nghìn rưỡi", 1000*x+500)
		add(spell(x)+" triệu rưỡi", 1000000*x+500000)
	}
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

	once   sync.Once
	rs     *rbnf.RuleSets
	ords   []rbnfOrd // written ordinal forms
	prefix []string  // distinct non-empty prefixes of ords

	invOnce sync.Once
	inv     *rbnfInverse

	// spelled caches rs.Format by rule set and number (rbnfSpelled):
	// matchers of several classes spell the same number at a token, and
	// ordinalTN tries every written ordinal form on each number.
	spelled  sync.Map // rbnfKey → rbnfSpelled
	nSpelled atomic.Int64

	// ordWords are whole written ordinals read from the language's data
	// file ([ordinal_words] of data/<tag>.tsv: hi "3rd" → "थर्ड"), keyed
	// with ASCII digits.
	ordWords map[string]string
	// ordSpoken maps the spoken forms of the data file's whole ordinals
	// flagged `itn` back to their written form, for ITN ("첫번째" →
	// "1번째").
	ordSpoken map[string]string
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
		if l.conv.point != "" {
			tn[Decimal] = l.decimalTN
		}
		script := info.Script
		if script == "Hani" {
			script = "Hans" // und's Han segments go to zh alone
		}
		itn := map[string]matcher{Cardinal: l.cardinalITN}
		if tn[Ordinal] != nil {
			itn[Ordinal] = l.ordinalITN
		}
		register(&rules{tag: info.Locale, name: info.Name, script: script, fallback: true, tn: tn, itn: itn})
	}
}

// hasOrdinals reports, from the index alone, whether the language has a
// spelled ordinal and a way to recognize written ones.
func (l *rbnfLang) hasOrdinals() bool {
	if l.conv.derive != nil || len(lexiconFor(l.info.Locale).rows("ordinal_words")) > 0 {
		return true
	}
	spell := false
	digits := periodOrdinal[l.info.Locale] || l.info.MarkedOrdinals
	for _, s := range l.info.Sets {
		spell = spell || strings.HasPrefix(s, "%spellout-ordinal")
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
		// The default ordinal set (a full-stop ordinal, "20."): the plain
		// set, else the gender-neutral one where CLDR has it (sv "reale":
		// "1." → "första", not the masculine "förste"; da "common"), else
		// the masculine.
		for _, c := range []string{"%spellout-ordinal-masculine", "%spellout-ordinal-common", "%spellout-ordinal-reale", "%spellout-ordinal"} {
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
			}
		}
		// Preferred sets first, the rest in data order.
		for k := len(l.conv.ordFirst) - 1; k >= 0; k-- {
			for j, o := range l.ords {
				if o.digits == l.conv.ordFirst[k] {
					l.ords = append(append([]rbnfOrd{o}, l.ords[:j]...), l.ords[j+1:]...)
					break
				}
			}
		}
		if (len(l.ords) == 0 && periodOrdinal[l.info.Locale] || l.conv.periodOrdinal) && def != "" {
			l.ords = append(l.ords, rbnfOrd{spell: def})
		}
		if l.conv.derive != nil {
			l.ords = append(l.ords, rbnfOrd{spell: derivedSet})
		}
		for _, p := range lexiconFor(l.info.Locale).pairs("ordinal_words") {
			if len(p.spoken) == 0 {
				continue
			}
			if l.ordWords == nil {
				l.ordWords = map[string]string{}
			}
			for _, w := range p.written {
				l.ordWords[w] = p.spoken[0]
			}
			if p.has("itn") {
				if l.ordSpoken == nil {
					l.ordSpoken = map[string]string{}
				}
				for _, sp := range p.spoken {
					l.ordSpoken[sp] = p.written[0]
				}
			}
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
// apostrophe ("2 300", "10.000", "1,115,000"), but not after point, the
// language's decimal sign if the conventions say it. It returns the digits in
// ASCII, the token index after them, and whether they were grouped.
func rbnfNumber(s *stream, i int, point string) (digits string, end int, ok bool) {
	first, j := rbnfDigitRun(s, i)
	if first == "" {
		return "", i, false
	}
	digits, end = first, j
	if len(first) <= 3 {
		for {
			sep := s.text(end)
			if !(sep == " " || sep == "\u00a0" || sep == "\u202f" || sep == "." || sep == "," || sep == "'" || sep == "’") || sep == point {
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
	if (n > c.groupOver && c.groupJoin != "" && !strings.Contains(whole, " ") || c.groupSpace && n >= 1000) && raw != "" {
		// Join the groups of three digits: each higher group is spelled
		// as a cardinal with its scale, the last takes what remains of
		// the whole spelling (an ordinal ending, say), provided the
		// groups compose into the whole.
		var parts []string
		var p int64 = 1
		for p <= n/1000 {
			p *= 1000
		}
		rest, cat, lastq := n, "", ""
		for ; p >= 1000; p /= 1000 {
			g := rest / p * p
			rest -= g
			if g > 0 {
				q := l.format(l.card, g)
				parts = append(parts, l.convert(q))
				cat += rbnfClean(q)
				lastq = rbnfClean(q)
			}
		}
		if _, ok := strings.CutPrefix(whole, cat); !ok && rest > 0 && lastq != "" && strings.HasPrefix(set, "%spellout-ordinal") {
			// An ordinal may spell its higher groups otherwise (hu
			// "…milliom…"): its last group is what follows the last
			// higher group's cardinal, the higher groups are cardinals
			// ("százkettőmillió-kettőezer-háromszázkettedik").
			if k := strings.LastIndex(whole, lastq); k >= 0 && k+len(lastq) < len(whole) {
				whole = cat + whole[k+len(lastq):]
			}
		}
		if c.groupSpace {
			// compare without the spaces CLDR puts around some scales
			// ("un milione trentaquattromila…")
			whole, cat = strings.ReplaceAll(whole, " ", ""), strings.ReplaceAll(cat, " ", "")
		}
		if last, ok := strings.CutPrefix(whole, cat); ok && cat != "" {
			if last != "" {
				parts = append(parts, l.convert(last))
			}
			join := c.groupJoin
			if c.groupSpace {
				join = " "
			}
			return l.finish(set, strings.Join(parts, join))
		}
	}
	return l.finish(set, l.convert(raw))
}

// finish applies the conventions that depend on the kind of number
// (ordinal phrases, spacing after parts of a cardinal) and rbnfFinal.
func (l *rbnfLang) finish(set, w string) string {
	c := &l.conv
	if strings.HasPrefix(set, "%spellout-ordinal") {
		for from, to := range c.ordPhrases {
			if rest, ok := strings.CutPrefix(w, from+" "); ok {
				w = to + " " + rest
			}
		}
	} else {
		for _, x := range c.spaceAfter {
			w = spaceAfter(w, x, c.noSpaceBefore)
		}
	}
	return rbnfFinal(w)
}

// spaceAfter inserts a space after each x in w that a letter follows,
// unless what follows starts with one of keep.
func spaceAfter(w, x string, keep []string) string {
	var b strings.Builder
	for {
		k := strings.Index(w, x)
		if k < 0 {
			b.WriteString(w)
			return b.String()
		}
		b.WriteString(w[:k+len(x)])
		w = w[k+len(x):]
		r, _ := utf8.DecodeRuneInString(w)
		glued := !unicode.IsLetter(r)
		for _, p := range keep {
			glued = glued || strings.HasPrefix(w, p)
		}
		if !glued {
			b.WriteByte(' ')
		}
	}
}

// rbnfKey and rbnfSpelled are a cached call of RuleSets.Format and its
// result.
type (
	rbnfKey struct {
		set string
		n   int64
	}
	rbnfSpelled struct {
		w   string
		err error
	}
)

// maxSpelled bounds the cache of each language's spellings; a full cache
// is emptied.
const maxSpelled = 1 << 14

// formatRaw is l.rs.Format, cached: the rule sets are immutable, so the
// same set and number always give the same spelling.
func (l *rbnfLang) formatRaw(set string, n int64) (string, error) {
	k := rbnfKey{set, n}
	if v, ok := l.spelled.Load(k); ok {
		r := v.(rbnfSpelled)
		return r.w, r.err
	}
	w, err := l.rs.Format(set, n)
	if l.nSpelled.Add(1) > maxSpelled {
		l.spelled.Clear()
		l.nSpelled.Store(1)
	}
	l.spelled.Store(k, rbnfSpelled{w, err})
	return w, err
}

func (l *rbnfLang) format(set string, n int64) string {
	if d := l.conv.derive; d != nil && set == derivedSet && !l.rs.Has(set) {
		return l.derived(d, n)
	}
	w, err := l.formatRaw(set, n)
	if err != nil || strings.ContainsAny(w, "0123456789") {
		return ""
	}
	return w
}

// derived spells the ordinal n by the language's derivation rule (see
// rbnfDerived), in CLDR's raw form (soft hyphens kept) for convert.
func (l *rbnfLang) derived(d *rbnfDerived, n int64) string {
	if n < 1 {
		return ""
	}
	if w, ok := d.words[n]; ok {
		return w
	}
	w := l.format(l.card, n)
	if w == "" {
		return ""
	}
	for from, to := range d.stems {
		if stem, ok := strings.CutSuffix(w, from); ok && (stem == "" || !unicode.IsLetter(lastRune(stem))) {
			w = stem + to
			break
		}
	}
	return w + d.suffix
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// rbnfFinal returns "" when any part failed (see convert).
func rbnfFinal(s string) string {
	if s == "" || strings.Contains(s, "\x00") {
		return ""
	}
	return s
}

// rbnfClean removes CLDR's line-break hints: soft hyphens between the
// parts of a compound ("két\u00adezer") and zero-width spaces between the
// words of scripts written without spaces (Thai, Lao, Khmer, Burmese).
func rbnfClean(s string) string {
	if !strings.Contains(s, "\u00ad") && !strings.Contains(s, "\u200b") {
		return s
	}
	return rbnfHints.Replace(s)
}

// rbnfHints removes CLDR's soft hyphens and zero-width spaces (built once:
// a Replacer built per call cost a third of Russian TN's time).
var rbnfHints = strings.NewReplacer("\u00ad", "", "\u200b", "")

// convert applies the word-level conventions to one CLDR spelling (soft
// hyphens still marking the parts of compounds) and cleans it. A failed
// spelling ("") comes back as "\x00", a mark that survives joining parts
// and that rbnfFinal turns into a failure; CLDR text never contains NUL.
func (l *rbnfLang) convert(w string) string {
	if w == "" {
		return "\x00"
	}
	c := &l.conv
	for _, x := range c.spaceBefore {
		w = strings.ReplaceAll(w, "\u00ad"+x, " "+x)
	}
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
	// A group of three digits after a short digit run and a space is the
	// tail of a grouped number too long to read ("100 000 … 002"), not a
	// number of its own.
	if sep := s.text(j - 1); j >= 2 && s.kind(j-2) == tNum && len(s.text(j-2)) <= 3 && len(s.text(j)) == 3 &&
		(sep == " " || sep == "\u00a0" || sep == "\u202f" || sep == "'" || sep == "’") {
		return 0, "", i, false, false
	}
	digits, end, ok = rbnfNumber(s, j, l.conv.pointSign)
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
	if !l.startOK(s, i) || rbnfAfterPoint(s, i) {
		return nil
	}
	n, digits, end, neg, ok := l.readNumber(s, i)
	if !ok {
		return nil
	}
	pct := ""
	if l.conv.percent != "" && s.is(end, "%") {
		pct, end = l.conv.percent, end+1
	}
	if !l.boundary(s, end) {
		return nil
	}
	// "1-ին", "5-го": a hyphen and a word of the language's script mark
	// an ordinal or a case ending, not a cardinal.
	if s.is(end, "-") && s.kind(end+1) == tWord && !rbnfLatin(s.text(end+1), false) {
		return nil
	}
	var w string
	if !neg && pct == "" && l.afterIDWord(s, i) && len(digits) > 1 {
		var b strings.Builder
		for k := range digits {
			x := l.spell(l.card, int64(digits[k]-'0'))
			if x == "" {
				return nil
			}
			b.WriteString(x)
		}
		return one(end, Cardinal, b.String())
	}
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
	return one(end, Cardinal, w+pct)
}

// afterIDWord reports whether the number at token i follows one of the
// language's identifier words (rbnfConv.idWords), directly or after a
// space (Han text is one token a character, so the source is compared).
func (l *rbnfLang) afterIDWord(s *stream, i int) bool {
	if len(l.conv.idWords) == 0 || i == 0 {
		return false
	}
	t := strings.TrimSuffix(s.src[:s.toks[i].start], " ")
	for _, w := range l.conv.idWords {
		if strings.HasSuffix(t, w) {
			return true
		}
	}
	return false
}

// decimalTN reads a number with a decimal fraction where the language's
// conventions say how (rbnfConv.point): the integer, the point word and
// the fraction's digits one by one.
func (l *rbnfLang) decimalTN(s *stream, i int) []match {
	c := &l.conv
	if c.point == "" {
		return nil
	}
	j := i
	neg := false
	if t := s.text(i); (t == "-" || t == "−") && s.kind(i+1) == tNum {
		neg, j = true, i+1
	}
	if s.kind(j) != tNum || !s.is(j+1, c.pointSign) || s.kind(j+2) != tNum {
		return nil
	}
	ip, err := strconv.ParseInt(s.text(j), 10, 64)
	if err != nil || len(s.text(j)) > 18 {
		return nil
	}
	w := l.spell(l.card, ip)
	if neg {
		minus, ok := strings.CutSuffix(l.spell(l.card, -7), l.spell(l.card, 7))
		if !ok || minus == "" {
			return nil
		}
		w = minus + w
	}
	if w == "" {
		return nil
	}
	var b strings.Builder
	b.WriteString(w + c.point)
	for _, d := range s.text(j + 2) {
		x := l.spell(l.card, int64(d-'0'))
		if x == "" {
			return nil
		}
		b.WriteString(x)
	}
	end := j + 3
	if c.percent != "" && s.is(end, "%") {
		b.WriteString(c.percent)
		end++
	}
	if !l.boundary(s, end) {
		return nil
	}
	return one(end, Decimal, b.String())
}

// rbnfAfterPoint reports whether token i follows a digit and a full stop
// or comma: the fraction of "3.14", not a number of its own.
func rbnfAfterPoint(s *stream, i int) bool {
	return (s.is(i-1, ".") || s.is(i-1, ",")) && s.kind(i-2) == tNum
}

// yearTN offers a four-digit number from 1000 to 2999 as a year, after
// the cardinal reading.
func (l *rbnfLang) yearTN(s *stream, i int) []match {
	if s.kind(i) != tNum || len(s.text(i)) != 4 || !s.startOK(i) || !s.boundary(i+1) || rbnfAfterPoint(s, i) {
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

// rbnfNasalPrefix reports whether rbnfNasal(s) starts with
// rbnfNasal(prefix), folding only as much of s as the prefix is long: the
// fold changes the last byte of a three-byte rune, so a rune cut at the end
// of that much of s folds the bytes before the cut as the whole text does.
func rbnfNasalPrefix(s, prefix string) bool {
	p := rbnfNasal(prefix)
	return len(s) >= len(p) && rbnfNasal(s[:len(p)]) == p
}

func (l *rbnfLang) ordinalTN(s *stream, i int) []match {
	rs := l.load()
	if len(l.ordWords) > 0 && l.startOK(s, i) {
		// a whole written ordinal from the data file: digits and a word
		if d, j := rbnfDigitRun(s, i); d != "" && s.kind(j) == tWord && l.boundary(s, j+1) {
			if w, ok := l.ordWords[d+s.text(j)]; ok {
				return one(j+1, Ordinal, w)
			}
		}
	}
	if rs == nil || len(l.ords) == 0 || !l.startOK(s, i) || rbnfAfterPoint(s, i) {
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
	if !ok || neg || pre == "" && (end >= s.n() || s.kind(end) == tSpace) {
		return nil // a suffix form needs its suffix right after the digits
	}
	numEnd := int(s.toks[end-1].end)
	rest := s.src[numEnd:]
	var out []match
	seen := map[string]bool{}
	for _, o := range l.ords {
		suf, p := ".", ""
		if d := l.conv.derive; d != nil && o.spell == derivedSet {
			suf = d.markFor(n)
		} else if o.digits != "" {
			w, err := l.formatRaw(o.digits, n)
			if l.info.Script == "Cyrl" {
				w = rbnfCyrillic(w)
			}
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
		if suf != "" && !rbnfNasalPrefix(rest, suf) {
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
	if len(out) == 0 && pre == "" {
		return l.fullEndingOrdinal(s, n, end)
	}
	return out
}

// fullEndingOrdinal reads a Cyrillic ordinal written with the word's full
// ending instead of CLDR's short marker ("1-ый", "2-ая", "3-ий", "5-ого",
// "7-ому", "9-ым", "4-ую"; CLDR writes "1-й", "2-я", "5-го"): the ending
// names the form, so the reading is the first ordinal spelling, over all
// of the language's ordinal sets (genders and cases), whose last word ends
// with it. The number's tokens end at end; the ending must be 2 or 3
// lower-case letters after a hyphen, ending at a boundary.
func (l *rbnfLang) fullEndingOrdinal(s *stream, n int64, end int) []match {
	if l.info.Script != "Cyrl" || !s.is(end, "-") || s.kind(end+1) != tWord || !l.boundary(s, end+2) {
		return nil
	}
	suf := s.text(end + 1)
	if k := utf8.RuneCountInString(suf); k < 2 || k > 3 || strings.ToLower(suf) != suf {
		return nil
	}
	for _, r := range suf {
		if !unicode.Is(unicode.Cyrillic, r) {
			return nil
		}
	}
	for _, set := range l.rs.Names() {
		if !strings.HasPrefix(set, "%spellout-ordinal") {
			continue
		}
		w := l.spell(set, n)
		last := w[strings.LastIndexByte(w, ' ')+1:]
		if len(last) > len(suf) && strings.HasSuffix(last, suf) {
			return one(end+2, Ordinal, w)
		}
	}
	return nil
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

// ITN.
//
// The inverse of CLDR's rules is built, on first use, by generating: the
// spellings of 0–9999 with the cardinal set (0–999 with the language's
// other cardinal sets and with each ordinal set), and the scale words
// found by spelling m×10^e for small m (what follows the spelling of m).
// Spellings are compared compacted (lower case, without spaces, hyphens
// or soft hyphens), so compounding languages ("femhundranittiotre") and
// spaced ones ("сто сорок семь") parse alike. A spelling that two numbers
// share is ambiguous and dropped. A spoken number is read greedily as
// groups, each a small spelling optionally followed by a scale word with
// a smaller exponent than the last; an ordinal ends with an ordinal
// spelling and is accepted only when the number's ordinal spelling gives
// back the words read (in CLDR's form or after the conventions).

// rbnfForm is what a compacted spelling stands for.
type rbnfForm struct {
	value int64
	set   string // the ordinal set, for ordinals
}

type rbnfInverse struct {
	card   map[string]int64 // -1: ambiguous
	ord    map[string]rbnfForm
	scales map[string]int // exponent; -1: ambiguous
	joins  []string       // words joining groups (ar "و")
	minus  []string
	maxLen int
	// heads holds the first one and two runes of every spelling, scale
	// and minus word: a quick test that a word may start a number.
	heads map[string]bool
}

func (inv *rbnfInverse) addHeads(k string) {
	n := 0
	for i := range k {
		if n == 1 || n == 2 {
			inv.heads[k[:i]] = true
		}
		n++
	}
	if n <= 2 {
		inv.heads[k] = true
	}
}

// mayStart reports whether word w (lower case) may begin a spelled
// number: its first two runes begin a spelling, or its first rune is one
// (in a compound, another spelling may follow: "만천").
func (inv *rbnfInverse) mayStart(w string) bool {
	n := 0
	for i := range w {
		if n == 1 {
			if inv.whole(w[:i]) {
				return true
			}
		}
		if n == 2 {
			return inv.heads[w[:i]]
		}
		n++
	}
	return inv.heads[w]
}

func (inv *rbnfInverse) whole(k string) bool {
	if v, ok := inv.card[k]; ok && v >= 0 {
		return true
	}
	if e, ok := inv.scales[k]; ok && e > 0 {
		return true
	}
	return containsStr(inv.minus, k)
}

// devaNuktaBase holds the letters of U+0958–U+095F (क़ ख़ ग़ ज़ ड़ ढ़ फ़ य़)
// without their nukta.
var devaNuktaBase = [8]rune{'क', 'ख', 'ग', 'ज', 'ड', 'ढ', 'फ', 'य'}

func rbnfCompact(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch r {
		case ' ', '-', '\u00ad', '\u200b', '\u200c':
			continue
		case '\u0901':
			r = '\u0902' // Devanagari nasals: "वाँ" and "वां" alike
		case '\u093c':
			continue // the nukta: "हज़ार" and "हजार" alike
		}
		if r >= '\u0958' && r <= '\u095f' { // letters with a nukta, precomposed
			r = devaNuktaBase[r-'\u0958']
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (l *rbnfLang) inverse() *rbnfInverse {
	l.invOnce.Do(func() {
		rs := l.load()
		if rs == nil {
			return
		}
		inv := &rbnfInverse{card: map[string]int64{}, ord: map[string]rbnfForm{}, scales: map[string]int{}}
		addCard := func(w string, v int64) {
			if w == "" || strings.ContainsAny(w, "0123456789") {
				return
			}
			k := rbnfCompact(w)
			if old, ok := inv.card[k]; ok && old != v {
				inv.card[k] = -1
				return
			}
			inv.card[k] = v
			inv.maxLen = max(inv.maxLen, len(k))
		}
		var cards, ords []string
		for _, s := range rs.Names() {
			switch {
			case strings.HasPrefix(s, "%spellout-cardinal") || s == "%spellout-numbering":
				cards = append(cards, s)
			case strings.HasPrefix(s, "%spellout-ordinal"):
				ords = append(ords, s)
			}
		}
		if l.conv.derive != nil && !containsStr(ords, derivedSet) {
			ords = append(ords, derivedSet)
		}
		// Languages that count in myriads (万, 만) group four digits.
		small := int64(1000)
		ten, _ := rs.Format(l.card, 10)
		myr, _ := rs.Format(l.card, 10000)
		if !strings.Contains(rbnfCompact(myr), rbnfCompact(ten)) {
			small = 10000
		}
		for v := int64(0); v < small; v++ {
			raw, _ := rs.Format(l.card, v)
			addCard(raw, v)
			addCard(l.spell(l.card, v), v)
		}
		if l.conv.spoken != nil {
			l.conv.spoken(func(v int64) string { return l.spell(l.card, v) }, addCard)
		}
		// The other sets (genders, cases): 0–99 and the round hundreds;
		// the groups compose the rest.
		var few []int64
		for v := int64(0); v < 100; v++ {
			few = append(few, v)
		}
		for v := int64(100); v <= 1000; v += 100 {
			few = append(few, v)
		}
		for _, set := range cards {
			for _, v := range few {
				raw, _ := rs.Format(set, v)
				addCard(raw, v)
			}
		}
		var all []int64 // 0–999, for an ordinal derived from cardinals
		for v := range int64(1000) {
			all = append(all, v)
		}
		for _, set := range ords {
			vs := few
			if set == derivedSet && l.conv.derive != nil {
				// the suffix glues to the last word, so the cardinal of
				// 121 would swallow "…մեկ" before "երորդ": every
				// ordinal below 1000 is a spelling of its own
				vs = all
			}
			for _, v := range vs {
				for _, w := range []string{l.format(set, v), l.spell(set, v)} {
					if w == "" {
						continue
					}
					k := rbnfCompact(w)
					if old, ok := inv.ord[k]; ok && old.value != v {
						inv.ord[k] = rbnfForm{value: -1}
						continue
					} else if ok {
						continue // first set (data order) wins
					}
					inv.ord[k] = rbnfForm{value: v, set: set}
					inv.maxLen = max(inv.maxLen, len(k))
				}
			}
		}
		// Scale words: what follows the spelling of m in m×10^e.
		p := int64(1)
		for e := 1; e <= 18; e++ {
			p *= 10
			for _, m := range []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 20, 21, 22, 25, 100, 101, 200, 500} {
				if m > (1<<62)/p {
					break
				}
				for _, set := range cards {
					w, err := rs.Format(set, m*p)
					if err != nil {
						continue
					}
					mw, _ := rs.Format(set, m)
					cw, cm := rbnfCompact(w), rbnfCompact(mw)
					rest, ok := strings.CutPrefix(cw, cm)
					if !ok || rest == "" || strings.ContainsAny(rest, "0123456789") {
						continue
					}
					if _, small := inv.card[rest]; small {
						continue // "hundred" spelled alone is a small number already
					}
					if old, ok := inv.scales[rest]; ok && old != e {
						inv.scales[rest] = -1
						continue
					}
					inv.scales[rest] = e
				}
			}
		}
		// Scale words as the conventions spell them (hy "միլիոն" for
		// CLDR's "միլիօն").
		conv := map[string]int{}
		for k, e := range inv.scales {
			c := k
			for from, to := range l.conv.infix {
				c = strings.ReplaceAll(c, rbnfCompact(from), rbnfCompact(to))
			}
			if _, taken := inv.scales[c]; !taken && c != k {
				conv[c] = e
			}
		}
		for c, e := range conv {
			inv.scales[c] = e
		}
		// Inner groups: how g is said after a thousand ("không trăm lẻ
		// một" vi, "وسبعة" ar), what follows the spelling of 1000 in
		// that of 1000+g.
		head, _ := rs.Format(l.card, 1000)
		for g := int64(1); g < 1000; g++ {
			w, _ := rs.Format(l.card, 1000+g)
			for _, x := range []string{w, l.wordsOnly(w)} {
				if rest, ok := strings.CutPrefix(rbnfCompact(x), rbnfCompact(l.wordsOnly(head))); ok && rest != "" {
					addCard(rest, g)
				}
				if rest, ok := strings.CutPrefix(rbnfCompact(x), rbnfCompact(head)); ok && rest != "" {
					addCard(rest, g)
				}
			}
		}
		// Inner ordinal groups: how an ordinal g is said after a hundred
		// ("एकवाँ" in "एक सौ एकवाँ"), what follows the hundred in 100+g.
		hundred, _ := rs.Format(l.card, 100)
		for _, set := range ords {
			for g := int64(1); g < 100; g++ {
				w := l.format(set, 100+g)
				if rest, ok := strings.CutPrefix(rbnfCompact(w), rbnfCompact(hundred)); ok && rest != "" {
					k := rest
					if _, seen := inv.ord[k]; !seen {
						inv.ord[k] = rbnfForm{value: g, set: set}
						inv.maxLen = max(inv.maxLen, len(k))
					}
				}
			}
		}
		// Joining words: what stands between 10^e and 1 in 10^e+1.
		for e := 2; e <= 9; e++ {
			head, _ := rs.Format(l.card, rbnfPow10(e))
			w, _ := rs.Format(l.card, rbnfPow10(e)+1)
			one, _ := rs.Format(l.card, 1)
			mid, ok := strings.CutPrefix(rbnfCompact(w), rbnfCompact(head))
			if mid, ok2 := strings.CutSuffix(mid, rbnfCompact(one)); ok && ok2 && mid != "" && !containsStr(inv.joins, mid) {
				inv.joins = append(inv.joins, mid)
			}
		}
		// Minus words: the -x rule's prefix.
		if neg, err := rs.Format(l.card, -7); err == nil {
			pos, _ := rs.Format(l.card, 7)
			if m, ok := strings.CutSuffix(neg, pos); ok && strings.TrimSpace(m) != "" {
				inv.minus = append(inv.minus, rbnfCompact(m))
			}
		}
		inv.heads = map[string]bool{}
		for k := range inv.card {
			inv.addHeads(k)
		}
		for k := range inv.ord {
			inv.addHeads(k)
		}
		for k := range inv.scales {
			inv.addHeads(k)
		}
		for _, k := range inv.minus {
			inv.addHeads(k)
		}
		l.inv = inv
	})
	return l.inv
}

// lowerTok returns token i in lower case (words from the stream's index).
func (l *rbnfLang) lowerTok(s *stream, i int) string {
	if s.kind(i) == tWord {
		w := s.lowerAt(i)
		if r, ok := l.conv.itnWords[w]; ok {
			return r
		}
		for from, to := range l.conv.itnInfix {
			w = strings.ReplaceAll(w, from, to)
		}
		return w
	}
	return s.text(i)
}

// wordsOnly applies the language's whole-word replacements alone.
func (l *rbnfLang) wordsOnly(w string) string {
	if len(l.conv.words) == 0 {
		return w
	}
	f := strings.Fields(rbnfClean(w))
	for k, x := range f {
		if r, ok := l.conv.words[x]; ok {
			f[k] = r
		}
	}
	return strings.Join(f, " ")
}

// rbnfSpan is the compacted text of a run of tokens, with the token
// index that ends at each compacted byte offset.
type rbnfSpan struct {
	text string
	ends map[int]int // compacted length → token index after it
}

// span collects the words from token i on, joined by single spaces or
// hyphens (or glued, in glued scripts), up to the longest spelling.
func (l *rbnfLang) span(s *stream, i, limit int) rbnfSpan {
	var b strings.Builder
	sp := rbnfSpan{ends: map[int]int{}}
	j := i
	for j < s.n() && b.Len() <= limit {
		switch k := s.kind(j); {
		case k == tWord || k == tHan:
			b.WriteString(rbnfCompact(l.lowerTok(s, j)))
			sp.ends[b.Len()] = j + 1
			j++
		case (k == tSpace && s.text(j) == " " || s.is(j, "-")) && (s.kind(j+1) == tWord || s.kind(j+1) == tHan):
			j++
		default:
			sp.text = b.String()
			return sp
		}
	}
	sp.text = b.String()
	return sp
}

// parse reads a spoken number at the start of c: it returns the value,
// the compacted length read, and for an ordinal its set ("" for a
// cardinal). ok is false when nothing was read.
func (inv *rbnfInverse) parse(c string, ordinal bool) (v int64, n int, set string, ok bool) {
	v, n, set, _, ok = inv.parseOrd(c, ordinal)
	return v, n, set, ok
}

// parseOrd is parse that also returns where the last (ordinal) piece
// starts.
func (inv *rbnfInverse) parseOrd(c string, ordinal bool) (v int64, n int, set string, last int, ok bool) {
	return inv.parseOrdAt(c, ordinal, nil)
}

// parseOrdAt is parseOrd where, with bounds, a cardinal piece must end at
// one of the offsets of bounds (the ends of words): "девятьсот двадцатых"
// is 900 and 20th, not "девятьсот два" and a rest that reads as nothing.
func (inv *rbnfInverse) parseOrdAt(c string, ordinal bool, bounds map[int]int) (v int64, n int, set string, last int, ok bool) {
	lastE := 100
	pos := 0
	var total int64
	pieces := 0
	for pos < len(c) {
		if pieces > 0 {
			for _, j := range inv.joins {
				if strings.HasPrefix(c[pos:], j) {
					if _, ok := inv.card[c[pos:]]; !ok {
						pos += len(j)
					}
					break
				}
			}
		}
		// The longest small spelling here.
		best, bestV := 0, int64(-1)
		bestOrd := rbnfForm{value: -1}
		for end := min(len(c), pos+inv.maxLen); end > pos; end-- {
			if !utf8.RuneStart(c[end%len(c)]) && end < len(c) {
				continue
			}
			k := c[pos:end]
			if v, ok := inv.card[k]; ok && v >= 0 && bestV < 0 && (bounds == nil || boundAt(bounds, end)) {
				best, bestV = end, v
			}
			if ordinal {
				if f, ok := inv.ord[k]; ok && f.value >= 0 && bestOrd.value < 0 && end > best {
					bestOrd = f
					// an ordinal spelling ends the number
					if total+f.value >= 0 && (pieces == 0 || f.value < rbnfPow10(lastE)) {
						return total + f.value, end, f.set, pos, true
					}
				}
			}
			if bestV >= 0 {
				break
			}
		}
		g, e := bestV, 0
		next := best
		if g < 0 {
			g, next = 1, pos // a scale word alone: "миллион"
		}
		// A scale word after the group?
		scaled := false
		for end := min(len(c), next+inv.maxLen); end > next; end-- {
			if end < len(c) && !utf8.RuneStart(c[end]) {
				continue
			}
			if x, ok := inv.scales[c[next:end]]; ok && x > 0 {
				e, next, scaled = x, end, true
				break
			}
		}
		if bestV < 0 && !scaled {
			break
		}
		if e >= lastE || g <= 0 && scaled || g*rbnfPow10(e) >= rbnfPow10(lastE) && pieces > 0 {
			break
		}
		total += g * rbnfPow10(e)
		pos = next
		pieces++
		if !scaled {
			// A group without a scale: what follows must fit in its
			// trailing zeros ("тысяча" + "один").
			lastE = rbnfTrailingZeros(g)
			continue
		}
		lastE = e
	}
	if pieces == 0 || ordinal {
		return 0, 0, "", 0, false
	}
	return total, pos, "", 0, true
}

func boundAt(bounds map[int]int, end int) bool {
	_, ok := bounds[end]
	return ok
}

func rbnfPow10(e int) int64 {
	if e < 0 {
		return 1
	}
	if e > 18 {
		return 1 << 62
	}
	p := int64(1)
	for range e {
		p *= 10
	}
	return p
}

func rbnfTrailingZeros(g int64) int {
	z := 0
	for g > 0 && g%10 == 0 {
		g /= 10
		z++
	}
	return z
}

// itnStart reads an optional minus word at token i and returns the token
// where the number starts.
func (l *rbnfLang) itnStart(s *stream, i int, inv *rbnfInverse) (int, bool) {
	for _, m := range inv.minus {
		sp := l.span(s, i, len(m))
		if end, ok := sp.ends[len(m)]; ok && strings.HasPrefix(sp.text, m) {
			j := end
			if s.kind(j) == tSpace {
				j++
			}
			return j, true
		}
	}
	return i, false
}

func (l *rbnfLang) cardinalITN(s *stream, i int) []match {
	if (s.kind(i) != tWord && s.kind(i) != tHan) || !l.startOK(s, i) {
		return nil
	}
	inv := l.inverse()
	if inv == nil || !inv.mayStart(l.lowerTok(s, i)) {
		return nil
	}
	j, neg := l.itnStart(s, i, inv)
	sp := l.span(s, j, 4*inv.maxLen)
	v, n, _, ok := inv.parse(sp.text, false)
	if !ok || n == 0 {
		return nil
	}
	if neg {
		v = -v
	}
	// An ordinal counter glued to the number ("다섯번째", "三番目").
	for _, c := range l.conv.counters {
		if end, aligned := sp.ends[n+len(c)]; aligned && strings.HasPrefix(sp.text[n:], c) && l.boundary(s, end) {
			return one(end, Ordinal, l.digitsIn(strconv.FormatInt(v, 10))+c)
		}
	}
	end, aligned := sp.ends[n]
	if !aligned || !l.boundary(s, end) {
		return nil
	}
	// In Latin-script languages a lone word below ten stays a word: it is
	// as often an article or a pronoun ("een", "un", "bir").
	if l.info.Script == "Latn" && !neg && v >= 0 && v < 10 && end == j+1 {
		return nil
	}
	return one(end, Cardinal, l.digits(v))
}

func (l *rbnfLang) ordinalITN(s *stream, i int) []match {
	if (s.kind(i) != tWord && s.kind(i) != tHan) || !l.startOK(s, i) {
		return nil
	}
	if l.load(); l.ordSpoken != nil && l.boundary(s, i+1) {
		if w, ok := l.ordSpoken[s.text(i)]; ok {
			return one(i+1, Ordinal, w)
		}
	}
	inv := l.inverse()
	if inv == nil || !inv.mayStart(l.lowerTok(s, i)) {
		return nil
	}
	sp := l.span(s, i, 4*inv.maxLen)
	// Pieces ending at word ends first; compounding languages read
	// without ("hundratjugoförsta").
	v, n, set, last, ok := inv.parseOrdAt(sp.text, true, sp.ends)
	if !ok {
		v, n, set, last, ok = inv.parseOrd(sp.text, true)
	}
	if !ok {
		return nil
	}
	end, aligned := sp.ends[n]
	if !aligned || !l.boundary(s, end) {
		return nil
	}
	// The number's ordinal spelling must give back what was read, or at
	// least end with the ordinal word read (the rest may be said without
	// "one": "тысяча девятьсот девяносто девятый").
	read, piece := sp.text[:n], sp.text[last:n]
	full, conv := rbnfCompact(l.format(set, v)), rbnfCompact(l.spell(set, v))
	if full != read && conv != read && !(piece != read && (strings.HasSuffix(full, piece) || strings.HasSuffix(conv, piece))) {
		return nil
	}
	// As with cardinals, a lone Latin-script ordinal word below ten stays
	// a word ("första", like German "zweite").
	if l.info.Script == "Latn" && v < 10 && end == i+1 {
		return nil
	}
	digits := "%digits-ordinal" + strings.TrimPrefix(set, "%spellout-ordinal")
	w := ""
	if l.conv.periodOrdinal {
		w = strconv.FormatInt(v, 10) + "." // the convention TN reads (sv "20.")
	} else if d := l.conv.derive; d != nil && set == derivedSet {
		w = strconv.FormatInt(v, 10) + d.markFor(v)
	} else if l.rs.Has(digits) {
		w, _ = l.rs.Format(digits, v)
	} else if periodOrdinal[l.info.Locale] {
		w = strconv.FormatInt(v, 10) + "."
	}
	if w == "" || w == strconv.FormatInt(v, 10) {
		return nil
	}
	if l.info.Script == "Cyrl" {
		w = rbnfCyrillic(w)
	}
	if l.conv.markerEnding && !strings.ContainsRune(s.span(i, end), '\u0901') {
		w = rbnfNasal(w) // the marker spelled as the input spells its ending
	}
	return one(end, Ordinal, l.digitsIn(w))
}

// rbnfCyrillic writes the Latin letters of a Cyrillic-script marker with
// the Cyrillic letters they stand for: CLDR 48's Russian plural marker is
// "-e" with a Latin e, a slip for the Cyrillic "-е".
func rbnfCyrillic(w string) string {
	return rbnfLatinToCyrillic.Replace(w)
}

var rbnfLatinToCyrillic = strings.NewReplacer("e", "е", "a", "а", "o", "о", "x", "х", "y", "у")

// digits writes v in the digits the suites expect for the language, with
// the language's grouping separator for ITN if it has one.
func (l *rbnfLang) digits(v int64) string {
	d := strconv.FormatInt(v, 10)
	if sep := l.conv.itnGroup; sep != "" {
		neg := strings.HasPrefix(d, "-")
		d = strings.TrimPrefix(d, "-")
		var b strings.Builder
		for k := range d {
			if k > 0 && (len(d)-k)%3 == 0 {
				b.WriteString(sep)
			}
			b.WriteByte(d[k])
		}
		d = b.String()
		if neg {
			d = "-" + d
		}
	}
	return l.digitsIn(d)
}

// digitsIn converts the ASCII digits of w to the language's native
// digits where its convention says so.
func (l *rbnfLang) digitsIn(w string) string {
	z := l.conv.nativeZero
	if z == 0 {
		return w
	}
	var b strings.Builder
	for _, r := range w {
		if r >= '0' && r <= '9' {
			r = z + r - '0'
		}
		b.WriteRune(r)
	}
	return b.String()
}
