package speaker

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/sottolabs/sotto/internal/sphinx"
)

// sendumpLogUnit is one unit of the 8-bit sendump mixture weights in nats
// (1024·ln(1.0001)): a stored byte b is the weight exp(-b·sendumpLogUnit).
const sendumpLogUnit = 1024 * 0.00009999500033330834

// codebookWeights returns, for the model's first two feature streams, the
// log weight of every Gaussian within its codebook: the mixture weights
// of all senones that draw on the codebook (every triphone state of its
// CI phone, from sendump) averaged and normalised to sum to one. The
// Gaussians are numbered codebook by codebook (codebook·nDen + density),
// as newMLLR numbers them; nCB·nDen must be their number k, and the
// model has nFeat streams.
func codebookWeights(dir string, k, nFeat, nDen int) ([2][]float64, error) {
	var out [2][]float64
	read := func(name string) ([]byte, error) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("speaker: %w", err)
		}
		return b, nil
	}
	b, err := read("mdef")
	if err != nil {
		return out, err
	}
	md, err := sphinx.ParseMdef("mdef", b)
	if err != nil {
		return out, fmt.Errorf("speaker: %w", err)
	}
	nCB := len(md.CIName)
	if nCB*nDen != k {
		return out, fmt.Errorf("speaker: %s: %d CI phones × %d densities, but %d Gaussians: the embedding needs a PTM model (one codebook per CI phone)", dir, nCB, nDen, k)
	}
	if b, err = read("sendump"); err != nil {
		return out, err
	}
	mw, err := sphinx.ParseSendump("sendump", b, nFeat, nDen, md.NSen)
	if err != nil {
		return out, fmt.Errorf("speaker: %w", err)
	}
	for f := range out {
		w := make([]float64, k)
		for s := range md.NSen {
			c := md.SenoneBase(s)
			for d := range nDen {
				w[c*nDen+d] += math.Exp(-sendumpLogUnit * float64(mw.W[(f*nDen+d)*mw.NSen+s]))
			}
		}
		for c := range nCB {
			cw := w[c*nDen : c*nDen+nDen]
			var sum float64
			for _, v := range cw {
				sum += v
			}
			if sum <= 0 {
				return out, fmt.Errorf("speaker: sendump: codebook %s has no weight", md.CIName[c])
			}
			for d, v := range cw {
				cw[d] = math.Log(v / sum)
			}
		}
		out[f] = w
	}
	return out, nil
}
