package normalize_test

import (
	"context"
	"testing"

	"github.com/sottolabs/sotto/normalize"
)

// TestEnglishGeneralRules covers English rules written for kinds of input
// rather than for one case: each kind has several inputs of its own (none
// taken from the shared suites) and a neighbouring input the rule must
// leave alone.
func TestEnglishGeneralRules(t *testing.T) {
	tests := []struct{ name, mode, in, want string }{
		// Spoken digit runs take the layout their length implies.
		{"phone number", "itn", "call five five five one two three four five six seven", "call 555-123-4567"},
		{"phone number after a country code", "itn", "four four two zero seven nine four six zero one two three", "44 207-946-0123"},
		{"card number in fours", "itn", "four one one one double one one one one one one one one one one one", "4111 1111 1111 1111"},
		{"card number four six five", "itn", "three seven eight two eight two two four six three one double zero zero five", "3782 822463 10005"},
		{"card number four six four", "itn", "three zero five six nine three zero nine double zero two five nine four", "3056 930900 2594"},
		{"card number after a prefix", "itn", "nine eight seven three zero five six nine three zero nine zero two five nine zero four", "987 3056 930902 5904"},
		{"social security number", "itn", "one two three four five six seven eight nine", "123-45-6789"},
		{"too short for a telephone", "itn", "one two three four five", "one two three four five"},
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
