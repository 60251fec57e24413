package sphinx

import (
	"fmt"
	"math"
)

// Continuous and semi-continuous models keep their mixture weights as
// float32 in a Sphinx-3 "mixture_weights" file instead of the quantised
// "sendump" of PTM models, and may carry a "feature_transform" (an LDA or
// LDA+MLLT matrix applied to the 1s_c_d_dd features). This file reads both.

// DefaultMixwFloor is the peer's floor for mixture weights read from a
// mixture_weights file (pocketsphinx -mixwfloor).
const DefaultMixwFloor = 1e-7

// The peer's log domain: base 1.0001, senone scores shifted right by 10 bits
// (so one quantised weight step is logUnit nats).
const (
	logBase       = 1.0001
	senScoreShift = 10
)

// ParseMixtureWeights decodes a mixture_weights file:
//
//	s3 header, byte-order magic
//	int32 n_sen, n_feat, n_density, n (= n_sen·n_feat·n_density)
//	float32[n] laid out [senone][stream][density]
//	uint32 checksum (when the header says chksum0)
//
// Each senone's weights of a stream are normalised, floored at floor (0 =
// DefaultMixwFloor), normalised again and quantised as the peer does:
// ⌊(−log_1.0001 w + 511) / 1024⌋, at most 255, so that scoring is the same
// as with a sendump. The result is laid out like ParseSendump's.
func ParseMixtureWeights(name string, data []byte, floor float64) (*MixWeights, error) {
	if floor == 0 {
		floor = DefaultMixwFloor
	}
	if !(floor > 0 && floor < 1) {
		return nil, fmt.Errorf("sphinx: %s: mixture weight floor %g not in (0,1)", name, floor)
	}
	r, err := newS3Reader(name, data)
	if err != nil {
		return nil, err
	}
	d, vals, err := r.cube([3]string{"n_sen", "n_feat", "n_density"}, [3]int{1 << 16, 64, 1 << 16}, 1<<28, func(d [3]int) error {
		if d[0] == 0 || d[1] == 0 || d[2] == 0 {
			return fmt.Errorf("sphinx: %s: empty weight table (%d×%d×%d)", name, d[0], d[1], d[2])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	nSen, nFeat, nDen, n := d[0], d[1], d[2], len(vals)
	mw := &MixWeights{NFeat: nFeat, NDensity: nDen, NSen: nSen, W: make([]uint8, n)}
	invLog := 1 / math.Log(logBase)
	for s := range nSen {
		for f := range nFeat {
			pdf := vals[(s*nFeat+f)*nDen:][:nDen]
			for d, v := range pdf {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) || v < 0 {
					return nil, fmt.Errorf("sphinx: %s: senone %d stream %d weight %d is %v", name, s, f, d, v)
				}
			}
			normalise(pdf)
			for d := range pdf {
				if float64(pdf[d]) < floor {
					pdf[d] = float32(floor)
				}
			}
			normalise(pdf)
			for d, v := range pdf {
				p := -int64(int32(math.Log(float64(v)) * invLog))
				p += 1<<(senScoreShift-1) - 1
				q := uint8(255)
				if p < 255<<senScoreShift {
					q = uint8(p >> senScoreShift)
				}
				mw.W[(f*nDen+d)*nSen+s] = q
			}
		}
	}
	return mw, nil
}

// normalise scales v to sum to one; an all-zero v is left alone (the floor
// then makes it uniform), as the peer does.
func normalise(v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x)
	}
	if sum <= 0 {
		return
	}
	k := 1 / sum
	for i := range v {
		v[i] = float32(float64(v[i]) * k)
	}
}

// FeatureTransform is a linear feature transform (SphinxTrain's LDA or
// LDA+MLLT "feature_transform"): Out rows of In columns, applied to each
// single-stream feature vector as y = M·x.
type FeatureTransform struct {
	In, Out int
	M       []float32 // Out×In, row-major (the eigenvectors are rows)
}

// ParseFeatureTransform decodes a feature_transform file:
//
//	s3 header, byte-order magic
//	int32 n_matrix, rows, cols, n (= n_matrix·rows·cols)
//	float32[n]
//	uint32 checksum (when the header says chksum0)
//
// Only the first matrix is used, as by the peer. dim keeps the first dim
// rows (0 or more than the rows = all of them, the peer's -ldadim).
func ParseFeatureTransform(name string, data []byte, dim int) (*FeatureTransform, error) {
	r, err := newS3Reader(name, data)
	if err != nil {
		return nil, err
	}
	d, vals, err := r.cube([3]string{"matrix count", "rows", "columns"}, [3]int{64, 4096, 4096}, 1<<26, func(d [3]int) error {
		if d[0] == 0 || d[1] == 0 || d[2] == 0 {
			return fmt.Errorf("sphinx: %s: empty transform (%d×%d×%d)", name, d[0], d[1], d[2])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rows, cols := d[1], d[2]
	for i, v := range vals[:rows*cols] {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("sphinx: %s: value %d is %v", name, i, v)
		}
	}
	if dim <= 0 || dim > rows {
		dim = rows
	}
	return &FeatureTransform{In: cols, Out: dim, M: append([]float32(nil), vals[:dim*cols]...)}, nil
}

// Apply writes M·x into dst (length Out) and returns it; x has length In.
func (t *FeatureTransform) Apply(dst, x []float32) []float32 {
	dst = dst[:t.Out]
	x = x[:t.In]
	for j := range dst {
		row := t.M[j*t.In : (j+1)*t.In]
		var acc float32
		for k, v := range x {
			acc += v * row[k]
		}
		dst[j] = acc
	}
	return dst
}
