package segment

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Word-gap candidates: boundaries where no stop and no line break mark the
// end of a unit. Web and e-mail text often loses its line breaks (a header
// line, a signature, a pasted table), so the structure of the tokens around
// a space is the only evidence left:
//
//   - a date-time stamp ("06/02/2001 10:53 AM") stands alone between a
//     sender's name and the message;
//   - an address (e-mail, URL) followed by a capitalised word ends a line;
//   - a rule ("-----", "=====") and a signature delimiter ("--" opening a
//     paragraph) stand alone;
//   - an emoticon after a word ends the unit when a capitalised word follows;
//   - a colon introducing a URL ("the link: http://…"), also when the URL
//     ends its line after a clause (not after a label: "Link to video:");
//   - a mail header label ("Subject:", "Sent by:") starts a unit;
//   - a sign-off ("Thanks,", "Best regards,") before a name, the name
//     before a lower-case word ("Thanks Kam | could you …"), a salutation
//     ("Louise,", "Hi Sara,") before a sentence, and a salutation ending
//     its line after the previous unit ("… provide. Sid | Vincent,"), in
//     English;
//   - a file name ending an attachment line ("image001.jpg 51K");
//   - a table pasted as one line: a row key ("EY4096.3") after a number,
//     when rows starting with such keys repeat;
//   - a clause opener written with a capital after a lower-case word
//     ("make a mold from that They sell these"), in English;
//   - a quotation broken off with a dash, then a capitalised word ("If
//     you please, sir--\" The Rabbit started").
//
// Each rule gives a fixed score; none depends on the threshold.

// Scores of the word-gap rules.
const (
	gapStamp       = 0.6  // around a date-time stamp
	gapAddress     = 0.5  // address, then a capitalised word
	gapRule        = 0.6  // around a rule line
	gapEmoticon    = 0.5  // emoticon, then a capitalised word
	gapColonURL    = 0.4  // "link: http://…"
	gapHeader      = 0.5  // before "Subject:" and the like
	gapSignoff     = 0.5  // "Thanks," | "Jeff"
	gapSalutation  = 0.5  // "Louise," | "There are …"
	gapStarter     = 0.4  // "… from that" | "They sell …"
	gapFile        = 0.5  // "Guaranty.doc" | "- REDLINE …"
	gapRow         = 0.5  // a table row after the previous one's last number
	gapWeak        = 0.25 // the same evidence with a lower-case word after it
	gapInterrupted = 0.6  // a quotation broken off with a dash: "sir--\"" | "The"
)

// span is a run of non-space characters: s[a:b].
type span struct{ a, b int }

// gapBoundaries returns the word-gap candidates of s. It visits the first
// token of each paragraph, and each token after a space (U+0020) that is
// not a lower-case word (nor follows a colon), so the common case costs a
// few byte comparisons. Tokens after a line break are left to lineBreak.
func (sc *scanner) gapBoundaries() []boundary {
	s := sc.s
	var out []boundary
	add := func(end, next int, score float64) {
		out = append(out, boundary{end: end, next: next, score: score, newlines: strings.Count(s[end:next], "\n")})
	}
	for a := skipSpace(s, 0); a < len(s); a = nextParagraph(s, a) {
		if isDigitByte(s[a]) {
			if end, ok := dateStamp(s, a); ok {
				stampEnd(s, end, add) // a stamp opening a paragraph
			}
		}
		if sc.lang == "en" {
			sc.paragraphOpening(span{a: a, b: tokenEnd(s, a)}, add)
		}
	}
	for i := 0; ; {
		sp := i
		for sp < len(s) && s[sp] != ' ' {
			sp++
		}
		if sp >= len(s) {
			break
		}
		i = sp + 1
		if i >= len(s) {
			break
		}
		c0 := s[i]
		if sp == 0 || c0 <= ' ' || c0 >= 'a' && c0 <= 'z' && s[sp-1] != ':' && s[sp-1] != ' ' {
			continue // inside a gap, or a lower-case word: no rule starts here
		}
		if c0 >= utf8.RuneSelf {
			if r, _ := runeAt(s, i); isSpace(r) {
				continue
			}
		}
		pe := backSpace(s, sp)
		if pe == 0 || strings.Count(s[pe:i], "\n") >= 2 {
			continue // the text or a paragraph starts here
		}
		pl := s[pe-1]
		if c0 >= 'a' && c0 <= 'z' && pl != ':' {
			continue
		}
		prev, cur := span{a: tokenStart(s, pe), b: pe}, span{a: i, b: tokenEnd(s, i)}
		p, t := s[prev.a:prev.b], s[cur.a:cur.b]
		upper := isUpperByte(c0)
		capCur := (upper || c0 >= 0x80) && capitalised(s, cur.a)
		en := sc.lang == "en"
		if isDigitByte(c0) {
			if end, ok := dateStamp(s, cur.a); ok {
				// After a name or an address the stamp is a header line;
				// after "on", "at" or any lower-case word it is prose.
				pr, _ := runeAt(p, 0)
				if (unicode.IsUpper(pr) || isAddressToken(p)) && !endsWithStop(p) && !anyStarter[strings.ToLower(p)] {
					add(prev.b, cur.a, gapStamp)
					stampEnd(s, end, add)
				} else if endsWithStop(p) {
					stampEnd(s, end, add)
				}
			}
		}
		switch {
		case isRuleByte(c0) && isRuleToken(t):
			// A rule before the text it frames: "guestbook | -----= Posted
			// via … =-----"; the closing rule stays with the banner.
			if !endsWithStop(p) && !ruleBefore(s, prev.b) {
				add(prev.b, cur.a, gapRule)
			}
		case isRuleByte(p[0]) && (isRuleToken(p) && !ruleAfter(s, cur.a) || p == "--" && opensParagraph(s, prev.a)):
			add(prev.b, cur.a, gapRule)
		case capCur && sc.lang != "de" && mayBeAddress(p) && isAddressToken(p):
			add(prev.b, cur.a, gapAddress)
		case capCur && (isEmoticon(p) || isEmojiToken(p) && !opensLine(s, prev.a)):
			add(prev.b, cur.a, gapEmoticon)
		case pl == ':' && len(p) > 1 && (c0 == 'h' || c0 == 'w') && isURLToken(t) && !isURLToken(p):
			// A URL standing alone between a colon and a new sentence:
			// "5 locations: http://a.net/ The latest …", not "The site is:
			// http://a.com. Please …".
			if n, ok := nextSpan(s, cur.b); ok && capitalised(s, n.a) && !endsWithStop(t) {
				add(prev.b, cur.a, gapColonURL)
				add(cur.b, n.a, gapColonURL)
			} else if endsLine(s, cur.b) && !endsWithStop(t) && !shortLabel(s, prev.b) {
				// The URL ends the line after a clause: "… will be fine:
				// http://…", not a label ("Link to video: http://…").
				add(prev.b, cur.a, gapColonURL)
			}
		case isFileName(p) && !startsLower(s, cur.a):
			add(prev.b, cur.a, gapFile)
		case upper && (strings.IndexByte(t, ':') >= 0 || t == "Sent") && isHeaderLabel(s, cur.a) && !endsWithStop(p) && pl != ',':
			add(prev.b, cur.a, gapHeader)
		case en && upper && isDigitByte(pl) && (isCode(p) || isNumber(p)) && signoffFirst[strings.TrimRight(t, ",.!")]:
			// A sign-off after the number ending a signature or table
			// line: "Fax: (713) 646-3490 | Thanks.", "-$ 166,960 | Thanks |
			// As seen below, …".
			add(prev.b, cur.a, gapSignoff)
			if n, ok := nextSpan(s, cur.b); ok && t == strings.TrimRight(t, ",.!") && clauseOpenerOrI(wordAt(s, n.a)) && followedByLowerWord(s, n.b) {
				add(cur.b, n.a, gapSignoff)
			}
		case en && upper && sc.labelSalutation(p, t, cur, add):
		case en && upper && clauseOpeners[t] && followedByLowerWord(s, cur.b) && loneName(s, p, cur):
			if k := backSpace(s, prev.a); k > 0 && (s[k-1] == ')' || s[k-1] == ']') && strings.IndexByte(s[k:prev.a], '\n') < 0 {
				add(k, prev.a, gapStarter) // "(… discussed) | Mark | As we"
			}
			add(prev.b, cur.a, gapStarter)
		case en && upper && len(t) <= 6 && clauseOpeners[t] && followedByLowerWord(s, cur.b) &&
			(isLowerWord(strings.TrimRight(p, "'’")) || isNumber(p) && isDigitByte(pl) || closesWord(p)):
			add(prev.b, cur.a, gapStarter)
		case en && t == "I" && followedByLowerWord(s, cur.b) && isDigitByte(pl) && isCode(p):
			// A code, phone number or date that ends a signature or header
			// line, then a sentence: "… 713/853-5025 EB4809 I am on board".
			add(prev.b, cur.a, gapStarter)
		case en && capCur && len(p) <= 7 && isChatTag(p):
			add(prev.b, cur.a, gapEmoticon) // "… mc donalds lol Fast food …"
		case upper && isDigitByte(pl) && isRowKey(t) && isNumber(p) && repeatedRows(s, cur):
			add(prev.b, cur.a, gapRow)
		case capCur && interrupted(p):
			add(prev.b, cur.a, gapInterrupted)
		case en && capCur && t[len(t)-1] == ',' && endsLine(s, cur.b) && sc.salutationLine(prev, cur):
			add(prev.b, cur.a, gapSalutation)
		}
		if en && upper && endsWithStop(p) {
			sc.signoff(cur, add)
		}
	}
	return out
}

// isCode reports whether t is an identifier, phone number or date written
// with digits and letters or separators ("EB4809", "853-5025", "4/14/00"),
// not a plain number ("10", "1,000"), which "I" may follow in a sentence
// ("At 10 I left").
func isCode(t string) bool {
	if isNumber(t) || !hasDigit(t) {
		return false
	}
	for _, r := range t {
		if !(unicode.IsDigit(r) || unicode.IsLetter(r) || r == '-' || r == '/') {
			return false
		}
	}
	return true
}

// skipSpace returns the offset of the first non-space rune at or after
// byte i of s.
func skipSpace(s string, i int) int {
	for i < len(s) {
		r, n := runeAt(s, i)
		if !isSpace(r) {
			break
		}
		i += n
	}
	return i
}

// tokenEnd returns the end of the run of non-space runes starting at byte
// i of s.
func tokenEnd(s string, i int) int {
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if c <= ' ' && isSpace(rune(c)) {
				break
			}
			i++
			continue
		}
		r, n := runeAt(s, i)
		if isSpace(r) {
			break
		}
		i += n
	}
	return i
}

// tokenStart returns the start of the run of non-space runes ending at
// byte i of s.
func tokenStart(s string, i int) int {
	for i > 0 {
		if c := s[i-1]; c < utf8.RuneSelf {
			if c <= ' ' && isSpace(rune(c)) {
				break
			}
			i--
			continue
		}
		r, n := runeBefore(s, i)
		if isSpace(r) {
			break
		}
		i -= n
	}
	return i
}

// nextParagraph returns the offset of the first token after the next blank
// line at or after byte i of s, or len(s).
func nextParagraph(s string, i int) int {
	for {
		k := strings.IndexByte(s[i:], '\n')
		if k < 0 {
			return len(s)
		}
		j, nl := i+k+1, 1
		for j < len(s) {
			r, n := runeAt(s, j)
			if !isSpace(r) {
				break
			}
			if r == '\n' {
				nl++
			}
			j += n
		}
		if nl >= 2 {
			return j
		}
		i = j
	}
}

// opensParagraph reports whether byte i of s starts the text or follows a
// blank line.
func opensParagraph(s string, i int) bool {
	k := backSpace(s, i)
	return k == 0 || strings.Count(s[k:i], "\n") >= 2
}

// stampEnd adds the boundary after a header's date-time stamp ending at
// byte end of s: strong before a capitalised word, weak before a
// lower-case one.
func stampEnd(s string, end int, add func(end, next int, score float64)) {
	n, ok := nextSpan(s, end)
	if !ok {
		return
	}
	switch r, _ := runeAt(s, n.a); {
	case unicode.IsUpper(r):
		add(end, n.a, gapStamp)
	case unicode.IsLetter(r):
		add(end, n.a, gapWeak)
	}
}

// nextSpan returns the token after the white space at byte i of s, if it
// is in the same paragraph.
func nextSpan(s string, i int) (span, bool) {
	a, nl := i, 0
	for a < len(s) {
		r, n := runeAt(s, a)
		if !isSpace(r) {
			break
		}
		if r == '\n' {
			nl++
		}
		a += n
	}
	if a >= len(s) || nl >= 2 || a == i {
		return span{}, false
	}
	return span{a: a, b: tokenEnd(s, a)}, true
}

// dateStamp reports whether a numeric date and a time start at byte i of s
// ("06/02/2001 10:53 AM", "2001-06-02 10:53"), and returns the end of the
// stamp.
func dateStamp(s string, i int) (int, bool) {
	j, groups := i, 0
	var sep byte
	for groups < 3 {
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == j || k-j > 4 {
			return 0, false
		}
		groups++
		j = k
		if groups == 3 {
			break
		}
		if j >= len(s) || (s[j] != '/' && s[j] != '-') || (sep != 0 && s[j] != sep) {
			return 0, false
		}
		sep = s[j]
		j++
	}
	if j >= len(s) || s[j] != ' ' {
		return 0, false
	}
	// The time: h:mm or hh:mm[:ss], then an optional AM/PM.
	k := j + 1
	d := k
	for k < len(s) && s[k] >= '0' && s[k] <= '9' {
		k++
	}
	if k == d || k-d > 2 || k+2 >= len(s) || s[k] != ':' || !isDigitByte(s[k+1]) || !isDigitByte(s[k+2]) {
		return 0, false
	}
	k += 3
	if k+2 < len(s) && s[k] == ':' && isDigitByte(s[k+1]) && isDigitByte(s[k+2]) {
		k += 3
	}
	if k+3 <= len(s) && s[k] == ' ' {
		if m := s[k+1 : k+3]; (m == "AM" || m == "PM" || m == "am" || m == "pm") && (k+3 == len(s) || isSpace(rune(s[k+3]))) {
			k += 3
		}
	}
	if k < len(s) && !isSpace(rune(s[k])) {
		return 0, false
	}
	return k, true
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

func isUpperByte(c byte) bool { return c >= 'A' && c <= 'Z' }

// isRuleByte reports whether c may make up a rule token.
func isRuleByte(c byte) bool {
	switch c {
	case '-', '=', '_', '*', '~', '#':
		return true
	}
	return false
}

// isRuleToken reports whether t is a horizontal rule: at least four of
// - = _ * ~ # and nothing else ("-----", "=====-----=").
func isRuleToken(t string) bool {
	if len(t) < 4 {
		return false
	}
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '-', '=', '_', '*', '~', '#':
		default:
			return false
		}
	}
	return true
}

// bannerSpan is how far a rule looks for another one framing the same
// banner ("-----= Posted via … =-----").
const bannerSpan = 120

// ruleBefore reports whether a rule token ends within bannerSpan bytes
// before byte i of s, on the same line.
func ruleBefore(s string, i int) bool {
	a := max(0, i-bannerSpan)
	if k := strings.LastIndexByte(s[a:i], '\n'); k >= 0 {
		a += k + 1
	}
	for f := range strings.FieldsSeq(s[a:i]) {
		if isRuleToken(f) {
			return true
		}
	}
	return false
}

// ruleAfter reports whether a rule token starts within bannerSpan bytes
// after byte i of s, on the same line.
func ruleAfter(s string, i int) bool {
	b := min(len(s), i+bannerSpan)
	if k := strings.IndexByte(s[i:b], '\n'); k >= 0 {
		b = i + k
	}
	for f := range strings.FieldsSeq(s[i:b]) {
		if isRuleToken(f) {
			return true
		}
	}
	return false
}

// isAddressToken reports whether t is an e-mail address, a URL or a mail
// system address ("Name@ENRON"), possibly in angle brackets.
func isAddressToken(t string) bool {
	if strings.IndexByte(t, '@') < 0 && !strings.Contains(t, "www.") && !strings.Contains(t, "://") {
		return false
	}
	if strings.HasPrefix(t, "(") || strings.Contains(t, "mailto:") {
		return false // "(mailto:a@b.com) Owner": a link annotation inside a line
	}
	t = strings.Trim(t, "<>[]\"'")
	if isURLToken(t) {
		return true
	}
	k := strings.IndexByte(t, '@')
	return k > 0 && k < len(t)-1 && isWordRune(rune(t[k+1])) && strings.IndexByte(t[k+1:], '@') < 0
}

// mayBeAddress is a quick test before isAddressToken: t has an "@", a
// slash, or starts with "www." (after an opening bracket).
func mayBeAddress(t string) bool {
	return strings.IndexByte(t, '@') >= 0 || strings.IndexByte(t, '/') >= 0 || strings.Contains(t, "www.")
}

// isURLToken reports whether t starts like a URL.
func isURLToken(t string) bool {
	return strings.HasPrefix(t, "http://") || strings.HasPrefix(t, "https://") || strings.HasPrefix(t, "www.")
}

// capitalised reports whether the word at byte i of s looks like the start
// of a sentence or a line: a capital followed by a lower-case letter, the
// pronoun "I" (or "I'm"), or an upper-case word of at least two letters.
func capitalised(s string, i int) bool {
	if i+1 < len(s) && isUpperByte(s[i]) && s[i+1] >= 'a' && s[i+1] <= 'z' {
		return true // the common case, ASCII
	}
	r, n := runeAt(s, i)
	if !unicode.IsUpper(r) {
		return false
	}
	r2, _ := runeAt(s, i+n)
	switch {
	case unicode.IsLower(r2):
		return true
	case r == 'I' && (r2 == 0 || isSpace(r2) || r2 == '\'' || r2 == '’'):
		return true
	case unicode.IsUpper(r2):
		w := wordAt(s, i)
		return runeLen(w) >= 2 && strings.ToUpper(w) == w
	}
	return false
}

// followedByLowerWord reports whether the token after the white space at
// byte i of s starts with a lower-case letter.
func followedByLowerWord(s string, i int) bool {
	n, ok := nextSpan(s, i)
	if !ok {
		return false
	}
	r, _ := runeAt(s, n.a)
	return unicode.IsLower(r)
}

// isEmoticon reports whether t is a Western emoticon (":)", ":-D", ";)",
// ":P", "XD", "^^", "<3"), possibly with its last character repeated.
func isEmoticon(t string) bool {
	if len(t) < 2 || len(t) > 6 {
		return false
	}
	// Collapse a repeated final character: ":)))" -> ":)".
	for len(t) > 2 && t[len(t)-1] == t[len(t)-2] {
		t = t[:len(t)-1]
	}
	switch t {
	case ":)", ":-)", ":(", ":-(", ":D", ":-D", ";)", ";-)", ":P", ":-P", ":p", ":-p", ":/", ":-/",
		":o", ":O", ":-O", ":'(", "=)", "=D", "=(", ":]", "XD", "xD", "^^", "^_^", "<3", ":*", ":-*":
		return true
	}
	return false
}

// emoticonAfter returns the end of an emoticon token that follows the white
// space at byte j of s (as in "bacon! :)"), or j when there is none. The
// emoticon must be followed by white space or the end of the text.
func emoticonAfter(s string, j int) int {
	k := j
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if k == j || k >= len(s) {
		return j
	}
	if r, _ := runeAt(s, k); isPictograph(r) && !isBulletGlyph(r) {
		e := emojiRun(s, k)
		if r2, _ := runeAt(s, e); e == len(s) || isSpace(r2) {
			return e // "Congrats!! 🎉 So proud"
		}
		return j
	}
	switch s[k] { // the first characters of the emoticons isEmoticon knows
	case ':', ';', '=', '^', '<', 'x', 'X':
	default:
		return j
	}
	e := k
	for e < len(s) && e-k <= 6 {
		r, n := runeAt(s, e)
		if isSpace(r) {
			break
		}
		e += n
	}
	if isEmoticon(s[k:e]) {
		return e
	}
	return j
}

// headerLabels are mail header fields that start a line of a header block.
var headerLabels = []string{"From:", "To:", "Cc:", "CC:", "Bcc:", "Subject:", "Date:", "Sent:", "Sent by:", "Reply-To:", "Groups:", "Newsgroups:"}

// isHeaderLabel reports whether a mail header label starts at byte i of s
// and is followed by a space.
func isHeaderLabel(s string, i int) bool {
	c := s[i]
	if c < 'A' || c > 'Z' {
		return false
	}
	for _, l := range headerLabels {
		if strings.HasPrefix(s[i:], l) && i+len(l) < len(s) && s[i+len(l)] == ' ' {
			return true
		}
	}
	return false
}

// clauseOpeners are words that, written with a capital in the middle of a
// line after a lower-case word, start a new sentence whose predecessor lost
// its stop. Words often capitalised in titles and names ("The", "A", "In")
// are left out.
var clauseOpeners = words2(`He She We They You It This These Those There Here If When While As But So Then What Why How Where Please Thanks Today Its Our My Your Their His Her`)

// signoffWords are the words of an English sign-off ("Thanks and
// regards,", "Best,").
var signoffWords = words2(`thanks thank you regards best kind warm warmest many cheers sincerely yours truly love and wishes respectfully`)

// signoffFirst are the capitalised words that may open a sign-off.
var signoffFirst = words2(`Thanks Thank Regards Best Kind Warm Warmest Many Cheers Sincerely Yours Love Respectfully`)

// signoff looks for a sign-off starting at token cur (which opens a
// paragraph or follows a stop) and followed by a capitalised name: "Thanks,
// Dawn", "Best regards, Jeff", "Thanks - Davis", "Thanks Elizabeth 36349".
// A name that ends with a stop makes one sentence ("Thanks Don."), and a
// clause opener continues it ("Thanks, I will").
func (sc *scanner) signoff(cur span, add func(end, next int, score float64)) {
	s := sc.s
	switch s[cur.a] { // initials of signoffWords, capitalised: "recommend. thanks Rich" runs on
	case 'T', 'R', 'B', 'K', 'W', 'M', 'C', 'S', 'Y', 'L':
	default:
		return
	}
	if cur.b-cur.a > len("Respectfully,") || !signoffFirst[strings.TrimRight(s[cur.a:cur.b], ",!")] {
		return
	}
	t, end := cur, -1
	for k := 0; k < 4 && end < 0; k++ {
		raw := s[t.a:t.b]
		w := strings.ToLower(strings.TrimRight(raw, ",!"))
		if !signoffWords[w] {
			return
		}
		if strings.HasSuffix(raw, ",") {
			end = t.b
			break
		}
		n, ok := nextSpan(s, t.b)
		if !ok {
			return
		}
		switch {
		case s[n.a:n.b] == "-" || s[n.a:n.b] == "--": // "Thanks - Davis"
			end = n.b
		case k == 0 && w == "thanks" && capitalised(s, n.a): // "Thanks Elizabeth"
			end = t.b
		}
		t = n
	}
	if end < 0 {
		return
	}
	n, ok := nextSpan(s, end)
	if !ok || !capitalised(s, n.a) || endsWithStop(s[n.a:n.b]) || clauseOpenerOrI(s[n.a:n.b]) {
		return
	}
	add(end, n.a, gapSignoff)
	// The name (and an extension number) signs the message when a
	// lower-case word follows on the same line: "Thanks Kam | could you",
	// "Thanks Elizabeth 36349 | see you there".
	name := s[n.a:n.b]
	if !allLetters(name) || anyStarter[strings.ToLower(name)] || strings.IndexByte(s[end:n.a], '\n') >= 0 {
		return
	}
	after, ok := nextSpan(s, n.b)
	if ok && isNumber(s[after.a:after.b]) && strings.IndexByte(s[n.b:after.a], '\n') < 0 {
		n = after
		after, ok = nextSpan(s, n.b)
	}
	if ok && isLowerWord(s[after.a:after.b]) && strings.IndexByte(s[n.b:after.a], '\n') < 0 {
		add(n.b, after.a, gapSignoff)
	}
}

// salutationStarts are greetings that may precede a name in a salutation.
var salutationStarts = words2(`hi hello dear hey`)

// paragraphOpening looks, in English, for a sign-off opening a paragraph
// and for a salutation followed by a sentence in the same paragraph:
// "Louise, There are …", "Hi Sara, I just wanted …". The salutation is up to
// three capitalised words, none a sentence starter ("Today, Khanzir …"),
// and the sentence must start like one: a clause opener followed by a
// lower-case word ("Tracy, Do we …" is left alone).
func (sc *scanner) paragraphOpening(cur span, add func(end, next int, score float64)) {
	if !isUpperByte(sc.s[cur.a]) {
		return
	}
	sc.signoff(cur, add)
	s := sc.s
	// A salutation ends with a comma or colon within its first three
	// words.
	if k := strings.IndexAny(s[cur.a:min(len(s), cur.a+60)], ",:\n"); k < 0 || s[cur.a+k] == '\n' {
		return
	}
	t := cur
	for k := 0; k < 3; k++ {
		w := s[t.a:t.b]
		bare := strings.TrimRight(w, ",:")
		lw := strings.ToLower(bare)
		greeting := k == 0 && salutationStarts[lw]
		if !greeting {
			r, _ := runeAt(bare, 0)
			if !unicode.IsUpper(r) || !allLetters(bare) || sc.start[lw] || anyStarter[lw] || signoffWords[lw] {
				return
			}
		}
		n, ok := nextSpan(s, t.b)
		if !ok {
			return
		}
		if strings.HasSuffix(w, ",") {
			if !greeting && clauseOpenerOrI(s[n.a:n.b]) && followedByLowerWord(s, n.b) {
				add(t.b, n.a, gapSalutation)
			}
			return
		}
		if strings.HasSuffix(w, ":") && k > 0 && salutationStarts[strings.ToLower(s[cur.a:cur.b])] {
			if r, _ := runeAt(bare, 0); unicode.IsUpper(r) && capitalised(s, n.a) {
				add(t.b, n.a, gapSalutation) // "Hi David: Thought that …"
			}
			return
		}
		t = n
	}
}

// labelSalutation looks, in English, for a one-word salutation or label
// ending with a colon in the middle of a line, after a capitalised word that
// signed or headed the unit before, and followed by a sentence: "Thanks -
// Davis | Clint: | I spoke with …", "fine. Susan | Susan: | While Tanya …",
// "the firm. KM | Requirements: | You'll be …" (mail and postings whose
// line breaks were lost). p and t are the previous and current tokens; it
// adds the boundaries before and after t and reports whether it did.
func (sc *scanner) labelSalutation(p, t string, cur span, add func(end, next int, score float64)) bool {
	bare, ok := strings.CutSuffix(t, ":")
	if !ok || runeLen(bare) < 2 || !isTitleCase(bare) || !allLetters(bare) || anyStarter[strings.ToLower(bare)] {
		return false
	}
	if r, _ := runeAt(p, 0); !unicode.IsUpper(r) || !allLetters(p) {
		return false // a name or initials, no stop or comma after it
	}
	// The name stands alone after a stop or a dash ("fine. Susan", "Thanks
	// - Davis"): "Anna Smith: She starts" is one name before a colon.
	if !standsAlone(sc.s, backSpace(sc.s, cur.a)-len(p)) {
		return false
	}
	n, ok := nextSpan(sc.s, cur.b)
	if !ok || strings.IndexByte(sc.s[cur.b:n.a], '\n') >= 0 || !clauseOpenerOrI(wordAt(sc.s, n.a)) {
		return false
	}
	add(backSpace(sc.s, cur.a), cur.a, gapSalutation)
	add(cur.b, n.a, gapSalutation)
	return true
}

// standsAlone reports whether the token starting at byte a of s opens the
// text or its line, or follows a stop, a closing bracket or a dash: a name
// signing a unit ("fine. Susan", "Thanks - Davis", "discussed) Mark").
func standsAlone(s string, a int) bool {
	k := backSpace(s, a)
	if k == 0 || strings.IndexByte(s[k:a], '\n') >= 0 {
		return true
	}
	q := s[tokenStart(s, k):k]
	return endsWithStop(q) || q == "-" || q == "--" || strings.HasSuffix(q, ")") || strings.HasSuffix(q, "]")
}

// loneName reports whether p, the token before cur, is a capitalised word
// standing alone (standsAlone) that is no sentence starter nor a word of a
// sign-off: the name signing or addressing a mail whose line breaks were
// lost ("Rodgers | As we discussed", "discussed) Mark | As we …").
func loneName(s, p string, cur span) bool {
	if !isTitleCase(p) || !allLetters(p) || anyStarter[strings.ToLower(p)] || signoffWords[strings.ToLower(p)] {
		return false
	}
	return standsAlone(s, backSpace(s, cur.a)-len(p))
}

// clauseOpenerOrI reports whether w is a clause opener or the pronoun I.
func clauseOpenerOrI(w string) bool { return w == "I" || clauseOpeners[w] }

// chatTags are chat abbreviations that close a sentence the way an
// emoticon does.
var chatTags = words2(`lol lmao rofl roflmao haha hahaha hehe`)

// isChatTag reports whether t is one of chatTags, in any case.
func isChatTag(t string) bool {
	switch t[0] | 0x20 {
	case 'l', 'r', 'h':
		return chatTags[strings.ToLower(t)]
	}
	return false
}

// fileExts are file name extensions of attachments.
var fileExts = words2(`doc docx xls xlsx ppt pptx pdf txt rtf csv jpg jpeg png gif tif tiff bmp zip vcf htm html msg wav mp3`)

// isFileName reports whether t is a file name with a known extension
// ("image001.jpg", "Guaranty.doc").
func isFileName(t string) bool {
	k := strings.LastIndexByte(t, '.')
	if k <= 0 || len(t)-k > 5 || k == len(t)-1 || isURLToken(t) || strings.IndexByte(t, '@') >= 0 {
		return false
	}
	return fileExts[strings.ToLower(t[k+1:])]
}

// startsLower reports whether the rune at byte i of s is a lower-case
// letter.
func startsLower(s string, i int) bool {
	r, _ := runeAt(s, i)
	return unicode.IsLower(r)
}

// isRowKey reports whether t looks like the key of a table row: one to four
// capital letters then a digit ("EY4096.3", "A12").
func isRowKey(t string) bool {
	n := 0
	for n < len(t) && t[n] >= 'A' && t[n] <= 'Z' {
		n++
	}
	return n >= 1 && n <= 4 && n < len(t) && isDigitByte(t[n])
}

// rowWindow is how far around a row key repeatedRows looks for the others,
// and rowTries how many occurrences of its letters it examines: both bound
// the work on text made of such keys.
const (
	rowWindow = 600
	rowTries  = 40
)

// repeatedRows reports whether the row key at cur starts one of at least
// three rows in the same paragraph near it: row keys with the same letters
// followed by the same word ("… 55,678 EY4106.6 PERFORMANCE …").
func repeatedRows(s string, cur span) bool {
	t := s[cur.a:cur.b]
	n := 0
	for t[n] >= 'A' && t[n] <= 'Z' {
		n++
	}
	next, ok := nextSpan(s, cur.b)
	if !ok {
		return false
	}
	key := t[:n]
	word := s[next.a:next.b]
	a, b := max(0, cur.a-rowWindow), min(len(s), cur.b+rowWindow)
	w := s[a:b]
	if k := strings.LastIndex(s[a:cur.a], "\n\n"); k >= 0 {
		w = s[a+k+2 : b]
		a += k + 2
	}
	if k := strings.Index(s[cur.b:b], "\n\n"); k >= 0 {
		w = s[a : cur.b+k]
	}
	count := 0
	for i, tries := 0, 0; i < len(w) && tries < rowTries; tries++ {
		k := strings.Index(w[i:], key)
		if k < 0 {
			break
		}
		j := i + k
		i = j + len(key)
		if j > 0 && w[j-1] != ' ' {
			continue
		}
		e := j
		for e < len(w) && !isSpace(rune(w[e])) {
			e++
		}
		if !isRowKey(w[j:e]) || isUpperByte(w[j+len(key)]) || !strings.HasPrefix(w[e:], " "+word+" ") {
			continue
		}
		if count++; count >= 3 {
			return true
		}
	}
	return false
}

// closesWord reports whether t ends with a closing bracket right after a
// letter: "(ZD Net)", "(Space.com)", not "1.)".
func closesWord(t string) bool {
	if len(t) < 2 || t[len(t)-1] != ')' {
		return false
	}
	r, _ := runeBefore(t, len(t)-1)
	return unicode.IsLetter(r)
}

// endsLine reports whether byte i of s ends the text or is followed by
// white space holding a line break.
func endsLine(s string, i int) bool {
	for i < len(s) {
		r, n := runeAt(s, i)
		if r == '\n' || r == '\r' {
			return true
		}
		if !isSpace(r) {
			return false
		}
		i += n
	}
	return true
}

// shortLabel reports whether the text ending at byte end of s (a colon)
// is a label: at most three words since the start of its line or the
// previous stop, the first capitalised ("Link to video:", "Phone:").
func shortLabel(s string, end int) bool {
	a, words := end, 0
	for words <= 3 {
		a = tokenStart(s, a)
		words++
		k := backSpace(s, a)
		if k == 0 || strings.IndexByte(s[k:a], '\n') >= 0 || endsWithStop(s[tokenStart(s, k):k]) {
			break
		}
		a = k
	}
	return words <= 3 && capitalised(s, a)
}

// salutationLine reports whether cur, a capitalised word with a comma that
// ends its line ("Vincent,"), is a salutation of its own after the end of
// the previous unit on the same line ("… you could provide. Sid |
// Vincent,"): the words before it on the line are not a greeting ("Hi
// Sara,", "Dear Mr. Lee,"), and the token before it is not a lower-case
// word or an item of a list ("Tom, Dick,").
func (sc *scanner) salutationLine(prev, cur span) bool {
	s := sc.s
	name := s[cur.a : cur.b-1]
	if !allLetters(name) || anyStarter[strings.ToLower(name)] {
		return false
	}
	p := s[prev.a:prev.b]
	if strings.HasSuffix(p, ",") || isLowerWord(p) || strings.IndexByte(s[prev.b:cur.a], '\n') >= 0 {
		return false
	}
	ls := strings.LastIndexByte(s[:cur.a], '\n') + 1
	f := strings.Fields(s[ls:cur.a])
	for _, w := range f {
		if lw := strings.ToLower(strings.Trim(w, ",.!")); salutationStarts[lw] || salutations[lw] {
			return false
		}
	}
	// One capitalised word opening the paragraph is a greeting of any
	// language ("Ciao Mark,", "Yo Mark,"), not the end of a previous unit
	// (initials signing it are: "AC | Sanjeev,").
	return len(f) != 1 || !isTitleCase(f[0]) || ls != 0 && strings.Count(s[backSpace(s, ls):ls], "\n") < 2
}

// interrupted reports whether t ends a quotation broken off with a dash:
// "sir--\"", "to—”".
func interrupted(t string) bool {
	r, n := runeBefore(t, len(t))
	if r != '"' && r != '”' && r != '’' && r != '\'' && r != '»' {
		return false
	}
	t = t[:len(t)-n]
	return strings.HasSuffix(t, "--") || strings.HasSuffix(t, "—")
}

// isPictograph reports whether r is an emoji or pictograph ("🎉", "😀",
// "👍", "❤", "☀") of the Unicode blocks emoji are written with.
func isPictograph(r rune) bool {
	return r >= 0x1F300 && r <= 0x1FAFF || r >= 0x2600 && r <= 0x27BF || r >= 0x1F000 && r <= 0x1F2FF
}

// emojiRun returns the end of the run of emoji starting at byte k of s,
// with the joiners, variation selectors, skin tones and tags that compose
// them ("👍🏽", "❤️", "👩‍💻").
func emojiRun(s string, k int) int {
	for k < len(s) {
		r, n := runeAt(s, k)
		if !isPictograph(r) && r != 0x200D && r != 0xFE0F && !(r >= 0xE0020 && r <= 0xE007F) {
			break
		}
		k += n
	}
	return k
}

// isEmojiToken reports whether the token t is made of emoji only.
func isEmojiToken(t string) bool {
	if t == "" {
		return false
	}
	r, _ := runeAt(t, 0)
	return isPictograph(r) && !isBulletGlyph(r) && emojiRun(t, 0) == len(t)
}

// opensLine reports whether byte i of s starts a line (after spaces or
// tabs): an emoji there marks a list item ("🔹 Item"), not an end.
func opensLine(s string, i int) bool {
	for i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') {
		i--
	}
	return i == 0 || s[i-1] == '\n'
}
