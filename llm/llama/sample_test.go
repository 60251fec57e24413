package llama

import (
	"math"
	"testing"
)

func TestSamplerGreedyAndPenalty(t *testing.T) {
	logits := []float32{1, 3, 2, -1}
	if got := NewSampler(SampleOptions{}).Sample(append([]float32(nil), logits...), nil); got != 1 {
		t.Errorf("greedy = %d; want 1", got)
	}
	// Penalty 2 on token 1: 3 → 1.5 < 2, so token 2 wins.
	if got := NewSampler(SampleOptions{RepeatPenalty: 2}).Sample(append([]float32(nil), logits...), []int{1}); got != 2 {
		t.Errorf("greedy with penalty = %d; want 2", got)
	}
}

func TestSamplerDistribution(t *testing.T) {
	logits := []float32{0, float32(math.Log(2)), float32(math.Log(4)), -20}
	count := func(o SampleOptions) []int {
		s := NewSampler(o)
		n := make([]int, len(logits))
		for range 20000 {
			n[s.Sample(append([]float32(nil), logits...), nil)]++
		}
		return n
	}
	// Temperature 1: probabilities 1/7, 2/7, 4/7.
	n := count(SampleOptions{Temperature: 1, Seed: 1})
	for i, p := range []float64{1.0 / 7, 2.0 / 7, 4.0 / 7} {
		if got := float64(n[i]) / 20000; math.Abs(got-p) > 0.02 {
			t.Errorf("T=1: token %d frequency %.3f; want %.3f", i, got, p)
		}
	}
	// TopK 2 keeps tokens 2 and 1; MinP 0.6 keeps only token 2 (2/4 < 0.6).
	if n := count(SampleOptions{Temperature: 1, TopK: 2, Seed: 2}); n[0] != 0 || n[3] != 0 {
		t.Errorf("TopK=2 drew %v; want only tokens 1 and 2", n)
	}
	if n := count(SampleOptions{Temperature: 1, MinP: 0.6, Seed: 3}); n[2] != 20000 {
		t.Errorf("MinP=0.6 drew %v; want only token 2", n)
	}
	// TopP 0.5: token 2 alone has 4/7 ≥ 0.5.
	if n := count(SampleOptions{Temperature: 1, TopP: 0.5, Seed: 4}); n[2] != 20000 {
		t.Errorf("TopP=0.5 drew %v; want only token 2", n)
	}
	// Same seed, same draws.
	a, b := count(SampleOptions{Temperature: 0.7, Seed: 9}), count(SampleOptions{Temperature: 0.7, Seed: 9})
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("seeded runs differ: %v vs %v", a, b)
		}
	}
}
