package sphinx

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// synthCep returns n frames of ncep coefficients: c0 around 5 (speech),
// c1.. normal with unit variance around mean.
func synthCep(r *rand.Rand, n, ncep int, mean float64) []float32 {
	out := make([]float32, n*ncep)
	for t := range n {
		out[t*ncep] = float32(5 + r.NormFloat64())
		for i := 1; i < ncep; i++ {
			out[t*ncep+i] = float32(mean + r.NormFloat64())
		}
	}
	return out
}

// TestCMNSegmentalSynthetic finds a shift of one standard deviation in
// c1..c12 after 30 s, at the block it happens, and nothing in 60 s without
// one, where the result is exactly CMNBatch's.
func TestCMNSegmentalSynthetic(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const nc = 13
	flat := synthCep(r, 6000, nc, 0)
	want := slices.Clone(flat)
	CMNBatch(want, nc)
	got := slices.Clone(flat)
	if regs := CMNSegmental(got, nc); len(regs) != 1 || regs[0].Start != 0 || regs[0].End != 6000 {
		t.Errorf("no shift: regions %+v; want one of 6000 frames", regs)
	}
	if !slices.Equal(got, want) {
		t.Error("no shift: CMNSegmental differs from CMNBatch")
	}

	shifted := append(synthCep(r, 3000, nc, 0), synthCep(r, 3000, nc, 1)...)
	regs := CMNSegmental(shifted, nc)
	if len(regs) != 2 || regs[0].End != 3000 || regs[1].Start != 3000 || regs[1].End != 6000 {
		t.Fatalf("shift at frame 3000: regions %+v; want [0,3000) and [3000,6000)", regs)
	}
	// Each region is normalised to its own mean: about zero on both sides.
	for _, reg := range regs {
		var s float64
		for f := reg.Start; f < reg.End; f++ {
			s += float64(shifted[f*nc+1])
		}
		if m := s / float64(reg.End-reg.Start); math.Abs(m) > 1e-3 {
			t.Errorf("region %d-%d: mean c1 %.4f after normalisation; want 0", reg.Start, reg.End, m)
		}
	}
}

// TestCMNStatsEdgeCases feeds the statistics empty, silent and odd input:
// no panic, and no mean where there is no speech.
func TestCMNStatsEdgeCases(t *testing.T) {
	for _, tc := range []struct {
		name string
		cep  []float32
		nc   int
	}{
		{"empty", nil, 13},
		{"partial frame", []float32{1, 2, 3}, 13},
		{"one coefficient", []float32{1, 2, 3, 4}, 1},
		{"silent", slices.Repeat([]float32{-1, 0.5}, 5000), 2},
	} {
		s := NewCMNStats(tc.nc)
		s.Add(tc.cep)
		regs := s.Regions()
		if len(regs) != 1 || regs[0].End != len(tc.cep)/tc.nc {
			t.Errorf("%s: regions %+v; want one over %d frames", tc.name, regs, len(tc.cep)/tc.nc)
		}
		speech := false
		for f := 0; f+tc.nc <= len(tc.cep); f += tc.nc {
			speech = speech || tc.cep[f] >= 0
		}
		if (regs[0].Mean != nil) != speech {
			t.Errorf("%s: mean %v; want one only when a frame has c0 ≥ 0", tc.name, regs[0].Mean)
		}
		c := slices.Clone(tc.cep)
		CMNSegmental(c, tc.nc)
	}
}

// TestCMNStatsAddAt builds the statistics from blocks whose front ends
// yield a frame fewer than the block holds: the frames keep their numbers,
// so a shift is found where it is in the whole.
func TestCMNStatsAddAt(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const nc = 13
	cep := append(synthCep(r, 3010, nc, 0), synthCep(r, 2990, nc, 1)...)
	s := NewCMNStats(nc)
	for f0 := 0; f0 < 6000; f0 += 1000 {
		s.AddAt(f0, cep[f0*nc:(f0+999)*nc]) // the block's last frame is missing
	}
	s.AddAt(5990, cep[5990*nc:]) // overlaps frames already added
	if s.Frames() != 6000 {
		t.Errorf("%d frames; want 6000", s.Frames())
	}
	regs := s.Regions()
	if len(regs) != 2 || regs[0].End != 3000 {
		t.Errorf("regions %+v; want a boundary at frame 3000 (the block of the shift at 3010)", regs)
	}
}

// TestFeaturesSingleRecordingsUnchanged checks on every shared recording
// that the segmental CMN of Model.Features finds one region and gives
// exactly the features of the whole-utterance batch CMN.
func TestFeaturesSingleRecordingsUnchanged(t *testing.T) {
	m := loadTestModel(t)
	files, _ := filepath.Glob(filepath.Join(testdataDir(t), "speech", "*_16k.wav"))
	if len(files) == 0 {
		t.Skip("no shared recordings")
	}
	ctx := context.Background()
	checked := 0
	for _, f := range files {
		if _, _, err := readWAV16(f); err != nil {
			continue // not mono 16-bit
		}
		x := readWAVFloat(t, f)
		got, n, err := m.Features(ctx, x)
		if err != nil {
			t.Fatal(err)
		}
		cep, n2, err := m.Cepstra(ctx, x)
		if err != nil {
			t.Fatal(err)
		}
		if want := Features(cep, m.Params.NCep); n != n2 || !slices.Equal(got, want) {
			t.Errorf("%s: features differ from batch CMN over the whole file", filepath.Base(f))
		}
		checked++
	}
	t.Logf("%d recordings unchanged", checked)
}

// wordSpan returns the start of the first and the end of the last word of
// a recording's .words.tsv reference, in seconds.
func wordSpan(t *testing.T, name string) (first, last float64) {
	t.Helper()
	b, err := os.ReadFile(speechFile(t, name+".words.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")[1:]
	if len(lines) == 0 {
		t.Fatalf("%s.words.tsv has no words", name)
	}
	f1 := strings.Split(lines[0], "\t")
	f2 := strings.Split(lines[len(lines)-1], "\t")
	first, err1 := strconv.ParseFloat(f1[0], 64)
	last, err2 := strconv.ParseFloat(f2[1], 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("%s.words.tsv: bad times", name)
	}
	return first, last
}

// TestCMNSegmentalConcatenation joins recordings of different rooms and
// microphones (the MFA corpora, one of them by a speaker with a cold, and
// a pocketsphinx test recording): each junction must give a region
// boundary in the pause around it, between the last word of one recording
// and the first word of the next (give or take a block), and no other.
func TestCMNSegmentalConcatenation(t *testing.T) {
	m := loadTestModel(t)
	for _, names := range [][]string{
		{"en_mfa_acoustic_corpus", "en_mfa_cold_corpus"},
		{"en_mfa_cold_corpus", "en_mfa_acoustic_corpus"},
		{"en_mfa_acoustic_corpus", "en_mfa_cold_corpus", "en_ps_sense0870"},
	} {
		var x []float32
		type gap struct{ lo, hi int }
		var gaps []gap
		for i, n := range names {
			first, last := wordSpan(t, n)
			off := float64(len(x)) / 16000
			if i > 0 {
				gaps[i-1].hi = int(100*(off+first)) + cmnSegBlock
			}
			gaps = append(gaps, gap{lo: int(100*(off+last)) - cmnSegBlock})
			x = append(x, readWAVFloat(t, speechFile(t, n+"_16k.wav"))...)
		}
		cep, err := testFrontend(t, m).Cepstra(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		regs := CMNSegmental(cep, m.Params.NCep)
		ok := len(regs) == len(names)
		var ends []int
		for i, r := range regs {
			ends = append(ends, r.End)
			if ok && i < len(regs)-1 {
				ok = r.End >= gaps[i].lo && r.End <= gaps[i].hi
			}
		}
		if !ok {
			t.Errorf("%s: regions end at frames %v; want one boundary in each pause %v", strings.Join(names, "+"), ends, gaps[:len(gaps)-1])
		}
	}
}

// testFrontend returns a front end for the model's parameters.
func testFrontend(t *testing.T, m *Model) *Frontend {
	t.Helper()
	fe, err := NewFrontend(m.Params)
	if err != nil {
		t.Fatal(err)
	}
	return fe
}

// alternating returns parts of 30 s (3000 frames) whose c1..c12 means
// alternate between 0 and shift.
func alternating(r *rand.Rand, parts, ncep int, shift float64) []float32 {
	var out []float32
	for p := range parts {
		out = append(out, synthCep(r, 3000, ncep, shift*float64(p%2))...)
	}
	return out
}

// TestCMNSegmentalAlternating finds every junction of ten alternating
// 30-second parts.
func TestCMNSegmentalAlternating(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	cep := alternating(r, 10, 13, 1)
	regs := CMNSegmental(cep, 13)
	var ends []int
	for _, reg := range regs {
		ends = append(ends, reg.End)
	}
	want := []int{3000, 6000, 9000, 12000, 15000, 18000, 21000, 24000, 27000, 30000}
	if !slices.Equal(ends, want) {
		t.Errorf("regions end at %v; want %v", ends, want)
	}
}

// BenchmarkCMNRegions measures the change detection on an hour of
// cepstra alternating every 30 s.
func BenchmarkCMNRegions(b *testing.B) {
	cep := alternating(rand.New(rand.NewPCG(9, 10)), 120, 13, 1)
	s := NewCMNStats(13)
	s.Add(cep)
	for b.Loop() {
		if n := len(s.Regions()); n != 120 {
			b.Fatalf("%d regions; want 120", n)
		}
	}
}

// FuzzCMNSegmental feeds arbitrary cepstra (NaN and infinities included):
// no panic, and the regions cover the frames in order.
func FuzzCMNSegmental(f *testing.F) {
	f.Add(uint8(13), []byte{1, 2, 3, 4})
	f.Add(uint8(2), make([]byte, 4*2*3000))
	f.Fuzz(func(t *testing.T, nc uint8, data []byte) {
		ncep := int(nc%20) + 1
		cep := make([]float32, len(data)/4)
		for i := range cep {
			cep[i] = math.Float32frombits(uint32(data[4*i]) | uint32(data[4*i+1])<<8 | uint32(data[4*i+2])<<16 | uint32(data[4*i+3])<<24)
		}
		regs := CMNSegmental(cep, ncep)
		next := 0
		for _, r := range regs {
			if r.Start != next || r.End < r.Start {
				t.Fatalf("regions %+v do not follow each other", regs)
			}
			next = r.End
		}
		if next != len(cep)/ncep {
			t.Fatalf("regions end at %d; want %d frames", next, len(cep)/ncep)
		}
	})
}
