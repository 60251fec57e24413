package normalize_test

import (
	"context"
	"testing"

	"github.com/sottolabs/sotto/normalize"
)

// TestEnglishTNRules covers English TN rules one by one, each with a case
// the rule changes and a neighbouring case it must leave alone.
func TestEnglishTNRules(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"latex quotes glued", "animals: ``cat``, ``dog``.", `animals: "cat", "dog".`},
		{"latex quotes free-standing", "It is `` tagged `` .", "It is `` tagged `` ."},
		{"space after sentence mark", "NO?17 and !1", "NO? seventeen and ! one"},
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
		{"NO before a number", "VOL 24 NO 39.", "VOL twenty four number thirty nine."},
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
			res, err := normalize.Normalize(context.Background(), tt.in, normalize.Options{Language: "en"})
			if err != nil {
				t.Fatalf("Normalize(%q): %v", tt.in, err)
			}
			if got := res.Best(); got != tt.want {
				t.Errorf("Normalize(%q) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
}
