package normalize

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Generic matchers for languages written with a decimal comma and a
// lexicon-driven number system (German, Spanish, French). A language fills a
// latin value with its words and spelling functions and builds its matchers
// from it; anything irregular stays in its own file.

type latinCurrency struct {
	one, many       string // main unit, singular and plural
	subOne, subMany string // hundredth, singular and plural
	symbol          string // written symbol for ITN
}

type latin struct {
	lex        *numLex
	point      string              // spoken decimal separator: "komma"
	minus      string              // spoken minus
	card       func(string) string // spells a digit string
	cardBefore func(string) string // spelling before a noun or scale ("ein", "un"); nil = card
	scaleCard  func(string) string // spelling before a scale word; nil = cardBefore
	frac       func(string) string // spells the digits after the decimal comma
	scales     map[string]string   // written scale words (lower case) → spoken: "millionen", "mio." → "millionen"
	currencies map[string]latinCurrency
	// spokenCurrency indexes currencies by spoken name (built by finish).
	spokenCurrency map[string]latinCurrency
	units          map[string][2]string // written unit → singular, plural spoken
	unitAlias      map[string]string    // other written forms (TN only) → key of units
	spokenUnit     map[string]string    // built by finish: spoken form → written unit
	spokenFixed    map[string]bool      // spoken forms preset in spokenUnit that finish must not override
	groupSep       []string             // thousands separators in written numbers: ".", " "
	months         []string             // month names, lower case
	monthName      map[string]int       // every full month name of [months] (lower case, "jänner" too) → month number
	monthAbbr      map[string]int       // every abbreviation of [months] (lower case, without its period) → month number
	monthNames     [12][]string         // the full names of each month, lower case, in the table's order
	cardFem        func(string) string  // feminine spelling for feminine nouns; nil = before
	fem            map[string]bool      // feminine spoken nouns (units, currencies)
	scaleOf        string               // word between a scale and a noun: "de" (dos millones de euros)
	scaleOfTN      string               // the same for TN only ("de" in French, elided before a vowel: "d'euros"); "" = scaleOf
	numeralScale   map[string]bool      // spoken scale words below a million ("mil", "mille"): numerals, not nouns, so no "de" follows
	scaleNoun      map[string]bool      // spoken scale words that are nouns ("millón", "million"), built by finish
	scaleOne       map[string]string    // plural scale word → singular, for an abbreviation after one ("1 Mio.")
	centsJoin      string               // word between the main unit and the cents: "e" (dólares e cinquenta centavos)
	symbolSpace    bool                 // ITN money as "$ 12,05"
	centSymbol     map[string]string    // spoken subunit → symbol when said alone ("centavos" → "$")
	amountHook     func(s *stream, i int) (string, bool, string, int, bool)
	// zoneWritten maps the spoken time zones of [timezones] to the written
	// (set by useLexicon): a unit word that begins one ("hora estándar de
	// argentina") is not a unit.
	zoneWritten map[string]string
	// symbolAfter writes ITN money as "2,20 $" instead of "$2,20".
	symbolAfter bool
	// format rewrites a written ITN amount for money and measures
	// (French "42 259"); nil keeps it.
	format func(string) string
	// strictBounds leaves digits glued to letters ("B2A23C", "401-ks") as
	// written: serial numbers, not quantities.
	strictBounds bool
	// hyphenTens: a ten and its unit are joined by a hyphen or a connector
	// only ("quarante-trois"; "quarante trois" is two numbers).
	hyphenTens bool
	// commaGroups reads "2,000,000" (two or more comma groups of three
	// digits) as a grouped integer.
	commaGroups bool
	// agree makes a number agree with a unit or currency written out after
	// it (nouns, built by useLexicon): "una libra", "veintiuna toneladas".
	agree bool
	nouns map[string]bool
	// fromLexicon is set by useLexicon: the word tables come from the
	// language's data file.
	fromLexicon bool
	// ordinalSuffixes are written ordinal markers after digits ("e", "ème", "º").

	// dativeN: ITN also reads a unit's plural in -er or -el with the
	// dative -n (de "litern", "kilometern").
	dativeN bool
	// numWords are the spoken forms of abbreviations flagged `num` in the
	// data file ("nummer", "número", "numéro"): a number said after one is
	// a reference, which ITN writes in digits however small ("nummer
	// fünf" → "Nr. 5").
	numWords map[string]bool
}

// useLexicon fills L's word tables from the language's data file
// (data/<tag>.tsv): units and their written variants, the spoken forms ITN
// reads, currencies and their sub-units, grammatical gender, scale words and
// month names. TN and ITN both read these tables, so a unit or currency one
// direction knows the other knows too. Earlier rows win when two claim the
// same written or spoken form. Call it before finish.
//
// Column 4 of [units] and columns 7–8 of [currencies] are flags: `f` marks a
// feminine noun, `noitn` a unit ITN never writes from its spoken form.
func (L *latin) useLexicon(tag string) *latin {
	lx := lexiconFor(tag)
	L.fromLexicon = true
	_, L.zoneWritten = lexTimezones(tag)
	for _, p := range lx.pairs("abbreviations") {
		if p.has("num") {
			if L.numWords == nil {
				L.numWords = map[string]bool{}
			}
			for _, sp := range p.spoken {
				L.numWords[strings.ToLower(sp)] = true
			}
		}
	}
	L.units = map[string][2]string{}
	L.unitAlias = map[string]string{}
	if L.spokenUnit == nil {
		L.spokenUnit = map[string]string{}
	}
	if L.spokenFixed == nil {
		L.spokenFixed = map[string]bool{}
	}
	if L.fem == nil {
		L.fem = map[string]bool{}
	}
	markFem := func(words ...[]string) {
		for _, ws := range words {
			for _, w := range ws {
				L.fem[w] = true
			}
		}
	}
	for _, u := range lx.units() {
		w0 := u.written[0]
		if _, dup := L.units[w0]; dup {
			continue
		}
		L.units[w0] = [2]string{u.singular[0], u.plural[0]}
		for _, w := range u.written[1:] {
			if _, taken := L.units[w]; !taken {
				if _, taken := L.unitAlias[w]; !taken {
					L.unitAlias[w] = w0
				}
			}
		}
		if u.has("f") {
			markFem(u.singular, u.plural)
		}
		if u.has("noitn") {
			continue
		}
		for _, sp := range append(append([]string(nil), u.singular...), u.plural...) {
			sp = strings.ReplaceAll(sp, "'", "’") // spokenUnitAfter reads either apostrophe as ’
			if _, taken := L.spokenUnit[sp]; !taken {
				L.spokenUnit[sp] = w0
				L.spokenFixed[sp] = true
			}
		}
		// German plurals in -er and -el take -n in the dative ("mit
		// zwei litern", "in drei metern"); ITN reads them too
		if L.dativeN {
			for _, sp := range u.plural {
				if strings.HasSuffix(sp, "er") || strings.HasSuffix(sp, "el") {
					if _, taken := L.spokenUnit[sp+"n"]; !taken {
						L.spokenUnit[sp+"n"] = w0
						L.spokenFixed[sp+"n"] = true
					}
				}
			}
		}
	}
	// lower-case variants of the written forms ("° c", "kwh"), where no
	// row claims them
	for _, u := range lx.units() {
		for _, w := range u.written {
			low := strings.ToLower(w)
			_, unit := L.units[low]
			_, alias := L.unitAlias[low]
			if len(low) > 1 && !unit && !alias {
				L.unitAlias[low] = u.written[0]
			}
		}
	}
	L.currencies = map[string]latinCurrency{}
	L.centSymbol = map[string]string{}
	for _, c := range lx.currencies() {
		sym := c.symbols[0]
		for k, one := range c.major {
			lc := latinCurrency{one: one, many: c.majors[min(k, len(c.majors)-1)], symbol: sym}
			if len(c.minor) > 0 {
				lc.subOne, lc.subMany = c.minor[0], c.minors[0]
			}
			if k > 0 {
				// another spoken name: ITN only (TN says the first)
				L.currencies["_"+sym+"_"+one] = lc
				continue
			}
			for _, w := range c.symbols {
				keys := []string{w}
				if utf8.RuneCountInString(w) > 1 {
					keys = append(keys, strings.ToLower(w)) // codes: "CRC", "crc"
				}
				for _, key := range keys {
					if _, taken := L.currencies[key]; !taken {
						L.currencies[key] = lc
					}
				}
			}
		}
		for _, m := range append(append([]string(nil), c.minor...), c.minors...) {
			if _, taken := L.centSymbol[m]; !taken {
				L.centSymbol[m] = sym
			}
		}
		if field(c.extra, 0) == "f" {
			markFem(c.major, c.majors)
		}
		if field(c.extra, 1) == "f" {
			markFem(c.minor, c.minors)
		}
	}
	L.nouns = map[string]bool{}
	for _, u := range lx.units() {
		for _, w := range append(append([]string(nil), u.singular...), u.plural...) {
			L.nouns[w] = true
		}
	}
	for _, c := range lx.currencies() {
		for _, ws := range [][]string{c.major, c.majors, c.minor, c.minors} {
			for _, w := range ws {
				L.nouns[w] = true
			}
		}
	}
	L.scales = map[string]string{}
	L.numeralScale = map[string]bool{}
	L.scaleOne = map[string]string{}
	for _, m := range lx.magnitudes() {
		if len(m.words) > 1 && m.words[1] != m.words[0] {
			L.scaleOne[strings.ToLower(m.words[1])] = strings.ToLower(m.words[0])
		}
		pl := m.words[min(1, len(m.words)-1)]
		for k, w := range m.words {
			spoken := w
			if k >= 2 { // a written abbreviation ("Mio."): read as the plural
				spoken = pl
			}
			L.scales[strings.ToLower(w)] = spoken
			if m.power < 6 {
				L.numeralScale[spoken] = true
			}
		}
	}
	L.months = make([]string, 12)
	L.monthName, L.monthAbbr = map[string]int{}, map[string]int{}
	for _, m := range lx.months() {
		if m.num >= 1 && m.num <= 12 && len(m.names) > 0 {
			L.months[m.num-1] = strings.ToLower(m.names[0])
			for _, n := range m.names {
				L.monthName[strings.ToLower(n)] = m.num
				L.monthNames[m.num-1] = append(L.monthNames[m.num-1], strings.ToLower(n))
			}
			for _, a := range m.abbrs {
				L.monthAbbr[strings.ToLower(strings.TrimSuffix(a, "."))] = m.num
			}
		}
	}
	return L
}

// monthWord is how TN says month mo written as the word w: a full name of
// the month in [months] is said as written (lower case), so a regional
// spelling stays ("Jänner" → "jänner", "setiembre"), and so is the name an
// abbreviation begins when the first name does not begin with it ("Jän."
// → "jänner"); other abbreviations are said as the month's first name.
func (L *latin) monthWord(mo int, w string) string {
	lw := strings.ToLower(strings.TrimSuffix(w, "."))
	if L.monthName[lw] == mo {
		return lw
	}
	if lw != "" && !strings.HasPrefix(L.months[mo-1], lw) {
		for _, n := range L.monthNames[mo-1] {
			if strings.HasPrefix(n, lw) {
				return n
			}
		}
	}
	return L.months[mo-1]
}

// lexWhitelist builds the whitelist tables of a language from the
// [abbreviations] section of its data file: tn maps every written form to
// the first spoken form (rows flagged `notn` excepted); itn maps every
// spoken form of a row flagged `itn` to the first written form. With weekdays, the dotted weekday
// abbreviations ("lun.") join the TN table.
func lexWhitelist(tag string, weekdays bool) (tn, itn map[string]string) {
	lx := lexiconFor(tag)
	tn, itn = map[string]string{}, map[string]string{}
	for _, p := range lx.pairs("abbreviations") {
		if len(p.spoken) == 0 {
			continue
		}
		for _, w := range p.written {
			if _, taken := tn[w]; !taken && !p.has("notn") && !p.has("numtn") {
				tn[w] = p.spoken[0]
			}
		}
		if p.has("itn") {
			for _, sp := range p.spoken {
				if _, taken := itn[sp]; !taken {
					itn[sp] = p.written[0]
				}
			}
		}
	}
	if weekdays {
		for _, d := range lx.weekdays() {
			for _, a := range d.abbrs {
				if _, taken := tn[a]; !taken && strings.HasSuffix(a, ".") && len(d.names) > 0 {
					tn[a] = d.names[0]
				}
			}
		}
	}
	return tn, itn
}

// weekdayBeforeDateTN reads a dotted weekday abbreviation of a language's
// [weekdays] before a date as the weekday's name, lower case ("lun. 3 juin"
// → "lundi trois juin", "Sa. 14.06." → "samstag vierzehnter juni");
// elsewhere it stays ("la mer." is the sea, German "Fr." before a name is
// frau). date is the language's date rule, tried at the number.
func weekdayBeforeDateTN(tag string, date matcher) matcher {
	abbrs := map[string]string{}
	for _, d := range lexiconFor(tag).weekdays() {
		for _, a := range d.abbrs {
			if strings.HasSuffix(a, ".") && len(d.names) > 0 {
				abbrs[strings.ToLower(a)] = strings.ToLower(d.names[0])
			}
		}
	}
	return func(s *stream, i int) []match {
		if s.kind(i) != tWord || !s.startOK(i) || !s.is(i+1, ".") || s.kind(i+2) != tSpace || s.kind(i+3) != tNum {
			return nil
		}
		name := abbrs[strings.ToLower(s.text(i))+"."]
		if name == "" || len(date(s, i+3)) == 0 {
			return nil
		}
		return one(i+2, Date, name)
	}
}

// numRefTN reads the number references of a language's [abbreviations]
// (rows flagged `numtn`: "S." seite, "Kap." kapitel, "p." page) in TN only
// where a number follows ("vgl. S. 12" → "vergleiche seite zwölf"), since
// before a word the same abbreviation is often another one ("S. Maria"
// sankt, "S." süd) or an initial; the number is left to the other rules.
func numRefTN(tag string) matcher {
	table := map[string]string{}
	for _, p := range lexiconFor(tag).pairs("abbreviations") {
		if !p.has("numtn") || len(p.spoken) == 0 {
			continue
		}
		for _, w := range p.written {
			if _, taken := table[w]; !taken {
				table[w] = p.spoken[0]
			}
		}
	}
	wl := whitelistMatcher(table)
	return func(s *stream, i int) []match {
		ms := wl(s, i)
		if len(ms) == 0 {
			return nil
		}
		e := ms[0].end
		if s.kind(e) == tSpace {
			e++
		}
		if s.kind(e) != tNum {
			return nil
		}
		return ms
	}
}

// zoneAfter reads a spoken time zone after token end (skipping one space):
// the longest run of up to six words whose spoken form is in written
// ("e s t", "hora estándar de paraguay"); it returns the written zone and
// the index after it, or "" and end.
func zoneAfter(s *stream, end int, written map[string]string) (string, int) {
	best, bestEnd := "", end
	var buf [64]byte
	key := buf[:0] // the words so far joined by spaces
	for j, n := end, 0; n < 6; n++ {
		w, e := wordAfter(s, j)
		if w == "" {
			break
		}
		if n > 0 {
			key = append(key, ' ')
		}
		key = append(key, w...)
		if z, ok := written[string(key)]; ok {
			best, bestEnd = z, e
		}
		j = e
	}
	return best, bestEnd
}

// lexTimezones returns a language's [timezones] section as a map from each
// written form to the first spoken form, and from each spoken form to the
// first written form.
func lexTimezones(tag string) (spoken, written map[string]string) {
	return lexPairMaps(tag, "timezones")
}

// lexPairMaps returns a two-column section of a language's data file as a
// map from each written form to the first spoken form, and from each
// spoken form to the first written form; earlier rows win.
func lexPairMaps(tag, section string) (spoken, written map[string]string) {
	spoken, written = map[string]string{}, map[string]string{}
	for _, p := range lexiconFor(tag).pairs(section) {
		if len(p.spoken) == 0 {
			continue
		}
		for _, w := range p.written {
			if _, taken := spoken[w]; !taken {
				spoken[w] = p.spoken[0]
			}
		}
		for _, sp := range p.spoken {
			if _, taken := written[sp]; !taken {
				written[sp] = p.written[0]
			}
		}
	}
	return spoken, written
}

// finish builds derived tables; call it once after filling L.
func (L *latin) finish() *latin {
	// scale nouns: the spoken scale words but the thousand's, a numeral
	// ("un millón de euros", "cinco mil euros")
	L.scaleNoun = map[string]bool{}
	if L.card != nil {
		th := L.card("1000")
		th = th[strings.LastIndexByte(th, ' ')+1:]
		if L.numeralScale == nil {
			L.numeralScale = map[string]bool{}
		}
		L.numeralScale[th] = true
		for _, w := range L.scales {
			if w != th && !L.numeralScale[w] {
				L.scaleNoun[w] = true
			}
		}
	}
	// spoken currency names → currency, the first by written key
	L.spokenCurrency = map[string]latinCurrency{}
	for _, key := range sortedKeys(L.currencies) {
		c := L.currencies[key]
		for _, name := range []string{c.one, c.many} {
			if _, taken := L.spokenCurrency[name]; !taken && name != "" {
				L.spokenCurrency[name] = c
			}
		}
	}
	if L.fromLexicon {
		return L // useLexicon built spokenUnit
	}
	if L.spokenUnit == nil {
		L.spokenUnit = map[string]string{}
	}
	for w, u := range L.units {
		for _, sp := range u {
			if old, dup := L.spokenUnit[sp]; !dup || w < old && !L.spokenFixed[sp] {
				L.spokenUnit[sp] = w
			}
		}
	}
	return L
}

// ofAfter returns the word joining a spelled number to the noun after it
// when the spelling ends with a scale noun: "un millón de dólares", "trois
// millions d'euros" (with its space), else "".
func (L *latin) ofAfter(spelled, noun string) string {
	if L.ofTN() == "" || !L.scaleNoun[spelled[strings.LastIndexByte(spelled, ' ')+1:]] {
		return ""
	}
	return L.of(noun)
}

// beforeNoun spells d before the spoken noun: feminine when the noun is.
func (L *latin) beforeNoun(d, noun string) string {
	first, _, _ := strings.Cut(noun, " ")
	if L.cardFem != nil && (L.fem[noun] || L.fem[first]) {
		return L.cardFem(d)
	}
	if strings.HasPrefix(noun, "por ") || strings.HasPrefix(noun, "pour ") {
		return L.card(d)
	}
	return L.before(d)
}

// beforeScale spells d before a scale word ("zwei millionen"): with
// L.scaleCard when set (German reads "eins million", as NeMo's grammar
// does), else as before a noun.
func (L *latin) beforeScale(d string) string {
	if L.scaleCard != nil {
		return L.scaleCard(d)
	}
	return L.before(d)
}

func (L *latin) before(d string) string {
	if L.cardBefore != nil {
		return L.cardBefore(d)
	}
	return L.card(d)
}

// currencyAt reads a currency symbol or code of one or two tokens at i
// ("$", "€", "us$", "crc").
func (L *latin) currencyAt(s *stream, i int) (latinCurrency, int, bool) {
	if s.kind(i) == tSpace || s.kind(i) == tNum {
		return latinCurrency{}, 0, false
	}
	if s.kind(i+1) == tSym {
		two := s.text(i) + s.text(i+1)
		if c, ok := L.currencies[two]; ok {
			return c, 2, true
		}
		if c, ok := L.currencies[strings.ToLower(two)]; ok {
			return c, 2, true
		}
	}
	t := s.text(i)
	if c, ok := L.currencies[t]; ok && t[0] != '_' {
		if s.kind(i) == tWord && !s.boundary(i+1) && s.kind(i+1) != tNum {
			return latinCurrency{}, 0, false
		}
		return c, 1, true
	}
	return latinCurrency{}, 0, false
}

// scanNum reads a written number with a decimal comma at i. Groups are
// separated by one of L.groupSep with exactly three digits.
func (L *latin) scanNum(s *stream, i int) (numLit, bool) {
	var n numLit
	j := i
	if (s.is(j, "-") || s.is(j, "−")) && s.minusOK(j) && s.kind(j+1) == tNum {
		n.neg = true
		j++
	}
	if s.kind(j) != tNum {
		return n, false
	}
	if j == i && !s.startOK(j) && s.kind(j-1) != tWord {
		return n, false
	}
	// The digits are copied only when groups are joined to them.
	var b strings.Builder
	head := s.text(j)
	first := len(head)
	j++
	if first <= 3 {
	groups:
		for _, g := range L.groupSep {
			for s.is(j, g) && s.kind(j+1) == tNum && len(s.text(j+1)) == 3 && (s.boundary(j+2) || s.is(j+2, g) || s.is(j+2, ",")) && j-i < maxScan {
				if b.Len() == 0 {
					b.WriteString(head)
				}
				b.WriteString(s.text(j + 1))
				n.grouped = true
				j += 2
				if !s.is(j, g) {
					break groups
				}
			}
			if n.grouped {
				break
			}
		}
	}
	// "2,000,000": two or more comma groups of three digits group an
	// integer (one would be a decimal comma)
	if L.commaGroups && !n.grouped && first <= 3 && s.is(j, ",") && s.kind(j+1) == tNum && len(s.text(j+1)) == 3 && s.is(j+2, ",") {
		k, groups := j, 0
		var g strings.Builder
		for s.is(k, ",") && s.kind(k+1) == tNum && len(s.text(k+1)) == 3 && k-i < maxScan {
			g.WriteString(s.text(k + 1))
			groups++
			k += 2
		}
		if groups >= 2 && s.boundary(k) && !s.is(k, ",") {
			b.WriteString(head)
			b.WriteString(g.String())
			n.grouped, j = true, k
		}
	}
	n.intPart = head
	if b.Len() > 0 {
		n.intPart = b.String()
	}
	if s.is(j, ",") && s.kind(j+1) == tNum && !(s.is(j+2, ",") && s.kind(j+3) == tNum) {
		n.point, n.frac = true, s.text(j+1)
		j += 2
	}
	n.end = j
	return n, true
}

func (L *latin) number(n numLit) string {
	w := L.card(n.intPart)
	if n.point {
		w += " " + L.point + " " + L.frac(n.frac)
	}
	if n.neg {
		w = L.minus + " " + w
	}
	return w
}

// scaleAfter reads a written scale word after a number ("2 millionen",
// "2 Mio.").
// After the number one an abbreviation reads as the singular ("1 Mio."
// → "million").
func (L *latin) scaleAfter(s *stream, j int, n numLit) (string, int) {
	if s.kind(j) == tSpace && s.kind(j+1) == tWord && s.boundary(j+2) {
		low := strings.ToLower(s.text(j + 1))
		w, e := "", j
		if s.is(j+2, ".") {
			if x, ok := L.scales[low+"."]; ok {
				w, e = x, j+3
			}
		}
		if x, ok := L.scales[low]; ok && w == "" {
			w, e = x, j+2
		}
		if one, ok := L.scaleOne[w]; ok && n.isOne() {
			w = one
		}
		// a compound scale: "mil millones" (es 10⁹), "mille milliards"
		if L.numeralScale[w] && e == j+2 && s.kind(e) == tSpace && s.kind(e+1) == tWord && s.boundary(e+2) {
			if x := L.scales[strings.ToLower(s.text(e+1))]; x != "" && !L.numeralScale[x] {
				w, e = w+" "+x, e+2
			}
		}
		return w, e
	}
	return "", j
}

func (L *latin) cardinalTN(s *stream, i int) []match {
	n, ok := L.scanNum(s, i)
	if !ok || n.point || !s.boundary(n.end) && s.kind(n.end) != tWord {
		return nil
	}
	if L.strictBounds && (s.kind(i-1) == tWord || s.kind(n.end) == tWord || s.is(n.end, "-") && (s.kind(n.end+1) == tWord || s.kind(n.end+1) == tNum) || s.is(i-1, "-") && (s.kind(i-2) == tWord || s.kind(i-2) == tNum)) {
		return nil
	}
	if w, e := L.scaleAfter(s, n.end, n); w != "" {
		return one(e, Decimal, L.beforeScale(n.intPart)+" "+w)
	}
	if len(n.intPart) > 1 && n.intPart[0] == '0' {
		return one(n.end, Cardinal, L.digits(n.intPart))
	}
	// a number before a unit or currency written out agrees with it:
	// "21 toneladas" → "veintiuna toneladas", "1 dólar" → "un dólar"
	if w, _ := wordAfter(s, n.end); L.agree && !n.neg && L.nouns[w] && s.kind(n.end) == tSpace {
		return one(n.end, Cardinal, L.beforeNoun(n.intPart, w))
	}
	return one(n.end, Cardinal, L.number(n))
}

func (L *latin) digits(d string) string {
	ws := make([]string, 0, len(d))
	for k := 0; k < len(d); k++ {
		ws = append(ws, L.card(d[k:k+1]))
	}
	return strings.Join(ws, " ")
}

func (L *latin) decimalTN(s *stream, i int) []match {
	n, ok := L.scanNum(s, i)
	if !ok || !n.point || !s.boundary(n.end) {
		return nil
	}
	txt := L.number(n)
	if w, e := L.scaleAfter(s, n.end, n); w != "" {
		if L.cardBefore != nil && strings.HasSuffix(txt, " uno") {
			txt = strings.TrimSuffix(txt, "o")
		}
		return one(e, Decimal, txt+" "+w)
	}
	return one(n.end, Decimal, txt)
}

// moneyTN reads "$2,20", "€ 5", "5,50 €", "2 €".
func (L *latin) moneyTN(s *stream, i int) []match {
	var cur latinCurrency
	j := i
	prefix := false
	if c, n, ok := L.currencyAt(s, i); ok {
		cur, prefix = c, true
		j = i + n
		if s.kind(j) == tSpace {
			j++
		}
	}
	n, ok := L.scanNum(s, j)
	if !ok || n.neg {
		return nil
	}
	end := n.end
	scale := ""
	if w, e := L.scaleAfter(s, end, n); w != "" {
		scale, end = w, e
	}
	if !prefix {
		k := end
		if s.kind(k) == tSpace {
			k++
		}
		// "1,5 millones de €"
		if scale != "" && L.ofTN() != "" && strings.EqualFold(s.text(k), L.ofTN()) && s.kind(k+1) == tSpace {
			k += 2
		}
		c, cn, ok := L.currencyAt(s, k)
		if !ok {
			// A currency written out after a decimal amount reads as money
			// too: "3,50 Euro" → "drei euro fünfzig cent", not "drei komma
			// fünf null Euro" (a whole amount stays a number before a noun).
			c, ok = L.spokenCurrency[strings.ToLower(s.text(k))]
			if !ok || !n.point || scale != "" || k == end || s.kind(k) != tWord || !s.boundary(k+1) {
				return nil
			}
			cn = 1
		}
		cur, end = c, k+cn
	}
	if !s.boundary(end) {
		return nil
	}
	unit := cur.many
	if strings.TrimLeft(n.intPart, "0") == "1" && scale == "" {
		unit = cur.one
	}
	if scale != "" {
		amt := L.beforeScale(n.intPart)
		if n.point {
			// "21,1 millones" → "veintiuno coma un millones", as decimalTN
			amt = L.number(n)
			if L.cardBefore != nil && strings.HasSuffix(amt, " uno") {
				amt = strings.TrimSuffix(amt, "o")
			}
		}
		of := L.of(cur.many)
		if L.numeralScale[scale] {
			of = "" // "cinco mil dólares", "cinq mille euros"
		}
		return one(end, Money, amt+" "+scale+" "+of+cur.many)
	}
	frac := strings.TrimRight(n.frac, "0")
	switch {
	case !n.point || frac == "":
		amt := L.beforeNoun(n.intPart, unit)
		return one(end, Money, amt+" "+L.ofAfter(amt, unit)+unit)
	case len(frac) <= 2:
		c := frac
		if len(c) == 1 {
			c += "0"
		}
		sub := cur.subMany
		if strings.TrimLeft(c, "0") == "1" {
			sub = cur.subOne
		}
		cw := strings.TrimSpace(L.beforeNoun(strings.TrimLeft(c, "0"), sub) + " " + sub) // no sub-unit: "fünf won fünfzig"
		if strings.TrimLeft(n.intPart, "0") == "" {
			return one(end, Money, cw)
		}
		join := " "
		if L.centsJoin != "" {
			join = " " + L.centsJoin + " "
		}
		amt := L.beforeNoun(n.intPart, unit)
		return one(end, Money, amt+" "+L.ofAfter(amt, unit)+unit+join+cw)
	}
	// more than two decimals: read as a decimal, without trailing zeros
	n.frac = frac
	return one(end, Money, L.number(n)+" "+cur.many)
}

// ofTN returns the word TN reads between a scale word and a noun.
func (L *latin) ofTN() string {
	if L.scaleOfTN != "" {
		return L.scaleOfTN
	}
	return L.scaleOf
}

// of returns what TN says between a scale word and noun, with a trailing
// space: "de ", or "d'" before a vowel in French; "" when the language
// says nothing there.
func (L *latin) of(noun string) string {
	w := L.ofTN()
	if w == "" {
		return ""
	}
	if r, _ := utf8.DecodeRuneInString(noun); L.scaleOfTN != "" && strings.ContainsRune("aeiouyéèêàâîôûh", r) && !strings.HasPrefix(noun, "h") {
		return "d'"
	}
	return w + " "
}

func (L *latin) unitAt(s *stream, j int) ([2]string, int, bool) {
	k := j
	if s.kind(k) == tSpace {
		k++
	}
	for w := 4; w >= 1; w-- {
		e := k + w
		if e > s.n() || !s.boundary(e) {
			continue
		}
		key := s.span(k, e)
		if a, ok := L.unitAlias[key]; ok {
			key = a
		}
		if u, ok := L.units[key]; ok {
			return u, e, true
		}
		if u, ok := L.units[strings.ToLower(key)]; ok && len(key) > 1 {
			return u, e, true
		}
	}
	return [2]string{}, j, false
}

func (L *latin) measureTN(s *stream, i int) []match {
	j := i
	n, ok := L.scanNum(s, j)
	if !ok {
		return nil
	}
	end := n.end
	scale, e := L.scaleAfter(s, end, n)
	if scale != "" {
		end = e
	}
	if end != n.end && L.ofTN() != "" && strings.EqualFold(s.text(end+1), L.ofTN()) && s.kind(end) == tSpace {
		end += 2 // "2 millones de km"
	}
	u, e, ok := L.unitAt(s, end)
	if !ok {
		return nil
	}
	// spelled only now that a unit follows
	val := L.number(n)
	if scale != "" {
		if !n.point {
			val = L.beforeScale(n.intPart)
		}
		val += " " + scale
	}
	name := u[1]
	if n.isOne() && end == n.end {
		name = u[0]
	}
	if end != n.end && !L.numeralScale[scale] {
		name = L.of(name) + name // "un millón de gramos"
	}
	if !n.point && val == L.number(n) {
		val = L.beforeNoun(n.intPart, name)
		if n.neg {
			val = L.minus + " " + val
		}
		name = L.ofAfter(val, name) + name // "dos millones de kilómetros"
	}
	return one(e, Measure, val+" "+name)
}

// ITN.

func (L *latin) amountITN(s *stream, i int) (amount string, isOne bool, scale string, end int, ok bool) {
	if s.kind(i) != tWord || !s.startOK(i) {
		return
	}
	if L.amountHook != nil {
		return L.amountHook(s, i)
	}
	return L.amountPlain(s, i)
}

func (L *latin) amountPlain(s *stream, i int) (amount string, isOne bool, scale string, end int, ok bool) {
	ws, ends, whole := spokenWords(s, i, L.lex, 60)
	k := 0
	neg := ""
	if len(ws) > 0 && ws[0] == L.minus {
		neg, k = "-", 1
	}
	r, ok2 := L.lex.parse(ws[k:])
	if !ok2 || bareScale(L.lex, ws[k:], r) {
		return
	}
	if c := L.spacedTens(s, ws, ends, whole, k, k+r.used); c < k+r.used {
		if r, ok2 = L.lex.parse(ws[k:c]); !ok2 {
			return
		}
	}
	used := wholeWords(k+r.used, whole)
	if used <= k {
		return
	}
	if used < k+r.used {
		r, _ = L.lex.parse(ws[k:used])
	}
	amount = neg + r.val.String()
	isOne = r.val.IsInt64() && r.val.Int64() == 1 && neg == ""
	end = ends[used-1]
	if r.bigTail > 0 {
		amount = neg + strconv.Itoa(r.tailMul)
		scale = ws[used-1]
	}
	// decimal part
	if used < len(ws) && ws[used] == L.point {
		var fr strings.Builder
		q := used + 1
		for q < len(ws) {
			e, isNum := L.lex.words[ws[q]]
			if !isNum || e.kind != kUnit || !whole[q] {
				break
			}
			fr.WriteByte(byte('0' + e.val))
			q++
		}
		if fr.Len() > 0 {
			if scale != "" {
				return amount, false, scale, end, true
			}
			amount += "," + fr.String()
			end = ends[q-1]
			isOne = false
			if q < len(ws) {
				for w := range L.scales {
					if strings.EqualFold(ws[q], w) {
						scale = ws[q]
						end = ends[q]
					}
				}
			}
		}
	}
	return amount, isOne, scale, end, true
}

func (L *latin) cardinalITN(s *stream, i int) []match {
	amt, _, scale, end, ok := L.amountITN(s, i)
	if !ok || strings.Contains(amt, ",") {
		return nil
	}
	if scale != "" {
		return one(end, Decimal, amt+" "+scale)
	}
	v, err := strconv.Atoi(strings.TrimPrefix(amt, "-"))
	ref := s.kind(i-1) == tSpace && s.kind(i-2) == tWord && L.numWords[strings.ToLower(s.text(i-2))]
	if err == nil && v < 10 && !strings.HasPrefix(amt, "-") && end == i+1 && !ref {
		return nil // single small number words stay words, but for a reference
	}
	return one(end, Cardinal, amt)
}

func (L *latin) decimalITN(s *stream, i int) []match {
	amt, _, scale, end, ok := L.amountITN(s, i)
	if !ok || !strings.Contains(amt, ",") {
		return nil
	}
	if scale != "" {
		amt += " " + scale
	}
	return one(end, Decimal, amt)
}

// wordAfter returns the lower-cased word after token end (skipping one space)
// and the index after it.
func wordAfter(s *stream, end int) (string, int) {
	if s.kind(end) == tSpace && s.kind(end+1) == tWord {
		return s.lowerAt(end + 1), end + 2
	}
	return "", end
}

func (L *latin) fmtAmount(a string) string {
	if L.format == nil {
		return a
	}
	return L.format(a)
}

func (L *latin) withSymbol(sym, amt string) string {
	if L.symbolAfter {
		return amt + " " + sym
	}
	if L.symbolSpace {
		return sym + " " + amt
	}
	return sym + amt
}

func (L *latin) moneyITN(s *stream, i int) []match {
	amt, _, scale, end, ok := L.amountITN(s, i)
	if !ok {
		return nil
	}
	w, e := wordAfter(s, end)
	if sym, ok := L.centSymbol[w]; ok && scale == "" && !strings.Contains(amt, ",") {
		if v, err := strconv.Atoi(amt); err == nil && v < 100 {
			return one(e, Money, L.withSymbol(sym, "0,"+twoDigits(v)))
		}
	}
	if w == L.scaleOf && scale != "" {
		w, e = wordAfter(s, e)
	}
	// the longest spoken name: "hong kong dollar", "d-mark", "euro"
	var cur *latinCurrency
	var endsBuf [6]int
	name, ends := w, append(endsBuf[:0], e)
	for k := e; len(ends) < 6; {
		if s.is(k, "-") && s.kind(k+1) == tWord {
			name += "-" + strings.ToLower(s.text(k+1))
			k += 2
			ends[len(ends)-1] = k
			continue
		}
		w2, e2 := wordAfter(s, k)
		if w2 == "" {
			break
		}
		name += " " + w2
		ends = append(ends, e2)
		k = e2
	}
	for n := len(ends); n >= 1 && cur == nil; n-- {
		if c, ok := L.spokenCurrency[name]; ok {
			found := c // only a found currency escapes
			cur, e = &found, ends[n-1]
		}
		if k := strings.LastIndexByte(name, ' '); k >= 0 {
			name = name[:k]
		}
	}
	if cur == nil {
		return nil
	}
	c := *cur
	cents := ""
	end = e
	if scale == "" && !strings.Contains(amt, ",") && c.subOne != "" {
		// cents: "zwei dollar zwanzig", "... und zwanzig cent"; a currency
		// without a sub-unit has none ("cinco ienes e dois" stays). No
		// reading runs across a line break ("cinco reais⏎dois": a new
		// line is a new item), as Normalize reads each line alone.
		j := end
		cw, e2 := wordAfter(s, j)
		if cw == "und" || cw == "y" || cw == "et" || cw == "con" || cw == "e" || cw == "com" {
			j = e2
		}
		if s.kind(j) == tSpace {
			if c2, _, sc2, e3, ok := L.amountITN(s, j+1); ok && sc2 == "" && !strings.Contains(c2, ",") {
				v, err := strconv.Atoi(c2)
				if last := strings.ToLower(s.text(e3 - 1)); err == nil && v >= 100 && v%100 == 0 && v < 10000 && (last == c.subOne || last == c.subMany) {
					// the sub-unit's name is a number word ("cinquante
					// cents", read 5000): the cents are the rest
					cents, end = ","+twoDigits(v/100), e3
				} else if err == nil && v < 100 {
					sw, e4 := wordAfter(s, e3)
					if _, isSub := L.centSymbol[sw]; isSub || sw == c.subOne || sw == c.subMany {
						cents, end = ","+twoDigits(v), e4
					} else if j == end || L.symbolAfter || L.centsJoin != "" || cw == "con" {
						// "un euro con cincuenta": "con" joins only an amount's cents
						cents, end = ","+twoDigits(v), e3
					}
				}
			}
		}
	}
	out := L.withSymbol(c.symbol, L.fmtAmount(amt)+cents)
	if scale != "" {
		out = L.withSymbol(c.symbol, amt+" "+scale)
	}
	return one(end, Money, out)
}

func (L *latin) measureITN(s *stream, i int) []match {
	amt, _, scale, end, ok := L.amountITN(s, i)
	if !ok {
		return nil
	}
	if scale != "" {
		amt += " " + scale
	}
	half := func(j int) (int, bool) {
		if w, e := wordAfter(s, j); w == "y" {
			if w2, e2 := wordAfter(s, e); w2 == "medio" || w2 == "media" {
				return e2, true
			}
		}
		return j, false
	}
	// "tres y medio metros"
	if e, ok := half(end); ok {
		amt, end = amt+" 1/2", e
	}
	best, bestEnd := L.spokenUnitAfter(s, end)
	if of := L.ofTN(); best == "" && scale != "" && of != "" {
		// a unit after a scale word and "de", written as TN reads it:
		// "cinco millones de toneladas" → "5 millones de t"
		if w, e := wordAfter(s, end); w == of {
			if best, bestEnd = L.spokenUnitAfter(s, e); best != "" {
				best = of + " " + best
			}
		}
	}
	if best == "" {
		return nil
	}
	// "las diez hora estándar de argentina": the words after the number are
	// a time zone, not the unit "hora"
	if z, ze := zoneAfter(s, end, L.zoneWritten); z != "" && ze >= bestEnd {
		return nil
	}
	// "dos metros y medio"
	if e, ok := half(bestEnd); ok && !strings.Contains(amt, "/") {
		amt, bestEnd = amt+" 1/2", e
	}
	return one(bestEnd, Measure, L.fmtAmount(amt)+" "+best)
}

// spokenUnitAfter reads the longest spoken unit of up to four words after
// token end and returns its written form and the index after it, or "".
func (L *latin) spokenUnitAfter(s *stream, end int) (string, int) {
	best, bestEnd := "", end
	j := end
	var buf [64]byte
	key := buf[:0] // the words so far joined by spaces
	for n := 0; n < 5; n++ {
		w, e := wordAfter(s, j)
		if w == "" {
			break
		}
		if n > 0 {
			key = append(key, ' ')
		}
		key = append(key, w...)
		// an elided word: "l'heure", "l’heure"
		if (s.is(e, "'") || s.is(e, "’")) && s.kind(e+1) == tWord {
			key = append(append(key, "’"...), s.lowerAt(e+1)...)
			e += 2
		}
		if written, ok := L.spokenUnit[string(key)]; ok {
			best, bestEnd = written, e
		}
		// a unit joined by a hyphen, as TN writes it: "milliampères-heures";
		// or a hyphen where the spoken unit has a space: "mètres-carrés"
		if s.is(e, "-") && s.kind(e+1) == tWord && s.kind(e+2) != tWord {
			joined := append(append(key, '-'), s.lowerAt(e+1)...)
			if written, ok := L.spokenUnit[string(joined)]; ok {
				best, bestEnd = written, e+2
			} else {
				joined[len(key)] = ' '
				if written, ok := L.spokenUnit[string(joined)]; ok {
					best, bestEnd = written, e+2
				}
			}
		}
		j = e
	}
	return best, bestEnd
}

// fractionUnit turns a spoken fraction ending at token end into a measure
// when a unit follows, directly or after ofWord ("tres quintos de metro" →
// "3/5 m"); otherwise it is the fraction.
func (L *latin) fractionUnit(s *stream, frac string, end int, ofWord string) []match {
	j := end
	if w, e := wordAfter(s, j); w != "" && w == ofWord {
		j = e
	}
	if u, e := L.spokenUnitAfter(s, j); u != "" {
		return one(e, Measure, frac+" "+u)
	}
	return one(end, Fraction, frac)
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// spacedTens returns where a parse of entries [from, to) must stop when
// the language joins a ten and its unit only with a hyphen or a connector
// (L.hyphenTens: French "quarante-trois", while "quarante trois" is two
// numbers): the index of a unit or teen that follows a ten across a space;
// to when there is none.
func (L *latin) spacedTens(s *stream, ws []string, ends []int, whole []bool, from, to int) int {
	if !L.hyphenTens {
		return to
	}
	for k := from + 1; k < to; k++ {
		prev, cur := L.lex.words[ws[k-1]], L.lex.words[ws[k]]
		if prev.kind == kTens && (cur.kind == kUnit || cur.kind == kTeen) && whole[k-1] && s.kind(ends[k-1]) == tSpace {
			return k
		}
	}
	return to
}

// bareScale reports whether a parse is a scale word said alone ("muchas
// millones"): a quantity word, not a number.
func bareScale(l *numLex, ws []string, r spokenNum) bool {
	return r.used == 1 && l.words[ws[0]].kind == kBig
}

// intAmount reads the integer part of a spoken amount.
func (L *latin) intAmount(s *stream, i int) (string, bool, string, int, bool) {
	if s.kind(i) != tWord || !s.startOK(i) {
		return "", false, "", 0, false
	}
	ws, ends, whole := spokenWords(s, i, L.lex, 60)
	k, neg := 0, ""
	if len(ws) > 0 && ws[0] == L.minus {
		neg, k = "-", 1
	}
	r, ok := L.lex.parse(ws[k:])
	if !ok || bareScale(L.lex, ws[k:], r) {
		return "", false, "", 0, false
	}
	if c := L.spacedTens(s, ws, ends, whole, k, k+r.used); c < k+r.used {
		if r, ok = L.lex.parse(ws[k:c]); !ok {
			return "", false, "", 0, false
		}
	}
	used := wholeWords(k+r.used, whole)
	if used <= k {
		return "", false, "", 0, false
	}
	if used < k+r.used {
		r, _ = L.lex.parse(ws[k:used])
	}
	if r.bigTail > 0 {
		return neg + strconv.Itoa(r.tailMul), false, ws[used-1], ends[used-1], true
	}
	return neg + r.val.String(), neg == "" && r.val.IsInt64() && r.val.Int64() == 1, "", ends[used-1], true
}

// groupedAmount reads a spoken amount whose decimals are said in groups
// (Spanish and Portuguese: "tres coma ciento cuarenta y uno cincuenta y
// nueve" → 3,14159). pointWords maps the spoken separators to the written
// ones.
func (L *latin) groupedAmount(s *stream, i int, pointWords map[string]string) (string, bool, string, int, bool) {
	amt, isOne, scale, end, ok := L.intAmount(s, i)
	if !ok || scale != "" || s.kind(end) != tSpace {
		return amt, isOne, scale, end, ok
	}
	sep, isPoint := pointWords[strings.ToLower(s.text(end+1))]
	if !isPoint {
		return amt, isOne, scale, end, ok
	}
	j := end + 2
	var frac strings.Builder
	for s.kind(j) == tSpace {
		ws, ends, whole := spokenWords(s, j+1, L.lex, 8)
		if len(ws) == 0 {
			break
		}
		if e, ok := L.lex.words[ws[0]]; ok && e.kind == kUnit && e.val == 0 {
			frac.WriteByte('0')
			j = ends[0]
			continue
		}
		r, ok := L.lex.parse(ws)
		if !ok {
			break
		}
		n := wholeWords(r.used, whole)
		if n == 0 {
			break
		}
		if n < r.used {
			r, _ = L.lex.parse(ws[:n])
		}
		if r.bigTail > 0 {
			// "cero coma seis millones": the scale ends the number
			frac.WriteString(strconv.Itoa(r.tailMul))
			if frac.Len() > 0 {
				return amt + sep + frac.String(), false, ws[n-1], ends[n-1], true
			}
		}
		frac.WriteString(r.val.String())
		j = ends[n-1]
	}
	if frac.Len() == 0 {
		return amt, isOne, scale, end, ok
	}
	out := amt + sep + frac.String()
	if w, e := wordAfter(s, j); L.scales[w] != "" && w != "mil" {
		return out, false, w, e, true
	}
	return out, false, "", j, true
}

// spellGroups is what the Latin cardinals share around their own words:
// leading zeros are dropped (nothing left reads as zero), a number longer
// than nScales groups of three digits is read digit by digit through self,
// and every non-zero group of three digits, most significant first, is
// spelled by word with its value g and scale (0 units, 1 thousands, 2 and
// up the big scale words); first tells whether it is the first group
// spelled, last whether every lower group is zero. The words are joined by
// spaces.
func spellGroups(d, zero string, nScales int, self func(string) string, word func(g, scale int, first, last bool) string) string {
	d = strings.TrimLeft(d, "0")
	if d == "" {
		return zero
	}
	if len(d) > 3*nScales {
		return (&latin{card: self}).digits(d)
	}
	groups := splitGroups(d, 3)
	lastNonZero := len(groups) - 1
	for lastNonZero > 0 && groups[lastNonZero] == 0 {
		lastNonZero--
	}
	var parts []string
	for k, g := range groups {
		if g == 0 {
			continue
		}
		parts = append(parts, word(g, len(groups)-1-k, len(parts) == 0, k == lastNonZero))
	}
	return strings.Join(parts, " ")
}

// orMatch combines matchers of one class: the candidates of all of them.
func orMatch(ms ...matcher) matcher {
	return func(s *stream, i int) []match {
		var out []match
		for _, m := range ms {
			out = append(out, m(s, i)...)
		}
		return out
	}
}

// yearRangeTN reads two years joined by a dash ("1990-1995", "1990–2000")
// as a range: year, the word to, year ("neunzehn hundert neunzig bis
// neunzehn hundert fünf und neunzig"). The range runs forward and both ends
// lie in 1000–2099; other dashed numbers (serials, scores, telephone
// numbers) are left to other rules.
func yearRangeTN(year func(string) string, to string) matcher {
	return func(s *stream, i int) []match {
		if s.kind(i) != tNum || !s.startOK(i) || s.is(i-1, "-") || len(s.text(i)) != 4 || !(s.is(i+1, "-") || s.is(i+1, "–")) ||
			s.kind(i+2) != tNum || len(s.text(i+2)) != 4 || !s.boundary(i+3) || s.is(i+3, "-") || s.is(i+3, "–") {
			return nil
		}
		a, _ := strconv.Atoi(s.text(i))
		b, _ := strconv.Atoi(s.text(i + 2))
		if a < 1000 || b > 2099 || a >= b {
			return nil
		}
		return one(i+3, Date, year(s.text(i))+" "+to+" "+year(s.text(i+2)))
	}
}

// timeRangeTN reads two clock times joined by a dash, the dash said as the
// word to, as the year ranges are: "14:00-16:00 Uhr" → "vierzehn uhr bis
// sechzehn uhr", "9:00 – 14:00" → "nueve a catorce". Both halves must be
// times of the language's time rule; a dash after a bare number is left to
// the other rules.
func timeRangeTN(time matcher, to string) matcher {
	return func(s *stream, i int) []match {
		if s.kind(i) != tNum || s.is(i-1, "-") || s.is(i-1, "–") || !(s.is(i+1, ":") || s.is(i+1, "h") || s.is(i+1, ".")) {
			return nil
		}
		// most numbers have no dash after them: look before running the
		// time rule twice
		dash := false
		for k := i + 2; k < min(i+16, s.n()) && !dash; k++ {
			dash = s.is(k, "-") || s.is(k, "–")
		}
		if !dash {
			return nil
		}
		var out []match
		for _, a := range time(s, i) {
			d := a.end
			if s.kind(d) == tSpace && (s.is(d+1, "-") || s.is(d+1, "–")) && s.kind(d+2) == tSpace {
				d++
			}
			if !(s.is(d, "-") || s.is(d, "–")) || len(a.readings) == 0 {
				continue
			}
			b0 := d + 1
			if s.kind(b0) == tSpace && d > a.end {
				b0++
			}
			if s.kind(b0) != tNum || !(s.is(b0+1, ":") || s.is(b0+1, "h") || s.is(b0+1, ".")) {
				continue
			}
			for _, b := range time(s, b0) {
				for _, r := range b.readings {
					out = append(out, match{end: b.end, readings: []reading{{text: a.readings[0].text + " " + to + " " + r.text, class: Time, cost: r.cost}}})
				}
			}
		}
		return out
	}
}

// rangeMeasureTN reads a range of amounts before a unit, the dash said as
// the word to: "5-10 kg" → "fünf bis zehn kilogramm", "2–3 h" → "dos a
// tres horas". A range without a unit is left to the other rules.
func (L *latin) rangeMeasureTN(to string) matcher { return L.rangeTN(to, L.measureTN, Measure) }

// rangeMoneyTN is rangeMeasureTN for a currency written after the amounts:
// "5-10 €" → "fünf bis zehn euro".
func (L *latin) rangeMoneyTN(to string) matcher { return L.rangeTN(to, L.moneyTN, Money) }

// rangeTN reads a number, a dash and what next reads from the second
// number on, as the first number, the word to, and next's reading.
func (L *latin) rangeTN(to string, next matcher, class string) matcher {
	return func(s *stream, i int) []match {
		n, ok := L.scanNum(s, i)
		if !ok || n.neg || !(s.is(n.end, "-") || s.is(n.end, "–")) || s.kind(n.end+1) != tNum {
			return nil
		}
		var out []match
		for _, m := range next(s, n.end+1) {
			for _, r := range m.readings {
				out = append(out, match{end: m.end, readings: []reading{{text: L.number(n) + " " + to + " " + r.text, class: class, cost: r.cost}}})
			}
		}
		return out
	}
}

// elecFromLexicon builds the spoken names of the symbols in e-mail and web
// addresses from the [symbols] section of a language's data file (ITN reads
// every spoken form, TN says the first; rows flagged `itn` are read only),
// and the letter runs TN reads as words, or respells, from its
// [electronic_words] section.
func elecFromLexicon(tag string) *elecLang {
	e := &elecLang{spoken: map[string]string{}, say: map[string]string{}, keep: map[string]bool{}, spellAs: map[string]string{}, tld: map[string]bool{}}
	for _, p := range lexiconFor(tag).pairs("electronic_words") {
		for _, w := range p.written {
			if p.has("tld") {
				e.tld[w] = true
				continue
			}
			if len(p.spoken) > 0 {
				e.spellAs[w] = p.spoken[0]
			} else {
				e.keep[w] = true
			}
		}
	}
	for _, p := range lexiconFor(tag).pairs("symbols") {
		if len(p.spoken) == 0 {
			continue
		}
		for _, sp := range p.spoken {
			if _, taken := e.spoken[sp]; !taken {
				e.spoken[sp] = p.written[0]
			}
		}
		if p.has("itn") {
			continue
		}
		for _, w := range p.written {
			if _, taken := e.say[w]; !taken {
				e.say[w] = p.spoken[0]
			}
		}
	}
	return e
}

// dottedTN reads three or more numbers joined by periods that do not group
// thousands (a version or section number, an IP address: "2.0.1" → "dos
// punto cero punto uno"), each as a cardinal with the language's spoken
// period from [symbols] between them ("3.2" too, where nothing else reads
// it). The reading costs more than any other of the same span, so a
// language's date ("10.04.2023") or IP-address reading wins where it has one.
func (L *latin) dottedTN(e *elecLang) matcher {
	dot := e.say["."]
	return func(s *stream, i int) []match {
		if dot == "" || s.kind(i) != tNum || !s.startOK(i) || s.is(i-1, ".") || s.is(i-1, ",") || !s.is(i+1, ".") || s.kind(i+2) != tNum {
			return nil
		}
		parts := []string{s.text(i)}
		j := i + 1
		for s.is(j, ".") && s.kind(j+1) == tNum && len(parts) < 8 {
			parts = append(parts, s.text(j+1))
			j += 2
		}
		if s.is(j, ".") && s.kind(j+1) == tNum || !s.boundary(j) || s.kind(j) == tWord {
			return nil
		}
		// thousands grouping ("1.000.000") is a number, not a sequence
		grouped := len(parts[0]) <= 3
		for _, p := range parts[1:] {
			grouped = grouped && len(p) == 3
		}
		if grouped {
			return nil
		}
		ws := make([]string, len(parts))
		for k, p := range parts {
			if len(p) > 1 && p[0] == '0' {
				ws[k] = L.digits(p)
			} else {
				ws[k] = L.card(p)
			}
		}
		return []match{{end: j, readings: []reading{{text: strings.Join(ws, " "+dot+" "), class: Cardinal, cost: 1}}}}
	}
}

// dottedITN writes three or more spoken numbers joined by the language's
// spoken period ("vier punkt zwölf punkt sieben" → "4.12.7"), the reading
// dottedTN gives a version or section number. Two numbers are left to the
// decimal and date grammars.
func (L *latin) dottedITN(e *elecLang) matcher {
	return func(s *stream, i int) []match {
		if s.kind(i) != tWord || !s.startOK(i) {
			return nil
		}
		var parts []string
		j := i
		for len(parts) < 8 {
			amt, _, scale, end, ok := L.intAmount(s, j)
			if !ok || scale != "" || strings.HasPrefix(amt, "-") {
				break
			}
			parts = append(parts, amt)
			j = end
			if !(s.kind(j) == tSpace && s.kind(j+1) == tWord && e.spoken[s.lowerAt(j+1)] == "." && s.kind(j+2) == tSpace && s.kind(j+3) == tWord) {
				break
			}
			if _, _, _, _, ok := L.intAmount(s, j+3); !ok {
				break
			}
			j += 3
		}
		if len(parts) < 3 || !s.boundary(j) {
			return nil
		}
		return one(j, Cardinal, strings.Join(parts, "."))
	}
}

// telPrompts are the phrases said before a telephone number or an IP
// address, from a language's [telephone_prompts] (one column: "llámame
// al", "ligue para") and [ip_prompts] (written, spoken: "el ip es" → "el i
// p es") sections. After a prompt, a run of digits is a number to dial,
// read digit by digit, and no amount.
type telPrompts struct {
	tel     []string          // lower case
	maxLen  int               // bytes of the longest entry of tel
	ip      map[string]string // written, lower case → spoken
	ipFirst map[string]int    // first token of a written IP prompt → most tokens
}

func lexTelPrompts(tag string) *telPrompts {
	p := &telPrompts{ip: map[string]string{}, ipFirst: map[string]int{}}
	lx := lexiconFor(tag)
	for _, r := range lx.rows("telephone_prompts") {
		for _, w := range alts(r[0]) {
			p.tel = append(p.tel, strings.ToLower(w))
			p.maxLen = max(p.maxLen, len(p.tel[len(p.tel)-1]))
		}
	}
	for _, q := range lx.pairs("ip_prompts") {
		for _, w := range q.written {
			w = strings.ToLower(w)
			sp := w
			if len(q.spoken) > 0 {
				sp = q.spoken[0]
			}
			p.ip[w] = sp
			toks := tokenize(w)
			f := w[toks[0].start:toks[0].end]
			p.ipFirst[f] = max(p.ipFirst[f], len(toks))
		}
	}
	return p
}

// lowerTail returns strings.ToLower of the shortest end of s that starts a
// rune and lower-cases to at least n bytes (all of s if none does), and
// whether that is all of s. strings.ToLower maps rune by rune and every
// byte that is not a UTF-8 continuation byte starts a rune, so the result
// is the end of strings.ToLower(s), found without lower-casing all of s.
func lowerTail(s string, n int) (string, bool) {
	for want := n; ; want *= 2 {
		k := max(0, len(s)-want)
		for k > 0 && !utf8.RuneStart(s[k]) {
			k--
		}
		t := strings.ToLower(s[k:])
		if k == 0 || len(t) >= n {
			return t, k == 0
		}
	}
}

// before reports whether a telephone prompt ends one space before token i.
func (p *telPrompts) before(s *stream, i int) bool {
	if i < 2 || !s.is(i-1, " ") {
		return false
	}
	// Only the end of the text before the space can hold a prompt and the
	// rune before it: lower-case no more of it than that.
	pre, whole := lowerTail(s.src[:s.toks[i-1].start], p.maxLen+utf8.UTFMax)
	for _, t := range p.tel {
		if !strings.HasSuffix(pre, t) {
			continue
		}
		r, _ := utf8.DecodeLastRuneInString(pre[:len(pre)-len(t)])
		if whole && len(pre) == len(t) || !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// ipAt returns the spoken form of an IP prompt written at token i and the
// index after the space that follows it, or "" and i.
func (p *telPrompts) ipAt(s *stream, i int) (string, int) {
	n := p.ipFirst[strings.ToLower(s.text(i))]
	for k := min(n, s.n()-i-1); k >= 1; k-- {
		if sp, ok := p.ip[strings.ToLower(s.span(i, i+k))]; ok && s.is(i+k, " ") {
			return sp, i + k + 1
		}
	}
	return "", i
}

// promptedDigits reads, after a telephone prompt, 8 to 11 digits in one run
// or in groups joined by single spaces, hyphens or full stops ("612 345
// 678", "612345678"); it returns the token index after them, or i.
func promptedDigits(s *stream, i int) (string, int) {
	var ds []string
	n, j := 0, i
	for s.kind(j) == tNum {
		ds = append(ds, s.text(j))
		n += len(s.text(j))
		j++
		if (s.is(j, " ") || s.is(j, "-") || s.is(j, ".")) && s.kind(j+1) == tNum {
			j++
			continue
		}
		break
	}
	if n < 8 || n > 11 || !s.boundary(j) || s.is(j, ".") && s.kind(j+1) == tNum || s.is(j, ",") && s.kind(j+1) == tNum {
		return "", i
	}
	return strings.Join(ds, ""), j
}
