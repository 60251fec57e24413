package asr

import (
	"math"
	"testing"

	"github.com/sottolabs/sotto/internal/sphinx"
)

func TestSpeechCMN(t *testing.T) {
	const nc = 2
	// Normalised cepstra: 100 silence frames at (-3, 1) and 100 speech
	// frames at (3, -1); the mean over all is zero.
	cep := make([]float32, 200*nc)
	for f := range 200 {
		v := float32(-3)
		if f >= 100 {
			v = 3
		}
		cep[f*nc], cep[f*nc+1] = v, -v/3
	}
	segs := []sphinx.CMNRegion{{Start: 0, End: 200, Mean: []float64{0, 0}}}
	speechCMN(cep, nc, segs, [][2]int{{100, 200}})
	if cep[150*nc] != 0 || cep[150*nc+1] != 0 || cep[0] != -6 {
		t.Errorf("speech frame %v, silence frame %v; want the speech frames' mean at zero", cep[150*nc:151*nc], cep[:nc])
	}
	// Fewer region frames than cmnSpeechMin: unchanged.
	before := cep[0]
	speechCMN(cep, nc, segs, [][2]int{{0, cmnSpeechMin - 1}})
	if cep[0] != before {
		t.Errorf("speechCMN moved the mean on %d frames", cmnSpeechMin-1)
	}
}

func TestPriorCMN(t *testing.T) {
	const nc = 2
	// 100 frames, the segment's mean was (10, 4), the prior (50, 0), weight
	// 100 frames: the new mean of c1 is (100·4 + 100·0)/200 = 2, so the
	// frames move by +2 in c1; c0 keeps the file's mean.
	cep := make([]float32, 100*nc)
	segs := []sphinx.CMNRegion{{Start: 0, End: 100, Mean: []float64{10, 4}}}
	priorCMN(cep, nc, segs, []float64{50, 0}, 100)
	if cep[0] != 0 || math.Abs(float64(cep[1])-2) > 1e-6 {
		t.Errorf("frame %v; want [0 2]", cep[:nc])
	}
}
