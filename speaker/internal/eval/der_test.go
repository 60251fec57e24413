package main

import (
	"math"
	"testing"

	"github.com/sottolabs/sotto/speaker"
)

func TestDER(t *testing.T) {
	ref := []speaker.Turn{tu(0, 10, "A"), tu(10, 20, "B")}
	for _, tt := range []struct {
		name              string
		hyp               []speaker.Turn
		collar            float64
		miss, fa, conf, r float64 // seconds, and the rate
	}{
		{"perfect", []speaker.Turn{tu(0, 10, "x"), tu(10, 20, "y")}, 0, 0, 0, 0, 0},
		{"labels swapped are mapped", []speaker.Turn{tu(0, 10, "y"), tu(10, 20, "x")}, 0, 0, 0, 0, 0},
		{"one speaker for all", []speaker.Turn{tu(0, 20, "x")}, 0, 0, 0, 10, 0.5},
		{"half missed", []speaker.Turn{tu(0, 10, "x")}, 0, 10, 0, 0, 0.5},
		{"false alarm after", []speaker.Turn{tu(0, 10, "x"), tu(10, 25, "y")}, 0, 0, 5, 0, 0.25},
		// The boundary at 10 s moved by 0.2 s: inside a 0.25 s collar.
		{"late change inside the collar", []speaker.Turn{tu(0, 10.2, "x"), tu(10.2, 20, "y")}, 0.25, 0, 0, 0, 0},
		{"late change without collar", []speaker.Turn{tu(0, 10.2, "x"), tu(10.2, 20, "y")}, 0, 0, 0, 0.2, 0.01},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := der(ref, tt.hyp, tt.collar)
			near := func(a, b float64) bool { return math.Abs(a-b) < 0.011 }
			if !near(d.miss, tt.miss) || !near(d.fa, tt.fa) || !near(d.conf, tt.conf) || !near(d.rate(), tt.r) {
				t.Errorf("der = %+v (rate %.3f); want miss %v fa %v conf %v rate %v", d, d.rate(), tt.miss, tt.fa, tt.conf, tt.r)
			}
		})
	}
	// Overlapping reference speech: two speakers at once, one hypothesis
	// speaker, misses one of them.
	d := der([]speaker.Turn{tu(0, 10, "A"), tu(0, 10, "B")}, []speaker.Turn{tu(0, 10, "x")}, 0)
	if math.Abs(d.ref-20) > 0.02 || math.Abs(d.miss-10) > 0.02 || d.conf > 0.01 {
		t.Errorf("overlap: %+v; want 20 s of reference, 10 s missed, no confusion", d)
	}
}

func TestEER(t *testing.T) {
	sc := []score{{0.9, true}, {0.8, true}, {0.3, true}, {0.5, false}, {0.2, false}, {0.1, false}}
	rate, thr := eer(sc)
	// At 0.5: one of three targets rejected, one of three non-targets accepted.
	if math.Abs(rate-1.0/3) > 1e-9 || thr != 0.5 {
		t.Errorf("eer = %v at %v; want 1/3 at 0.5", rate, thr)
	}
}

func tu(start, end float64, who string) speaker.Turn {
	return speaker.Turn{Start: start, End: end, Speaker: who}
}
