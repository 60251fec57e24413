package normalize_test

import (
	"context"
	"slices"
	"testing"

	"github.com/sottolabs/sotto/normalize"
)

// esTN normalizes in to spoken Spanish and returns the alternatives, best
// first.
func esTN(t *testing.T, in string) []string {
	t.Helper()
	res, err := normalize.Normalize(context.Background(), in, normalize.Options{Language: "es", Mode: normalize.TN, TopK: 4})
	if err != nil {
		t.Fatalf("Normalize(%q) error %v", in, err)
	}
	var out []string
	for _, a := range res.Alternatives {
		out = append(out, a.Text)
	}
	return out
}

// TestSpanishTNRules covers Spanish TN rules one by one, each with a case
// the rule changes and a neighbouring case it must leave alone.
func TestSpanishTNRules(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"zone read as letters", "5:02 est", "cinco y dos e s t"},
		{"zone with a negative offset", "20:00 gmt-3", "veinte g m t menos tres"},
		{"zone with a spaced positive offset", "3:00 utc +1", "tres u t c más uno"},
		{"zone offset with minutes", "2:00 pm gmt-4:30", "dos de la tarde g m t menos cuatro treinta"},
		{"zone offset with zero minutes", "5:00 gmt+2:00", "cinco g m t más dos"},
		{"hour in h before a zone", "10 h utc+1:30", "diez u t c más una treinta"},
		{"hour in h without a zone stays a measure", "tengo 10 h libres", "tengo diez horas libres"},
		{"zone read by name", "3:00 p.m. pyt", "tres de la tarde hora estándar de paraguay"},
		{"unknown word after a time", "a las 3:00 pyx", "a las tres pyx"},
		{"zero seconds not read", "12:00:00 gmt", "doce g m t"},
		{"seconds read", "3:02:32 pst", "tres horas dos minutos y treinta y dos segundos p s t"},
		{"compact unit clock", "12h02m00s", "doce y dos"},
		{"spaced unit clock with seconds", "15 h 10 min 40 seg", "quince horas diez minutos y cuarenta segundos"},
		{"spaced hours and minutes stay measures", "2 h 30 min", "dos horas treinta minutos"},
		{"arithmetic", "2 + 2 - 1 = 3", "dos más dos menos uno es igual a tres"},
		{"glued arithmetic", "3×2=6", "tres por dos es igual a seis"},
		{"a score is not arithmetic", "ganaron 3-2", "ganaron tres-dos"},
		{"letter dash number", "a-5", "a cinco"},
		{"number dash word", "0-800-hermano", "cero ochocientos hermano"},
		{"date with dashes", "30-2-1990", "treinta de febrero de mil novecientos noventa"},
		{"grouped ordinal", "1.000ª", "milésima"},
		{"grouped number without a marker", "1.000 casas", "mil casas"},
		{"regnal numeral after a queen", "maría vii", "maría séptima"},
		{"regnal numeral after a king", "Felipe II", "Felipe segundo"},
		{"regnal numeral above ten", "Alfonso XIII", "Alfonso trece"},
		{"vi after a name is a word", "Juan vi", "Juan vi"},
		{"numeral after an unknown word", "Guerra Mundial II", "Guerra Mundial II"},
		{"lone lower-case numeral", "cmxcix", "noningentésimo nonagésimo noveno"},
		{"short lower-case word", "mil", "mil"},
		{"IPv4 address", "123.123.0.40", "uno dos tres punto uno dos tres punto cero punto cuatro cero"},
		{"grouped number, not an address", "1.000.000.000", "mil millones"},
		{"decimal before a scale with a currency", "nio21,1 millones", "veintiuno coma un millones de córdobas"},
		{"period after an address", "www.enveedya.net.", "w w w punto e n v e e d y a punto net ."},
		{"period inside an address", "ve a nvidia.com", "ve a nvidia punto com"},
		{"mixed number with a half", "1 1/2", "uno y medio"},
		{"bare half", "1/2", "un medio"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := esTN(t, tt.in); len(got) == 0 || got[0] != tt.want {
				t.Errorf("Normalize(%q) = %q; want best %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestSpanishHalfAlternatives checks that a half keeps both readings.
func TestSpanishHalfAlternatives(t *testing.T) {
	for in, want := range map[string][]string{
		"1/2":   {"un medio", "medio"},
		"1 1/2": {"uno y medio", "uno y un medio"},
	} {
		if got := esTN(t, in); !slices.Equal(got, want) {
			t.Errorf("Normalize(%q) alternatives = %q; want %q", in, got, want)
		}
	}
}
