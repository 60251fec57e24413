package segment

import (
	"strings"
	"unicode"
)

// Built-in knowledge per language: the abbreviation kinds (the tables
// themselves are data, data/abbreviations.tsv, read by abbrev.go), the
// word lists the rules use, and frequent sentence openers (evidence that a
// period after an abbreviation does end a sentence). The lists are lower
// case and written without the final period.

// abbrevKind says how strongly an abbreviation binds to what follows.
type abbrevKind uint8

const (
	abbrNone  abbrevKind = iota
	abbrTitle            // Mr., Dr., Sr.: precedes a name; next word is capitalised anyway
	abbrPlain            // etc., Co., approx.: may end a sentence
	abbrNum              // No., p., vol., fig.: precedes a number
)

// yearAbbrev are the abbreviations of "year" written after a number: Polish
// "r." (rok), Russian and Bulgarian "г." (год, година), Ukrainian "р."
// (рік), Kazakh "ж." (жыл). After a number they are scored as plain
// abbreviations (a sentence ends there before a sentence starter), not as
// the units other letters after a number are ("1,85 m. Son").
var yearAbbrev = words2(`r г р ж`)

// amountUnits are currencies and units of time abbreviated with a period
// after an amount: Russian "руб.", "коп.", Ukrainian "грн.", Bulgarian
// "лв.", Polish "zł.", Scandinavian "kr.", Czech "Kč.", Hungarian "Ft.",
// Czech and Slovak "hod." (hours), "min.", "sec.", "hrs.", German "Std.",
// Bulgarian and Russian "ч." (hour), "мин.", "сек.",
// and the units of weight, length and volume ("3 кг.", "12 lbs."). Nothing that belongs to the amount
// follows them, so before a capitalised word they end the sentence ("3 Mio.
// Euro" is a magnitude, not a unit, and stays).
var amountUnits = words2(`руб коп грн лв zł kr kč ft hod min mins sec secs sek hr hrs std ч час мин сек
	кг км см мм мг мл kg km cm mm mg ml gal lb lbs oz`)

// timeOfDay are the abbreviations written after a clock time for before
// and after noon: English "a.m.", "p.m.", Greek "π.μ.", "μ.μ.", Swedish
// "f.m.", "e.m.". The clock time ends its phrase, so a capitalised word
// after one starts a sentence more often than not ("at 5 p.m. Nobody",
// "στις 8 μ.μ. Ελάτε").
var timeOfDay = words2(`a.m p.m π.μ μ.μ f.m e.m`)

// approxWords are the abbreviations of "approximately" and "about" that
// may be written after the amount they qualify ("10 h aprox.", "3 kg ca.",
// "20 min approx."), where a period before a capitalised word ends the
// sentence.
var approxWords = words2(`approx aprox ca env ung zirka cca ok kb прибл ок`)

// timeZones are abbreviations of time zones written after a clock time
// ("3 p.m. ET", "9 a.m. GMT"): after "a.m." or "p.m." they continue the
// sentence.
var timeZones = words2(`ET EST EDT CT CST CDT MT MST MDT PT PST PDT AKST AKDT HST GMT UTC BST IST CET CEST EET EEST WET WEST MSK JST KST HKT SGT AEST AEDT ACST AWST NZST NZDT`)

// weekdayAbbrev are English weekday abbreviations, lower case; written
// capitalised and followed by a capitalised word that is no month, they end
// the sentence ("… and Tue. Open Wed.").
var weekdayAbbrev = words2(`mon tue tues wed thu thur thurs fri sat sun`)

// monthAbbrev are abbreviated month names, lower case, of the languages
// with built-in knowledge: after a day number ("27 apr.", "24. dec.",
// "10 янв.") a date ends its phrase, so a capitalised word after it starts
// a sentence more often than not. Before a number ("Apr. 27") they bind as
// any abbreviation.
var monthAbbrev = words2(`jan feb febr mar apr jun jul aug sep sept oct okt nov dec dez jän feber mrz mrt fev mai
	janv févr avr juil sept déc ene abr ago dic gen mag giu lug set ott
	sty lut kwi maj cze lip sie wrz paź lis gru led úno bře dub kvě čvn čvc srp zář říj lis pro
	янв фев февр мар апр июн июл авг сен сент окт ноя нояб дек ян апр юни юли септ ное
	січ лют бер квіт трав черв лип серп вер жовт лист груд ιαν φεβ μαρ απρ ιουν ιουλ αυγ σεπ οκτ νοε δεκ`)

// numWords are numbered references that are also ordinary words of the
// language ("Art. Das Bild" in German, "art." in English): they bind only
// to a following number.
var numWords = map[string]map[string]bool{
	"en": words2(`no art arts ex tab fig ill app apps`),
	"de": words2(`art`),
	"es": words2(`cap`),
	"da": words2(`stk`), // "stk. 2" (subsection), but also "pr. stk." (a piece)
	"hu": words2(`de`),  // "de. 10 órakor" (a.m.), but also "de" (but)
}

// etcWords are the abbreviations of "and so on" that close an enumeration
// and so often end a sentence: a period after one ends the sentence before
// a capitalised word or a word of a caseless script, "… peras, etc.
// Después", "… peren enz. Daarna", Arabic "إلخ.".
var etcWords = words2(`etc ecc enz usw osv itd itp atď atd apod stb jne т.д т.п т.н др и.т.н κλπ κτλ m.m o.l m.fl vb yms ym إلخ`)

// etcPairs are the same abbreviations written as two spaced parts: Russian
// "и т. д.", "и т. п.".
var etcPairs = words2(`т._д т._п`)

// starters are frequent sentence-initial words, lower case.
var starters = map[string]map[string]bool{
	"en": words2(`the a an i it he she we they you this that these those there here but and or so if when while what why how who where which my your his her our their its in on at for from with after before as however also then now today yesterday one no yes please let do does did is are was were has have had can could will would should may might many most some all each every both once since although though because meanwhile still thus hence instead`),
	"de": words2(`der die das den dem ein eine es er sie wir ich ihr und aber in im am auf mit von zu wenn als dann so doch dies diese dieser auch nach bei für`),
	"fr": words2(`le la les l un une il elle nous vous ils elles je on ce cette ces mais et en dans pour si quand alors c au aux du des`),
	"es": words2(`el la los las un una yo él ella nosotros es en y pero si cuando por para con este esta estos esas lo le se no`),
	"it": words2(`il lo la gli le un una io lui lei noi è in e ma se quando per con questo questa non si ci`),
	"pt": words2(`o a os as um uma eu ele ela nós é em e mas se quando por para com este esta não`),
	"da": words2(`de det den der jeg vi han hun du og men i på til en et hvis når`),
	"ru": words2(`он она они мы я это в на и но а как что когда так тогда по с к у из этот эта эти не его её их мой моя наш наша`),
	"nl": words2(`de het een ik je jij hij zij ze wij we dit dat deze die er en maar in op met van voor als toen dan daarna ook niet`),
	"sv": words2(`det den de en ett jag du han hon vi ni och men i på till om när sedan då efter också inte`),
	"pl": words2(`to ten ta te on ona ono oni one my wy ja ty nie tak ale i a w we na z ze do po od dla jest był była było są potem wtedy dlatego jednak także też więc gdy kiedy jeśli czy co kto jego jej ich mój moja nasz nasza proszę prosimy dziękuję dziękujemy uwaga niestety dziś dzisiaj jutro wczoraj teraz tutaj tam wszyscy nikt można należy`),
	"sk": words2(`to ten tá tie on ona ono oni my vy ja ty nie áno ale a v vo na z zo do po od pre je bol bola bolo sú potom vtedy preto však tiež keď ak či čo kto`),
	"cs": words2(`to ten ta ty on ona ono oni my vy já ne ano ale a v ve na z ze do po od pro je byl byla bylo jsou potom pak proto však také když jestli zda co kdo`),
	"bg": words2(`той тя то те ние вие аз ти това тази този тези в на с и но а след после тогава когато ако не`),
	"uk": words2(`він вона воно вони ми ви я ти це цей ця ці в у на і й але а як що коли тоді тому потім його її їх наш наша`),
	"fi": words2(`hän se he me te minä sinä tämä tuo ja mutta kun jos sitten nyt siellä täällä`),
	"hu": words2(`a az egy ez azt ő ők mi ti én te és de ha amikor akkor utána aztán most`),
	"el": words2(`ο η το οι τα ένα μια εγώ εσύ αυτός αυτή αυτό εμείς εσείς αυτοί και αλλά σε στο στη στην με για όταν αν μετά τότε δεν`),
}

// starterLangs are the languages whose starters make anyStarter, the
// evidence used for documents that mix languages.
var starterLangs = [...]string{"en", "de", "fr", "es", "it", "pt", "da", "ru"}

func words2(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// langWords are ordinary words of a language, written in lower case, that
// an abbreviation table lists: the shared entries (language "*" of
// data/abbreviations.tsv: written for English and used by every language
// in Latin script) or the language's own ("so." for Sonntag in German).
// Spanish "no" and "mar" (sea), French "est" (is, east), Dutch "op" (up),
// Danish and Swedish "det" (it), "min" (my), "maj" (May), Swedish "hon"
// (she). A period after one of them in lower case is scored as after any
// word, unless a numbered reference ("no") precedes a number; capitalised,
// the abbreviation stands ("Mar. 23" for martes, "So." for Sonntag). The
// frequent sentence starters of a language other than English (starters)
// count as such words too, unless the language's own table lists them.
var langWords = map[string]map[string]bool{
	"es": words2(`no mar ave`),
	"it": words2(`no est`),
	"pt": words2(`mar`),
	"fr": words2(`est`),
	"nl": words2(`op`),
	"de": words2(`so`),
	"da": words2(`min op sat ed maj sen det fri gen tab`),
	"sv": words2(`hon sen maj det min sat fri gen ed`),
	"nb": words2(`det sen min fri gen ed`),
	"no": words2(`det sen min fri gen ed`),
}

// detectLanguage guesses the language of text from its script (and a few
// letters proper to one language: Kazakh, Bulgarian, Marathi, Polish,
// Czech, Slovak, Danish, German, Spanish, Portuguese) and from counts of
// frequent function words in its first few kilobytes. It returns a base
// language code ("en", "de", "ja" ...); text in Latin script without
// evidence is English, and "" means the script has no rules of its own.
func detectLanguage(text string) string {
	l, _ := guessLanguage(text)
	return l
}

// DetectLanguage guesses the base language of text ("en", "de", "ja" ...)
// as segmentation does when no language is given: from its script (and a
// few letters proper to one language) and from counts of frequent function
// words in its first few kilobytes. sure is false when nothing in the text
// pointed to a language, and tag is then the English default for Latin
// script, or "" for a script with no rules of its own.
func DetectLanguage(text string) (tag string, sure bool) { return guessLanguage(text) }

// guessLanguage is detectLanguage that also reports whether it found
// evidence for the language (false for the English default).
func guessLanguage(text string) (string, bool) {
	if len(text) > 4096 {
		cut := 4096
		for cut < len(text) && !isSpace(rune(text[cut])) && text[cut] >= 0x80 {
			cut++
		}
		text = text[:cut]
	}
	var han, kana, hangul, cyr, greek, armenian, arabic, persian, urdu, latin int
	var ethiopic, myanmar, deva, kazakh, ukHint, bgHint, ruHint int
	marks := map[string]int{} // letters that single out a Latin-script language
	for _, r := range text {
		switch {
		case r >= 0x1200 && r <= 0x139F:
			ethiopic++
		case r >= 0x1000 && r <= 0x109F:
			myanmar++
		case r >= 0x0900 && r <= 0x097F:
			deva++
			if r == 'ळ' {
				marks["mr"]++
			}
		case r >= 0x0600 && r <= 0x06FF: // Arabic script
			arabic++
			switch r {
			case 'ٹ', 'ڈ', 'ڑ', 'ں', 'ے', 'ۓ', 'ہ', 'ۃ':
				urdu++
			case 'پ', 'چ', 'ژ', 'گ', 'ک', 'ی':
				persian++
			}
		case r < 0x80:
			if unicode.IsLetter(r) {
				latin++
			}
		case r == '¿' || r == '¡':
			marks["es"]++ // Spanish opening marks
		case unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r):
			kana++
		case unicode.Is(unicode.Han, r):
			han++
		case unicode.Is(unicode.Hangul, r):
			hangul++
		case unicode.Is(unicode.Cyrillic, r):
			cyr++
			switch unicode.ToLower(r) {
			case 'ә', 'ғ', 'қ', 'ң', 'ө', 'ұ', 'ү', 'һ':
				kazakh++
			case 'і', 'ї', 'є', 'ґ':
				ukHint++ // Kazakh writes і too, always with some of the letters above
			case 'ы', 'э', 'ё':
				ruHint++
			case 'ъ':
				bgHint++
			}
		case unicode.Is(unicode.Greek, r):
			greek++
		case unicode.Is(unicode.Armenian, r):
			armenian++
		case unicode.Is(unicode.Latin, r):
			latin++
			for _, l := range strings.Fields(latinMarks[unicode.ToLower(r)]) {
				marks[l]++
			}
		}
	}
	switch {
	case kana > 0 && kana+han > latin:
		return "ja", true
	case han > latin && han > cyr:
		return "zh", true
	case hangul > latin:
		return "ko", true
	case ethiopic > latin:
		return "am", true
	case myanmar > latin:
		return "my", true
	case deva > latin:
		if marks["mr"] > 0 || strings.Contains(text, "आहे") {
			return "mr", true
		}
		return "hi", true
	case cyr > latin:
		switch {
		case kazakh > 0:
			return "kk", true
		case ukHint > 0:
			return "uk", true
		case ruHint == 0 && bgHint >= 2:
			return "bg", true // Bulgarian writes ъ as a vowel and has no ы, э, ё
		}
		if bg, ru := wordCount(text, bulgarianWords), wordCount(text, russianWords); ruHint == 0 && bg > ru {
			return "bg", true // "… и т.н. После се прибрахме."
		}
		return "ru", true
	case greek > latin:
		return "el", true
	case armenian > latin:
		return "hy", true
	case arabic > latin:
		// Letters Arabic does not use tell Urdu and Persian apart from it;
		// the distinction matters for the Arabic comma, a boundary only in
		// Arabic.
		switch {
		case urdu > 0:
			return "ur", true
		case persian > 0:
			return "fa", true
		}
		return "ar", true
	}
	best, bestN := "", 0
	counts := map[string]int{}
	for _, chunk := range strings.Fields(strings.ToLower(text)) {
		if strings.Contains(chunk, "://") || strings.Contains(chunk, "www.") || strings.Contains(chunk, "@") {
			continue // addresses are not words of the text's language
		}
		for _, w := range strings.FieldsFunc(chunk, func(r rune) bool { return !unicode.IsLetter(r) }) {
			if len(w) == 1 && w != "y" {
				continue // "(a)", "(e)": list letters as often as words
			}
			for _, l := range detectLangs {
				if functionWords[l][w] {
					counts[l]++
				}
			}
		}
	}
	if marks["fi"] > 0 {
		// Finnish doubles its front vowels ("Hyvää", "syy", "köökki"),
		// which German and Swedish do not.
		lt := strings.ToLower(text)
		marks["fi"] += strings.Count(lt, "ää") + strings.Count(lt, "yy") + strings.Count(lt, "öö")
	}
	for l, n := range marks {
		counts[l] += 2 * n // a letter only one language uses weighs more than a word
	}
	for _, l := range detectLangs {
		if counts[l] > bestN {
			best, bestN = l, counts[l]
		}
	}
	if best == "" && latin > 0 {
		return "en", false // Latin script without evidence: English, the default
	}
	return best, best != ""
}

// detectLangs are the languages in Latin script detectLanguage tells apart,
// in order of preference on a tie.
var detectLangs = [...]string{"en", "de", "fr", "es", "it", "pt", "nl", "da", "sv", "pl", "cs", "sk", "ro", "tr", "fi", "hu"}

// latinMarks are letters written in only one or two of detectLangs (among
// them), lower case, with the languages that write them.
var latinMarks = map[rune]string{
	'æ': "da", 'ø': "da", 'å': "da sv", 'ä': "sv de fi", 'ö': "sv de fi hu", 'ő': "hu", 'ű': "hu",
	'š': "cs sk", 'ž': "cs sk", 'č': "cs sk", 'ď': "cs sk", 'ť': "cs sk", 'ň': "cs sk",
	'ș': "ro", 'ț': "ro", 'ă': "ro", 'â': "ro fr", 'î': "ro fr",
	'ğ': "tr", 'ı': "tr", 'ş': "tr ro",
	'ą': "pl", 'ę': "pl", 'ł': "pl", 'ś': "pl", 'ź': "pl", 'ż': "pl", 'ń': "pl", 'ć': "pl",
	'ř': "cs", 'ě': "cs", 'ů': "cs",
	'ľ': "sk", 'ĺ': "sk", 'ŕ': "sk", 'ô': "sk",
	'ß': "de", 'ñ': "es", 'ã': "pt", 'õ': "pt", 'œ': "fr", 'û': "fr", 'ï': "fr",
}

var functionWords = map[string]map[string]bool{
	"en": words2(`the and of to is was that with for this are have it you not be`),
	"de": words2(`der die das und ist nicht ein eine mit zu den von sich auf für dem des ich wir sie er im vom zum zur auch nach wurde es wie dir mir mich dich bin hat habe sind war aber oder wenn dass noch nur schon sehr`),
	"fr": words2(`le la les et est des un une dans pour que qui pas sur avec du au je nous vous ils elle sont très mais`),
	"es": words2(`el la los las y es del un una en que por para con no se lo al muy está están también más pero sus`),
	"it": words2(`il la gli e è della una che per non con sono del di alla nel nella delle degli anche questo questa perché però hanno ecco`),
	"pt": words2(`o os e é do da uma em que para com não são dos das no na você está muito também mais mas seu sua`),
	"nl": words2(`het een niet zijn ook naar wordt werd bij uit hebben heeft maar geen deze voor wij ik jullie onze wat dat nog dan hij zij jij aan te`),
	"da": words2(`og ikke af jeg har hun blev være efter når kan skal meget er det`),
	"sv": words2(`och inte är att som jag hon för också när ett till var vid vad hur från finns blir`),
	"pl": words2(`się jest że jak ale czy przez oraz jego który która było są wszystko już dla tylko bardzo gdzie`),
	"cs": words2(`že jako jsou který která které byl byla bylo být také se jsem`),
	"sk": words2(`že ako sú ktorý ktorá ktoré bol bola bolo byť tiež sa ho`),
	"ro": words2(`și în care este sunt pentru din sau dar nu mai cu pe`),
	"tr": words2(`ve bir bu için ile çok daha gibi olan değil ama`),
	"fi": words2(`ja on ei se että oli hän mutta kun tai myös ovat olla siellä`),
	"hu": words2(`és az hogy nem is egy van volt meg csak még már egy`),
}

// bulgarianWords and russianWords are frequent words of one of the two
// languages that the other does not write, lower case: short Bulgarian
// text often has no ъ.
var (
	bulgarianWords = words2(`се са ще във със този тази това които който която също след`)
	russianWords   = words2(`что это как его она был была было были они только уже если тоже`)
)

// wordCount counts the words of text (its first few kilobytes) that set
// lists, compared in lower case.
func wordCount(text string, set map[string]bool) int {
	n := 0
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if set[w] {
			n++
		}
	}
	return n
}

// baseLang reduces a BCP 47 tag to its lower-case primary subtag.
func baseLang(tag string) string {
	tag = strings.ToLower(strings.TrimSpace(tag))
	if i := strings.IndexAny(tag, "-_"); i >= 0 {
		tag = tag[:i]
	}
	return tag
}

// anyStarter is the union of the starters of every language, for documents
// that mix languages.
var anyStarter = func() map[string]bool {
	m := map[string]bool{}
	for _, l := range starterLangs {
		for w := range starters[l] {
			m[w] = true
		}
	}
	return m
}()
