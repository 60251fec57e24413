package normalize

import (
	"context"
	"strings"
	"testing"
)

// TestUnitCurrencyRoundTrip reads every unit and currency of the German,
// Spanish, French and Portuguese data files after an amount in TN, and the spoken
// result back in ITN: the two directions share one table, so each must
// give back what the other wrote ("5 kWh" → "fünf kilowattstunden" →
// "5 kWh"). Units flagged noitn, and written forms another row claims
// (German "dm", also the D-Mark), are left out.
func TestUnitCurrencyRoundTrip(t *testing.T) {
	ctx := context.Background()
	run := func(lang string, mode Mode, in string) string {
		res, err := Normalize(ctx, in, Options{Language: lang, Mode: mode, TopK: 1})
		if err != nil {
			t.Fatalf("Normalize(%q, %s %s): %v", in, lang, mode, err)
		}
		return res.Best()
	}
	for _, lang := range []string{"de", "es", "fr", "pt"} {
		lx := lexiconFor(lang)
		codes := map[string]bool{}
		for _, c := range lx.currencies() {
			for _, sym := range c.symbols {
				codes[strings.ToLower(sym)] = true
			}
		}
		for _, u := range lx.units() {
			w := u.written[0]
			if u.has("noitn") || codes[strings.ToLower(w)] {
				continue
			}
			in := "7 " + w
			spoken := run(lang, TN, in)
			if got := run(lang, ITN, spoken); got != in {
				t.Errorf("%s: %q → %q → %q; want %q back", lang, in, spoken, got, in)
			}
		}
		for _, c := range lx.currencies() {
			if len(c.minor) == 0 {
				continue
			}
			in := "7,25 " + c.symbols[0]
			spoken := run(lang, TN, in)
			back := run(lang, ITN, spoken)
			if !strings.Contains(back, "7,25") || !strings.Contains(back, c.symbols[0]) {
				t.Errorf("%s: %q → %q → %q; want 7,25 and %q", lang, in, spoken, back, c.symbols[0])
			}
		}
	}
}

// TestScaleNounOf checks the joining word after a number that ends with a
// scale noun ("millón", "milhão", "million"), written in digits or with a
// scale word, and its absence after the numeral "mil"/"mille".
func TestScaleNounOf(t *testing.T) {
	tests := []struct{ lang, in, want string }{
		{"es", "$ 1000000", "un millón de dólares"},
		{"es", "2000000 km", "dos millones de kilómetros"},
		{"es", "$5 mil", "cinco mil dólares"},
		{"es", "2 000 001 €", "dos millones un euros"},
		{"pt", "$ 1000000", "um milhão de dólares"},
		{"pt", "$5 mil", "cinco mil dólares"},
		{"fr", "3 000 000 €", "trois millions d'euros"},
		{"fr", "5 mille €", "cinq mille euros"},
		{"de", "3 000 000 €", "drei millionen euro"},
	}
	for _, tt := range tests {
		res, err := Normalize(context.Background(), tt.in, Options{Language: tt.lang, TopK: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Best(); got != tt.want {
			t.Errorf("Normalize(%q, %s) = %q; want %q", tt.in, tt.lang, got, tt.want)
		}
	}
}

// TestRangeMeasure checks a range of amounts before a unit: the dash is
// said as the language's "to".
func TestRangeMeasure(t *testing.T) {
	tests := []struct{ lang, in, want string }{
		{"de", "5-10 kg", "fünf bis zehn kilogramm"},
		{"de", "20–25 %", "zwanzig bis fünf und zwanzig prozent"},
		{"es", "2-3 h", "dos a tres horas"},
		{"fr", "1,5-2,5 m", "un virgule cinq à deux virgule cinq mètres"},
		{"pt", "3-4 km/h", "três a quatro quilômetros por hora"},
		{"pt", "1990-1995", "mil novecentos e noventa a mil novecentos e noventa e cinco"},
		{"de", "10-20 Personen", "10-20 Personen"}, // no unit: NeMo keeps it
	}
	for _, tt := range tests {
		res, err := Normalize(context.Background(), tt.in, Options{Language: tt.lang, TopK: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Best(); got != tt.want {
			t.Errorf("Normalize(%q, %s) = %q; want %q", tt.in, tt.lang, got, tt.want)
		}
	}
}

// TestFrenchOrdinalSuffixes reads every written ordinal suffix of
// data/fr.tsv, and centuries in Roman numerals, both ways.
func TestFrenchOrdinalSuffixes(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1er", "premier"}, {"1re", "première"}, {"1ers", "premiers"}, {"1res", "premières"},
		{"2nd", "second"}, {"2nde", "seconde"}, {"2e", "deuxième"}, {"3èmes", "troisièmes"},
		{"21ᵉ", "vingt et unième"}, {"le XIXe siècle", "le dix-neuvième siècle"},
		{"Ce siècle", "Ce siècle"},
	}
	for _, tt := range tests {
		res, err := Normalize(context.Background(), tt.in, Options{Language: "fr", TopK: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Best(); got != tt.want {
			t.Errorf("Normalize(%q, fr) = %q; want %q", tt.in, got, tt.want)
		}
	}
	res, err := Normalize(context.Background(), "le dix-neuvième siècle", Options{Language: "fr", Mode: ITN, TopK: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Best(), "le XIXᵉ siècle"; got != want {
		t.Errorf("ITN(le dix-neuvième siècle) = %q; want %q", got, want)
	}
}

// TestRangeMoney checks a range of amounts before a currency.
func TestRangeMoney(t *testing.T) {
	tests := []struct{ lang, in, want string }{
		{"de", "5-10 €", "fünf bis zehn euro"},
		{"fr", "20–30 $", "vingt à trente dollars"},
		{"pt", "5-10 €", "cinco a dez euros"},
	}
	for _, tt := range tests {
		res, err := Normalize(context.Background(), tt.in, Options{Language: tt.lang, TopK: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Best(); got != tt.want {
			t.Errorf("Normalize(%q, %s) = %q; want %q", tt.in, tt.lang, got, tt.want)
		}
	}
}
