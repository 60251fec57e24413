package normalize_test

import "testing"

// TestRound8Rules covers the rule gaps found by the eighth generalization
// round (testdata/generalize/round8), each with neighbouring inputs the
// rule must leave alone.
func TestRound8Rules(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// Latin-script dates: every full name of a [months] row is the
		// month, and TN says a regional spelling as written (Austrian
		// "Jänner", "Feber"; Peruvian and Uruguayan "setiembre"); an
		// abbreviation that only a regional name begins says that name
		{"de Jänner", "de", tn, "am 12. Jänner 2025", "am zwölfter jänner zwei tausend fünf und zwanzig"},
		{"de Feber", "de", tn, "2. Feber 1999", "zweiter feber neunzehn hundert neun und neunzig"},
		{"de Jänner ends a sentence", "de", tn, "am 12. Jänner.", "am zwölfter jänner."},
		{"de Jän.", "de", tn, "3. Jän. 2020", "dritter jänner zwei tausend zwanzig"},
		{"de Jan. stays januar", "de", tn, "3. Jan. 2020", "dritter januar zwei tausend zwanzig"},
		{"de Januar stays januar", "de", tn, "1. Januar", "erster januar"},
		{"de Mrz. from the table", "de", tn, "5. Mrz. 2020", "fünfter märz zwei tausend zwanzig"},
		{"de numeric date says the first name", "de", tn, "05.01.2020", "fünfter januar zwei tausend zwanzig"},
		{"de month alone stays", "de", tn, "Im Jänner war es kalt.", "Im Jänner war es kalt."},
		{"de ITN Jänner", "de", itn, "fünfzehnter jänner", "15. Jan."},
		{"de ITN Feber with a year", "de", itn, "zweiter feber zwei tausend", "2. Feb. 2000"},
		{"de ITN month and year", "de", itn, "jänner zwei tausend zehn", "Jan. 2010"},
		{"de ITN month alone stays", "de", itn, "im jänner", "im jänner"},
		{"es setiembre", "es", tn, "14 de setiembre de 2023", "catorce de setiembre de dos mil veintitrés"},
		{"es Setiembre capitalised", "es", tn, "5 de Setiembre", "cinco de setiembre"},
		{"es setiembre first", "es", tn, "setiembre 5", "cinco de setiembre"},
		{"es set. is setiembre", "es", tn, "10 set. 2020", "diez de setiembre de dos mil veinte"},
		{"es sept. stays septiembre", "es", tn, "10 sept. 2020", "diez de septiembre de dos mil veinte"},
		{"es septiembre stays", "es", tn, "5 de septiembre", "cinco de septiembre"},
		{"es numeric date says the first name", "es", tn, "01/09/2020", "primero de septiembre de dos mil veinte"},
		// A scheme or "www" said letter by letter is written in lower
		// case, however the letters were capitalised (NeMo's cased
		// electronic cases); the rest of the address keeps its case
		{"en W w w", "en", itn, "W w w dot python dot org", "www.python.org"},
		{"en W W W", "en", itn, "W W W dot python dot org", "www.python.org"},
		{"en H t t p s", "en", itn, "H t t p s colon slash slash python dot org", "https://python.org"},
		{"en in a sentence", "en", itn, "Go to w w w dot python dot org", "Go to www.python.org"},
		{"en user name keeps its capital", "en", itn, "A b c at gmail dot com", "Abc@gmail.com"},
		{"en a label beginning with www keeps its case", "en", itn, "W w w x dot com", "Wwwx.com"},
		{"es W W W", "es", itn, "W W W punto a b c punto com", "www.abc.com"},
		{"es H t t p", "es", itn, "H t t p dos puntos barra barra a b c punto com", "http://abc.com"},
		{"de W w w", "de", itn, "W w w punkt a b c punkt de", "www.abc.de"},
		{"fr W w w", "fr", itn, "W w w point a b c point fr", "www.abc.fr"},
		// Number references ([abbreviations] flag numtn) are read in TN only
		// before a number (round 7's open "vgl. S. 12")
		{"de S. before a page number", "de", tn, "vgl. S. 12", "vergleiche seite zwölf"},
		{"de S. before a name stays", "de", tn, "S. Maria", "S. Maria"},
		{"de Kap. ending a sentence", "de", tn, "siehe Kap. 3.", "siehe kapitel drei."},
		{"de Art. before a number", "de", tn, "Art. 5 GG", "artikel fünf GG"},
		{"de Art as a word stays", "de", tn, "Art und Weise", "Art und Weise"},
		{"de ITN keeps seite", "de", itn, "seite zwölf", "seite 12"},
		{"es cap.", "es", tn, "cap. 3", "capítulo tres"},
		{"es art. in a sentence", "es", tn, "el art. 14 dice", "el artículo catorce dice"},
		{"es p. ej. stays por ejemplo", "es", tn, "p. ej. esto", "por ejemplo esto"},
		{"es vol. before a Roman numeral stays", "es", tn, "vol. II", "vol. II"},
		{"fr p.", "fr", tn, "voir p. 12", "voir page douze"},
		{"fr chap.", "fr", tn, "chap. 3", "chapitre trois"},
		{"fr p. ex. stays par exemple", "fr", tn, "p. ex. ceci", "par exemple ceci"},
		{"pt cap. and p.", "pt", tn, "ver cap. 3, p. 45", "ver capítulo três, página quarenta e cinco"},
		// A dotted weekday abbreviation of [weekdays] before a date is the
		// weekday (German now as French was); German "DD.MM." takes its
		// final period where the text goes on in lower case
		{"de weekday before a date", "de", tn, "Wir fahren am Sa. 14.06. los.", "Wir fahren am samstag vierzehnter juni los."},
		{"de Fr. before a date is Freitag", "de", tn, "Fr. 3.5. ist frei", "freitag dritter mai ist frei"},
		{"de Fr. before a name stays frau", "de", tn, "Fr. Müller kommt", "frau Müller kommt"},
		{"de weekday before a written month", "de", tn, "Mo. 3. Mai", "montag dritter mai"},
		{"de date period at the end stays", "de", tn, "am 14.06.", "am vierzehnter juni."},
		{"de date period before a capital stays", "de", tn, "am 14.06. Wir", "am vierzehnter juni. Wir"},
		{"de date period before lower case goes", "de", tn, "bis 02.03. und", "bis zweiter märz und"},
		{"fr weekday before a date", "fr", tn, "mar. 5 mai 2020", "mardi cinq mai deux mille vingt"},
	})
}
