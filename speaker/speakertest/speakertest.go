// Package speakertest writes small models for tests of code that uses the
// speaker package: a tiny x-vector model that speaker.LoadXVector and the
// "go" driver's speaker.OptXVectorDir accept, so that the x-vector paths
// can be tested without the real network (a 15 MB download). Its
// embeddings mean nothing about voices.
package speakertest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// kaldiWriter writes Kaldi's binary format: tokens end with a space,
// numbers carry their size byte, vectors and matrices an FV/FM tag.
type kaldiWriter struct{ bytes.Buffer }

func (w *kaldiWriter) tok(s string) { w.WriteString(s + " ") }

func (w *kaldiWriter) i32(v int) {
	w.WriteByte(4)
	binary.Write(&w.Buffer, binary.LittleEndian, int32(v))
}

func (w *kaldiWriter) f32(v float64) {
	w.WriteByte(4)
	binary.Write(&w.Buffer, binary.LittleEndian, float32(v))
}

func (w *kaldiWriter) boolean(b bool) {
	if b {
		w.WriteByte('T')
	} else {
		w.WriteByte('F')
	}
}

func (w *kaldiWriter) vec(v []float32) {
	w.tok("FV")
	w.i32(len(v))
	binary.Write(&w.Buffer, binary.LittleEndian, v)
}

func (w *kaldiWriter) mat(rows, cols int, v []float32) {
	w.tok("FM")
	w.i32(rows)
	w.i32(cols)
	binary.Write(&w.Buffer, binary.LittleEndian, v)
}

// encodeNet writes the tiny network in Kaldi's binary nnet3 format: w1, b1
// the TDNN layer (hiddenDim × 3·inDim), w2, b2 the output layer (outDim ×
// 2·hiddenDim, over the pooled means and standard deviations).
func encodeNet(w1, b1, w2, b2 []float32) []byte {
	var w kaldiWriter
	w.WriteString("\x00B")
	w.tok("<Nnet3>")
	w.WriteString("\n")
	w.WriteString(fmt.Sprintf(`input-node name=input dim=%d
component-node name=tdnn1.affine component=tdnn1.affine input=Append(Offset(input, -1), input, Offset(input, 1))
component-node name=tdnn1.relu component=tdnn1.relu input=tdnn1.affine
component-node name=stats-extraction component=stats-extraction input=tdnn1.relu
component-node name=stats-pooling component=stats-pooling input=stats-extraction
component-node name=embedding.affine component=embedding.affine input=Round(stats-pooling, 1)
output-node name=output input=embedding.affine objective=linear

`, inDim))
	w.tok("<NumComponents>")
	w.i32(5)
	w.tok("<ComponentName>")
	w.tok("tdnn1.affine")
	w.tok("<NaturalGradientAffineComponent>")
	w.tok("<LinearParams>")
	w.mat(hiddenDim, 3*inDim, w1)
	w.tok("<BiasParams>")
	w.vec(b1)
	w.tok("</NaturalGradientAffineComponent>")
	w.tok("<ComponentName>")
	w.tok("tdnn1.relu")
	w.tok("<RectifiedLinearComponent>")
	w.tok("<Dim>")
	w.i32(hiddenDim)
	w.tok("</RectifiedLinearComponent>")
	w.tok("<ComponentName>")
	w.tok("stats-extraction")
	w.tok("<StatisticsExtractionComponent>")
	w.tok("<InputDim>")
	w.i32(hiddenDim)
	w.tok("<InputPeriod>")
	w.i32(1)
	w.tok("<OutputPeriod>")
	w.i32(1)
	w.tok("<IncludeVarinance>")
	w.boolean(true)
	w.tok("</StatisticsExtractionComponent>")
	w.tok("<ComponentName>")
	w.tok("stats-pooling")
	w.tok("<StatisticsPoolingComponent>")
	w.tok("<InputDim>")
	w.i32(1 + 2*hiddenDim)
	w.tok("<InputPeriod>")
	w.i32(1)
	w.tok("<LeftContext>")
	w.i32(0)
	w.tok("<RightContext>")
	w.i32(poolRight)
	w.tok("<NumLogCountFeatures>")
	w.i32(0)
	w.tok("<OutputStddevs>")
	w.boolean(true)
	w.tok("<VarianceFloor>")
	w.f32(1e-10)
	w.tok("</StatisticsPoolingComponent>")
	w.tok("<ComponentName>")
	w.tok("embedding.affine")
	w.tok("<AffineComponent>")
	w.tok("<LinearParams>")
	w.mat(outDim, 2*hiddenDim, w2)
	w.tok("<BiasParams>")
	w.vec(b2)
	w.tok("</AffineComponent>")
	w.tok("</Nnet3>")
	return w.Bytes()
}
