package speaker

import (
	"math/rand/v2"
	"testing"
)

// TestRotateShortRaw: rotating the 168 numbers of a transform alone (the
// timelines' windows) is rotating them zero-padded to Dim.
func TestRotateShortRaw(t *testing.T) {
	m := &mllrModel{rot: dctMatrix(Dim)}
	r := rand.New(rand.NewPCG(8, 9))
	raw := make([]float64, nRows*nXi)
	for i := range raw {
		raw[i] = r.NormFloat64()
	}
	padded := make([]float64, Dim)
	copy(padded, raw)
	a, b := m.rotate(raw), m.rotate(padded)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("value %d: %v rotated alone, %v padded", i, a[i], b[i])
		}
	}
}
