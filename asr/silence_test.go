package asr

import (
	"slices"
	"testing"
)

func TestZeroFrames(t *testing.T) {
	// 10 frames of 4 samples shifted by 2: samples 6-13 are zero, so
	// frames 3, 4 and 5 (samples 6-9, 8-11, 10-13) are all zero.
	s := make([]float32, 22)
	for i := range s {
		if i < 6 || i > 13 {
			s[i] = 0.1
		}
	}
	got := zeroFrames(s, 10, 2, 4)
	want := []bool{false, false, false, true, true, true, false, false, false, false}
	if !slices.Equal(got, want) {
		t.Errorf("zeroFrames = %v; want %v", got, want)
	}
	// All zeros: the last frame's window is clipped to the audio.
	if got, want := zeroFrames(make([]float32, 10), 5, 2, 4), []bool{true, true, true, true, true}; !slices.Equal(got, want) {
		t.Errorf("zeroFrames(all zero) = %v; want %v", got, want)
	}
	// A run starting mid-frame: frame 1 (samples 2-5) holds a nonzero.
	z := []float32{0.1, 0.1, 0.1, 0, 0, 0, 0, 0, 0, 0.1}
	if got, want := zeroFrames(z, 5, 2, 4), []bool{false, false, true, false, false}; !slices.Equal(got, want) {
		t.Errorf("zeroFrames(%v) = %v; want %v", z, got, want)
	}
	if got := zeroFrames([]float32{0.1, -0.2, 0.3, 0.1}, 2, 2, 2); got != nil {
		t.Errorf("zeroFrames without zeros = %v; want nil", got)
	}
}

func TestSpeechRegionsSkip(t *testing.T) {
	const nc = 13
	// 100 frames of digital silence (c0 -98, marked), speech from frame
	// 100 to 200, 300 frames of room noise at c0 1, 50 more zero frames.
	var c0 []float32
	var skip []bool
	add := func(n int, v float32, zero bool) {
		for range n {
			c0 = append(c0, v)
			skip = append(skip, zero)
		}
	}
	add(100, -98, true)
	add(100, 8, false)
	add(300, 1, false)
	add(30, 8, false)
	add(50, -98, true)
	cep := make([]float32, len(c0)*nc)
	for i, v := range c0 {
		cep[i*nc] = v
	}
	// Without the mask the floor is the digital silence's, every other
	// frame is speech, and the padding reaches into the zeros.
	if got, want := speechRegions(cep, nc), [][2]int{{80, 580}}; !slices.Equal(got, want) {
		t.Errorf("speechRegions = %v; want %v", got, want)
	}
	// With it the floor is the room noise's: two regions, whose padding
	// stops at the zeros.
	if got, want := speechRegionsSkip(cep, nc, skip), [][2]int{{100, 250}, {480, 530}}; !slices.Equal(got, want) {
		t.Errorf("speechRegionsSkip = %v; want %v", got, want)
	}
	all := make([]bool, len(c0))
	for i := range all {
		all[i] = true
	}
	if got := speechRegionsSkip(cep, nc, all); got != nil {
		t.Errorf("speechRegionsSkip(all skipped) = %v; want nil", got)
	}
}

func TestDitherSilence(t *testing.T) {
	s := make([]float32, 1000)
	for i := range 500 {
		s[i] = 0.25
	}
	s[700] = 0.5 // splits the zeros into runs of 200 and 299
	s[900] = 0.5 // and 99, too short to fill
	in := slices.Clone(s)
	out := ditherSilence(s)
	if !slices.Equal(s, in) {
		t.Fatal("ditherSilence modified its input")
	}
	for i, v := range out {
		switch {
		case i < 500 || i == 700 || i == 900:
			if v != in[i] {
				t.Fatalf("sample %d: %g; want %g unchanged", i, v, in[i])
			}
		case i > 900:
			if v != 0 {
				t.Fatalf("sample %d of a 99-sample run: %g; want 0", i, v)
			}
		default:
			if v == 0 || v > 1.0/32768 || v < -1.0/32768 {
				t.Fatalf("sample %d: %g; want nonzero within one LSB", i, v)
			}
		}
	}
	if again := ditherSilence(s); !slices.Equal(again, out) {
		t.Error("ditherSilence is not deterministic")
	}
	if got := ditherSilence(in[:500]); &got[0] != &in[0] {
		t.Error("ditherSilence copied audio without zero runs")
	}
}
