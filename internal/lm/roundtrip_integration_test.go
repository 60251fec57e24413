//go:build integration

package lm

import (
	"bytes"
	"math"
	"testing"
)

// TestDebianLMRoundTrip writes the Debian binary model as ARPA text and
// reads it back: both readers give the same scores on the real model.
func TestDebianLMRoundTrip(t *testing.T) {
	m := loadDebian(t)
	var buf bytes.Buffer
	if err := m.WriteARPA(&buf); err != nil {
		t.Fatal(err)
	}
	a, err := ParseARPA("en-us.arpa", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := a.Counts(), m.Counts(); !equalInts(got, want) {
		t.Errorf("ARPA counts %v; binary %v", got, want)
	}
	words := []string{"the", "of", "one", "a", "to", "and", "in", "country", "your", "ask", "what", "can", "do", "for", "you", "<s>", "</s>", "americans", "fellow", "my", "so"}
	for _, x := range words {
		for _, y := range words {
			for _, z := range words {
				ix, _ := m.ID(x)
				iy, _ := m.ID(y)
				iz, _ := m.ID(z)
				jx, _ := a.ID(x)
				jy, _ := a.ID(y)
				jz, _ := a.ID(z)
				if p, q := m.Score(iz, iy, ix), a.Score(jz, jy, jx); math.Abs(float64(p-q)) > 1e-4 {
					t.Errorf("Score(%s | %s %s): binary %v, ARPA %v", z, x, y, p, q)
				}
			}
		}
	}
}
