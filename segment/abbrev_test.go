package segment

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// takenCase is a sentence with an abbreviation that the hand-written tables
// and CLDR lack and the lists taken from other segmenters have.
type takenCase struct {
	lang, abbr, in string
	want           []string
	// binds is true when the taken entry keeps the period from ending a
	// sentence (and the case splits there without the taken table); false
	// when the period ends one before a capital sentence starter.
	binds bool
}

var takenCases = []takenCase{
	{"de", "zzt", "Es sind zzt. 5 Plätze frei.", []string{"Es sind zzt. 5 Plätze frei."}, true},
	{"de", "usf", "Er kaufte Äpfel, Birnen usf. Die Kisten kamen später.", []string{"Er kaufte Äpfel, Birnen usf.", "Die Kisten kamen später."}, false},
	{"en", "hosp", "She works at the county hosp. near the river.", []string{"She works at the county hosp. near the river."}, true},
	{"en", "hosp", "He was taken to the hosp. The doctors were kind.", []string{"He was taken to the hosp.", "The doctors were kind."}, false},
	{"es", "tfno", "Llame al tfno. 91 555 12 34 para reservar.", []string{"Llame al tfno. 91 555 12 34 para reservar."}, true},
	{"es", "tfno", "Apunte también el tfno. El de la oficina no sirve.", []string{"Apunte también el tfno.", "El de la oficina no sirve."}, false},
	{"fr", "tél", "Appelez le secrétariat au tél. 01 23 45 67 89 avant midi.", []string{"Appelez le secrétariat au tél. 01 23 45 67 89 avant midi."}, true},
	{"fr", "tél", "Il faut le nom, l'adresse et le tél. Le reste est facultatif.", []string{"Il faut le nom, l'adresse et le tél.", "Le reste est facultatif."}, false},
	// "rif." is in the Italian prepositive list, so plain: it binds before
	// a capital too, but not before a sentence starter.
	{"it", "rif", "Vedi rif. 12 del contratto.", []string{"Vedi rif. 12 del contratto."}, true},
	{"it", "rif", "Vedi rif. Marco per i dettagli.", []string{"Vedi rif. Marco per i dettagli."}, true},
	{"it", "rif", "Manca il numero di rif. Il resto va bene.", []string{"Manca il numero di rif.", "Il resto va bene."}, false},
	{"nl", "afd", "Zie afd. 3 van het rapport.", []string{"Zie afd. 3 van het rapport."}, true},
	{"nl", "afd", "Hij werkt bij de afd. Die zit op de derde verdieping.", []string{"Hij werkt bij de afd.", "Die zit op de derde verdieping."}, false},
	{"da", "flg", "Der gælder flg. 3 regler.", []string{"Der gælder flg. 3 regler."}, true},
	{"da", "flg", "Reglerne er flg. De skal overholdes.", []string{"Reglerne er flg.", "De skal overholdes."}, false},
	{"pl", "stycz", "Od 5 stycz. 2024 obowiązuje nowy cennik.", []string{"Od 5 stycz. 2024 obowiązuje nowy cennik."}, true},
	{"pl", "stycz", "Zebranie odbyło się 5 stycz. Potem wszyscy wyszli.", []string{"Zebranie odbyło się 5 stycz.", "Potem wszyscy wyszli."}, false},
	{"ru", "просп", "Магазин на просп. 50 лет Октября закрыт.", []string{"Магазин на просп. 50 лет Октября закрыт."}, true},
	{"ru", "просп", "Он жил на Невском просп. Потом переехал.", []string{"Он жил на Невском просп.", "Потом переехал."}, false},
	{"bg", "вкл", "Цената е вкл. 20 % ДДС.", []string{"Цената е вкл. 20 % ДДС."}, true},
	{"bg", "вкл", "Всичко е вкл. После ще платим.", []string{"Всичко е вкл.", "После ще платим."}, false},
	{"sk", "pozn", "Pozri pozn. 3 na konci textu.", []string{"Pozri pozn. 3 na konci textu."}, true},
	{"sk", "pozn", "Toto je len pozn. Potom pokračujeme.", []string{"Toto je len pozn.", "Potom pokračujeme."}, false},
	{"kk", "млрд", "Бюджет 2 млрд. 500 млн. теңге болды.", []string{"Бюджет 2 млрд. 500 млн. теңге болды."}, true},
	{"kk", "млрд", "Бюджет 2 млрд. Ол көп.", []string{"Бюджет 2 млрд.", "Ол көп."}, false},
}

func TestTakenAbbreviations(t *testing.T) {
	ctx := context.Background()
	for _, c := range takenCases {
		if _, ok := extAbbrev[c.lang][c.abbr]; !ok {
			t.Errorf("%s %q: not among the taken abbreviations", c.lang, c.abbr)
		}
		if abbrevTable(c.lang)[c.abbr] != abbrNone || cldrKnows(c.lang, c.abbr) {
			t.Errorf("%s %q: the hand-written tables or CLDR have it, so the case shows nothing of the taken lists", c.lang, c.abbr)
		}
		got, err := Sentences(ctx, c.in, Options{Language: c.lang})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s %q:\n got %q\nwant %q", c.lang, c.in, got, c.want)
		}
	}
	// Without the taken table every binding case splits at the
	// abbreviation: the cases above rest on the data file.
	saved := extAbbrev
	defer func() { extAbbrev = saved }()
	extAbbrev = nil
	for _, c := range takenCases {
		if !c.binds {
			continue
		}
		got, err := Sentences(ctx, c.in, Options{Language: c.lang})
		if err != nil {
			t.Fatal(err)
		}
		if slices.Equal(got, c.want) {
			t.Errorf("%s %q: same sentences without the taken table", c.lang, c.in)
		}
	}
}

// TestTakenAbbreviationGuards checks the rules that keep the taken lists
// from suppressing sentence ends: acronyms in capitals, entries marked as
// words of the language, and plain entries before a capital.
func TestTakenAbbreviationGuards(t *testing.T) {
	if _, ok := extAbbrev["it"]["fao"]; !ok {
		t.Fatal(`it "fao" is not among the taken abbreviations`)
	}
	if !strings.Contains(abbrevData, "\nen\tword\tmass\t") {
		t.Fatal(`en "mass" is not marked as a word in abbreviations.tsv`)
	}
	if _, ok := extAbbrev["en"]["mass"]; ok {
		t.Error(`en "mass", marked as a word, is in the taken table`)
	}
	checkRules(t, []ruleCase{
		// An acronym in capitals is a word: "FAO." ends the sentence, "fao." would not.
		{"it", "Ne parla la FAO. 3 milioni di persone soffrono la fame.", []string{"Ne parla la FAO.", "3 milioni di persone soffrono la fame."}},
		// "mass" (Massachusetts upstream) is an English word: scored as any word.
		{"en", "They went to mass. afterwards they ate.", []string{"They went to mass.", "afterwards they ate."}},
		// A plain taken entry before a capital ends the sentence as those lists' rule has it.
		{"es", "Vive en el 2.º izq. Llame al timbre.", []string{"Vive en el 2.º izq.", "Llame al timbre."}},
		{"es", "Vive en el 2.º izq. del edificio.", []string{"Vive en el 2.º izq. del edificio."}},
		// Capitalised, a taken entry still matches ("Zzt." opening a sentence).
		{"de", "Zzt. 5 Plätze frei.", []string{"Zzt. 5 Plätze frei."}},
		// Arabic "etc." ends a sentence before the next word, as etc does elsewhere.
		{"ar", "اشترى التفاح والموز إلخ. ثم عاد إلى البيت.", []string{"اشترى التفاح والموز إلخ.", "ثم عاد إلى البيت."}},
	})
}

// TestAbbreviationsFile checks the embedded table: every language of the
// taken lists has entries, and no taken entry repeats a hand-written one.
func TestAbbreviationsFile(t *testing.T) {
	for _, l := range []string{"ar", "bg", "da", "de", "en", "es", "fr", "it", "kk", "nl", "pl", "ru", "sk"} {
		if n := abbrevParsed.counts[l]["ext"]; n == 0 {
			t.Errorf("%s: no taken abbreviations", l)
		}
	}
	for l, m := range extAbbrev {
		for w := range m {
			if abbrevTable(l)[w] != abbrNone {
				t.Errorf("%s %q: taken entry repeats a hand-written one", l, w)
			}
		}
	}
	if len(baseAbbrev) < 100 || baseAbbrev["mr"] != abbrTitle || baseAbbrev["etc"] != abbrPlain || baseAbbrev["no"] != abbrNum {
		t.Errorf("shared table: %d entries, mr %d, etc %d, no %d", len(baseAbbrev), baseAbbrev["mr"], baseAbbrev["etc"], baseAbbrev["no"])
	}
	if langAbbrev["de"]["bzw"] != abbrPlain || abbrevTable("de")["mr"] != abbrTitle || abbrevTable("xx")["etc"] != abbrPlain {
		t.Error("a language's table does not hold its own entries over the shared ones")
	}
}

func TestParseAbbreviations(t *testing.T) {
	good := "# comment\n\n*\ttitle\tmr\thand\nde\tplain\tbzw\thand\nde\tlower\tusf\tps+sbd\nde\tword\tmag\tps\nit\tnum\tart\tsbd\n"
	tb := parseAbbreviations(good)
	if tb.base["mr"] != abbrTitle || tb.own["de"]["bzw"] != abbrPlain {
		t.Errorf("hand entries: %v %v", tb.base, tb.own)
	}
	if e := tb.ext["de"]["usf"]; e.kind != abbrPlain || !e.lowerOnly {
		t.Errorf("de usf: %+v", e)
	}
	if e := tb.ext["it"]["art"]; e.kind != abbrNum || e.lowerOnly {
		t.Errorf("it art: %+v", e)
	}
	if _, ok := tb.ext["de"]["mag"]; ok {
		t.Error("an entry of kind word was read into the table")
	}
	if tb.counts["de"]["hand"] != 1 || tb.counts["de"]["ext"] != 1 {
		t.Errorf("counts: %v", tb.counts)
	}
	for _, bad := range []string{
		"de\tplain\tbzw\n",                         // three fields
		"de\tplain\tbzw\thand\textra\n",            // five fields
		"de\tsometimes\tbzw\thand\n",               // unknown kind
		"de\tplain\tBzw\thand\n",                   // not lower case
		"de\tplain\tbzw\thand\nde\tnum\tbzw\tps\n", // listed twice
		"de\tlower\tbzw\thand\n",                   // lower is for taken entries
		"*\tplain\tbzw\tps\n",                      // shared entries are hand-written
		"\tplain\tbzw\thand\n",                     // no language
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("no panic on %q", bad)
				}
			}()
			parseAbbreviations(bad)
		}()
	}
}
