package speaker

import (
	"errors"
	"math"
	"testing"

	"github.com/sottolabs/sotto"
)

func TestSimilarity(t *testing.T) {
	tests := []struct {
		name string
		a, b []float64
		want float64
	}{
		{"identical", []float64{1, 2, 3}, []float64{1, 2, 3}, 1},
		{"scaled", []float64{1, 2, 3}, []float64{2, 4, 6}, 1},
		{"opposite", []float64{1, -2, 3}, []float64{-1, 2, -3}, -1},
		{"orthogonal", []float64{1, 0}, []float64{0, 5}, 0},
		{"45 degrees", []float64{1, 0}, []float64{1, 1}, math.Sqrt2 / 2},
		// Legal JSON numbers whose squares overflow or vanish.
		{"huge", []float64{1e308, 1e308}, []float64{1e308, 0}, math.Sqrt2 / 2},
		{"huge against small", []float64{1e200, -1e200}, []float64{-3, 3}, -1},
		{"subnormal", []float64{1e-320, 0}, []float64{1e-320, 1e-320}, math.Sqrt2 / 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Similarity(tt.a, tt.b)
			if err != nil || math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Similarity(%v, %v) = %v, %v; want %v", tt.a, tt.b, got, err, tt.want)
			}
		})
	}
}

func TestSimilarityErrors(t *testing.T) {
	for _, tt := range []struct {
		name  string
		a, b  []float64
		param string
	}{
		{"length", []float64{1}, []float64{1, 2}, "embedding_b"},
		{"zero a", []float64{0, 0}, []float64{1, 2}, "embedding_a"},
		{"zero b", []float64{1, 0}, []float64{0, 0}, "embedding_b"},
		{"nan", []float64{math.NaN(), 0}, []float64{1, 0}, "embedding_a"},
		{"inf", []float64{1, 0}, []float64{math.Inf(1), 0}, "embedding_b"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Similarity(tt.a, tt.b)
			var se *sotto.Error
			if !errors.As(err, &se) || !errors.Is(err, sotto.ErrInvalidRequest) || se.Param != tt.param {
				t.Errorf("Similarity(%v, %v) error = %v; want 400 with param %s", tt.a, tt.b, err, tt.param)
			}
		})
	}
}

func BenchmarkSimilarity(b *testing.B) {
	x, y := make([]float64, Dim), make([]float64, Dim)
	for i := range x {
		x[i], y[i] = float64(i%7)-3, float64(i%5)-2
	}
	b.SetBytes(2 * Dim * 8)
	for b.Loop() {
		if _, err := Similarity(x, y); err != nil {
			b.Fatal(err)
		}
	}
}
