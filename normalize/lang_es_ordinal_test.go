package normalize

import (
	"context"
	"testing"
)

// Spanish ordinals of Roman numerals up to MMMCMXCIX and of written
// numbers past 999 read through the thousands ("M" once panicked: the
// hundreds table ends at 900).
func TestSpanishOrdinalThousands(t *testing.T) {
	for _, tc := range []struct {
		n       int
		g, want string
	}{
		{1000, "o", "milésimo"},
		{2000, "a", "dosmilésima"},
		{1001, "o", "milésimo primero"},
		{3999, "o", "tresmilésimo noningentésimo nonagésimo noveno"},
	} {
		if got := esOrdinal(tc.n, tc.g); got != tc.want {
			t.Errorf("esOrdinal(%d, %q) = %q; want %q", tc.n, tc.g, got, tc.want)
		}
	}
	for _, in := range []string{"M", "MMMCMXCIX", "el MM aniversario", "Felipe M", "mmxxiv"} {
		if _, err := Normalize(context.Background(), in, Options{Language: "es", Mode: TN, TopK: 1}); err != nil {
			t.Errorf("Normalize(%q): %v", in, err)
		}
	}
}
