package speaker

import (
	"math/rand/v2"
	"testing"
)

// turnWindows draws n windows of dim numbers around k random unit
// directions, in turns of turn windows (speaker (w/turn) mod k), each its
// direction plus Gaussian noise of the given spread, centred as the
// timeline centres them; it returns their cosine matrix and the windows'
// positions (step apart).
func turnWindows(r *rand.Rand, k, n, dim, turn int, spread float64, step int) (sim []float64, pos []int) {
	centres := make([][]float64, k)
	for c := range centres {
		centres[c] = make([]float64, dim)
		for i := range dim {
			centres[c][i] = r.NormFloat64()
		}
		normalize(centres[c])
	}
	win := make([][]float64, n)
	pos = make([]int, n)
	for w := range n {
		c := (w / turn) % k
		win[w] = make([]float64, dim)
		for i := range dim {
			win[w][i] = centres[c][i] + spread*r.NormFloat64()
		}
		normalize(win[w])
		pos[w] = step * w
	}
	centreWindows(win)
	sim = make([]float64, n*n)
	for i := range n {
		for j := range n {
			sim[i*n+j] = dot(win[i], win[j])
		}
	}
	return sim, pos
}

// TestEstimateSpeakers: windows drawn around k random directions (each
// window its direction plus noise, in turns of several windows) are
// counted as k speakers, including one.
func TestEstimateSpeakers(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const dim, n = 32, 90
	for _, k := range []int{1, 2, 3, 4} {
		sim, pos := turnWindows(r, k, n, dim, 6, 0.15, 1)
		if got := estimateSpeakers(sim, n, DefaultMaxSpeakers, pos); got != k {
			t.Errorf("%d speakers: estimated %d", k, got)
		}
	}
	if got := estimateSpeakers([]float64{1, 0.5, 0.5, 1}, 2, 8, []int{0, 10}); got != 1 {
		t.Errorf("2 windows: %d speakers; want 1", got)
	}
}

// TestEstimateSpeakersFewLinks: with one or two links per window the
// graph falls apart into pieces that show as a clean eigengap whatever
// the speakers; windows of two speakers with a spread like that of short
// windows are counted as two for every seed (with minLinks 1, seeds here
// came out as 7 or 8 in 4 of the 30).
func TestEstimateSpeakersFewLinks(t *testing.T) {
	const dim, n = 32, 40
	for seed := range uint64(30) {
		sim, pos := turnWindows(rand.New(rand.NewPCG(seed, 7)), 2, n, dim, 5, 0.25, 3)
		if got := estimateSpeakers(sim, n, DefaultMaxSpeakers, pos); got != 2 {
			t.Errorf("seed %d: estimated %d speakers; want 2", seed, got)
		}
	}
}
