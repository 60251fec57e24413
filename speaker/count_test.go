package speaker

import (
	"math/rand/v2"
	"testing"
)

// TestEstimateSpeakers: windows drawn around k random directions (each
// window its direction plus noise, in turns of several windows) are
// counted as k speakers, including one.
func TestEstimateSpeakers(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const dim, n = 32, 90
	for _, k := range []int{1, 2, 3, 4} {
		centres := make([][]float64, k)
		for c := range centres {
			centres[c] = make([]float64, dim)
			for i := range dim {
				centres[c][i] = r.NormFloat64()
			}
			normalize(centres[c])
		}
		win := make([][]float64, n)
		pos := make([]int, n)
		for w := range n {
			c := (w / 6) % k // turns of 6 windows
			win[w] = make([]float64, dim)
			for i := range dim {
				win[w][i] = centres[c][i] + 0.15*r.NormFloat64()
			}
			normalize(win[w])
			pos[w] = w
		}
		centreWindows(win)
		sim := make([]float64, n*n)
		for i := range n {
			for j := range n {
				sim[i*n+j] = dot(win[i], win[j])
			}
		}
		if got := estimateSpeakers(sim, n, DefaultMaxSpeakers, pos); got != k {
			t.Errorf("%d speakers: estimated %d", k, got)
		}
	}
	if got := estimateSpeakers([]float64{1, 0.5, 0.5, 1}, 2, 8, []int{0, 10}); got != 1 {
		t.Errorf("2 windows: %d speakers; want 1", got)
	}
}
