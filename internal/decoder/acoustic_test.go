package decoder

import (
	"context"
	"testing"

	"github.com/sottolabs/sotto/internal/sphinx"
)

// TestOptionsAcoustic decodes jfk (sentence LM, both passes) with
// Options.Acoustic: the model with means under the identity transform
// gives the decoder's own result, means moved far give another path
// score in both passes, and a separately loaded model (another mdef) is
// refused.
func TestOptionsAcoustic(t *testing.T) {
	am := acoustic(t)
	feats, n := jfkFeatures(t, am)
	d := sentenceDecoder(t, am, Config{Flat: true})
	dim := len(feats) / n
	frame := func(t int) []float32 { return feats[t*dim : (t+1)*dim] }
	ctx := context.Background()
	means := func(offset float64) *sphinx.Model {
		rows := make([][]float64, 39)
		for i := range rows {
			rows[i] = make([]float64, 14)
			rows[i][i%13] = 1
			if i < 13 {
				rows[i][13] = offset
			}
		}
		tr := &sphinx.MeanTransform{Class: make([]int, am.Codebooks()), W: [][][]float64{rows}}
		m, err := am.WithMeans(tr)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	base, err := d.DecodeWith(ctx, frame, n, Options{})
	if err != nil {
		t.Fatal(err)
	}
	same, err := d.DecodeWith(ctx, frame, n, Options{Acoustic: means(0)})
	if err != nil {
		t.Fatal(err)
	}
	if same.Text() != base.Text() || same.Score != base.Score {
		t.Errorf("identity means: %q score %v; want %q score %v", same.Text(), same.Score, base.Text(), base.Score)
	}
	moved, err := d.DecodeWith(ctx, frame, n, Options{Acoustic: means(3)})
	if err != nil {
		t.Fatal(err)
	}
	if moved.Score >= base.Score || moved.Stats.FirstPass == nil {
		t.Errorf("means moved by 3: score %v (want below %v), first pass stats %v", moved.Score, base.Score, moved.Stats.FirstPass)
	}
	fp0, err := d.DecodeFirst(ctx, frame, n, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fp, err := d.DecodeFirst(ctx, frame, n, Options{Acoustic: means(3)})
	if err != nil {
		t.Fatal(err)
	}
	if fp.Result.Score >= fp0.Result.Score {
		t.Errorf("tree pass, means moved by 3: score %v; want below %v", fp.Result.Score, fp0.Result.Score)
	}
	other, err := sphinx.Load(ctx, sphinx.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.DecodeWith(ctx, frame, n, Options{Acoustic: other}); err == nil {
		t.Error("a model with another mdef: no error")
	}
}
