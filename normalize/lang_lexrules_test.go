package normalize_test

import (
	"context"
	"testing"

	"github.com/sottolabs/sotto/normalize"
)

// ruleCase is one input for one language and mode, with the best
// alternative it must give.
type ruleCase struct {
	name, lang string
	mode       normalize.Mode
	in, want   string
}

func runRuleCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.lang+"/"+string(tt.mode)+"/"+tt.name, func(t *testing.T) {
			res, err := normalize.Normalize(context.Background(), tt.in, normalize.Options{Language: tt.lang, Mode: tt.mode, TopK: 1})
			if err != nil {
				t.Fatalf("Normalize(%q) error %v", tt.in, err)
			}
			if len(res.Alternatives) == 0 || res.Alternatives[0].Text != tt.want {
				got := ""
				if len(res.Alternatives) > 0 {
					got = res.Alternatives[0].Text
				}
				t.Errorf("Normalize(%q) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
}

// enCase is an English rule case with its mode written as in the suites
// ("tn", "itn").
type enCase = struct{ name, mode, in, want string }

// runEnglishCases runs English cases through runRuleCases.
func runEnglishCases(t *testing.T, cases []enCase) {
	t.Helper()
	rc := make([]ruleCase, len(cases))
	for i, c := range cases {
		rc[i] = ruleCase{name: c.name, lang: "en", mode: normalize.Mode(c.mode), in: c.in, want: c.want}
	}
	runRuleCases(t, rc)
}

const (
	tn  = normalize.TN
	itn = normalize.ITN
)

// TestLexiconRules covers the rules that read the language data files
// (data/de.tsv, es.tsv, fr.tsv, zh.tsv): each rule with a case it changes
// and, where one is near, a case it must leave alone. The cases are
// written from the rules, not taken from the shared suites.
func TestLexiconRules(t *testing.T) {
	runRuleCases(t, []ruleCase{
		// units and currencies from the tables, both directions
		{"unit from the table", "de", tn, "5 kWh", "fünf kilowattstunden"},
		{"same unit back", "de", itn, "fünf kilowattstunden", "5 kwh"},
		{"suppletive plural", "de", tn, "3 h", "drei stunden"},
		{"currency code", "de", tn, "CHF 20", "zwanzig schweizer franken"},
		{"currency back", "de", itn, "zwanzig schweizer franken", "CHF20"},
		{"currency word alternative", "es", itn, "doce pesos", "$12"},
		{"feminine currency", "es", tn, "£21", "veintiuna libras"},
		{"feminine unit", "fr", tn, "1 h", "une heure"},
		{"unit spelled in ITN", "fr", itn, "cinquante kilomètres carrés", "50 km²"},
		{"zh unit", "zh", tn, "50Hz", "五十赫兹"},
		{"zh unit after a space", "zh", tn, "5 kg", "五千克"},
		{"zh single capital is not a unit", "zh", tn, "5G", "5G"},
		{"zh rate", "zh", tn, "2MB/s", "二兆字节每秒"},
		{"zh unit with the multiplier's character", "zh", itn, "五千克", "5kg"},
		// scale words before units and currencies
		{"unit after a scale word", "es", tn, "1 millón g", "un millón de gramos"},
		{"unit after a scale and de", "es", tn, "2 millones de km", "dos millones de kilómetros"},
		{"currency after a scale and de", "es", tn, "1,5 millones de €", "uno coma cinco millones de euros"},
		{"French elision after a scale", "fr", tn, "1 million €", "un million d'euros"},
		{"French de after a scale", "fr", tn, "5 millions km", "cinq millions de kilomètres"},
		{"abbreviated scale word", "de", tn, "2 Mrd. Menschen", "zwei milliarden Menschen"},
		{"number before a scale word", "de", tn, "1 million", "eins million"},
		{"a scale word alone is not a number", "es", itn, "muchas millones", "muchas millones"},
		{"two numbers joined by y after mil", "es", itn, "entre dieciséis mil y dieciocho mil", "entre 16000 y 18000"},
		{"one number with y after mil", "es", itn, "mil y uno", "1001"},
		// sub-unit money
		{"cents alone", "fr", tn, "0,50 €", "cinquante centimes"},
		{"cents alone back", "fr", itn, "vingt centimes", "0,20 €"},
		{"céntimos back", "es", itn, "veinticinco céntimos", "€0,25"},
		{"trailing zeros of a money decimal", "de", tn, "$2,2010", "zwei komma zwei null eins dollar"},
		{"zh minor unit alone", "zh", itn, "五十美分", "US$0.50"},
		{"zh cents after the major unit", "zh", itn, "十美元五十", "US$10.50"},
		{"zh colloquial yuan", "zh", itn, "三块五毛", "3块5毛"},
		{"zh 分 alone is minutes", "zh", itn, "五分", "5分"},
		// time zones
		{"zone from the table", "de", tn, "14:30 Uhr MEZ", "vierzehn uhr dreißig m e z"},
		{"spoken zone back", "de", itn, "vierzehn uhr m e z", "14 Uhr mez"},
		{"zone with an offset", "es", itn, "la una de la tarde u t c más cuatro", "la 1:00 p.m. UTC+4"},
		{"zone by name", "es", itn, "las diez de la mañana hora estándar de paraguay", "las 10:00 a.m. PYT"},
		// whitelist and dotted abbreviations
		{"dotted abbreviation", "de", tn, "vgl. u.a.", "vergleiche unter anderem"},
		{"abbreviation with a space", "es", tn, "c.º b.", "camino bajo"},
		{"ITN abbreviation", "es", itn, "señora lópez", "Sra. lópez"},
		{"French title", "fr", itn, "madame dupont", "Mᵐᵉ dupont"},
		{"French plural title, standard spelling", "fr", itn, "mesdemoiselles dupont", "Mˡˡᵉˢ dupont"},
		{"French plural title, table spelling", "fr", itn, "mademoiselles dupont", "Mˡˡᵉˢ dupont"},
		{"French plural title read as the table's first form", "fr", tn, "Mˡˡᵉˢ Dupont", "mademoiselles Dupont"},
		{"capitalized spoken whitelist word", "es", itn, "Usted", "Ud."},
		{"upper-case abbreviation", "es", tn, "SR. López", "señor López"},
		{"weekday abbreviation", "es", tn, "lun. 5", "lunes cinco"},
		// year ranges
		{"German year range", "de", tn, "1990-1995", "neunzehn hundert neunzig bis neunzehn hundert fünf und neunzig"},
		{"backward range is not a range", "de", tn, "2020-2019", "2020-2019"},
		{"Spanish year range", "es", tn, "1990–2000", "mil novecientos noventa a dos mil"},
		{"zh year range", "zh", tn, "2021~2022年", "二零二一到二零二二年"},
		// ordinal abbreviations
		{"Spanish ordinal with a period", "es", tn, "1.er puesto", "primer puesto"},
		{"Spanish feminine ordinal", "es", tn, "la 2ª vez", "la segunda vez"},
		{"German ordinal date", "de", itn, "dritter mai", "3. Mai"},
		{"French ordinal", "fr", tn, "3e arrondissement", "troisième arrondissement"},
		{"zh ordinal", "zh", tn, "第21名", "第二十一名"},
		// regnal numerals without a list of names
		{"queen", "es", tn, "Isabel II", "Isabel segunda"},
		{"pope above ten", "es", tn, "Juan XXIII", "Juan veintitrés"},
		{"title, not a name", "es", tn, "Guerra Mundial II", "Guerra Mundial II"},
		// dates
		{"Spanish dotted date", "es", tn, "01.04.2010", "primero de abril de dos mil diez"}, // day one is "primero" (NeMo's deterministic date verbalizer)
		{"French dashed date", "fr", tn, "02-03-2003", "deux mars deux mille trois"},
		{"French day list", "fr", tn, "les 17/18/19 mars", "les dix-sept dix-huit dix-neuf mars"},
		{"French decade", "fr", tn, "les 80s", "les eighties"},
		{"zh month and day with zeros", "zh", tn, "08/08", "八月八日"},
		{"zh fraction stays", "zh", tn, "1/3", "三分之一"},
		// numbers
		{"French comma groups", "fr", tn, "2,000,000", "deux millions"},
		{"French decimal comma", "fr", tn, "1,000", "un virgule zéro zéro zéro"},
		{"French spaced ten and unit", "fr", itn, "quarante trois", "40 trois"},
		{"French hyphenated ten and unit", "fr", itn, "quarante-trois", "43"},
		{"French grouped decimals", "fr", itn, "un virgule zéro zéro zéro zéro vingt-huit", "1,000 028"},
		{"French fraction over ordinal", "fr", itn, "un centième", "1/100"},
		{"French ordinal stays", "fr", itn, "deux centième", "200ᵉ"},
		{"German -tel after -s", "de", itn, "drei sechzehntel", "3/16"},
		{"number agreeing with a unit", "es", tn, "21 toneladas", "veintiuna toneladas"},
		{"zh spaced math", "zh", tn, "2 ≤ 4", "二小于等于四"},
		{"zh generation", "zh", tn, "90后", "九零后"},
		{"zh ten-group after zero", "zh", tn, "10000100000", "一百亿零十万"},
		{"zh last group keeps 一十", "zh", tn, "10010", "一万零一十"},
		{"es month abbreviation", "es", tn, "5 ene. 2020", "cinco de enero de dos mil veinte"},
		{"es year-day-month", "es", tn, "1990-20-01", "veinte de enero de mil novecientos noventa"},
		{"es part of day", "es", itn, "las dos peme", "las 2:00 p.m."},
		{"es era", "es", itn, "cien antes de nuestra era", "100 a. n. e."},
		{"es cents after con", "es", itn, "un euro con cincuenta", "€1,50"},
		{"de full hour", "de", tn, "2 Uhr", "zwei uhr"},
		{"fr elided unit", "fr", itn, "cinq kilomètres à l'heure", "5 km/h"},
		// telephone numbers
		{"French pairs", "fr", itn, "zéro six double deux trente quarante cinquante", "06 22 30 40 50"},
		{"French leading zero unsaid", "fr", itn, "deux douze trente-deux trente trente", "02 12 32 30 30"},
		{"French small numbers stay", "fr", itn, "deux trois", "deux trois"},
		{"German area code", "de", itn, "null vier eins eins eins zwei drei vier eins zwei drei vier", "(0411) 1234-1234"},
		// fractions before units
		{"fraction of a unit", "es", itn, "tres quintos de metro", "3/5 m"},
	})
}
