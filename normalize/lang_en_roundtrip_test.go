package normalize

import (
	"context"
	"strings"
	"testing"
)

// TestEnglishUnitRoundTrip checks that the two directions agree on every
// unit of data/en.tsv that both read: TN says "7 <unit>" as "seven
// <plural>", and ITN writes that back as "7 <unit>" (the row's first
// written form, or the form of an earlier row claiming the same words).
// The exceptions are the words both tables know to be ambiguous.
func TestEnglishUnitRoundTrip(t *testing.T) {
	ctx := context.Background()
	n := 0
	skip := map[string]string{
		"in": "after a number with a space, \"in\" is the preposition",
		"t":  "a lone lower-case t after a space is a letter",
		"lb": "ITN reads \"pounds\" as money, the more frequent sense",
	}
	for _, u := range enLex.units() {
		if u.has("notn") || u.has("noitn") || skip[u.written[0]] != "" {
			continue
		}
		n++
		w := u.written[0]
		tn, err := Normalize(ctx, "7 "+w, Options{Language: "en"})
		if err != nil {
			t.Fatal(err)
		}
		spoken := "seven " + u.plural[0]
		if got := tn.Best(); got != spoken {
			t.Errorf("TN %q = %q; want %q", "7 "+w, got, spoken)
			continue
		}
		itn, err := Normalize(ctx, spoken, Options{Language: "en", Mode: ITN})
		if err != nil {
			t.Fatal(err)
		}
		want := "7 " + enUnitSpoken[strings.ToLower(u.plural[0])]
		if got := itn.Best(); got != want {
			t.Errorf("ITN %q = %q; want %q", spoken, got, want)
		}
	}
	if n < 100 {
		t.Errorf("%d units read by both directions; want at least 100", n)
	}
}

// TestEnglishCurrencyRoundTrip checks the currencies both directions read:
// TN says "<symbol>7.25" with the major and minor plural, and ITN writes
// those words back as the row's first symbol.
func TestEnglishCurrencyRoundTrip(t *testing.T) {
	ctx := context.Background()
	n := 0
	for _, c := range enLex.currencies() {
		if hasFlag(c.extra, "noitn") || len(c.minor) == 0 || c.perMajor != 100 {
			continue
		}
		n++
		sym := c.symbols[0]
		tn, err := Normalize(ctx, sym+"7.25", Options{Language: "en"})
		if err != nil {
			t.Fatal(err)
		}
		spoken := "seven " + c.majors[0] + " twenty five " + c.minors[0]
		if got := tn.Best(); got != spoken {
			t.Errorf("TN %q = %q; want %q", sym+"7.25", got, spoken)
			continue
		}
		itn, err := Normalize(ctx, spoken, Options{Language: "en", Mode: ITN})
		if err != nil {
			t.Fatal(err)
		}
		if got := itn.Best(); got != sym+"7.25" {
			t.Errorf("ITN %q = %q; want %q", spoken, got, sym+"7.25")
		}
	}
	if n < 5 {
		t.Errorf("%d currencies read by both directions; want at least 5", n)
	}
}
