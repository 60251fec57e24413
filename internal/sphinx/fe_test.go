package sphinx

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// runSphinxFE runs the peer's sphinx_fe on samples with the model's
// feat.params settings and returns its cepstra.
func runSphinxFE(t *testing.T, samples []int16, removeNoise bool) [][]float32 {
	t.Helper()
	exe, err := exec.LookPath("sphinx_fe")
	if err != nil {
		t.Skip("sphinx_fe not installed (apt-get install sphinxbase-utils)")
	}
	dir := t.TempDir()
	raw := filepath.Join(dir, "in.raw")
	b := make([]byte, 2*len(samples))
	for i, s := range samples {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(s))
	}
	if err := os.WriteFile(raw, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.mfc")
	rn := "no"
	if removeNoise {
		rn = "yes"
	}
	cmd := exec.Command(exe, "-i", raw, "-o", out, "-raw", "yes", "-input_endian", "little", "-samprate", "16000",
		"-lowerf", "130", "-upperf", "6800", "-nfilt", "25", "-transform", "dct", "-lifter", "22",
		"-remove_silence", "no", "-remove_noise", rn, "-dither", "no")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sphinx_fe: %v\n%s", err, msg)
	}
	mfc, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	n := int(binary.LittleEndian.Uint32(mfc))
	if len(mfc) != 4+4*n || n%13 != 0 {
		t.Fatalf("sphinx_fe output: %d bytes for %d values", len(mfc), n)
	}
	cep := make([][]float32, n/13)
	for i := range cep {
		cep[i] = make([]float32, 13)
		for j := range 13 {
			cep[i][j] = math.Float32frombits(binary.LittleEndian.Uint32(mfc[4+4*(i*13+j):]))
		}
	}
	return cep
}

func TestFrontendMatchesSphinxFE(t *testing.T) {
	p, err := ParseFeatParams("feat.params", []byte("-lowerf 130 -upperf 6800 -nfilt 25 -transform dct -lifter 22 -feat 1s_c_d_dd -svspec 0-12/13-25/26-38 -agc none -cmn batch -varnorm no -model ptm"))
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{"en_ps_sense0870_16k.wav", "en_jfk_16k.wav"} {
		for _, rn := range []bool{false, true} {
			name := file
			if rn {
				name += "/remove_noise"
			}
			t.Run(name, func(t *testing.T) {
				s, _, err := readWAV16(speechFile(t, file))
				if err != nil {
					t.Fatal(err)
				}
				want := runSphinxFE(t, s, rn)
				p.RemoveNoise = rn
				fe, err := NewFrontend(p)
				if err != nil {
					t.Fatal(err)
				}
				got, err := fe.ProcessInt16(context.Background(), nil, s)
				if err != nil {
					t.Fatal(err)
				}
				got = fe.Flush(got)
				if len(got)/13 != len(want) {
					t.Fatalf("frames = %d; sphinx_fe gives %d", len(got)/13, len(want))
				}
				var maxC0, maxC float64
				for i := range want {
					for j := range 13 {
						d := math.Abs(float64(got[i*13+j] - want[i][j]))
						if j == 0 {
							maxC0 = max(maxC0, d)
						} else {
							maxC = max(maxC, d)
						}
					}
				}
				t.Logf("%s: %d frames, max |Δc0| = %.3g, max |Δc1..c12| = %.3g", name, len(want), maxC0, maxC)
				if maxC >= 1e-3 || maxC0 >= 1e-3 {
					t.Errorf("max cepstral difference c0 %.3g, c1..c12 %.3g; want < 1e-3", maxC0, maxC)
				}
			})
		}
	}
}

// TestFrontendStreamingEqualsBatch feeds audio in uneven chunks and expects
// exactly the cepstra of a single call.
func TestFrontendStreamingEqualsBatch(t *testing.T) {
	m := loadTestModel(t)
	x := readWAVFloat(t, speechFile(t, "en_ps_sense0880_16k.wav"))
	fe, err := NewFrontend(m.Params)
	if err != nil {
		t.Fatal(err)
	}
	want, err := fe.Cepstra(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	var got []float32
	for i, sizes := 0, []int{1, 159, 160, 161, 409, 410, 4000, 77}; i < len(x); {
		n := min(sizes[i%len(sizes)], len(x)-i)
		if got, err = fe.Process(context.Background(), got, x[i:i+n]); err != nil {
			t.Fatal(err)
		}
		i += n
	}
	got = fe.Flush(got)
	if len(got) != len(want) {
		t.Fatalf("streamed %d values; batch gives %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("streamed value %d = %v; batch gives %v", i, got[i], want[i])
		}
	}
}

func TestLiveCMNApproachesBatchMean(t *testing.T) {
	m := loadTestModel(t)
	x := readWAVFloat(t, speechFile(t, "en_jfk_16k.wav"))
	fe, err := NewFrontend(m.Params)
	if err != nil {
		t.Fatal(err)
	}
	cep, err := fe.Cepstra(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	nc := m.Params.NCep
	n := len(cep) / nc
	batchMean := make([]float64, nc)
	for t := range n {
		for i := range nc {
			batchMean[i] += float64(cep[t*nc+i]) / float64(n)
		}
	}
	live := NewLiveCMN(nc, m.Params.CMNInit)
	if got := live.Mean(); got[0] != 41 {
		t.Errorf("initial live mean c0 = %v; want the -cmninit prior 41", got[0])
	}
	work := append([]float32(nil), cep...)
	for i := 0; i < n; i += 100 { // one-second chunks, as a stream would arrive
		live.Apply(work[i*nc : min(n, i+100)*nc])
	}
	// After 11 s (1099 frames > 800) the estimate has moved from the prior
	// toward the utterance mean.
	got := live.Mean()
	if d0, dp := math.Abs(got[0]-batchMean[0]), math.Abs(41-batchMean[0]); d0 >= dp {
		t.Errorf("live mean c0 = %.2f; want closer to the batch mean %.2f than the prior 41", got[0], batchMean[0])
	}
}

// TestProcessStopsOnCancel feeds a long input with a cancelled context:
// Process must return ctx.Err() instead of computing every frame.
func TestProcessStopsOnCancel(t *testing.T) {
	fe, err := NewFrontend(DefaultFeatParams())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, err := fe.Process(ctx, nil, make([]float32, 16000*60))
	if !errors.Is(err, context.Canceled) || len(out) != 0 {
		t.Errorf("Process(cancelled, 60 s) = %d values, %v; want none and context.Canceled", len(out), err)
	}
}
