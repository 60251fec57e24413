package normalize

import (
	"reflect"
	"strings"
	"testing"
)

// TestEmbeddedLexicons parses every embedded data file (loadLexicons panics
// on malformed data, so reaching the checks means they parsed) and checks
// the documented sections are well formed.
func TestEmbeddedLexicons(t *testing.T) {
	lx := loadLexicons()
	if len(lx) == 0 {
		t.Fatal("no embedded data files")
	}
	for tag, l := range lx {
		for _, u := range l.units() {
			if len(u.written) == 0 || len(u.singular) == 0 {
				t.Errorf("%s [units] %q: needs a written and a spoken form", tag, u.written)
			}
		}
		for _, c := range l.currencies() {
			if len(c.symbols) == 0 || len(c.major) == 0 {
				t.Errorf("%s [currencies] %q: needs a symbol and a major unit", tag, c.symbols)
			}
			if len(c.minor) > 0 && c.perMajor <= 1 {
				t.Errorf("%s [currencies] %q: minor per major %d", tag, c.symbols, c.perMajor)
			}
		}
		for _, m := range l.months() {
			if m.num < 1 || m.num > 12 {
				t.Errorf("%s [months] %q: number %d", tag, m.names, m.num)
			}
		}
		for _, m := range l.weekdays() {
			if m.num < 1 || m.num > 7 {
				t.Errorf("%s [weekdays] %q: number %d", tag, m.names, m.num)
			}
		}
		for _, m := range l.magnitudes() {
			if m.power < 1 {
				t.Errorf("%s [magnitudes] %q: power %d", tag, m.words, m.power)
			}
		}
		for _, sec := range []string{"timezones", "abbreviations", "symbols"} {
			for _, p := range l.pairs(sec) {
				if len(p.spoken) == 0 {
					t.Errorf("%s [%s] %q: no spoken form", tag, sec, p.written)
				}
			}
		}
	}
	if lexiconFor("en") == nil || len(lexiconFor("en").units()) == 0 {
		t.Error("en: no units")
	}
	if got := lexiconFor("xx-none").rows("units"); got != nil {
		t.Errorf("missing language: rows = %v", got)
	}
}

func TestParseLexicon(t *testing.T) {
	src := "# comment\n\n[units]\nkm|kms\tkilometer|kilometre\tkilometers\r\n" +
		"  # indented comment\n[currencies]\n$|USD\tdollar\tdollars\tcent\tcents\t100\n" +
		"[units]\nm\tmeter\t\t\t\n#\n[symbols]\n#\thash\n"
	l, err := parseLexicon("t", src)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"km|kms", "kilometer|kilometre", "kilometers"}, {"m", "meter"}}
	if got := l.rows("units"); !reflect.DeepEqual(got, want) {
		t.Errorf("units rows = %q, want %q", got, want)
	}
	us := l.units()
	if !reflect.DeepEqual(us[1].plural, []string{"meter"}) {
		t.Errorf("empty plural should default to singular: %q", us[1].plural)
	}
	c := l.currencies()[0]
	if c.perMajor != 100 || c.minors[0] != "cents" || c.symbols[1] != "USD" {
		t.Errorf("currency = %+v", c)
	}
	if got := l.rows("symbols"); len(got) != 1 || got[0][0] != "#" {
		t.Errorf("a '#' inside a row is data: %q", got)
	}
	if !reflect.DeepEqual(alts(" a | |b|"), []string{"a", "b"}) {
		t.Errorf("alts = %q", alts(" a | |b|"))
	}
	if alts("|") != nil || first("") != "" {
		t.Error("empty alternatives")
	}
	for _, bad := range []string{
		"x\ty\n",                        // row before a section
		"[units]\n\tmeter\n",            // empty key
		"[units]\n|\tmeter\n",           // key with only empty alternatives
		"[months]\nJanuary\tJan\tone\n", // number column
		"[symbols]\na\tb\tc\td\n",       // too many fields
	} {
		if _, err := parseLexicon("t", bad); err == nil {
			t.Errorf("parseLexicon(%q) succeeded, want an error", bad)
		}
	}
	// A malformed header is a row, and rows need a section.
	if _, err := parseLexicon("t", "[Units]\n"); err == nil {
		t.Error("[Units] accepted as a section name")
	}
}

func FuzzParseLexicon(f *testing.F) {
	f.Add("[units]\nkm|kms\tkilometer\tkilometers\n")
	f.Add("# c\n[currencies]\n$\tdollar\tdollars\tcent\tcents\t100\n[x]\n|\t\n")
	f.Add("[months]\nMay\t\t5\r\n[timezones]\nEST\te s t\n")
	f.Fuzz(func(t *testing.T, src string) {
		l, err := parseLexicon("f", src)
		if err != nil {
			return
		}
		for _, sec := range l.order {
			for _, r := range l.rows(sec) {
				if len(r) == 0 || len(alts(r[0])) == 0 {
					t.Fatalf("[%s] row %q has an empty key", sec, r)
				}
				for _, fld := range r {
					if strings.ContainsAny(fld, "\t\n") {
						t.Fatalf("field %q holds a separator", fld)
					}
				}
			}
		}
		// The typed accessors never panic on parsed data.
		l.units()
		l.currencies()
		l.magnitudes()
		l.months()
		l.weekdays()
		l.pairs("timezones")
		l.pairs("abbreviations")
	})
}
