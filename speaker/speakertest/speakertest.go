// Package speakertest writes small models for tests of code that uses the
// speaker package: a tiny x-vector model that speaker.LoadXVector and the
// "go" driver's speaker.OptXVectorDir accept, so that the x-vector paths
// can be tested without the real network (a 15 MB download). Its
// embeddings mean nothing about voices.
package speakertest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sottolabs/sotto/speaker/internal/kaldi/kaldiwrite"
)

// Dimensions of the tiny network: 23 MFCCs in (as the real model's
// mfcc.conf), one TDNN layer over frames t−1…t+1, statistics pooling over
// the first 4 s, 128 numbers out (speaker.XVectorDim).
const (
	inDim     = 23
	hiddenDim = 8
	outDim    = 128
	poolRight = 400
)

// MFCCConf is the mfcc.conf WriteXVector writes (the real model's).
const MFCCConf = "--sample-frequency=8000\n--high-freq=3700\n--low-freq=20\n--num-ceps=23\n--allow-downsample=true\n"

// WriteXVector writes a tiny x-vector model into dir (which must exist):
// final.ext.raw (a binary nnet3 network of random weights drawn from
// seed), mean.vec, transform.mat (text Kaldi objects) and mfcc.conf. Its
// embeddings have 128 numbers, like the real model's; different seeds
// give different networks, centring vectors and whitening matrices, the
// same seed the same files.
func WriteXVector(dir string, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	norm := func(n int, scale float64) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(scale * rng.NormFloat64())
		}
		return v
	}
	files := map[string][]byte{
		"final.ext.raw": encodeNet(norm(hiddenDim*3*inDim, 0.12), norm(hiddenDim, 0.5),
			norm(outDim*2*hiddenDim, 0.25), norm(outDim, 0.1)),
		"mean.vec":      textVector(norm(outDim, 0.05)),
		"transform.mat": textMatrix(outDim, outDim, whitening(rng)),
		"mfcc.conf":     []byte(MFCCConf),
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return fmt.Errorf("speakertest: %w", err)
		}
	}
	return nil
}

// whitening returns a well-conditioned outDim×outDim matrix: the identity
// plus small random numbers.
func whitening(rng *rand.Rand) []float32 {
	m := make([]float32, outDim*outDim)
	for i := range m {
		m[i] = float32(0.05 * rng.NormFloat64())
	}
	for i := range outDim {
		m[i*outDim+i]++
	}
	return m
}

func textVector(v []float32) []byte {
	var b strings.Builder
	b.WriteString(" [")
	for _, x := range v {
		b.WriteString(" " + strconv.FormatFloat(float64(x), 'g', -1, 32))
	}
	b.WriteString(" ]\n")
	return []byte(b.String())
}

func textMatrix(rows, cols int, v []float32) []byte {
	var b strings.Builder
	b.WriteString(" [")
	for r := range rows {
		b.WriteString("\n ")
		for _, x := range v[r*cols : (r+1)*cols] {
			b.WriteString(" " + strconv.FormatFloat(float64(x), 'g', -1, 32))
		}
	}
	b.WriteString(" ]\n")
	return []byte(b.String())
}

// encodeNet writes the tiny network in Kaldi's binary nnet3 format: w1, b1
// the TDNN layer (hiddenDim × 3·inDim), w2, b2 the output layer (outDim ×
// 2·hiddenDim, over the pooled means and standard deviations).
func encodeNet(w1, b1, w2, b2 []float32) []byte {
	var w kaldiwrite.Writer
	w.WriteString("\x00B")
	w.Token("<Nnet3>")
	w.WriteString("\n")
	w.WriteString(fmt.Sprintf(`input-node name=input dim=%d
component-node name=tdnn1.affine component=tdnn1.affine input=Append(Offset(input, -1), input, Offset(input, 1))
component-node name=tdnn1.relu component=tdnn1.relu input=tdnn1.affine
component-node name=stats-extraction component=stats-extraction input=tdnn1.relu
component-node name=stats-pooling component=stats-pooling input=stats-extraction
component-node name=embedding.affine component=embedding.affine input=Round(stats-pooling, 1)
output-node name=output input=embedding.affine objective=linear

`, inDim))
	w.Token("<NumComponents>")
	w.Int32(5)
	w.Token("<ComponentName>")
	w.Token("tdnn1.affine")
	w.Token("<NaturalGradientAffineComponent>")
	w.Token("<LinearParams>")
	w.Matrix(hiddenDim, 3*inDim, w1...)
	w.Token("<BiasParams>")
	w.Vector(b1...)
	w.Token("</NaturalGradientAffineComponent>")
	w.Token("<ComponentName>")
	w.Token("tdnn1.relu")
	w.Token("<RectifiedLinearComponent>")
	w.Token("<Dim>")
	w.Int32(hiddenDim)
	w.Token("</RectifiedLinearComponent>")
	w.Token("<ComponentName>")
	w.Token("stats-extraction")
	w.Token("<StatisticsExtractionComponent>")
	w.Token("<InputDim>")
	w.Int32(hiddenDim)
	w.Token("<InputPeriod>")
	w.Int32(1)
	w.Token("<OutputPeriod>")
	w.Int32(1)
	w.Token("<IncludeVarinance>")
	w.Bool(true)
	w.Token("</StatisticsExtractionComponent>")
	w.Token("<ComponentName>")
	w.Token("stats-pooling")
	w.Token("<StatisticsPoolingComponent>")
	w.Token("<InputDim>")
	w.Int32(1 + 2*hiddenDim)
	w.Token("<InputPeriod>")
	w.Int32(1)
	w.Token("<LeftContext>")
	w.Int32(0)
	w.Token("<RightContext>")
	w.Int32(poolRight)
	w.Token("<NumLogCountFeatures>")
	w.Int32(0)
	w.Token("<OutputStddevs>")
	w.Bool(true)
	w.Token("<VarianceFloor>")
	w.Float32(1e-10)
	w.Token("</StatisticsPoolingComponent>")
	w.Token("<ComponentName>")
	w.Token("embedding.affine")
	w.Token("<AffineComponent>")
	w.Token("<LinearParams>")
	w.Matrix(outDim, 2*hiddenDim, w2...)
	w.Token("<BiasParams>")
	w.Vector(b2...)
	w.Token("</AffineComponent>")
	w.Token("</Nnet3>")
	return w.Bytes()
}
