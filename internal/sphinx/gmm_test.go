package sphinx

import (
	"context"
	"math"
	"sort"
	"sync"
	"testing"
)

var (
	testModelOnce sync.Once
	testModel     *Model
	testModelErr  error
)

// loadTestModel loads the Debian model once per test binary or skips.
func loadTestModel(t testing.TB) *Model {
	t.Helper()
	modelDir(t)
	testModelOnce.Do(func() { testModel, testModelErr = Load(context.Background(), Config{}) })
	if testModelErr != nil {
		t.Fatal(testModelErr)
	}
	return testModel
}

// featuresOf runs the model's front end, batch CMN and deltas on a file.
func featuresOf(t testing.TB, m *Model, file string) ([]float32, int) {
	t.Helper()
	x := readWAVFloat(t, speechFile(t, file))
	f, n, err := m.Features(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	return f, n
}

// refSenone is a straightforward float64 evaluation of a PTM senone with
// top-N selection, used to check the optimised kernel.
func refSenone(m *Model, feat []float64, sen, topN int) float64 {
	g := m.scorer
	cb := int(g.senCB[sen])
	total := 0.0
	for f := range g.nFeat {
		k := cb*g.nFeat + f
		l := g.vecLen[f]
		type de struct {
			d int
			v float64
		}
		ds := make([]de, g.nDen)
		for d := range g.nDen {
			v := float64(g.logNorm[k][d])
			for i := range l {
				x := feat[g.featOff[f]+i] - float64(g.mean[k][d*l+i])
				v -= x * x * float64(g.prec[k][d*l+i])
			}
			ds[d] = de{d, v}
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i].v > ds[j].v })
		s := 0.0
		for _, e := range ds[:topN] {
			w := -logUnit * float64(m.Mixw.W[(f*g.nDen+e.d)*g.nSen+sen])
			s += math.Exp(w + e.v - ds[0].v)
		}
		total += ds[0].v + math.Log(s)
	}
	return total
}

func TestSenoneScoresMatchReference(t *testing.T) {
	m := loadTestModel(t)
	feats, n := featuresOf(t, m, "en_ps_sense0880_16k.wav")
	sc := m.NewScorer()
	out := make([]float32, sc.NSenones())
	dim := len(feats) / n
	maxDiff := 0.0
	for _, fr := range []int{0, 50, 120, 200, n - 1} {
		x := feats[fr*dim : (fr+1)*dim]
		sc.ScoreAll(x, out)
		x64 := make([]float64, dim)
		for i, v := range x {
			x64[i] = float64(v)
		}
		for sen := 0; sen < len(out); sen += 37 {
			want := refSenone(m, x64, sen, 4)
			d := math.Abs(float64(out[sen]) - want)
			maxDiff = max(maxDiff, d/max(1, math.Abs(want)))
			if d > 1e-3*max(1, math.Abs(want)) {
				t.Errorf("frame %d: Senone(%d) = %v; want %v", fr, sen, out[sen], want)
			}
		}
	}
	t.Logf("max relative difference to float64 reference: %.2g", maxDiff)
}

func TestNonSpeechScoresBestOnLeadingSilence(t *testing.T) {
	m := loadTestModel(t)
	feats, n := featuresOf(t, m, "en_ps_sense0870_16k.wav")
	dim := len(feats) / n
	sc := m.NewScorer()
	out := make([]float32, sc.NSenones())
	// pocketsphinx aligns 0.00–0.20 s of this file to silence; frames
	// 3–11 are silence or breath noise.
	wins := 0
	for fr := 0; fr < 12; fr++ {
		sc.ScoreAll(feats[fr*dim:(fr+1)*dim], out)
		best, bestSen := float32(math.Inf(-1)), -1
		for s := range m.Mdef.NCISen {
			if out[s] > best {
				best, bestSen = out[s], s
			}
		}
		if b := m.Mdef.SenoneBase(bestSen); b == m.Mdef.Sil || m.Mdef.Phones[b].Filler {
			wins++
		}
	}
	if wins < 11 {
		t.Errorf("SIL or a noise phone has the best CI senone in %d of 12 leading-silence frames; want ≥ 11", wins)
	}
}

func BenchmarkFrontend(b *testing.B) {
	m := loadTestModel(b)
	x := readWAVFloat(b, speechFile(b, "en_jfk_16k.wav"))
	fe, err := NewFrontend(m.Params)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(2 * len(x)))
	for b.Loop() {
		if _, err := fe.Cepstra(context.Background(), x); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/(float64(len(x))/16000), "rtf")
}

func BenchmarkScoreAllSenones(b *testing.B) {
	m := loadTestModel(b)
	feats, n := featuresOf(b, m, "en_ps_sense0880_16k.wav")
	dim := len(feats) / n
	sc := m.NewScorer()
	out := make([]float32, sc.NSenones())
	i := 0
	for b.Loop() {
		sc.ScoreAll(feats[i*dim:(i+1)*dim], out)
		i = (i + 1) % n
	}
	// One frame is 10 ms of audio.
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/0.01, "rtf")
}

func BenchmarkCodebooks(b *testing.B) {
	m := loadTestModel(b)
	feats, n := featuresOf(b, m, "en_ps_sense0880_16k.wav")
	dim := len(feats) / n
	sc := m.NewScorer()
	i := 0
	for b.Loop() {
		sc.SetFrame(feats[i*dim : (i+1)*dim])
		for cb := range sc.g.nCB {
			sc.evalCodebook(cb)
		}
		i = (i + 1) % n
	}
	b.ReportMetric(float64(sc.g.nCB*sc.g.nFeat*sc.g.nDen)*float64(b.N)/b.Elapsed().Seconds()/1e6, "MGauss/s")
}
