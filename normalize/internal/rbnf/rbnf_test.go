package rbnf

import (
	"errors"
	"strings"
	"testing"
)

// CLDR 48's spellings, as ICU writes them.
func TestFormatCLDR(t *testing.T) {
	tests := []struct {
		locale, set string
		n           int64
		want        string
	}{
		{"en", "%spellout-cardinal", 0, "zero"},
		{"en", "%spellout-cardinal", 1234567, "one million two hundred thirty-four thousand five hundred sixty-seven"},
		{"en", "%spellout-cardinal", -3, "minus three"},
		{"en", "%spellout-numbering", -3, "minus three"}, // no -x rule: "=%spellout-cardinal=" sees the sign
		{"en", "%spellout-ordinal", 21, "twenty-first"},
		{"en", "%spellout-ordinal", 100, "one hundredth"},
		{"en", "%spellout-numbering-year", 1999, "nineteen ninety-nine"},
		{"en", "%spellout-numbering-year", 2005, "two thousand five"},
		{"en", "%digits-ordinal", 22, "22nd"}, // $(ordinal,…)$
		{"fr", "%spellout-cardinal-masculine", 71, "soixante-et-onze"},
		{"fr", "%spellout-cardinal-masculine", 80, "quatre-vingts"},
		{"fr", "%spellout-cardinal-masculine", 81, "quatre-vingt-un"},
		{"fr", "%spellout-cardinal-masculine", 200, "deux cents"},
		{"fr", "%digits-ordinal", 1, "1er"},
		{"es", "%spellout-cardinal-masculine", 21, "veintiún"},
		{"es", "%spellout-cardinal-masculine", 101, "ciento un"},
		{"ru", "%spellout-cardinal-masculine", 2300, "две тысячи триста"}, // $(cardinal,…)$ few
		{"ru", "%spellout-cardinal-masculine", 5000, "пять тысяч"},
		{"ru", "%spellout-ordinal-masculine", 21, "двадцать первый"},
		{"ru", "%digits-ordinal-feminine", 3, "3-я"},
		{"pl", "%spellout-ordinal-masculine", 200, "dwusetny"},                 // [a|b]
		{"pl", "%spellout-ordinal-masculine", 2300, "dwa tysiące trzechsetny"}, // [a|b]
		{"ja", "%spellout-cardinal", 10000, "一万"},
		{"ja", "%spellout-cardinal", 1000, "千"},
		{"ko", "%spellout-cardinal-sinokorean", 123000, "십이만 삼천"},
		{"vi", "%spellout-cardinal", 101, "một trăm lẻ một"},
		{"hu", "%spellout-cardinal", 2002, "két\u00adezer\u00adkettő"}, // soft hyphens as published
		{"hi", "%digits-ordinal-masculine", 4, "4था"},
	}
	for _, tt := range tests {
		rs, err := ForLocale(tt.locale)
		if err != nil {
			t.Fatalf("ForLocale(%q): %v", tt.locale, err)
		}
		got, err := rs.Format(tt.set, tt.n)
		if err != nil || got != tt.want {
			t.Errorf("%s Format(%s, %d) = %q, %v; want %q", tt.locale, tt.set, tt.n, got, err, tt.want)
		}
	}
}

// Every embedded locale parses, round-trips through String, and formats
// a range of numbers with each public set without error.
func TestEmbeddedLocales(t *testing.T) {
	locs := Locales()
	if len(locs) < 80 {
		t.Fatalf("Locales() has %d entries; want the ~88 of CLDR", len(locs))
	}
	for _, info := range Index() {
		rs, err := ForLocale(info.Locale)
		if err != nil {
			t.Errorf("ForLocale(%q): %v", info.Locale, err)
			continue
		}
		if got := rs.Names(); strings.Join(got, " ") != strings.Join(info.Sets, " ") {
			t.Errorf("%s: Names() = %v; index says %v", info.Locale, got, info.Sets)
		}
		rs2, err := Parse(info.Locale, rs.String())
		if err != nil || rs2.String() != rs.String() {
			t.Errorf("%s: Parse(String()) = %v; want the same rules", info.Locale, err)
		}
		for _, set := range rs.Names() {
			for _, n := range []int64{0, 1, 2, 3, 11, 21, 99, 101, 1000, 2002, 12345, 1000001, 987654321} {
				if _, err := rs.Format(set, n); err != nil {
					t.Errorf("%s Format(%s, %d): %v", info.Locale, set, n, err)
				}
			}
		}
	}
}

func TestFormatDecimal(t *testing.T) {
	rs, _ := ForLocale("en")
	for _, tt := range []struct{ in, want string }{
		{"1.5", "one point five"},
		{"-0.25", "minus zero point two five"},
		{"12", "twelve"},
	} {
		got, err := rs.FormatDecimal("%spellout-cardinal", tt.in)
		if err != nil || got != tt.want {
			t.Errorf("FormatDecimal(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := rs.FormatDecimal("%spellout-cardinal", "1.2.3"); err == nil {
		t.Error("FormatDecimal(1.2.3) succeeded; want an error")
	}
}

func TestRules(t *testing.T) {
	const src = `%main:
-x: minus >>;
0: zero; one; two; three;
10: ten;
20: twenty[->>];
100: <%%hund< hundred[ and >>];
1000/1000: << thousand[ >>];
%%hund:
0: =%main=;
%alt:
0: [x|y];
5: five[ >>>];
`
	rs, err := Parse("en", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		set  string
		n    int64
		want string
	}{
		{"%main", 3, "three"},
		{"%main", 23, "twenty-three"},
		{"%main", 20, "twenty"},
		{"%main", 300, "three hundred"},
		{"%main", 302, "three hundred and two"},
		{"%main", -2, "minus two"},
		{"%main", 2001, "two thousand one"},
		{"%alt", 0, "y"},
	} {
		got, err := rs.Format(tt.set, tt.n)
		if err != nil || got != tt.want {
			t.Errorf("Format(%s, %d) = %q, %v; want %q", tt.set, tt.n, got, err, tt.want)
		}
	}
	if _, err := rs.Format("%%hund", 1); !errors.Is(err, ErrUnknownRuleSet) {
		t.Errorf("Format(private set) error = %v; want ErrUnknownRuleSet", err)
	}
	if _, err := rs.Format("%alt", -1); !errors.Is(err, ErrNoRule) {
		t.Errorf("Format(%%alt, -1) error = %v; want ErrNoRule", err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{
		"",
		"0: zero;",                      // no rule set
		"%a:\n0: <%b<;",                 // undefined set
		"%a:\n10: ten;\n5: five;",       // base values out of order
		"%a:\n0: [zero;",                // unclosed bracket
		"%a:\n0: zero];",                // stray bracket
		"%a:\n0: $(cardinal,one{x})$;",  // no other form
		"%a:\n0: $(weird,other{x})$;",   // bad plural type
		"%a:\n-x: <<;",                  // ←← in -x
		"%a:\n0: ==;",                   // == on itself
		"%a:\n0: a;\n%a:\n0: b;",        // duplicate set
		"%a b:\n0: x;",                  // bad name
		"%a:\n99999999999999999999: x;", // overflow
	} {
		if _, err := Parse("en", src); err == nil {
			t.Errorf("Parse(%q) succeeded; want an error", src)
		}
	}
}

func TestCyclicRules(t *testing.T) {
	rs, err := Parse("en", "%a:\n0: =%b=;\n%b:\n0: =%a=;")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rs.Format("%a", 1); !errors.Is(err, ErrTooDeep) {
		t.Errorf("Format on cyclic sets: %v; want ErrTooDeep", err)
	}
}

func TestForLocaleUnknown(t *testing.T) {
	if _, err := ForLocale("xx"); err == nil {
		t.Error(`ForLocale("xx") succeeded; want an error`)
	}
	if _, err := ForLocale("../rbnf"); err == nil {
		t.Error(`ForLocale("../rbnf") succeeded; want an error`)
	}
}
