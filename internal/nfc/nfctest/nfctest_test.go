package nfctest

import (
	"math/rand"
	"strings"
	"testing"
)

// Text draws from every pool, within the bounds, the same for a seed.
func TestText(t *testing.T) {
	seen := map[string]bool{}
	pool := []string{"x", "yz"}
	r := rand.New(rand.NewSource(1))
	for range 2000 {
		s := Text(r, 3, Special, pool)
		n := 0
		for s != "" {
			found := false
			for _, p := range append(append([]string{}, Special...), pool...) {
				if strings.HasPrefix(s, p) {
					seen[p], s, found = true, s[len(p):], true
					n++
					break
				}
			}
			if !found {
				t.Fatalf("Text wrote %+q, not made of the pools", s)
			}
		}
		if n < 1 || n > 3 {
			t.Fatalf("Text(_, 3) wrote %d pieces", n)
		}
	}
	for _, p := range append(append([]string{}, Special...), pool...) {
		if !seen[p] {
			t.Errorf("Text never drew %+q", p)
		}
	}
	a, b := Text(rand.New(rand.NewSource(7)), 20, Special), Text(rand.New(rand.NewSource(7)), 20, Special)
	if a != b {
		t.Errorf("the same seed gave %+q and %+q", a, b)
	}
}
