package normalize_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/normalize"
)

// TestEnglishTNRules covers English TN rules one by one, each with a case
// the rule changes and a neighbouring case it must leave alone.
func TestEnglishTNRules(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"latex quotes glued", "animals: ``cat``, ``dog``.", `animals: "cat", "dog".`},
		{"latex quotes free-standing", "It is `` tagged `` .", "It is `` tagged `` ."},
		{"input spacing kept after sentence marks", "NO?17 and !1", "NO?seventeen and !one"},
		{"and after hundred in a free-standing number", "123", "one hundred and twenty three"},
		{"no and in running text", "170 acres", "one hundred seventy acres"},
		{"no and inside a serial", "133-ABC", "one hundred thirty three-ABC"},
		{"money subunit without and", "$20.01", "twenty dollars one cent"},
		{"solid numeric range keeps the dash", "from 2-10", "from two - ten"},
		{"range counting something", "lose 3-4 pounds", "lose three to four pounds"},
		{"spaced range", "pages 28 - 30", "pages twenty eight to thirty"},
		{"vanity toll-free number", "1-800-GO-2-HAUL", "one, eight hundred, GO two, HAUL"},
		{"markup tag kept", "<pitch=-.3>5</pitch>", "<pitch=-.3> five </pitch>"},
		{"acronym product name in a URL path", "https://www.nvidia.com/dgx-basepod", "HTTPS colon slash slash WWW dot NVIDIA dot com slash DGX dash BASEPOD"},
		{"model number after an acronym", "http://www.nvidia.com/rtx-6000", "HTTP colon slash slash WWW dot NVIDIA dot com slash RTX dash six thousand"},
		{"bare domain with an unknown TLD", "test.abc", "test dot abc"},
		{"unknown one-letter unit after per", "3 cc/s", "three CC per S"},
		{"digits with an ordinal suffix but a leading zero", "000th", "zero zero zero th"},
		{"period of a.m. before other punctuation", "4A.M.?", "four AM.?"},
		{"minus after a question mark", "NO?-34", "NO?minus thirty four"},
		{"no space after opening bracket", "(1) item", "(one) item"},
		{"five-digit number", "10000 people", "ten thousand people"},
		{"fiscal quarter", "in 3Q22 and 4Q05", "in the third quarter of twenty two and the fourth quarter of oh five"},
		{"not a quarter", "5Q22", "five Q twenty two"},
		{"asterisk between numbers", "2 * 10 μm and 3*4", "two times ten micrometers and three times four"},
		{"asterisk elsewhere", "a*b", "a*b"},
		{"model code", "an A321 and an F150", "an A three twenty one and an F one fifty"},
		{"number after a word", "x321", "x three hundred twenty one"},
		{"ratio", "won 2:8 and 3:1.", "won two to eight and three to one."},
		{"typographic quotes", "“I’m here,” she said.", "\"I'm here,\" she said."},
		{"saint after a title", "Lord St. Maur and Mount St. Helens", "Lord saint Maur and Mount saint Helens"},
		{"saint after a sentence-initial word", "Imagine St. Paul here.", "Imagine saint Paul here."},
		{"street after a street name", "He lived on Elm St. It was cold.", "He lived on Elm Street. It was cold."},
		{"roman one after a name", "Charles I. had it", "Charles the first. had it"},
		{"pronoun I after a name", "Sam I am", "Sam I am"},
		{"pronoun I after a function word", "Then I.", "Then I."},
		{"St before a name", "the St Lawrence", "the saint Lawrence"},
		{"St after a street name", "123 Smth St, City", "one twenty three Smth Street, City"},
		{"Hon.", "the Hon. John Smith", "the honorable John Smith"},
		{"lower-case st before a name", "of st John", "of saint John"},
		{"currency sign spaced from the amount", "sold for $ 60 each", "sold for sixty dollars each"},
		{"initial C is not a numeral", "Thomas C. Campbell", "Thomas C. Campbell"},
		{"roman numeral after a name", "Louis XIV", "Louis the fourteenth"},
		{"number sign", "the #7 seed and # 34,", "the number seven seed and number thirty four,"},
		{"hash elsewhere", "#mytext#", "hash mytext hash"},
		{"NO before a number", "VOL 24 NO 39.", "Volume twenty four number thirty nine."},
		{"No starting a sentence", "No 2 people agree.", "No two people agree."},
		{"NO as a word", "block NO synthesis", "block NO synthesis"},
		{"verse reference is not a ratio", "Micah 6:6-8", "Micah six:six to eight"},
		{"six-digit number read as digits", "123000", "one two three zero zero zero"},
		{"ZIP code after a state", "Santa Clara, CA 95051", "Santa Clara, California nine five zero five one"},
		{"trailing slash after number", "14/ they", "fourteen slash they"},
		{"slash between numbers kept", "31/31/100", "thirty one/thirty one/one hundred"},
		{"prefix hyphen before number", "the mid-80s", "the mid eighties"},
		{"serial ending in a year-like number", "123/261788/2021", "one hundred twenty three/two six one seven eight eight/two thousand twenty one"},
		{"number beyond plausible years", "4567 items", "four thousand five hundred sixty seven items"},
		{"plausible year", "in 2999", "in twenty nine ninety nine"},
		{"lower-case directory name", "file:///c/build/html/intro.html", "file colon slash slash slash c slash build slash html slash intro dot HTML"},
		{"weekday before a numeric date", "for Tu (2/22) at 5 pm.", "for Tuesday (february twenty second) at five PM."},
		{"fraction without weekday", "add 2/3 cup", "add two thirds cup"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := normalize.Normalize(context.Background(), tt.in, normalize.Options{Language: "en", Spacing: normalize.SpacingKeep})
			if err != nil {
				t.Fatalf("Normalize(%q): %v", tt.in, err)
			}
			if got := res.Best(); got != tt.want {
				t.Errorf("Normalize(%q) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSpacingSeparate(t *testing.T) {
	tests := []struct{ in, keep, separate string }{
		{"1!hello", "one!hello", "one! hello"},
		{"(1)Hello", "(one)Hello", "(one) Hello"},
		{"single quote. '4", "single quote. 'four", "single quote. ' four"},
		{"12,again,4", "twelve,again,four", "twelve, again, four"},
		{"&hi;&hi;", "and hi;and hi;", "and hi; and hi;"},
		{"check §- and", "check section- and", "check section - and"},
		{`non matching quotes?" "12text"`, `non matching quotes?" "twelve text"`, `non matching quotes?" "twelve text"`},
		{"80's and 3'sss", "eighty's and three'sss", "eighty's and three ' sss"},
		{"133-ABC and 31/31/100", "one hundred thirty three-ABC and thirty one/thirty one/one hundred",
			"one hundred thirty three-ABC and thirty one/thirty one/one hundred"},
		{"covid-19.5", "covid-nineteen point five", "covid- nineteen point five"},
		{"2015年08月08号", "", ""},
	}
	for _, tt := range tests {
		for _, sp := range []normalize.Spacing{normalize.SpacingKeep, normalize.SpacingSeparate} {
			lang, want := "en", tt.keep
			if sp == normalize.SpacingSeparate {
				want = tt.separate
			}
			if want == "" { // Han text is never spaced
				lang = "zh"
				res, err := normalize.Normalize(context.Background(), tt.in, normalize.Options{Language: lang, Spacing: sp})
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(res.Best(), " ") {
					t.Errorf("Normalize(%q, spacing %d) = %q; want no spaces", tt.in, sp, res.Best())
				}
				continue
			}
			res, err := normalize.Normalize(context.Background(), tt.in, normalize.Options{Language: lang, Spacing: sp})
			if err != nil {
				t.Fatalf("Normalize(%q): %v", tt.in, err)
			}
			if got := res.Best(); got != want {
				t.Errorf("Normalize(%q, spacing %d) = %q; want %q", tt.in, sp, got, want)
			}
		}
	}
	if _, err := normalize.Normalize(context.Background(), "1", normalize.Options{Language: "en", Spacing: 7}); err == nil {
		t.Error("spacing 7 was accepted")
	}
}

// SpacingAuto, the default, separates in English TN and keeps elsewhere.
func TestSpacingAuto(t *testing.T) {
	tests := []struct{ lang, mode, in, want string }{
		{"en", "tn", "1!hello and 3*4", "one! hello and three times four"},
		{"en", "tn", "He was born in 1990.He left.", "He was born in nineteen ninety. He left."},
		{"de", "tn", "1!hallo", "eins!hallo"},
		{"en", "itn", "one!hello", "one!hello"},
	}
	for _, tt := range tests {
		res, err := normalize.Normalize(context.Background(), tt.in, normalize.Options{Language: tt.lang, Mode: normalize.Mode(tt.mode)})
		if err != nil {
			t.Fatalf("Normalize(%q): %v", tt.in, err)
		}
		if got := res.Best(); got != tt.want {
			t.Errorf("Normalize(%s %s %q) = %q; want %q", tt.lang, tt.mode, tt.in, got, tt.want)
		}
	}
}

// An alternative may keep a span as written; its Spans then leave it out.
func TestAsWrittenAlternative(t *testing.T) {
	res, err := normalize.Normalize(context.Background(), "the death-cup", normalize.Options{Language: "en", TopK: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.Best() != "the death cup" {
		t.Fatalf("best = %q; want %q", res.Best(), "the death cup")
	}
	found := false
	for _, a := range res.Alternatives {
		if a.Text == "the death-cup" {
			found = true
			if len(a.Spans) != 0 {
				t.Errorf("as-written alternative has spans %+v", a.Spans)
			}
		}
	}
	if !found {
		t.Errorf("no as-written alternative in %+v", res.Alternatives)
	}
}
