package sphinx

import (
	"fmt"
	"math"
)

// Gauden is a set of diagonal-covariance Gaussian codebooks as stored in the
// Sphinx-3 "means" and "variances" files: NMgau codebooks, each with NFeat
// streams of NDensity Gaussians of VecLen[f] dimensions.
type Gauden struct {
	NMgau, NFeat, NDensity int
	VecLen                 []int
	// Data holds the values laid out [mgau][feat][density][dim], so stream f
	// of density d of codebook m starts at Offset(m, f, d).
	Data []float32
}

// Offset returns the index into Data of the first dimension of density d of
// stream f in codebook m.
func (g *Gauden) Offset(m, f, d int) int {
	total, off := 0, 0
	for i, l := range g.VecLen {
		if i < f {
			off += g.NDensity * l
		}
		total += l
	}
	return m*g.NDensity*total + off + d*g.VecLen[f]
}

// ParseGauden decodes a means or variances file. name is used in errors.
func ParseGauden(name string, data []byte) (*Gauden, error) {
	r, err := newS3Reader(name, data)
	if err != nil {
		return nil, err
	}
	g := &Gauden{}
	if g.NMgau, err = r.count("n_mgau", 1<<16); err != nil {
		return nil, err
	}
	if g.NFeat, err = r.count("n_feat", 64); err != nil {
		return nil, err
	}
	if g.NDensity, err = r.count("n_density", 1<<16); err != nil {
		return nil, err
	}
	if g.NMgau == 0 || g.NFeat == 0 || g.NDensity == 0 {
		return nil, fmt.Errorf("sphinx: %s: empty codebook set (%d×%d×%d)", name, g.NMgau, g.NFeat, g.NDensity)
	}
	g.VecLen = make([]int, g.NFeat)
	total := 0
	for i := range g.VecLen {
		if g.VecLen[i], err = r.count("veclen", 1024); err != nil {
			return nil, err
		}
		if g.VecLen[i] == 0 {
			return nil, fmt.Errorf("sphinx: %s: stream %d has zero length", name, i)
		}
		total += g.VecLen[i]
	}
	n, err := r.count("value count", 1<<28)
	if err != nil {
		return nil, err
	}
	if want := g.NMgau * g.NDensity * total; n != want {
		return nil, fmt.Errorf("sphinx: %s: value count %d, want %d×%d×%d = %d", name, n, g.NMgau, g.NDensity, total, want)
	}
	if g.Data, err = r.floats(n); err != nil {
		return nil, err
	}
	for i, v := range g.Data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("sphinx: %s: value %d is %v", name, i, v)
		}
	}
	if err := r.finish(); err != nil {
		return nil, err
	}
	return g, nil
}

// sameShape reports whether g and o have identical dimensions.
func (g *Gauden) sameShape(o *Gauden) bool {
	if g.NMgau != o.NMgau || g.NFeat != o.NFeat || g.NDensity != o.NDensity || len(g.VecLen) != len(o.VecLen) {
		return false
	}
	for i := range g.VecLen {
		if g.VecLen[i] != o.VecLen[i] {
			return false
		}
	}
	return true
}
