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
	})
}
