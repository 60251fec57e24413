package segment

import (
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A boundary is a candidate split between two units of text. The text before
// it ends at byte offset End (exclusive, before the whitespace gap) and the
// next unit starts at byte offset Next (after the gap). Score, in [0, 1], is
// the confidence that the split is real.
type boundary struct {
	end, next int
	score     float64
	newlines  int // line breaks inside the gap
}

// Certain is the score of a boundary no threshold can remove: a blank line,
// a change of speaker.
const certain = 1.0

// scanner holds per-document state for boundary scoring.
type scanner struct {
	s       string
	lang    string
	abbr    map[string]abbrevKind
	learned map[string]bool // abbreviations learned from the document itself
	start   map[string]bool // sentence starters for lang
	markers map[int]bool    // byte offsets of list markers ("1.", "b)")
	guessed bool            // lang is a default, not evidence from the text
	auto    bool            // lang was guessed from the text, not given
	danda   bool            // the text ends its sentences with the danda (।)

	// Open quotations: guillemets and curly double quotes, with the byte
	// offset where the outermost one opened.
	guill, curly, paren int
	openedAt            int
}

// quote updates the open-quotation state with rune r at byte i.
func (sc *scanner) quote(r rune, i int) {
	if sc.inQuote() && i-sc.openedAt > 600 {
		sc.guill, sc.curly, sc.paren = 0, 0, 0 // an unbalanced quote: forget it
	}
	open := !sc.inQuote()
	switch r {
	case '(', '[':
		if sc.closes(i, ")]") {
			sc.paren++
		}
	case ')', ']':
		sc.paren = max(0, sc.paren-1)
	case '«':
		if sc.closes(i, "»") {
			sc.guill++
		}
	case '»':
		sc.guill = max(0, sc.guill-1)
	case '„':
		if sc.closes(i, "“”") {
			sc.curly++
		}
	case '“':
		// Closes „ (German), otherwise opens an English quotation.
		if sc.curly > 0 && (sc.lang == "de" || !sc.closes(i, "”")) {
			sc.curly--
		} else if sc.closes(i, "”") {
			sc.curly++
		}
	case '”':
		sc.curly = max(0, sc.curly-1)
	case '\n':
		if r2, _ := runeAt(sc.s, i+1); r2 == '\n' {
			sc.guill, sc.curly, sc.paren = 0, 0, 0
		}
	default:
		return
	}
	if open {
		sc.openedAt = i
	}
}

// closes reports whether one of closers follows the opener at byte i within
// a short distance and before a blank line; unbalanced quotes and brackets
// are ignored.
func (sc *scanner) closes(i int, closers string) bool {
	end := min(len(sc.s), i+500)
	w := sc.s[i+1 : end]
	if k := strings.Index(w, "\n\n"); k >= 0 {
		w = w[:k]
	}
	return strings.ContainsAny(w, closers)
}

// inQuote reports whether a quotation or a bracket is open.
func (sc *scanner) inQuote() bool { return sc.guill+sc.curly+sc.paren > 0 }

// sentenceBoundaries returns every candidate sentence boundary of s, sorted
// by position, with its score. lang is a base language code or "" to guess.
func sentenceBoundaries(ctx context.Context, s, lang string) ([]boundary, error) {
	sure, auto := true, lang == ""
	if auto {
		lang, sure = guessLanguage(s)
	}
	sc := &scanner{s: s, lang: lang, abbr: abbrevTable(lang), start: starters[lang], guessed: !sure, auto: auto, danda: strings.ContainsRune(s, '।')}
	if sc.start == nil {
		sc.start = starters["en"]
	}
	sc.learned = learnAbbreviations(s, sc.abbr)
	var out []boundary
	sc.markers, out = listMarkers(s)
	out = append(out, bulletBoundaries(s)...)
	for i := 0; i < len(s); {
		if i&0xffff == 0 && i > 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if c := s[i]; c < utf8.RuneSelf && plainByte[c] {
			i++ // most bytes: no stop, bracket or line break
			continue
		}
		r, n := runeAt(s, i)
		sc.quote(r, i)
		switch {
		case isPeriod(r) || isStop(r) || sc.scriptStop(r, i):
			b, ok, j := sc.cluster(i)
			if ok {
				out = append(out, b)
			}
			i = j
			continue
		case r == ':' && sc.lang == "en":
			if b, ok := sc.colon(i); ok {
				out = append(out, b)
			}
		case sc.lang == "ja" && (r == 'す' || r == 'た' || r == 'ん'):
			if b, ok := sc.japaneseEnd(i, n); ok {
				out = append(out, b)
			}
		case r == '،' && sc.lang == "ar":
			if b, ok := sc.arabicComma(i); ok {
				out = append(out, b)
			}
		case r == '\n' || r == '\r':
			b, ok, j := sc.lineBreak(i)
			if ok {
				out = append(out, b)
			}
			i = j
			continue
		}
		i += n
	}
	byNext := func(a, b boundary) int { return a.next - b.next }
	slices.SortFunc(out, byNext)
	if gaps := sc.gapBoundaries(); len(gaps) > 0 {
		slices.SortFunc(gaps, byNext)
		out = mergeBoundaries(out, gaps)
	}
	// Merge candidates that start the next unit at the same place.
	merged := out[:0]
	for _, b := range out {
		if k := len(merged) - 1; k >= 0 && merged[k].next == b.next {
			m := &merged[k]
			if b.score > m.score {
				m.score = b.score
			}
			m.end = min(m.end, b.end)
			m.newlines = max(m.newlines, b.newlines)
			continue
		}
		if b.next >= len(s) || b.end <= 0 {
			continue
		}
		merged = append(merged, b)
	}
	return merged, nil
}

// plainByte marks the ASCII bytes the boundary scan can step over: all but
// stops, colons, semicolons, brackets and line breaks. Skipping them leaves
// the quotation state as it would be, since only brackets and quotes change
// it and its staleness test is repeated at every other rune.
var plainByte = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = !strings.ContainsRune(".!?:;()[]\n\r", rune(c))
	}
	return t
}()

// mergeBoundaries merges two lists sorted by next into one.
func mergeBoundaries(a, b []boundary) []boundary {
	out := make([]boundary, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0].next < a[0].next {
			out = append(out, b[0])
			b = b[1:]
		} else {
			out = append(out, a[0])
			a = a[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}

// scriptStop reports whether r at offset i is a stop only in the script of
// the preceding letter, or only doubled: the Armenian colon, the colon of an
// Arabic headline, the Greek question mark written as a semicolon, and two
// Ethiopic word spaces ("፡፡") written for the Ethiopic full stop.
func (sc *scanner) scriptStop(r rune, i int) bool {
	if r == '፡' {
		// Two Ethiopic word spaces are often typed for the full stop "።".
		p, _ := runeBefore(sc.s, i)
		q, _ := runeAt(sc.s, i+len("፡"))
		return p == '፡' || q == '፡'
	}
	if r != ':' && r != ';' {
		return false
	}
	p, _ := runeBefore(sc.s, i)
	if r == ':' {
		// Armenian ends sentences with ":", also after a closing quote or
		// bracket ("«Վաղը կգամ»:"); Arabic headlines end with one, but a
		// colon before a quotation introduces it.
		if unicode.Is(unicode.Arabic, p) {
			q, _ := runeAt(sc.s, i+1)
			if q != ' ' {
				return false
			}
			// Any quotation mark: right-to-left text is often typed with the
			// marks reversed (Urdu "کہا: ”میں …“").
			q, _ = runeAt(sc.s, skipSpace(sc.s, i+1))
			return !isOpener(q) && !strings.ContainsRune("\"”“»›’", q)
		}
		for k := i; isCloser(p) && k > 0; {
			_, n := runeBefore(sc.s, k)
			k -= n
			p, _ = runeBefore(sc.s, k)
		}
		return unicode.Is(unicode.Armenian, p)
	}
	return unicode.Is(unicode.Greek, p)
}

// cluster scores the run of stops starting at byte i. It returns the
// boundary, whether it is a candidate at all, and the offset to continue
// scanning from.
func (sc *scanner) cluster(i int) (boundary, bool, int) {
	s := sc.s
	j := i
	periods, stops, cjk, closers := 0, 0, false, false
	lastPeriod := -1
	for j < len(s) {
		r, n := runeAt(s, j)
		switch {
		case isPeriod(r) && cjk:
			goto closing // "。..." : the ellipsis opens the next sentence
		case isPeriod(r):
			periods++
			lastPeriod = j
		case r == '…':
			periods += 3
		case isStop(r) || sc.scriptStop(r, j):
			stops++
			if isCJKStop(r) {
				cjk = true
			}
		case r == ' ' && periods > 0 && lastPeriod == j-1:
			// Spaced ellipsis ". . .": take the space when a lone period
			// follows (not "...en", which starts the next sentence).
			if r2, _ := runeAt(s, j+1); isPeriod(r2) {
				if r3, _ := runeAt(s, j+2); r3 == 0 || r3 == ' ' || isPeriod(r3) && periods >= 2 || isCloser(r3) || r3 == '\n' {
					j++
					continue
				}
			}
			goto closing
		default:
			goto closing
		}
		j += n
	}
closing:
	afterCloser := false
	for j < len(s) {
		r, n := runeAt(s, j)
		if r == ' ' || r == '\u00a0' || r == '\u202f' {
			// French spacing: "vu ca ? »".
			if r2, n2 := runeAt(s, j+n); r2 == '»' || r2 == '›' {
				sc.quote(r2, j+n)
				closers = true
				j += n + n2
				continue
			}
		}
		if (r == '«' || r == '‹') && sc.guill == 0 {
			// A reversed guillemet closes a Danish, Swedish or German
			// quotation (»… morgen.« Han): directly after the stop, then
			// white space or the end. It opens none: sc.guill stays.
			if r2, _ := runeAt(s, j+n); j+n == len(s) || isSpace(r2) {
				closers = true
				j += n
				continue
			}
		}
		if !isCloser(r) {
			// A stop may follow a closer: «… a.», "(… гг.)."
			if closers && (isPeriod(r) || isStop(r)) {
				periods++
				afterCloser = true
				j += n
				continue
			}
			break
		}
		// An ambiguous quote directly followed by a letter opens the next
		// sentence ("。“所以"), and a single quote is an apostrophe (Jr.'s).
		if r == '\'' || r == '’' || r == '"' || r == '“' {
			if r2, _ := runeAt(s, j+n); isWordRune(r2) {
				break
			}
		}
		sc.quote(r, j)
		closers = true
		j += n
	}
	// An emoticon after the stop belongs to the sentence: "bacon! :) Thick".
	if stops+periods > 0 {
		if k := emoticonAfter(s, j); k > j {
			j = k
		}
	}
	// Footnote references after the stop: "martyr.[1][2] The", "(1987).1 According".
	for stops+periods > 0 {
		if k := footnote(s, j, i); k > j {
			j = k
			closers = true
			continue
		}
		break
	}
	end := j
	next, newlines := spaceRun(s, end)
	b := boundary{end: end, next: next, newlines: newlines}
	if next >= len(s) {
		return b, false, next
	}
	score, ok := sc.score(i, end, next, periods, stops, cjk, closers, &b)
	if !ok {
		return b, false, end
	}
	if (afterCloser && periods > 0 && stops == 0) || (periods == 2 && stops == 0 && end-i == 2) {
		score = max(score, sc.plainScore(next)) // "(… гг.).", "23 Nov.. Grazie"
	}
	if sc.inQuote() && !cjk {
		score *= 0.35 // a stop inside an open quotation or bracket rarely ends the sentence
	}
	if newlines >= 2 {
		score = certain
	} else if newlines == 1 && score >= 0.1 {
		score += (1 - score) * 0.5
	}
	b.score = clamp01(score)
	return b, true, next
}

// score computes the confidence of the stop cluster s[i:end] followed by the
// next unit at next.
func (sc *scanner) score(i, end, next, periods, stops int, cjk, closers bool, b *boundary) (float64, bool) {
	s := sc.s
	// Look at what follows, skipping opening quotes and brackets.
	k, openers := next, 0
	for k < len(s) {
		r, n := runeAt(s, k)
		if !isOpener(r) {
			break
		}
		openers++
		k += n
	}
	// A closing quote directly followed by an opening one separates
	// sentences as a space would: "…tragedy?""Well," he said.
	gap := next > end || (closers && openers > 0)
	nr, _ := runeAt(s, k)
	nextWord := wordAt(s, k)
	upper := unicode.IsUpper(nr) || unicode.IsTitle(nr)
	lower := unicode.IsLower(nr)
	caseless := unicode.IsLetter(nr) && !upper && !lower
	digit := unicode.IsDigit(nr)
	lnw := strings.ToLower(nextWord)
	// Other languages' starters count where the language is not known for
	// sure, or has no list of its own: Italian "per" does not start a
	// Swedish sentence ("bl.a. Per och Anna").
	starter := sc.start[lnw] || (len(lnw) > 1 && anyStarter[lnw] && (sc.auto || sc.guessed || starters[sc.lang] == nil))

	if ts := tokenStart(s, i); stops > 0 && gap && !closers && enumeratorEnd(s, ts) == end && leads(s, ts) {
		return 0.02, true // a number with the script's stop opening an item: Urdu "1۔ فارم", Burmese "၁။ ဖောင်"
	}
	// Full-width stops need no space; ASCII ones between CJK characters
	// act the same.
	if p, _ := runeBefore(s, i); !cjk && stops > 0 && !gap && isCJK(nr) && !isCloser(nr) && (isCJK(p) || periods == 0) {
		cjk = true // "ないのか?ついつい", "Ciao!ジェリー"
	}
	if cjk {
		if closers && unicode.Is(unicode.Hiragana, nr) {
			if bracketedSentence(s, end) {
				return 0.95, true // （詳しくは後述。）まずは: a sentence in brackets of its own
			}
			return 0.2, true // 「…。」と: the quote continues the sentence
		}
		return 0.95, true
	}
	if stops > 0 {
		q, _ := runeBefore(s, end)
		if gap && (nr == '?' || nr == '!') && onlyStops(s[next:tokenEnd(s, next)]) {
			return 0.05, true // a stop spaced off its sentence: "parrots? ?"
		}
		switch {
		case !gap && !closers && (upper || lower) && periods == 0 && runeLen(prevToken(s, i)) >= 2 && allLetters(prevToken(s, i)) && (followedByLower(s, k) || nextWord == "I"):
			if upper {
				return 0.6, true // "Hello!How", "around?I've"
			}
			return 0.4, true // "shop?there"
		case !gap && isWordRune(nr):
			return 0, false
		case !gap:
			return 0.05, true
		case lower && closers:
			return 0.1, true
		case isDash(nr) && dashThenLower(s, k):
			return 0.1, true // dialogue: "бар? — деді."
		case !gap && upper && isRoman(wordAt(s, k)) && runeLen(prevToken(s, i)) >= 2:
			return 0.55, true
		case lower && q == '?':
			return 0.45, true // "bet? really": lower-case starts are common in web text
		case lower && sc.lang == "en" && (stops > 1 || prevToken(s, i) == ""):
			return 0.4, true // web text: "crew!!! home", "opener ! complete"; not "alas! the door"
		case lower:
			return 0.25, true // "Yahoo! in"
		case q == '!' && end-i == 1 && exclaimNames[prevToken(s, i)]:
			return 0.3, true // "Yahoo! Mail"
		}
		return 0.92, true
	}
	// Ellipses.
	if periods >= 3 {
		if p, _ := runeBefore(s, i); p == '[' || p == '(' {
			return 0.05, true // "[...]" marks an omission
		}
		if !gap {
			if p, _ := runeBefore(s, i); isCJK(p) && isCJK(nr) {
				return 0.5, true // "……" ends CJK sentences
			}
			if p, _ := runeBefore(s, i); upper && unicode.IsLetter(p) && followedByLower(s, k) && sc.lang != "hy" {
				return 0.5, true // a space missing after the ellipsis: "King.....But my"
			}
			if isWordRune(nr) {
				return 0.15, true
			}
			return 0.05, true
		}
		// "word. . . . Next": the first period ends the sentence and the
		// ellipsis begins the next one.
		if r2, _ := runeAt(s, i+1); s[i] == '.' && r2 == ' ' && periods >= 4 && upper {
			if p, _ := runeBefore(s, i); isWordRune(p) {
				b.end, b.next = i+1, i+2
				return 0.9, true
			}
		}
		switch {
		case periods >= 4 && upper:
			return 0.85, true
		case upper && nextWord == "I" && !sc.gluedEllipsis(i):
			return 0.2, true // a spaced ellipsis inside a sentence: "the thing is . . . I didn't"
		case upper || caseless:
			return 0.45, true
		case lower:
			return 0.1, true
		}
		return 0.3, true
	}
	// A single period.
	tok := prevToken(s, i)
	ts := i - len(tok)
	for tok != "" {
		r, n := runeAt(tok, 0)
		if !isOpener(r) {
			break
		}
		tok = tok[n:]
	}
	if !gap {
		if inner := strings.TrimRightFunc(tok, isCloser); isWordRune(nr) && (closers || len(inner) < len(tok)) {
			// A bracket or quote closes the sentence and the next one is
			// glued on: "(in 2019).The", "he said "yes."Then".
			if upper && runeLen(inner) >= 2 && (endsLowerWord(inner) || sc.gluedNumber(ts, inner, nextWord)) && followedByLower(s, k) && wordEnds(s, k) && !isAddress(s, i) {
				return 0.55, true
			}
			return 0, false
		}
		if isWordRune(nr) && !closers {
			// Inside a token (3.14, e.g, example.com) unless a space is
			// missing: "world.Today".
			if w := letterRun(s, next); caseless && !isCJK(nr) && runeLen(w) >= 2 && (sc.gluedNumber(ts, tok, w) || sc.gluedCaseless(tok)) && !isAddress(s, i) {
				// A script without case: a word of three letters or more, or
				// a number, glued to the next word by the period: Persian
				// "افتاد.همه", Marathi "घडले.सगळे", Arabic "2-1.فرح".
				return 0.55, true
			}
			if upper && (sc.gluedWord(tok) || sc.gluedNumber(ts, tok, nextWord)) && !isAddress(s, i) && wordEnds(s, next) {
				w := wordAt(s, next)
				if r2, _ := runeAt(s, next+len(string(nr))); unicode.IsLower(r2) || isRoman(w) && len(w) > 1 || runeLen(w) == 1 && w[0] >= utf8.RuneSelf && sc.start[strings.ToLower(w)] {
					// A one-letter starter (Greek "Ο", "Η"), not a Latin
					// capital, which after a number is a label: "version 2.A".
					return 0.55, true // "жағдайы.XVIII ғасыр", "0-3.Ο προπονητής"
				}
			}
			return 0, false
		}
		if isWordRune(nr) {
			return 0, false
		}
		return 0.05, true
	}
	score := sc.periodScore(ts, tok, nr, nextWord, upper, lower, caseless, digit, starter)
	if isDash(nr) && dashThenLower(s, k) {
		score = min(score, 0.1)
	}
	if r, _ := runeAt(s, next); r == '¿' || r == '¡' {
		score = max(score, 0.85) // a Spanish opening mark starts a sentence
	}
	if closers {
		switch {
		case lower:
			score = min(score, 0.1)
		case upper:
			score = max(score, 0.85*score/0.9)
		}
	}
	if sc.lang == "hy" {
		score *= 0.3 // Armenian ends sentences with ":"; "." is a weaker mark
	}
	return score, true
}

// periodScore scores a period after token tok (starting at byte ts) that is
// followed by whitespace and then by the rune nr starting nextWord.
func (sc *scanner) periodScore(ts int, tok string, nr rune, nextWord string, upper, lower, caseless, digit, starter bool) float64 {
	lw := strings.ToLower(tok)
	if lw == "" { // "report . It's"
		switch {
		case upper || caseless:
			return 0.85
		case lower && sc.lang == "en" && isLowerWord(prevToken(sc.s, max(0, ts-1))):
			return 0.4 // "very friendly . and did": a spaced stop in web text
		case lower:
			return 0.3
		}
		return 0.5
	}
	if r, _ := runeBefore(tok, len(tok)); sc.danda && unicode.Is(unicode.Devanagari, r) && !upper {
		// Where sentences end with the danda, a period after a Devanagari
		// letter marks an abbreviation: "2 ली. चाहिए", "5 कि.मी. दौड़ता".
		return 0.1
	}
	if timeOfDay[lw] && (upper || caseless) {
		if timeZones[nextWord] {
			return 0.05 // a time zone names the hour's clock: "at 3 p.m. ET", "9 a.m. GMT"
		}
		if sc.abbr[strings.ToLower(nextWord)] == abbrTitle && tok == lw {
			return 0.25 // "At 5 a.m. Mr. Smith went"
		}
		return 0.6 // "at 6 P.M. Mr. Smith then went", "at 6 a.m. Travelers"
	}
	if timeZones[tok] && (upper || caseless) {
		if p := strings.ToLower(prevToken(sc.s, backSpace(sc.s, ts))); timeOfDay[strings.TrimSuffix(p, ".")] || p == "am" || p == "pm" || isClockOrScore(p) {
			return 0.7 // a time zone ends the clock time it follows: "8 p.m. EST. Results"
		}
	}
	if r, n := runeAt(sc.s, ts); sc.markers[ts] || isBulletGlyph(r) && sc.markers[ts+n] {
		return 0.02 // "1. The first item", "⁃2. The second item"
	}
	if isNumber(tok) {
		switch {
		case (upper || caseless) && sc.afterReference(ts):
			return 0.85 // a page or figure number, not an ordinal: "auf S. 5. Dann"
		case sc.lang == "hu" && digit && allDigits(tok):
			return 0.1 // a Hungarian date, every part with its period: "2025. 12. 24-én"
		case sc.lang == "de" && len(strings.Trim(tok, ".")) <= 2 && !strings.ContainsAny(tok, ".,"):
			return 0.15 // German ordinal: "am 12. Juni"
		case sc.lang == "de" && isDayMonth(tok) && !lower && !starter:
			return 0.15 // a German date without its year: "am 31.12. Silvester"
		case len(tok) <= 2 && allDigits(tok) && (digit || months[strings.ToLower(nextWord)]):
			return 0.1 // a date: "am 13. 1. 2006", "24. Dezember"
		case upper || caseless:
			return 0.85
		case lower:
			return 0.1
		case digit:
			return 0.4
		}
		return 0.5
	}
	k := sc.abbr[lw]
	if k == abbrNone && sc.learned[lw] {
		k = abbrPlain
	}
	if j := strings.LastIndexByte(lw, '.'); k == abbrNone && j >= 0 && !isDotted(lw) {
		// "Tuesday.Mr. Smith": the part after a missing space. Written in
		// lower case, the part is a domain or a file extension
		// ("exemplo.pt.", "notes.doc."), which ends the sentence as any word.
		if r, _ := runeAt(tok, j+1); len(tok) != len(lw) || !unicode.IsLower(r) {
			k = sc.abbr[lw[j+1:]]
		}
	}
	if k == abbrNone && isDotted(lw) && !isDomain(lw) {
		k = abbrPlain
	}
	if k == abbrNone {
		k = extKind(sc.lang, tok, upper) // other published lists: "bzgl.", "izq.", "ogg."
	}
	if k == abbrNone && cldrKnows(sc.lang, tok) {
		k = abbrPlain // CLDR's suppressions: "Hbf.", "févr.", "Excmo."
	}
	if j := max(strings.LastIndexByte(lw, '\''), strings.LastIndex(lw, "’")); k == abbrNone && j > 0 && j <= 4 {
		// An elided article or preposition before the abbreviation:
		// Italian "l'avv.", "dell'ing.", French "l'av.".
		if _, n := utf8.DecodeRuneInString(lw[j:]); sc.abbr[lw[j+n:]] != abbrNone && allLetters(lw[:j]) {
			k = sc.abbr[lw[j+n:]]
			tok, lw = tok[j+n:], lw[j+n:]
		}
	}
	if k == abbrNone && (sc.lang != "en" || sc.guessed || sc.auto && runeLen(lw) >= 3) && allTitles[lw] && isTitleCase(tok) {
		k = abbrTitle // another language's title: "De holdt Skt. Hans" guessed as Dutch
	}
	if k == abbrNone && sc.auto && digit && anyNumRef[lw] {
		k = abbrNum // another language's numbered reference, the language guessed: "cap. 3", "str. 15"
	}
	if k == abbrNone && sc.auto && (sc.lang != "en" || !hasVowel(lw)) && lower && (anyPlain[lw] || anyNumRef[lw] && runeLen(lw) >= 3) && !sc.isWord(lw) {
		// Another language's abbreviation before a lower-case word, the
		// language guessed: "enz. mee", "Zob. art.". Not when the guess
		// is English, whose words ("ago.", "vet.", "min.") they may be,
		// unless the abbreviation has no vowel and so is no English word
		// ("dvs.", "bzw.", "vgl.").
		k = abbrPlain
	}
	if k == abbrNone && sc.auto && upper && runeLen(lw) >= 4 && allTitles[lw] && tok == lw && !sc.isWord(lw) {
		k = abbrTitle // another language's title written in lower case: "mevr. De Vries"
	}
	if k == abbrNone && (sc.lang == "es" || sc.lang == "ca" || sc.lang == "gl") && len(tok) == 2 && tok[0] == tok[1] && isUpperByte(tok[0]) {
		k = abbrPlain // a plural written by doubling the initial: "EE. UU.", "FF. AA."
	}
	if k == abbrNone && (sc.lang == "de" || sc.lang == "nl") && len(lw) > 4 && strings.HasSuffix(lw, "str") && allLetters(lw) {
		k = abbrPlain // a street name: "Hauptstr.", "Goethestr.", Dutch "Kerkstr."
	}
	if k == abbrNone && digit && !sc.markers[skipSpace(sc.s, ts+len(tok)+1)] && bareNumberSentence(sc.s, ts+len(tok)+1) {
		// An unknown abbreviation before a number that would make a
		// sentence of its own ("Kerkstr. 4. Hij", "hfdst. 12. Daar"):
		// a sentence is not a bare number, so the number belongs here.
		return 0.2
	}
	if k == abbrNum && !digit && len(nextWord) >= 2 && len(nextWord) <= 6 && isRoman(nextWord) {
		digit = true // a Roman number: "Art. IV", "Kap. XII", "vol. II"
	}
	if k == abbrNum && !digit && sc.letterLabel(ts+len(tok), nextWord, numWords[sc.lang][lw] && sc.opensSentence(ts)) && (!numWords[sc.lang][lw] || isTitleCase(tok)) {
		digit = true // a lettered label: "App. B", "Fig. A", "Annex C"
	}
	if k != abbrNone && tok == lw && (k != abbrNum || !digit) && sc.isWord(lw) {
		k = abbrNone // a word of the language: Spanish "el mar.", "dijo que no.", Danish "det."
	}
	if k == abbrNum && (upper || lower || caseless) && !digit && numWords[sc.lang][lw] {
		k = abbrNone // "art. 5" binds; "modern art. The" ends a sentence
	}
	if (upper || caseless) && runeLen(tok) == 1 && etcPairs[prevToken(sc.s, max(0, ts-1))+"_"+tok] {
		return 0.7 // "и т. д. Потом"
	}
	if k == abbrNone && lw == "in" && lower && sc.lang == "en" && isNumber(prevToken(sc.s, max(0, ts-1))) {
		return 0.05 // inches: "10 in. wide"
	}
	if k == abbrNone && digit && approxWords[lw] {
		k = abbrPlain // "about" before an amount, in any language: "ок. 20 лв.", "aprox. 20 €" guessed as German
	}
	afterNumber := false // a number precedes tok; looked up only where it matters
	if k == abbrTitle || k == abbrNum || amountUnits[lw] || yearAbbrev[lw] || monthAbbrev[lw] || letterCount(tok) == 1 {
		afterNumber = isNumber(prevToken(sc.s, max(0, ts-1)))
	}
	if k == abbrNum && afterNumber && !digit && (upper || caseless) && !sc.abbreviationAt(ts+len(tok)+1) {
		// A numbered reference precedes its number; after one it is a unit
		// or a count that ends the phrase: "груз — 5 т. Машина", "120 S. Dann".
		return 0.5
	}
	if k == abbrTitle && tok == lw && afterNumber {
		k = abbrNone // a unit after a number, not a title: French "1,80 m. Il"
	}
	if approxWords[lw] && (upper || caseless) && !digit && (isNumber(prevToken(sc.s, backSpace(sc.s, ts))) || amountBefore(sc.s, ts)) && !sc.abbreviationAt(ts+len(tok)+1) {
		// "approximately" written after the amount it qualifies ends the
		// phrase: "a las 10 h aprox. Traed", "about 40 approx. The". Before
		// an amount it binds as any abbreviation ("approx. 15 km").
		return 0.6
	}
	if afterNumber && amountUnits[lw] && (upper || caseless) {
		return 0.6 // an amount ends its phrase: "50 грн. Діти", "20 руб. Потом"
	}
	if weekdayAbbrev[lw] && isTitleCase(tok) && upper && !months[strings.ToLower(nextWord)] && !monthNames[strings.ToLower(nextWord)] && !monthAbbrev[strings.ToLower(nextWord)] {
		return 0.5 // "Closed Mon. and Tue. Open Wed.", not "Tue. Jan. 5", "Fri. March 3"
	}
	if monthAbbrev[lw] && digit && (afterNumber || isTitleCase(tok)) {
		return 0.05 // a date with its year: "5 lis. 2025", "15 ян. 2025 г.", "Feb. 2024"
	}
	if afterNumber && monthAbbrev[lw] && (upper || caseless) {
		return 0.5 // a date ends its phrase: "Gesloten op 27 apr. Tot dan", "до 10 янв. Спасибо"
	}
	if k == abbrNone && afterNumber && yearAbbrev[lw] {
		k = abbrPlain // "w 1990 r. Jego", "в 1812 г. Наполеон": ends before a sentence starter only
	}
	switch k {
	case abbrTitle:
		if lower {
			return 0.02
		}
		return 0.05
	case abbrNum:
		switch {
		case digit:
			return 0.03
		case lower:
			return 0.05
		case starter:
			return 0.55
		}
		return 0.25
	case abbrPlain:
		switch {
		case lower:
			return 0.05
		case digit:
			return 0.2
		case etcWords[lw] && (upper || caseless):
			return 0.7
		case starter:
			return 0.6
		}
		return 0.25
	}
	if isRoman(tok) && lower {
		return 0.1 // "Ramses II. ein"
	}
	if k == abbrNone && caseless && sc.caselessInitial(ts, tok) {
		return 0.05 // a run of initials in a script without case: "बी. आर. आंबेडकर"
	}
	if n := letterCount(tok); n == 1 {
		// One letter, with its vowel signs in a script that writes them as
		// marks: an initial or a letter abbreviation ("J.", Devanagari "पी.").
		r, _ := runeAt(tok, 0)
		if isEra(prevToken(sc.s, max(0, ts-1)), tok) {
			switch {
			case lower:
				return 0.05
			case upper || caseless:
				return 0.6 // "hacia 1600 a. C. La ciudad"
			}
			return 0.2
		}
		if unicode.IsUpper(r) {
			if nr2, n2 := runeAt(nextWord, 0); runeLen(nextWord) == 1 && unicode.IsUpper(nr2) && sc.initialAt(ts, tok, n2) {
				return 0.05 // a run of initials: "А. С. Пушкин", "J. R. R. Tolkien"
			}
			if starter && (tok == "I" || !lower) {
				return 0.6
			}
			if (upper || caseless) && sc.afterReference(ts) && runeLen(prevToken(sc.s, backSpace(sc.s, ts))) > 2 {
				return 0.85 // a lettered label, not an initial: "Abb. C. Dort" (not "Т. Г. Шевченко")
			}
			if p := prevToken(sc.s, max(0, ts-1)); strings.ContainsRune("CFK", r) && (strings.HasSuffix(p, "°") || strings.HasSuffix(p, "º")) && (upper || caseless) {
				return 0.85 // a temperature, not an initial: "2º C. Muchos"
			}
			return 0.12 // an initial: "Albert I. Jones", "J. Smith"
		}
		if unicode.IsLetter(r) {
			switch {
			case starter && upper:
				return 0.4
			case afterNumber && (upper || caseless) && !sc.abbreviationAt(ts+len(tok)+1):
				return 0.5 // a unit after a number: "1,85 m. Son frère", "40 g. Dann"
			}
			return 0.1 // "p. 55", "z. B."
		}
	}
	switch {
	case upper || caseless:
		return 0.9
	case lower && (sc.lang == "en" || sc.lang == "el"):
		return 0.4 // lower-case start, common in web text
	case lower:
		return 0.2
	case digit:
		return 0.7
	case isCJK(nr):
		return 0.8
	}
	return 0.6
}

// lineBreak scores the whitespace run containing a line break at byte i when
// no stop precedes it.
func (sc *scanner) lineBreak(i int) (boundary, bool, int) {
	s := sc.s
	ws := backSpace(s, i)
	trailingSpace := ws < i
	we, newlines := spaceRun(s, i)
	b := boundary{end: ws, next: we, newlines: newlines}
	if ws == 0 || we >= len(s) {
		return b, false, we
	}
	if newlines >= 2 {
		b.score = certain
		return b, true, we
	}
	prev, _ := runeBefore(s, ws)
	nr, _ := runeAt(s, we)
	lineStart := strings.LastIndexByte(s[:ws], '\n') + 1
	lineEnd := strings.IndexByte(s[we:], '\n')
	if lineEnd < 0 {
		lineEnd = len(s)
	} else {
		lineEnd += we
	}
	prevLine := strings.TrimSpace(s[lineStart:ws])
	nextLine := strings.TrimSpace(s[we:lineEnd])
	score := 0.5
	switch {
	case isBullet(s, we) || sc.markers[we] || enumeratorEnd(s, we) > 0:
		score = 0.85
	case prev == '-' && unicode.IsLower(nr):
		score = 0.05 // hyphenated word broken across lines
	case isCJK(prev) && isCJK(nr):
		score = 0.2 // CJK text has stops; a bare line break is a wrap
	case trailingSpace:
		score = 0.1 // "It was a cold \nnight"
	case sc.continues(prevLine):
		score = 0.1 // "… aus einem\nDokument": a line cannot end with an article
	case (prev == ',' || prev == ':') && sc.greetingLine(s, lineStart, prevLine):
		score = 0.7 // "Hallo Frau Schmidt,\nvielen Dank …", "Hola, Marta:\nGracias …"
	case prev == ':' || prev == ',' || prev == ';':
		score = 0.25
	case unicode.IsUpper(nr):
		score = 0.55
	case unicode.IsLower(nr):
		score = 0.3
	}
	if score >= 0.25 && !endsWithStop(prevLine) && !endsWithStop(nextLine) {
		score += 0.3 // a list of lines without stops: each line is a unit
	}
	b.score = clamp01(score)
	return b, true, we
}

// isBullet reports whether s[i:] starts with a bullet.
func isBullet(s string, i int) bool {
	r, n := runeAt(s, i)
	switch r {
	case '-', '*', '–', '—', '>', '+':
	default:
		if !isBulletGlyph(r) {
			return false
		}
	}
	r2, _ := runeAt(s, i+n)
	return r2 == ' '

}

// endsWithStop reports whether line ends with a stop, optionally followed by
// closing quotes or brackets.
func endsWithStop(line string) bool {
	for line != "" {
		r, n := runeBefore(line, len(line))
		if isCloser(r) {
			line = line[:len(line)-n]
			continue
		}
		return isPeriod(r) || isStop(r) || r == ':'
	}
	return false
}

// wordAt returns the run of letters starting at byte i of s.
func wordAt(s string, i int) string {
	j := i
	for j < len(s) {
		r, n := runeAt(s, j)
		if !unicode.IsLetter(r) && r != '\'' && r != '’' {
			break
		}
		j += n
	}
	w := s[i:j]
	// Keep "I" distinct from "I'm": the contraction is still a starter.
	if k := strings.IndexAny(w, "'’"); k > 0 {
		w = w[:k]
	}
	return w
}

// isLowerWord reports whether w is all lower-case letters.
func isLowerWord(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// isDotted reports whether w is a dotted abbreviation such as "u.s.a",
// "e.g", "т.е" or "sig.ra": letters only, with internal periods, every part
// at most four letters.
func isDotted(w string) bool {
	if !strings.Contains(w, ".") {
		return false
	}
	for part := range strings.SplitSeq(w, ".") {
		n := 0
		for _, r := range part {
			if unicode.IsMark(r) {
				continue // a vowel sign: Devanagari "कि.मी"
			}
			if !unicode.IsLetter(r) && r != '-' {
				return false
			}
			n++
		}
		if n == 0 || n > 4 {
			return false
		}
	}
	return true
}

// listMarkers finds enumerations written in running text or at line
// starts: "1. … 2. …", "1) … 2) …", "1.) …", "(1) … (2) …", letters
// ("a. … b. …", "A) …", "(b) …") and Roman numerals ("i. … ii. …",
// "IV. … V. …"). A sequence is at least two markers of the same kind,
// case and delimiter with consecutive values, starting at 1 — or at any
// value when the first marker leads (starts the text or a line, or follows
// a colon, a stop or a bullet: "• 9. … • 10. …"). It returns the byte
// offsets of the markers that belong to a sequence (and of every leading
// marker), and a boundary before each marker of a sequence after the first
// (before its bullet, if one precedes it).
func listMarkers(s string) (map[int]bool, []boundary) {
	var ms []listMarker
	for i := 0; i < len(s); {
		k := strings.IndexAny(s[i:], ".)")
		if k < 0 {
			break
		}
		d := i + k // the delimiter
		i = d + 1
		if m, ok := parseMarker(s, d); ok {
			ms = append(ms, m)
		}
	}
	set := map[int]bool{}
	var bs []boundary
	var run []listMarker
	var kind byte
	flush := func() {
		// Letters and Roman numerals also follow names in prose ("Plan
		// A. … Plan B.", "Louis I. … Louis II."): a pair counts only
		// when the first one leads.
		if len(run) >= 2 && (kind == markNum || run[0].lead || len(run) >= 3) {
			label, lead := runLabel(s, run)
			if label != "" && !lead {
				run = run[:0] // numbered references in prose: "see Table 1. … Table 2."
				return
			}
			for k, m := range run {
				set[m.pos] = true
				if k == 0 {
					continue
				}
				end := m.pos
				if label != "" {
					end = tokenStart(s, backSpace(s, m.pos)) // "… the box. | Step 2. Remove …"
				}
				// Back over a bullet before the marker: "• 2. …", "⁃10. …".
				if k := backSpace(s, end); k > 0 {
					r, n := runeBefore(s, k)
					if p, _ := runeBefore(s, k-n); isBulletGlyph(r) && (k == n || isSpace(p)) {
						end = k - n
					}
				}
				next := end
				end = backSpace(s, end)
				if end > 0 && !continuesItems(s, end, next) {
					bs = append(bs, boundary{end: end, next: next, score: 0.75, newlines: strings.Count(s[end:next], "\n")})
				}
			}
		}
		run = run[:0]
	}
	for _, m := range ms {
		if m.lead {
			set[m.pos] = true
		}
		if n := len(run); n > 0 && m.delim == run[n-1].delim && m.value(kind) == run[n-1].value(kind)+1 {
			run = append(run, m)
			continue
		}
		flush()
		if k, ok := m.first(); ok {
			kind = k
			run = append(run, m)
		}
	}
	flush()
	return set, bs
}

// continuesItems reports whether the list item ending at byte end of s runs
// on into the next one as an enumeration inside a sentence does: the item
// ends with a comma or semicolon ("for (a) banks, (b) funds"), or the gap
// holds no line break and the item ends with a coordinating conjunction
// ("(b) funds and (c) towns").
func continuesItems(s string, end, next int) bool {
	r, _ := runeBefore(s, end)
	if r == ',' || r == ';' || r == '،' || r == '、' {
		return true
	}
	return !strings.Contains(s[end:next], "\n") && itemJoiners[strings.ToLower(prevToken(s, end))]
}

// itemJoiners are coordinating conjunctions that join the last two items of
// an enumeration, in the languages with built-in knowledge.
var itemJoiners = words2(`and or und oder et ou y e o u i и или en of og eller`)

// A listMarker is one list marker candidate: its value read as a number, a
// letter (a = 1) and a Roman numeral, whichever apply (0 when not).
type listMarker struct {
	pos                int  // byte offset of the marker (of "(" in "(2)")
	num, letter, roman int  // values; 0 = not of that kind
	upper              bool // letters and Roman numerals: upper case
	delim              byte // '.', ')', ']' for ".)", 'P' for "(…)"
	lead               bool // starts the text or a line, or follows a colon, stop or bullet
}

// Marker kinds, as passed to listMarker.value.
const (
	markNum    = 'd'
	markLetter = 'a'
	markRoman  = 'i'
)

func (m listMarker) value(kind byte) int {
	switch kind {
	case markNum:
		return m.num
	case markLetter:
		return m.letter
	case markRoman:
		return m.roman
	}
	return 0
}

// first reports the kind of sequence m can start: any kind whose value is
// 1, else (for a leading marker) its main kind: a number, a Roman numeral
// of two or more letters, a letter.
func (m listMarker) first() (byte, bool) {
	switch {
	case m.num == 1:
		return markNum, true
	case m.letter == 1:
		return markLetter, true
	case m.roman == 1:
		return markRoman, true
	case !m.lead:
		return 0, false
	case m.num > 0:
		return markNum, true
	case m.roman > 0 && m.letter == 0:
		return markRoman, true
	case m.letter > 0:
		return markLetter, true
	}
	return 0, false
}

// parseMarker reads a list marker ending with the delimiter at byte d of s
// ("." or ")"): 1-2 digits, one ASCII letter or a Roman numeral of up to
// five letters, after a space, a bullet or the start of the text, wrapped
// in parentheses or followed by ".", ")" or ".)", then a space.
func parseMarker(s string, d int) (listMarker, bool) {
	m := listMarker{delim: s[d]}
	end := d + 1
	if m.delim == '.' && end < len(s) && s[end] == ')' {
		m.delim, end = ']', end+1
	}
	if end >= len(s) || s[end] != ' ' {
		return m, false
	}
	st := d
	for st > 0 && d-st < 5 && isASCIIAlnum(s[st-1]) {
		st--
	}
	w := s[st:d]
	switch {
	case w == "" && digitBefore(s, d) >= 0:
		// Digits of another script: Persian "۱. … ۲.", Arabic "١) … ٢)",
		// Devanagari "१. … २.".
		for st > 0 && d-st < 8 {
			r, n := runeBefore(s, st)
			if digitValue(r) < 0 {
				break
			}
			st -= n
		}
		for k := st; k < d; {
			r, n := runeAt(s, k)
			m.num = m.num*10 + digitValue(r)
			k += n
		}
		if m.num > 99 {
			return m, false
		}
	case w == "":
		// A Cyrillic or Greek letter: "а) … б) …", "α. … β. …".
		r, n := runeBefore(s, d)
		v := alphabetIndex(unicode.ToLower(r))
		if v == 0 {
			return m, false
		}
		if d-n > 0 {
			if p, _ := runeBefore(s, d-n); unicode.IsLetter(p) || unicode.IsDigit(p) {
				return m, false
			}
		}
		st, m.letter, m.upper = d-n, v, unicode.IsUpper(r)
	case allDigits(w):
		if len(w) > 2 {
			return m, false
		}
		for _, c := range []byte(w) {
			m.num = m.num*10 + int(c-'0')
		}
	default:
		low := strings.ToLower(w)
		if w != low && w != strings.ToUpper(w) {
			return m, false // mixed case: a word, not a marker
		}
		m.upper = w != low
		if len(w) == 1 {
			if c := low[0]; c >= 'a' && c <= 'z' {
				m.letter = int(c-'a') + 1
			} else {
				return m, false
			}
		}
		m.roman = romanValue(low)
		if m.letter == 0 && m.roman == 0 {
			return m, false
		}
	}
	if w := strings.ToLower(wordAt(s, end+1)); m.delim == '.' && m.num > 0 && (months[w] || monthNames[w] || monthAbbrev[w]) {
		return m, false // a date, not an item: "1. Januar … 2. Januar"
	}
	if m.delim == ')' && st > 0 && s[st-1] == '(' {
		st--
		m.delim = 'P'
	}
	if st > 0 {
		if r, _ := runeBefore(s, st); !isSpace(r) && !isBulletGlyph(r) {
			return m, false
		}
	}
	m.pos = st
	m.lead = leads(s, st)
	return m, true
}

// digitValue returns the value of a decimal digit of another script
// (Arabic-Indic, Persian, Devanagari, Bengali, Myanmar, Thai, full width),
// or -1.
func digitValue(r rune) int {
	for _, zero := range []rune{0x660, 0x6F0, 0x966, 0x9E6, 0x1040, 0xE50, 0xFF10} {
		if r >= zero && r <= zero+9 {
			return int(r - zero)
		}
	}
	return -1
}

// digitBefore returns the value of the digit of another script that ends
// just before byte d of s, or -1.
func digitBefore(s string, d int) int {
	if d == 0 {
		return -1
	}
	r, _ := runeBefore(s, d)
	return digitValue(r)
}

func isASCIIAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// romanValue returns the value of the lower-case Roman numeral w between 1
// and 39 as list numbering writes it (i … xxxix), or 0.
func romanValue(w string) int {
	v := 0
	for len(w) > 0 && w[0] == 'x' {
		v += 10
		w = w[1:]
	}
	if v > 30 {
		return 0
	}
	for k, u := range romanUnits {
		if w == u {
			return v + 9 - k
		}
	}
	if w == "" && v > 0 {
		return v
	}
	return 0
}

// romanUnits are the Roman numerals 9 down to 1.
var romanUnits = [...]string{"ix", "viii", "vii", "vi", "v", "iv", "iii", "ii", "i"}

// enumeratorEnd returns the end of the item number starting at byte i of
// s, or -1 if none starts there: a number in ASCII or another script's
// digits, in Chinese numerals ("一", "十二") or circled ("①"), optionally in
// brackets, followed by the delimiter of its script: "1、", "一、", "（1）",
// "(2)", "3）", "4．", and, before a space, a script's full stop used as
// the period of an item number (Urdu "1۔", Burmese "၁။", Devanagari "१।",
// Ethiopic "1።"). Items of ASCII digits with "." or ")" are left to
// listMarkers, which wants a run of them.
func enumeratorEnd(s string, i int) int {
	j := i
	r, n := runeAt(s, j)
	bracket := r == '(' || r == '（'
	if bracket {
		j += n
	}
	digits := 0
	for j < len(s) && digits < 4 {
		r, n = runeAt(s, j)
		if !unicode.IsDigit(r) && !strings.ContainsRune("一二三四五六七八九十百", r) && (r < '①' || r > '⑳') {
			break
		}
		digits++
		j += n
	}
	if digits == 0 || digits > 3 || j >= len(s) {
		return -1
	}
	r, n = runeAt(s, j)
	r2, _ := runeAt(s, j+n)
	switch {
	case bracket:
		if r != ')' && r != '）' {
			return -1
		}
	case r == '、' || r == '）' || r == '．':
	case (r == '۔' || r == '။' || r == '।' || r == '።') && r2 == ' ':
	default:
		return -1
	}
	if j+n >= len(s) || isSpace(r2) && strings.ContainsRune("、）．", r) {
		return -1
	}
	return j + n
}

// isBulletGlyph reports whether r is a character used only (or almost
// only) to mark list items: round, square and triangular bullets, hyphen
// bullets, arrows and check marks. Hyphens, dashes and asterisks, which
// also join and separate words, are not among them.
func isBulletGlyph(r rune) bool {
	switch r {
	case '•', '◦', '▪', '▫', '‣', '⁃', '○', '●', '■', '□', '◆', '◇', '❖', '♦', '➢', '➤', '►', '▶', '▸', '✓', '✔', '✗', '✘', '☐', '☑', '☒', '❯', '·', '∙':
		return true
	}
	return false
}

// bulletBoundaries finds list items run together on one line, each opened
// by the same bullet glyph: "• eggs • flour • sugar". A glyph that opens a
// word (after white space or at the start of the text) at least twice
// starts a unit at each occurrence after the start of the text. The middle
// dot, also a word separator, counts only with a space on both sides.
func bulletBoundaries(s string) []boundary {
	var seen map[rune][]int
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != 0xE2 && c != 0xC2 {
			continue // every bullet glyph is encoded E2 xx xx, or C2 B7 (·)
		}
		r, _ := runeAt(s, i)
		if !isBulletGlyph(r) {
			continue
		}
		if i > 0 {
			if p, _ := runeBefore(s, i); !isSpace(p) {
				continue
			}
		}
		n := utf8.RuneLen(r)
		if nr, _ := runeAt(s, i+n); i+n >= len(s) || (r == '·' || r == '∙') && nr != ' ' {
			continue
		}
		if seen == nil {
			seen = map[rune][]int{}
		}
		seen[r] = append(seen[r], i)
	}
	var bs []boundary
	for _, ps := range seen {
		if len(ps) < 2 {
			continue
		}
		for _, p := range ps {
			end := backSpace(s, p)
			if end == 0 {
				continue
			}
			bs = append(bs, boundary{end: end, next: p, score: 0.8, newlines: strings.Count(s[end:p], "\n")})
		}
	}
	return bs
}

func clamp01(x float64) float64 {
	switch {
	case x < 0:
		return 0
	case x > 1:
		return 1
	}
	return x
}

// prevToken returns the run of non-space characters ending at byte i,
// without leading opening quotes or brackets.
func prevToken(s string, i int) string {
	ts := tokenStart(s, i)
	tok := s[ts:i]
	for tok != "" {
		r, n := runeAt(tok, 0)
		if !isOpener(r) {
			break
		}
		tok = tok[n:]
	}
	return tok
}

func allDigits(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return w != ""
}

// plainScore scores a definite stop (one that follows a closing bracket) by
// what follows it alone.
func (sc *scanner) plainScore(next int) float64 {
	k := next
	for k < len(sc.s) {
		r, n := runeAt(sc.s, k)
		if !isOpener(r) {
			break
		}
		k += n
	}
	r, _ := runeAt(sc.s, k)
	if unicode.IsLower(r) {
		return 0.2
	}
	return 0.9
}

// isRoman reports whether w is an upper-case Roman numeral.
func isRoman(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if !strings.ContainsRune("IVXLCDM", r) {
			return false
		}
	}
	return true
}

// leads reports whether byte i of s starts the text, a line, or follows a
// stop or a bullet: where a list marker may stand.
func leads(s string, i int) bool {
	k := i
	for k > 0 {
		r, n := runeBefore(s, k)
		if r == '\n' {
			return true
		}
		if !isSpace(r) {
			switch r {
			case '?', '!', '-', '*', ':':
				return k < i
			}
			if isBulletGlyph(r) {
				return true
			}
			return false
		}
		k -= n
	}
	return true
}

// followedByLower reports whether the rune after the one at byte k of s is
// lower case: "Today" after a missing space, not "J." in "Y!J.".
func followedByLower(s string, k int) bool {
	_, n := runeAt(s, k)
	r, _ := runeAt(s, k+n)
	return unicode.IsLower(r)
}

// isEra reports whether the tokens prev and tok (without the final period)
// spell a two-part abbreviation of an era or a time of day that may end a
// sentence: "a. C.", "d. C.", "н. э.", Spanish "p. m.".
// abbreviationAt reports whether the word after the white space at byte i
// is a short abbreviation (at most three letters and a period): the second
// half of an era after a number, "3300 v. Chr.", "700 a. C.", "49 d. C.".
func (sc *scanner) abbreviationAt(i int) bool {
	i = skipSpace(sc.s, i)
	w := wordAt(sc.s, i)
	if w == "" || runeLen(w) > 3 || !allLetters(w) {
		return false
	}
	r, _ := runeAt(sc.s, i+len(w))
	return r == '.'
}

func isEra(prev, tok string) bool {
	switch prev + " " + tok {
	case "a. C", "d. C", "н. э", "a. D", "av. J", "ap. J", "a. m", "p. m":
		return true
	}
	return false
}

// colon scores a colon followed by a capitalised word, which in English web
// text often ends a salutation or a heading ("Hi David: Thought you …").
func (sc *scanner) colon(i int) (boundary, bool) {
	s := sc.s
	next, newlines := spaceRun(s, i+1)
	if next == i+1 || next >= len(s) {
		return boundary{}, false
	}
	r, _ := runeAt(s, next)
	if !unicode.IsUpper(r) || !followedByLower(s, next) {
		return boundary{}, false
	}
	w := wordAt(s, next)
	score := 0.2 // below the default threshold: a candidate for lower ones and for cues
	if sc.start[strings.ToLower(w)] {
		score = 0.3
		// After a whole clause, a colon before what reads as a sentence of
		// its own (a starter, then a lower-case word) ends the first: "…
		// legitimate forms of a political party: On the same day …". A
		// label ("Results: In AAA") or a title ("Remedies: The Old English")
		// does not.
		if n, ok := nextSpan(s, next+len(w)); ok && startsLower(s, n.a) && clauseWords(s, i, 6) >= 6 {
			score = 0.4
		}
	}
	if newlines > 0 {
		score = 0.7
	}
	return boundary{end: i + 1, next: next, score: score, newlines: newlines}, true
}

// months are month names and abbreviations that follow a day number with a
// period in German-style dates.
var months = words2(`januar jänner jän jan februar feber feb märz mär april apr mai juni jun juli jul august aug september sep sept oktober okt november nov dezember dez
	januára februára marca apríla mája júna júla augusta septembra októbra novembra decembra
	ledna února března dubna května června července srpna září října listopadu prosince`)

// exclaimNames are names written with an exclamation mark.
var exclaimNames = words2(`Yahoo Jeopardy Wham Oklahoma`)

// backSpace returns the offset of the whitespace run ending at byte i.
func backSpace(s string, i int) int {
	for i > 0 {
		r, n := runeBefore(s, i)
		if !isSpace(r) {
			break
		}
		i -= n
	}
	return i
}

func isDash(r rune) bool { return r == '-' || r == '—' || r == '–' }

// dashThenLower reports whether the dash at byte k of s is followed by a
// space and a lower-case word, as a dialogue attribution is.
func dashThenLower(s string, k int) bool {
	for k < len(s) {
		r, n := runeAt(s, k)
		if !isDash(r) {
			break
		}
		k += n
	}
	for k < len(s) && s[k] == ' ' {
		k++
	}
	r, _ := runeAt(s, k)
	return unicode.IsLower(r)
}

// footnote returns the end of a footnote reference at byte j of s, just
// after a stop that starts at byte stop, or j when there is none: "[12]",
// or up to four numbers of 1-3 digits ("11 12", "3,4") directly after a
// stop that follows a word or bracket and that are followed by a space and
// a capital.
func footnote(s string, j, stop int) int {
	if j < len(s) && s[j] == '[' {
		k := j + 1
		for k < len(s) && k-j <= 4 && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j+1 && k < len(s) && s[k] == ']' {
			return k + 1
		}
		return j
	}
	// One to four numbers of 1-3 digits, apart by a space or a comma:
	// "cold.11 12 Take", "cold.3,4 The".
	k := j
	for g := 0; g < 4; g++ {
		d := k
		for k < len(s) && k-d < 3 && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == d {
			if g == 0 {
				return j
			}
			k = d - 1 // back over the separator
			break
		}
		if k+1 < len(s) && (s[k] == ' ' || s[k] == ',') && s[k+1] >= '0' && s[k+1] <= '9' {
			k++
			continue
		}
		break
	}
	if k+1 >= len(s) || s[k] != ' ' || s[k+1] < 'A' || s[k+1] > 'Z' {
		return j
	}
	if p, _ := runeBefore(s, stop); !(unicode.IsLower(p) || p == ')') || s[stop] != '.' || j != stop+1 && s[j-1] != ')' {
		return j
	}
	return k
}

// afterReference reports whether the number starting at byte ts follows a
// numbered reference, abbreviated ("S. 5", "Nr. 12") or written out
// ("Seite 5", "Kapitel 3"): a cardinal, which a period after it does not
// make an ordinal.
func (sc *scanner) afterReference(ts int) bool {
	k := backSpace(sc.s, ts)
	if k == ts || k == 0 {
		return false
	}
	w := strings.ToLower(prevToken(sc.s, k))
	if stem, ok := strings.CutSuffix(w, "."); ok {
		// The language guessed, another language's reference counts:
		// Swedish "kl. 9. Kom" guessed as German.
		return sc.abbr[stem] == abbrNum || extKind(sc.lang, stem, false) == abbrNum || sc.auto && anyNumRef[stem]
	}
	return referenceNouns[w]
}

// referenceNouns are the written-out words for page, chapter, section,
// paragraph, figure, table, volume, number and article of the languages
// with built-in knowledge, lower case.
var referenceNouns = words2(`page pages chapter section paragraph figure table volume number article part
	seite seiten kapitel abschnitt absatz abbildung tabelle band nummer artikel paragraph paragraf teil anhang
	página capítulo sección párrafo figura tabla volumen número artículo parte
	chapitre paragraphe tableau numéro article partie
	pagina capitolo sezione paragrafo tabella volume numero articolo
	side kapitel afsnit figur tabel bind nummer artikel
	страница глава раздел рисунок таблица том номер статья часть
	line lines note notes step item clause
	satz zeile zeilen spalte ziffer anlage randnummer fußnote schritt punkt
	stykke linje punkt note bilag
	línea nota paso ligne note étape riga nota passo`)

// isClockOrScore reports whether tok is a time or a score: one or two
// digits, a colon, two digits or one ("10:30", "2:1", "3:0").
func isClockOrScore(tok string) bool {
	a, b, ok := strings.Cut(tok, ":")
	return ok && len(a) >= 1 && len(a) <= 2 && len(b) >= 1 && len(b) <= 2 && allDigits(a) && allDigits(b)
}

// gluedNumber reports whether a number token tok, directly followed by a
// period and the capitalised word next with no space between, may end a
// sentence that the next one is glued to: "in 2019.The", "costs 5.Then",
// "bought 1,000.That", "compró 1.000.Eso". The number is digits with
// grouping or decimal separators (and a currency or per-cent sign), ending
// in a digit. A month name after it makes a date ("3.Juni"); in German a
// plain one- or two-digit number with a period is an ordinal ("2.Liga"),
// unless a numbered reference precedes it ("Abb. 3.Dann"). ts is the
// offset of tok in the text.
func (sc *scanner) gluedNumber(ts int, tok, next string) bool {
	tok = strings.TrimLeft(tok, "$€£¥")
	if tok == "%" || tok == "‰" {
		// A per-cent sign spaced off its number: "del 3-4 %.Nadie".
		k := backSpace(sc.s, ts)
		p := prevToken(sc.s, k)
		return k < ts && p != "" && p != tok && sc.gluedNumber(k-len(p), p, next)
	}
	if a, b, ok := cutRange(tok); ok {
		// A score or a range of two numbers: "terminó 3-1.Los", "2–1.Fansen".
		// Its second half is no ordinal: a range of ordinals has a period
		// after both ("1.–3. Klasse").
		r, _ := runeBefore(b, len(b))
		return isNumber(a) && isNumber(b) && !strings.ContainsAny(a+b, "/#°-+:") && (unicode.IsDigit(r) || r == '%') &&
			!months[strings.ToLower(next)] && !monthNames[strings.ToLower(next)]
	}
	if tok == "" || !isNumber(tok) || strings.ContainsAny(tok, "/#°-+") || strings.Contains(tok, ":") && !isClockOrScore(tok) {
		return false
	}
	if r, _ := runeBefore(tok, len(tok)); !unicode.IsDigit(r) && r != '%' {
		return false
	}
	if months[strings.ToLower(next)] || monthNames[strings.ToLower(next)] {
		return false
	}
	if (sc.lang == "de" || sc.lang == "da") && len(tok) <= 2 && allDigits(tok) && !sc.afterReference(ts) {
		return false
	}
	return true
}

// cutRange splits a score or a range written as two numbers joined by one
// hyphen or en dash ("3-1", "1990–1995") into its halves; a leading sign
// or a third part ("-3", "2024-03-05") is no range.
func cutRange(tok string) (a, b string, ok bool) {
	i := strings.IndexAny(tok, "-–")
	if i <= 0 {
		return "", "", false
	}
	_, n := utf8.DecodeRuneInString(tok[i:])
	a, b = tok[:i], tok[i+n:]
	if b == "" || strings.ContainsAny(b, "-–") || !unicode.IsDigit(rune(b[0])) {
		return "", "", false
	}
	return a, b, true
}

// monthNames are month names of the languages with built-in knowledge
// besides German (see months), lower case: a number glued to one by a
// period is a date, not a sentence end.
var monthNames = words2(`january february march april may june july august september october november december
	enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre
	janvier février mars avril mai juin juillet août septembre octobre novembre décembre
	gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre
	janeiro fevereiro março maio junho julho setembro outubro novembro dezembro`)

// gluedWord reports whether tok, a word directly followed by a period and
// a capitalised word with no space between, may end a sentence: a word of
// three letters or more ending in lower case ("home.Then"), or of two
// letters in lower case that is no abbreviation ("an.Das", "it.The"; not
// "z.B", "ca.").
func (sc *scanner) gluedWord(tok string) bool {
	switch n := runeLen(tok); {
	case n >= 3:
		return endsLowerWord(tok)
	case n == 2:
		return endsLowerWord(tok) && tok == strings.ToLower(tok) && sc.abbr[tok] == abbrNone && extKind(sc.lang, tok, true) == abbrNone && !sc.learned[tok] && !cldrKnows(sc.lang, tok)
	}
	return false
}

// gluedCaseless reports whether tok, a word of a script without case
// directly followed by a period and the next word, may end a sentence: it
// has three letters or more (with their combining marks; two in Arabic
// script) and no period inside, and is no abbreviation ("ق.م", "कि.मी",
// "डॉ" stay).
func (sc *scanner) gluedCaseless(tok string) bool {
	least := 3
	if r, _ := runeAt(tok, 0); unicode.Is(unicode.Arabic, r) {
		least = 2 // Arabic script abbreviates to single letters ("ق.م"); "شد.همه" is a verb
	}
	if runeLen(tok) < least || strings.ContainsRune(tok, '.') || sc.abbr[tok] != abbrNone || extKind(sc.lang, tok, false) != abbrNone {
		return false
	}
	for i, r := range tok {
		if i == 0 && (!unicode.IsLetter(r) || unicode.IsUpper(r) || unicode.IsLower(r)) {
			return false
		}
		if !unicode.IsLetter(r) && !unicode.IsMark(r) {
			return false
		}
	}
	return true
}

// caselessInitial reports whether tok (at byte ts, followed by a period) is
// one of a run of initials in a script without case, where a letter's name
// takes one or two letters ("बी.", "आर.", "एच."): a token of at most two
// letters (with their vowel signs) next to another such token with its
// period, before or after it.
func (sc *scanner) caselessInitial(ts int, tok string) bool {
	short := func(w string) bool {
		r, _ := runeAt(w, 0)
		n := letterCount(w)
		return n >= 1 && n <= 2 && unicode.IsLetter(r) && !unicode.IsUpper(r) && !unicode.IsLower(r) && !isCJK(r) && runeLen(letterRun(w, 0)) == runeLen(w)
	}
	if !short(tok) {
		return false
	}
	if p, ok := strings.CutSuffix(prevToken(sc.s, max(0, ts-1)), "."); ok && short(p) {
		return true
	}
	k := skipSpace(sc.s, ts+len(tok)+1)
	w := letterRun(sc.s, k)
	return w != "" && strings.HasPrefix(sc.s[k+len(w):], ".") && short(w)
}

// bracketedSentence reports whether the text before byte end closes with
// a bracket whose opening one starts a sentence (at the start of the text,
// of a line, or after a stop): the brackets hold a sentence of their own,
// "（詳しくは後述。）", "(See below.)".
func bracketedSentence(s string, end int) bool {
	r, n := runeBefore(s, end)
	if r != '）' && r != ')' {
		return false
	}
	depth := 0
	for k := end - n; k > 0; {
		q, m := runeBefore(s, k)
		k -= m
		switch q {
		case '）', ')':
			depth++
		case '（', '(':
			if depth > 0 {
				depth--
				continue
			}
			p, _ := runeBefore(s, backSpace(s, k))
			return backSpace(s, k) == 0 || p == '\n' || isStop(p) || isPeriod(p)
		case '\n':
			return false
		}
	}
	return false
}

// letterCount counts the runes of w that are not combining marks: the
// letters of a word whose vowels are signs ("पी" has one).
func letterCount(w string) int {
	n := 0
	for _, r := range w {
		if !unicode.IsMark(r) {
			n++
		}
	}
	return n
}

// letterRun returns the run of letters and combining marks starting at
// byte i of s: a word of a script whose vowels are marks ("सगळे").
func letterRun(s string, i int) string {
	j := i
	for j < len(s) {
		r, n := runeAt(s, j)
		if !unicode.IsLetter(r) && !unicode.IsMark(r) {
			break
		}
		j += n
	}
	return s[i:j]
}

// endsLowerWord reports whether w is all letters and ends with a lower-case
// one: "world", "Tuesday".
func endsLowerWord(w string) bool {
	r, _ := runeBefore(w, len(w))
	return allLetters(w) && unicode.IsLower(r)
}

// isAddress reports whether the run of non-space characters around byte i of
// s looks like an e-mail address, a URL or a domain.
func isAddress(s string, i int) bool {
	a := tokenStart(s, i)
	b := tokenEnd(s, i)
	t := s[a:b]
	if strings.ContainsAny(t, "@/\\") || strings.Contains(t, "www.") || strings.Contains(t, "://") {
		return true
	}
	// A domain whose top level is written with a capital: "Newsfeeds.Com".
	k := strings.LastIndexByte(t, '.')
	return k > 0 && topLevels[strings.ToLower(strings.TrimRight(t[k+1:], ".,;:!?)"))]
}

// topLevels are generic top-level domains that are not words.
var topLevels = words2(`com org net edu gov biz`)

// countryDomains are frequent country-code top-level domains, lower case.
var countryDomains = words2(`de pt fr es it nl uk ru pl cz sk dk se no fi hu ro tr gr bg ua kz jp cn in br ar mx ca au nz ch at be ie io co us eu am ir pk`)

// isDomain reports whether w (lower case, no final period) is a short
// domain name: a name of three letters or more and a top-level domain,
// "bbc.com", "loja.pt" (not "sig.ra" or "bl.a").
func isDomain(w string) bool {
	j := strings.LastIndexByte(w, '.')
	if j < 3 {
		return false
	}
	return topLevels[w[j+1:]] || countryDomains[w[j+1:]]
}

// wordEnds reports whether the word starting at byte k of s is followed by
// a space, the end of the text, or a period and then one of those: "Today
// is", "Mr. Smith", not "Com, Uncensored".
func wordEnds(s string, k int) bool {
	k += len(wordAt(s, k))
	if k < len(s) && s[k] == '.' {
		k++
	}
	r, _ := runeAt(s, k)
	return k >= len(s) || isSpace(r)
}

// Scores of the Arabic comma: it ends a unit in Arabic prose, except
// between the items of an enumeration.
const (
	arabicCommaScore = 0.5
	arabicListScore  = 0.1
)

// arabicComma scores the Arabic comma (U+060C) at byte i. Arabic prose
// strings clauses together with it where English would use a full stop, so
// it is a boundary, weaker than a stop. When the next word is itself
// followed by a comma, the comma separates the items of an enumeration
// ("التفاح، والموز، …") and is not a boundary. A comma without a following
// space ("3،5") is no candidate.
func (sc *scanner) arabicComma(i int) (boundary, bool) {
	s := sc.s
	end := i + len("،")
	next, newlines := spaceRun(s, end)
	if next == end || next >= len(s) {
		return boundary{}, false
	}
	// The next word, up to white space.
	w := tokenEnd(s, next)
	score := arabicCommaScore
	if strings.HasSuffix(s[next:w], "،") || clauseWords(s, i, 2) < 2 {
		// An enumeration ("التفاح، والموز، …"), or one word before the
		// comma: an answer or a vocative ("نعم، سآتي", "يا أحمد، تعال"),
		// not a clause of its own.
		score = arabicListScore
	}
	if sc.inQuote() {
		score *= 0.35
	}
	if newlines >= 2 {
		score = certain
	} else if newlines == 1 {
		score += (1 - score) * 0.5
	}
	return boundary{end: end, next: next, score: score, newlines: newlines}, true
}

// onlyStops reports whether t is made of question and exclamation marks
// only: punctuation spaced off the sentence it ends ("really ? !").
func onlyStops(t string) bool {
	for _, r := range t {
		if r != '?' && r != '!' && r != '？' && r != '！' {
			return false
		}
	}
	return t != ""
}

// isWord reports whether the lower-case token w, listed in the
// abbreviation table, is an ordinary word of the scanner's language
// (langWords, or a frequent sentence starter of a language other than
// English that its own table does not list).
func (sc *scanner) isWord(w string) bool {
	if langWords[sc.lang][w] {
		return true
	}
	return sc.lang != "en" && starters[sc.lang][w] && langAbbrev[sc.lang][w] == abbrNone
}

// listAlphabets are the letters of the Cyrillic and Greek alphabets in the
// order lists number items with them (Russian lists skip ё, й, ъ, ы and ь).
var listAlphabets = [...]string{"абвгдежзиклмнопрстуфхцчшщэюя", "αβγδεζηθικλμνξοπρστυφχψω"}

// alphabetIndex returns the position (from 1) of the lower-case letter r in
// one of listAlphabets, or 0.
func alphabetIndex(r rune) int {
	if r < 0x370 {
		return 0
	}
	for _, a := range listAlphabets {
		k := 0
		for _, c := range a {
			k++
			if c == r {
				return k
			}
		}
	}
	return 0
}

// isDayMonth reports whether tok is a day and a month written with
// periods and no year, as German writes dates: "31.12", "1.5".
func isDayMonth(tok string) bool {
	d, m, ok := strings.Cut(tok, ".")
	if !ok || len(d) == 0 || len(d) > 2 || len(m) == 0 || len(m) > 2 || !allDigits(d) || !allDigits(m) {
		return false
	}
	dv, mv := atoi2(d), atoi2(m)
	return dv >= 1 && dv <= 31 && mv >= 1 && mv <= 12
}

// atoi2 returns the value of a string of one or two ASCII digits.
func atoi2(w string) int {
	v := 0
	for _, c := range []byte(w) {
		v = v*10 + int(c-'0')
	}
	return v
}

// continues reports whether line ends with a word that cannot end a
// sentence in the scanner's language (lineContinuers): a line break after
// it wraps the sentence.
func (sc *scanner) continues(line string) bool {
	set := lineContinuers[sc.lang]
	if set == nil {
		return false
	}
	k := strings.LastIndexByte(line, ' ') + 1
	w := line[k:]
	return isLowerWord(w) && set[w]
}

// greetingLine reports whether line, starting at byte start of s, is
// the salutation of a letter: it opens the text or a paragraph, has at most
// six words and starts with a greeting of any language (salutations).
func (sc *scanner) greetingLine(s string, start int, line string) bool {
	if k := backSpace(s, start); k > 0 && strings.Count(s[k:start], "\n") < 2 {
		return false
	}
	f := strings.Fields(line)
	if len(f) == 0 || len(f) > 6 {
		return false
	}
	return salutations[strings.ToLower(strings.Trim(f[0], ",:!"))]
}

// salutations are the words that open the salutation of a letter or a
// mail, lower case: English, German, French, Spanish, Italian, Portuguese,
// Dutch, the Nordic languages, Polish, Czech, Slovak, Russian, Ukrainian.
var salutations = words2(`hi hello dear hey greetings
	hallo liebe lieber sehr guten moin servus
	bonjour bonsoir cher chère chers salut madame monsieur
	hola estimado estimada estimados querido querida buenos buenas
	ciao caro cara cari gentile gentili egregio salve buongiorno
	olá ola prezado prezada caros bom
	beste geachte hoi
	hej hei kære kæri bästa
	szanowny szanowna szanowni witam cześć drogi droga
	vážený vážená milý milá ahoj dobrý
	здравствуйте уважаемый уважаемая дорогой дорогая привет добрый шановний шановна вітаю`)

// lineContinuers are articles, prepositions and conjunctions, lower case,
// after which a sentence always goes on.
var lineContinuers = map[string]map[string]bool{
	"en": words2(`the a an and or nor of to in on at for from with by than whose`),
	"de": words2(`der die das den dem des ein eine einen einem einer eines und oder aber mit von vom zu zum zur für über unter durch gegen ohne um im am ins aus bei nach seit dass`),
	"fr": words2(`le la les un une des du de et ou mais à au aux en dans pour par sur avec sans sous chez entre`),
	"es": words2(`el la los las un una unos unas y o pero de del al en con por para sin sobre entre`),
	"it": words2(`il lo la i gli le un una uno e o ma di del della dei delle al alla in con per su tra fra`),
	"pt": words2(`o a os as um uma e ou mas de do da dos das em no na nos nas com por para sem sobre entre`),
	"nl": words2(`de het een en of maar van in op aan met voor naar door bij uit over`),
	"da": words2(`og eller men af med for på til fra om ved`),
	"ru": words2(`и в на с к по из за от до о об но или для без при через`),
}

// isTitleCase reports whether w is a capital followed by lower-case
// letters only: "Skt", "Dhr".
func isTitleCase(w string) bool {
	r, n := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) && n < len(w) && isLowerWord(w[n:])
}

// japaneseEndings are the polite sentence-final forms of Japanese verbs
// and the copula.
var japaneseEndings = [...]string{"ます", "ました", "ません", "です", "でした"}

// japaneseOpeners are conjunctions written in hiragana that open a
// sentence.
var japaneseOpeners = [...]string{"しかし", "でも", "そして", "また", "ただ", "なお", "それで", "だから", "ところが"}

// japaneseEnd scores the gap after a polite sentence-final form ending
// with the rune of n bytes at byte i ("…売っています", "…最悪でした") when
// no stop follows and the next sentence starts right after it, with a
// kanji or katakana word or a conjunction ("…でしたソフトバンク…",
// "…いますしかし…"): web text often drops the 。. A particle or any other
// hiragana after the form continues the sentence ("ますが", "ですね").
func (sc *scanner) japaneseEnd(i, n int) (boundary, bool) {
	s := sc.s
	end := i + n
	found := false
	for _, e := range japaneseEndings {
		if strings.HasSuffix(s[:end], e) {
			found = true
			break
		}
	}
	if !found || end >= len(s) {
		return boundary{}, false
	}
	next, newlines := spaceRun(s, end)
	if next >= len(s) {
		return boundary{}, false
	}
	r, _ := runeAt(s, next)
	ok := unicode.Is(unicode.Han, r) || unicode.Is(unicode.Katakana, r) && r != 'ー'
	for _, o := range japaneseOpeners {
		ok = ok || strings.HasPrefix(s[next:], o)
	}
	if !ok {
		return boundary{}, false
	}
	score := 0.5
	if newlines > 0 {
		score = 0.9
	}
	return boundary{end: end, next: next, score: score, newlines: newlines}, true
}

// clauseWords counts the words before byte i of s back to the start of its
// line or the previous stop, up to limit.
func clauseWords(s string, i, limit int) int {
	n, a := 0, i
	for n < limit {
		a = tokenStart(s, a)
		n++
		k := backSpace(s, a)
		if k == 0 || strings.IndexByte(s[k:a], '\n') >= 0 || endsWithStop(s[tokenStart(s, k):k]) {
			break
		}
		a = k
	}
	return n
}

// opensSentence reports whether the token at byte ts opens the text or
// follows a stop.
func (sc *scanner) opensSentence(ts int) bool {
	k := backSpace(sc.s, ts)
	return k == 0 || endsWithStop(prevToken(sc.s, k))
}

// letterLabel reports whether the word after the period at byte dot is a
// lettered label of a numbered reference: one capital letter other than
// the pronoun I, ending its word ("App. B.", "Fig. A shows", "Annex C,").
// Strict (a reference that is also a word of the language, opening a
// sentence: "No.", "App."), the letter must end its clause too ("App. B."
// but not "No. A man came").
func (sc *scanner) letterLabel(dot int, next string, strict bool) bool {
	r, n := utf8.DecodeRuneInString(next)
	if n != len(next) || !unicode.IsUpper(r) || r == 'I' {
		return false
	}
	k := skipSpace(sc.s, dot+1) + n
	if k >= len(sc.s) {
		return true
	}
	c, _ := runeAt(sc.s, k)
	if unicode.IsLetter(c) || unicode.IsDigit(c) {
		return false
	}
	return !strict || c != ' ' && c != '\n'
}

// initialAt reports whether the word after the period that follows tok
// (found at or after byte ts), a single letter of n bytes, is itself an
// initial: followed by a period.
func (sc *scanner) initialAt(ts int, tok string, n int) bool {
	k := strings.Index(sc.s[ts:], tok)
	if k < 0 {
		return false
	}
	k = skipSpace(sc.s, ts+k+len(tok)+1) + n
	return k < len(sc.s) && sc.s[k] == '.'
}

// runLabel returns the word that precedes every marker of a numbered run
// when it is the same capitalised word each time ("Step 1. … Step 2. …",
// "Question 1) … Question 2) …"), and whether the first label leads
// (starts the text or a line, or follows a stop or a colon): then the items
// start at the label, not at the number. A first label that does not lead
// makes references in prose ("see Table 1. … Table 2."), not list items. It returns "" when the
// markers have no common label.
func runLabel(s string, run []listMarker) (string, bool) {
	label, lead := "", true
	for _, m := range run {
		k := backSpace(s, m.pos)
		if k == m.pos || k == 0 {
			return "", false
		}
		a := tokenStart(s, k)
		w := strings.TrimSuffix(s[a:k], ".") // "Fig. 1. … Fig. 2."
		if !allLetters(w) || !isTitleCase(w) && !(len(w) > 1 && strings.ToUpper(w) == w) {
			return "", false
		}
		if label != "" && !strings.EqualFold(w, label) {
			return "", false
		}
		if label == "" && !leads(s, a) && !endsWithStop(prevToken(s, backSpace(s, a))) {
			lead = false
		}
		label = w
	}
	return label, lead
}

// amountBefore reports whether the two tokens before byte ts of s are a
// number and a unit ("10 h", "3 kg"), so that the token at ts follows an
// amount.
func amountBefore(s string, ts int) bool {
	unit := backSpace(s, ts)
	us := tokenStart(s, unit)
	if us == unit || unit-us > 4 || !allLetters(s[us:unit]) {
		return false
	}
	return isNumber(prevToken(s, backSpace(s, us)))
}

// bareNumberSentence reports whether a number of up to four digits with a
// period starts at byte i of s (after white space on the same line) and
// ends a sentence there: the period is followed by white space and a
// capital, or ends the text ("4. Hij", "12."). A sentence is never a bare
// number, so a stop before one is no sentence end.
func bareNumberSentence(s string, i int) bool {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	j := i
	for j < len(s) && isDigitByte(s[j]) {
		j++
	}
	if j == i || j-i > 4 || j >= len(s) || s[j] != '.' {
		return false
	}
	j++
	if j == len(s) {
		return true
	}
	k := j
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if k == j || k == len(s) {
		return k == len(s)
	}
	r, _ := runeAt(s, k)
	return unicode.IsUpper(r)
}

// hasVowel reports whether the lower-case word w has a vowel of the Latin
// alphabet; words of English all do, abbreviations such as "dvs", "bzw",
// "vgl" need none.
func hasVowel(w string) bool {
	return strings.ContainsAny(w, "aeiouyáàâäåæéèêëíìîïóòôöøõúùûüýœ")
}

// gluedEllipsis reports whether the ellipsis starting at byte i of sc.s is
// written against the last word of a clause of three words or more
// ("in a preferential terminal... I go"): such an ellipsis trails off a
// sentence before "I" as before any capital, where a spaced one (" . . .
// I", " ... I") more often marks words left out of one, and one after a
// word or two is a hesitation ("Well… I'm not sure").
func (sc *scanner) gluedEllipsis(i int) bool {
	p, _ := runeBefore(sc.s, i)
	return unicode.IsLetter(p) && (strings.HasPrefix(sc.s[i:], "...") || strings.HasPrefix(sc.s[i:], "…")) && clauseWords(sc.s, i, 3) >= 3
}
