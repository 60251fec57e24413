package speakertest_test

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/speaker"
	"github.com/sottolabs/sotto/speaker/speakertest"
)

// voice is 3 s of a buzzy tone with a gliding pitch (enough speech for
// the x-vector's energy gate).
func voice(f0 float64) sotto.Audio {
	s := make([]float32, 3*16000)
	for i := range s {
		t := float64(i) / 16000
		f := f0 * (1 + 0.1*math.Sin(2*math.Pi*t))
		for h := 1; h <= 8; h++ {
			s[i] += float32(0.05 / float64(h) * math.Sin(2*math.Pi*f*float64(h)*t))
		}
	}
	return sotto.Audio{Samples: s}
}

func TestWriteXVector(t *testing.T) {
	dirs := [3]string{t.TempDir(), t.TempDir(), t.TempDir()}
	for i, seed := range []uint64{1, 1, 2} {
		if err := speakertest.WriteXVector(dirs[i], seed); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{speaker.XVectorNetFile, speaker.XVectorMeanFile, speaker.XVectorTransformFile, speaker.XVectorMFCCFile} {
		a, err := os.ReadFile(filepath.Join(dirs[0], f))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(dirs[1], f))
		c, _ := os.ReadFile(filepath.Join(dirs[2], f))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two writes of seed 1", f)
		}
		if f != speaker.XVectorMFCCFile && bytes.Equal(a, c) {
			t.Errorf("%s is the same for seeds 1 and 2", f)
		}
	}
	var embs [3][]float32
	for i, d := range dirs {
		x, err := speaker.LoadXVector(d)
		if err != nil {
			t.Fatal(err)
		}
		if embs[i], err = x.Embed(context.Background(), voice(120)); err != nil {
			t.Fatal(err)
		}
	}
	if len(embs[0]) < 60 {
		t.Fatalf("%d numbers, want at least 60", len(embs[0]))
	}
	var n float64
	same, other := true, true
	for i, v := range embs[0] {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			t.Fatalf("number %d is %v", i, v)
		}
		n += float64(v) * float64(v)
		same = same && v == embs[1][i]
		other = other && v == embs[2][i]
	}
	if math.Abs(n-1) > 1e-4 {
		t.Errorf("squared length %v", n)
	}
	if !same || other {
		t.Errorf("same seed gives the same embedding: %v; seed 2 gives the same: %v", same, other)
	}
}
