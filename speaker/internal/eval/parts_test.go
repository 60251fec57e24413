package main

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/sphinx"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/speaker"
	"github.com/sottolabs/sotto/speaker/internal/parts"
)

// TestPartsReproduceEmbedding: the stored parts are what the backend
// fuses (the same embedding to the bit), and the experiments'
// recombination of them (fusedScore of v8Side) gives the backend's cosine
// within 1e-12, clean and noisy, whole and 3 s clips.
func TestPartsReproduceEmbedding(t *testing.T) {
	if _, err := os.Stat(filepath.Join(sphinx.DefaultModelDir, "means")); err != nil {
		t.Skip("the Debian en-us acoustic model is not installed (apt-get install pocketsphinx-en-us)")
	}
	ctx := context.Background()
	b, err := speaker.Open(ctx, "go", backend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var ps []*parts.Parts
	same := func(_ int, _, tau float64) float64 { return tau }
	for _, name := range []string{"en_jfk_16k.wav", "en_arctic_aew_a0002_16k.wav"} {
		a, _, err := audio.DecodeFile(ctx, testdata.Path(t, "speech", name), audio.Options{Channel: "mix"})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []condition{{}, {noise: true}, {clip: 3}, {clip: 3, noise: true}} {
			s := a.Samples
			if c.noise {
				s = addNoise(s, name, 20)
			}
			cl := clipsOf(s, c)[0]
			au := sotto.Audio{Samples: cl, SampleRate: sotto.SampleRate}
			p, err := parts.Of(ctx, b, au, parts.Options{Taus: []func(int, float64, float64) float64{same}})
			if err != nil {
				t.Fatal(err)
			}
			v, err := b.Embed(ctx, au)
			if err != nil {
				t.Fatal(err)
			}
			f, err := parts.Fuse(b, p)
			if err != nil {
				t.Fatal(err)
			}
			for i := range v {
				if float32(p.Embedding[i]) != v[i] || f[i] != p.Embedding[i] {
					t.Fatalf("%s %+v: value %d: parts %v, fused again %v, backend %v", name, c, i, p.Embedding[i], f[i], v[i])
				}
			}
			for i := range p.Static {
				if p.Extra[0].Static[i] != p.Static[i] || p.Extra[0].Delta[i] != p.Delta[i] {
					t.Fatalf("%s %+v: the transform solved again with the same prior weight differs at %d", name, c, i)
				}
			}
			if len(p.LogF0) != len(p.Formants) || len(p.LogF0) < 20 || p.Frames < 100 {
				t.Fatalf("%s %+v: %d log F0, %d formant frames, %d speech frames", name, c, len(p.LogF0), len(p.Formants), p.Frames)
			}
			ps = append(ps, p)
		}
	}
	for i, x := range ps {
		for _, y := range ps[i:] {
			want := dot(x.Embedding, y.Embedding)
			if got := fusedScore(v8Side(x), v8Side(y)); math.Abs(got-want) > 1e-12 {
				t.Errorf("recombined cosine %.15f; the embeddings' %.15f", got, want)
			}
		}
	}
}
