package g2p

import (
	"maps"
	"slices"
	"strings"
	"unicode"
)

// Candidate is one language a text may be in, with a score in (0, 1].
type Candidate struct {
	Lang  string  // base language code: "en", "de", "zh", ...
	Score float64 // share of the evidence; the scores of one call sum to at most 1
}

// functionWords are frequent short words per language, the evidence for
// telling Latin-script languages apart. Written for this package.
var functionWords = map[string]string{
	"en": "the of and to a in is that it was for on with as he be at by this had not are but from or have an they which you were her she there would their we his what so my if will can do who me him our your i some after all been has when about into more out up one",
	"de": "der die das und ist nicht ein eine ich zu den dem des mit sich auf für von auch es im wie wir sie er aber noch nach bei einen einem oder wird sind war hat dass daß wenn nur kein über um am vom zum zur mich mir ihr",
	"es": "el la de que y a en los las del se por un una con para es al lo como más pero sus su le ya este esta fue ha porque muy sin sobre también me hasta hay donde desde todo nos durante mientras les yo",
	"fr": "le la les de des du et a est un une en que qui dans pour pas ne sur au aux il elle ce se par plus avec son sa ses nous vous je mais ou où être été cette comme tout lui leur on c'est d'un l'on qu'il",
	"it": "il di che e a la le un una per non in è del della dei delle con si da al alla gli lo sono ma come più anche questo questa ho ha nel nella mi ci io sua suo essere molto sul",
	"pt": "o a os as de do da dos das que e em um uma para com não no na nos nas por se mais ao é como mas foi ele ela seu sua ou quando muito já também só pelo pela isso este esta são você",
	"nl": "de het een en van is dat die in te niet op zijn met voor er ik je hij ze maar om aan ook als bij nog wat naar dan door zo uit wel worden werd geen heeft hebben kan was deze dit",
	"sv": "och i att det som en på är av för med till den har de inte om ett han men var jag hon vi du så från kan man när sig eller efter nu sin hade under också mycket skulle blir vara där här en två tre fyra fem sex sju åtta nio tio mitt mina ditt dina sitt sina vår vårt våra ert era",
	"da": "og i at det er en til på de af for med den som har ikke et han var jeg hun vi du så fra kan men sig eller efter nu sin havde også meget skulle bliver være der her hvad når hvor mig dig to tre fire fem seks syv otte ni ti mit mine dit dine sit sine vores jeres",
	"no": "og i det er en til på som av for med den har ikke et han var jeg hun vi du så fra kan men seg eller etter nå sin hadde også mye skulle blir være der her hva når hvor meg deg ei to tre fire fem seks sju åtte ni ti mitt mine ditt dine sitt sine vår vårt våre deres",
	"pl": "i w z na się nie to jest że do o jak ale co od po tak za przez dla jego już tylko może są był była było czy mnie przy bardzo ja ty on ona my oni ich tego tym także oraz które który która",
	"cs": "a v se na je že to s z do o k jako ale by jsem jsou byl byla bylo pro od po tak jak už jen také který která které jeho není při ze ve aby nebo když tento tato mezi jsme jste",
	"sk": "a v sa na je že to s z do o k ako ale by som sú bol bola bolo pre od po tak už len aj ktorý ktorá ktoré jeho nie pri zo vo aby alebo keď tento táto medzi sme ste",
	"fi": "ja on ei se että oli hän kun mutta ovat olla joka tai myös vain niin kuin sen siitä mitä kanssa minä sinä me he tämä nyt jo ole",
	"ro": "și în de la a cu nu pe care un o din că se mai ce este sunt pentru au fost lui ei el ea sau dar acest această",
	"tr": "ve bir bu da de için ile ne ama çok gibi daha olan var ben sen o biz onlar değil mi mı şey kadar",
}

// letterHints are letters that point to a few Latin-script languages.
var letterHints = map[rune]string{
	'ß': "de", 'ä': "de sv fi", 'ö': "de sv fi tr", 'ü': "de tr", 'ñ': "es", '¿': "es", '¡': "es",
	'ç': "fr pt tr", 'è': "fr it", 'ê': "fr pt", 'à': "fr it pt", 'œ': "fr", 'ù': "fr it", 'ì': "it", 'ò': "it",
	'ã': "pt", 'õ': "pt", 'å': "sv da no fi", 'æ': "da no", 'ø': "da no",
	'ł': "pl", 'ą': "pl", 'ę': "pl", 'ś': "pl", 'ź': "pl", 'ż': "pl", 'ć': "pl", 'ń': "pl",
	'ř': "cs", 'ě': "cs", 'ů': "cs", 'ľ': "sk", 'ĺ': "sk", 'ô': "sk fr", 'ŕ': "sk",
	'ș': "ro", 'ț': "ro", 'ă': "ro", 'ş': "tr ro", 'ğ': "tr", 'ı': "tr",
}

var functionSets = func() map[string]map[string]bool {
	m := map[string]map[string]bool{}
	for l, ws := range functionWords {
		m[l] = map[string]bool{}
		for _, w := range strings.Fields(ws) {
			m[l][w] = true
		}
	}
	return m
}()

// Candidates returns the languages text is likely written in, best first,
// with scores that sum to at most 1. Each script's share of the letters is
// split among its languages: Han goes to zh, or to ja when there is kana;
// Cyrillic, Arabic and Devanagari are split by letters particular to one
// language; Latin by the frequent function words of en, de, es, fr, it, pt,
// nl, sv, da, no, pl, cs, sk, fi, ro and tr, and by letters such as ß, ñ, å,
// ł, with a small prior for English. Text with no letters gives an empty
// result. Candidates does no I/O
// and is safe for concurrent use.
func Candidates(text string) []Candidate {
	counts := map[Script]int{}
	total := 0
	letters := map[rune]int{}
	for _, r := range text {
		s := ScriptOf(r)
		if s == Common || !unicode.IsLetter(r) {
			continue
		}
		counts[s]++
		total++
		letters[unicode.ToLower(r)]++
	}
	if total == 0 {
		return nil
	}
	score := map[string]float64{}
	add := func(share float64, within map[string]float64) {
		// Sorted, so that equal inputs give bit-identical scores.
		langs := slices.Sorted(maps.Keys(within))
		sum := 0.0
		for _, l := range langs {
			sum += within[l]
		}
		if sum == 0 {
			return
		}
		for _, l := range langs {
			score[l] += share * within[l] / sum
		}
	}
	for _, s := range slices.Sorted(maps.Keys(counts)) {
		n := counts[s]
		share := float64(n) / float64(total)
		switch s {
		case Latin:
			add(share, latinEvidence(text, letters))
		case Han:
			if counts[Kana] > 0 {
				score["ja"] += share
			} else {
				add(share, map[string]float64{"zh": 0.9, "ja": 0.1})
			}
		case Cyrillic:
			add(share, hintScores(letters, map[string]string{"uk": "іїєґ", "bg": "ъ", "ru": "ыэё", "kk": "әғқңөұүһі", "sr": "ђјљњћџ", "mk": "ѓѕјљњќџ", "be": "ўі"}, "ru"))
		case Arabic:
			add(share, hintScores(letters, map[string]string{"fa": "پچژگکی", "ur": "ٹڈڑںےھ", "ar": "ةىإأ"}, "ar"))
		case Devanagari:
			add(share, wordScores(text, map[string]string{
				"hi": "है हैं और के में की को से का एक यह था थे लिए नहीं भी",
				"mr": "आहे आहेत आणि च्या मध्ये हे ते या व नाही होते साठी पण",
				"ne": "छ छन् र को मा लाई पनि थियो हो गर्न",
			}, "hi"))
		default:
			if l := scriptLanguage[s]; l != "" && s != Kana {
				score[l] += share
			} else if s == Kana {
				score["ja"] += share
			}
		}
	}
	var out []Candidate
	for l, v := range score {
		if v > 0 {
			out = append(out, Candidate{l, v})
		}
	}
	slices.SortFunc(out, func(a, b Candidate) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return strings.Compare(a.Lang, b.Lang)
	})
	return out
}

// hintScores scores languages by letters particular to them; the default
// language gets a small prior so that it wins when no hint is present.
func hintScores(letters map[rune]int, hints map[string]string, def string) map[string]float64 {
	s := map[string]float64{def: 0.5}
	for l, hs := range hints {
		for _, r := range hs {
			s[l] += float64(letters[r])
		}
	}
	return s
}

// wordScores scores languages by whole words particular to them, with a
// small prior for def.
func wordScores(text string, words map[string]string, def string) map[string]float64 {
	s := map[string]float64{def: 0.5}
	for _, w := range splitWords(text) {
		for l, ws := range words {
			for _, x := range strings.Fields(ws) {
				if w.Text == x {
					s[l]++
				}
			}
		}
	}
	return s
}

// latinEvidence counts function-word hits and hint letters.
// English, the language of the acoustic model, has a prior of 0.25 hits,
// so Latin text with no evidence at all ("montreal forced aligner") is
// taken for English.
func latinEvidence(text string, letters map[rune]int) map[string]float64 {
	s := map[string]float64{"en": 0.25}
	for _, w := range splitWords(strings.ToLower(text)) {
		t := strings.Trim(w.Text, "'’.-")
		for l, set := range functionSets {
			if set[t] {
				s[l]++
			}
		}
	}
	for r, n := range letters {
		h, ok := letterHints[r]
		if !ok {
			continue
		}
		ls := strings.Fields(h)
		for _, l := range ls {
			s[l] += 0.5 * float64(n) / float64(len(ls))
		}
	}
	return s
}
