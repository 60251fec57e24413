package sphinx

import (
	"math"
	"testing"
)

// TestWithTopN checks that a copy with another number of Gaussians per
// codebook stream scores every senone as the float64 reference does
// with that number (all 128: the exact mixture likelihood), both senone
// by senone and with ScoreAll, that more Gaussians never score lower,
// and that the original model keeps its 4.
func TestWithTopN(t *testing.T) {
	m := loadTestModel(t)
	feats, n := featuresOf(t, m, "en_ps_sense0880_16k.wav")
	dim := len(feats) / n
	if m.TopN() != 4 {
		t.Fatalf("TopN = %d; want the default 4", m.TopN())
	}
	if m.WithTopN(4) != m {
		t.Errorf("WithTopN(4) of a top-4 model is a copy; want the model itself")
	}
	if got := m.WithTopN(1 << 20).TopN(); got != m.scorer.nDen {
		t.Errorf("WithTopN(2^20).TopN() = %d; want the %d densities", got, m.scorer.nDen)
	}
	prev := m.NewScorer()
	prevOut := make([]float32, prev.NSenones())
	for _, k := range []int{8, 32, m.scorer.nDen} {
		mk := m.WithTopN(k)
		if mk.Mdef != m.Mdef {
			t.Fatalf("WithTopN(%d) has another Mdef", k)
		}
		sc := mk.NewScorer()
		all := make([]float32, sc.NSenones())
		for _, fr := range []int{0, 120, n - 1} {
			x := feats[fr*dim : (fr+1)*dim]
			x64 := make([]float64, dim)
			for i, v := range x {
				x64[i] = float64(v)
			}
			sc.ScoreAll(x, all)
			prev.ScoreAll(x, prevOut)
			sc.SetFrame(x)
			for sen := 0; sen < len(all); sen += 23 {
				want := refSenone(m, x64, sen, k)
				if d := math.Abs(float64(all[sen]) - want); d > 1e-3*max(1, math.Abs(want)) {
					t.Errorf("top %d, frame %d: ScoreAll senone %d = %v; want %v", k, fr, sen, all[sen], want)
				}
				if got := sc.Senone(sen); math.Abs(float64(got-all[sen])) > 1e-4*max(1, math.Abs(float64(got))) {
					t.Errorf("top %d, frame %d: Senone(%d) = %v; ScoreAll %v", k, fr, sen, got, all[sen])
				}
				if all[sen] < prevOut[sen]-1e-3 {
					t.Errorf("frame %d: senone %d scores %v with top %d, below %v with fewer", fr, sen, all[sen], k, prevOut[sen])
				}
			}
		}
		prev, prevOut = sc, make([]float32, sc.NSenones())
	}
	if m.TopN() != 4 || len(m.NewScorer().top[0]) != 4 {
		t.Errorf("the original model changed its top-N")
	}
}
