package sphinx

import (
	"fmt"
	"math"
)

// logUnit is one unit of the peer's 8-bit-shifted log domain in nats:
// 1024·ln(1.0001).
const logUnit = 1024 * 0.00009999500033330834

// minLogTrans is the log probability of a zero transition in the peer (255
// units).
const minLogTrans = -255 * logUnit

// TransitionMatrices holds the HMM transition matrices of a model, already
// normalised per row and converted to natural-log probabilities.
type TransitionMatrices struct {
	N      int // number of matrices
	NState int // emitting states (rows); the last column is the exit state
	// LogProb is laid out [tmat][from][to] with NState rows of NState+1
	// columns; zero transitions hold the peer's largest penalty, minLogTrans.
	LogProb []float32
}

// At returns the log probability of moving from state i to state j (j ==
// NState is the non-emitting exit) in matrix t.
func (tm *TransitionMatrices) At(t, i, j int) float32 {
	return tm.LogProb[(t*tm.NState+i)*(tm.NState+1)+j]
}

// ParseTransitionMatrices decodes a transition_matrices file. Each row is
// normalised, non-zero entries are floored at floor (pocketsphinx -tmatfloor,
// 1e-4 by default) and the row is normalised again, as the peer does.
func ParseTransitionMatrices(name string, data []byte, floor float64) (*TransitionMatrices, error) {
	r, err := newS3Reader(name, data)
	if err != nil {
		return nil, err
	}
	d, raw, err := r.cube([3]string{"n_tmat", "n_src", "n_dst"}, [3]int{1 << 16, 64, 65}, 1<<28, func(d [3]int) error {
		if d[0] == 0 || d[1] == 0 || d[2] != d[1]+1 {
			return fmt.Errorf("sphinx: %s: bad shape %d×%d×%d (want n>0 and n_dst = n_src+1)", name, d[0], d[1], d[2])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	n, src, dst, cnt := d[0], d[1], d[2], len(raw)
	tm := &TransitionMatrices{N: n, NState: src, LogProb: make([]float32, cnt)}
	for row := 0; row < n*src; row++ {
		p := raw[row*dst : (row+1)*dst]
		sum := 0.0
		for _, v := range p {
			if v < 0 || math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, fmt.Errorf("sphinx: %s: matrix %d row %d holds %v", name, row/src, row%src, v)
			}
			sum += float64(v)
		}
		if sum == 0 {
			return nil, fmt.Errorf("sphinx: %s: matrix %d row %d is all zero", name, row/src, row%src)
		}
		q := make([]float64, dst)
		sum2 := 0.0
		for j, v := range p {
			q[j] = float64(v) / sum
			if q[j] != 0 && q[j] < floor {
				q[j] = floor
			}
			sum2 += q[j]
		}
		for j := range q {
			out := &tm.LogProb[row*dst+j]
			// The peer quantises -log_1.0001(p)>>10 into a byte, so a zero
			// (or tiny) probability becomes the largest penalty a byte holds.
			lp := math.Inf(-1)
			if q[j] > 0 {
				lp = math.Log(q[j] / sum2)
			}
			*out = float32(max(lp, minLogTrans))
		}
	}
	return tm, nil
}
