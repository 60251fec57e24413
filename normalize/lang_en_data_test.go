package normalize_test

import (
	"context"
	"testing"

	"github.com/sottolabs/sotto/normalize"
)

// TestEnglishLexiconRules covers the English rules that read data/en.tsv,
// in both directions, each with a neighbouring case the rule must leave
// alone.
func TestEnglishLexiconRules(t *testing.T) {
	tests := []struct{ name, mode, in, want string }{
		{"unit from the table", "tn", "Use 3 tbsp of sugar.", "Use three tablespoons of sugar."},
		{"same unit back", "itn", "run five kilometers", "run 5 km"},
		{"everyday unit stays a word", "itn", "use fifteen tablespoons of sugar", "use 15 tablespoons of sugar"},
		{"lone capital is a letter", "tn", "a 3D model", "a three D model"},
		{"unit in any case", "tn", "5 KM away", "five kilometers away"},
		{"cubic unit named whole", "itn", "five cubic miles", "5 mi³"},
		{"square unit composed", "itn", "five square yards", "5 yd²"},
		{"unit after a scale word", "itn", "two million kilometers", "2 million km"},
		{"days stay words", "itn", "fifteen days", "15 days"},
		{"feet and inches", "tn", "It is 6 ft 2 in.", "It is six feet two inches."},
		{"in alone is a preposition", "tn", "put 5 in the box", "put five in the box"},
		{"in ending the text is inches", "tn", "a pipe of 9 in", "a pipe of nine inches"},
		{"in before a comma is inches", "tn", "9 in, then 4 ft", "nine inches, then four feet"},
		{"currency code after the amount", "tn", "Pay 5 EUR now.", "Pay five euros now."},
		{"currency code before the amount", "tn", "Pay CHF 5 now.", "Pay five swiss francs now."},
		{"code with its period", "tn", "Rs. 500", "five hundred rupees"},
		{"letters glued to a dollar sign", "tn", "HK$5", "five hong kong dollars"},
		{"glued scale after an amount", "tn", "£5m", "five million pounds"},
		{"no scale inside a code", "tn", "B2B", "B two B"},
		{"rate per unit", "tn", "$3/kg", "three dollars per kilogram"},
		{"rate per time", "tn", "$500/mo", "five hundred dollars per month"},
		{"cents sign", "tn", "99¢", "ninety nine cents"},
		{"pence alone", "itn", "fifty pence", "£0.50"},
		{"several-word currency", "itn", "five us dollars", "$5"},
		{"currency left as words", "itn", "five thousand swiss francs", "5000 swiss francs"},
		{"time zone after a time", "tn", "At 10 am est.", "At ten AM EST."},
		{"dotted time zone", "tn", "At 5 pm e.s.t. we go", "At five PM EST we go"},
		{"not a zone", "tn", "At 7 pm et al", "At seven PM et al"},
		{"spoken zone", "itn", "three thirty p m u t c", "03:30 p.m. utc"},
		{"letters that are no zone", "itn", "five p m a b", "05:00 p.m. a b"},
		{"minutes to the hour", "itn", "ten to four p m", "03:50 p.m."},
		{"minutes to the hour need a marker", "itn", "it takes ten to fifteen minutes", "it takes ten to 15 min"},
		{"quarter to the hour", "itn", "quarter to four", "03:45"},
		{"o'clock with a marker", "itn", "five o'clock p m", "05:00 p.m."},
		{"whitelist term", "itn", "the g p u is fast", "the GPU is fast"},
		{"whitelist term over a serial", "itn", "l g a eleven fifty", "LGA 1150"},
		{"serial", "itn", "a b nine", "ab9"},
		{"abbreviation back", "itn", "Doctor Smith", "Dr. Smith"},
		{"street suffix", "tn", "on Elm Cir", "on Elm Circle"},
		{"verbatim symbol", "tn", "A © B", "A copyright B"},
		{"ordinal suffix", "tn", "the 22nd and 13th", "the twenty second and thirteenth"},
		{"ordinal word back", "itn", "the twenty second", "the 22nd"},
		{"URL path after the domain", "itn", "go to example dot com slash page now", "go to example.com/page now"},
		{"joined words in an address", "itn", "foo dash bar at baz dot net", "foo-bar@baz.net"},
		{"whitelisted dotted abbreviation", "tn", "e.g. this one", "for example this one"},
		{"spelled dotted letters", "tn", "the U.S. economy", "the US economy"},
		{"unit after a scale word, written", "tn", "5 million km", "five million kilometers"},
		{"no unit after a scale word", "tn", "5 million in cash", "five million in cash"},
		{"toll-free area code", "tn", "Call 1-800-555-0199.", "Call one, eight hundred, five five five, zero one nine nine."},
		{"telephone prompt", "tn", "ssn is 123-45-6789", "SSN is one two three, four five, six seven eight nine"},
		{"prompt word without a number", "tn", "the ssn is fine", "the ssn is fine"},
		{"money range with one symbol", "tn", "$5-10 million", "five to ten million dollars"},
		{"year range with a short end", "tn", "From 1990-95 we met.", "From nineteen ninety to ninety five we met."},
		{"short end below the start is no year range", "tn", "1998-12", "one thousand nine hundred and ninety eight - twelve"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := normalize.Normalize(context.Background(), tt.in, normalize.Options{Language: "en", Mode: normalize.Mode(tt.mode)})
			if err != nil {
				t.Fatalf("Normalize(%q): %v", tt.in, err)
			}
			if got := res.Best(); got != tt.want {
				t.Errorf("Normalize(%s %q) = %q; want %q", tt.mode, tt.in, got, tt.want)
			}
		})
	}
}
