package tensor

import (
	"runtime"
	"sync"
	"unsafe"
)

// Pool is a fixed set of worker goroutines that split matrix-vector
// products by rows. It serves one caller at a time: the methods must not be
// called concurrently. The workers live until Close.
type Pool struct {
	n    int
	work []chan struct{}
	wg   sync.WaitGroup
	job  job
	// scratch[w] is worker w's buffer for a decoded weight row (prompt
	// batches); it grows to the largest row seen and is then reused.
	scratch [][]byte
	// tiles is set while a product runs on the tile kernels (gemm_q.go),
	// which keep their buffers in tileMem.
	tiles   qTileJob
	tileMem tileMem
}

// job describes the current parallel call; workers read it after being
// woken and before signalling the WaitGroup.
type job struct {
	kind   int // 0: matvec, 1: batched matmul
	out    []float32
	m      *Matrix
	a      *Activation
	as     []Activation
	outs   [][]float32
	dot    func(w []byte, a *Activation) float32
	dot4   func(w []byte, a *[4]*Activation, out *[4]float32)
	dec    func(w, dst []byte)
	dotDec func(dec []byte, a *Activation) float32
	rows   int
	parts  int
}

// minParallelWork is the number of weight bytes below which a product runs
// on the calling goroutine alone: waking workers costs microseconds.
const minParallelWork = 64 << 10

// NewPool starts a pool of n goroutines in all, counting the caller (n-1
// workers); n ≤ 0 means GOMAXPROCS.
func NewPool(n int) *Pool {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	p := &Pool{n: n}
	for w := 1; w < n; w++ {
		c := make(chan struct{}, 1)
		p.work = append(p.work, c)
		go p.worker(w, c)
	}
	return p
}

// Threads returns the number of goroutines a product may use.
func (p *Pool) Threads() int { return p.n }

// Close stops the workers. The pool must not be used afterwards.
func (p *Pool) Close() {
	for _, c := range p.work {
		close(c)
	}
	p.work = nil
}

func (p *Pool) worker(w int, c chan struct{}) {
	for range c {
		p.runPart(w)
		p.wg.Done()
	}
}

func (p *Pool) runPart(w int) {
	j := &p.job
	lo, hi := j.rows*w/j.parts, j.rows*(w+1)/j.parts
	if p.tiles.t != nil {
		p.runTiles(w, lo, hi)
		return
	}
	if j.kind == 0 {
		for i := lo; i < hi; i++ {
			j.out[i] = j.dot(j.m.Row(i), j.a)
		}
		return
	}
	if j.dec != nil {
		buf := p.scratch[w]
		for i := lo; i < hi; i++ {
			j.dec(j.m.Row(i), buf)
			for b := range j.as {
				j.outs[b][i] = j.dotDec(buf, &j.as[b])
			}
		}
		return
	}
	var a4 [4]*Activation
	var r4 [4]float32
	for i := lo; i < hi; i++ {
		row := j.m.Row(i)
		b := 0
		if j.dot4 != nil {
			for ; b+4 <= len(j.as); b += 4 {
				a4 = [4]*Activation{&j.as[b], &j.as[b+1], &j.as[b+2], &j.as[b+3]}
				j.dot4(row, &a4, &r4)
				j.outs[b][i], j.outs[b+1][i], j.outs[b+2][i], j.outs[b+3][i] = r4[0], r4[1], r4[2], r4[3]
			}
		}
		for ; b < len(j.as); b++ {
			j.outs[b][i] = j.dot(row, &j.as[b])
		}
	}
}

func (p *Pool) run(work int) {
	j := &p.job
	j.parts = 1
	if p.n > 1 && work >= minParallelWork && j.rows >= 2*p.n {
		j.parts = p.n
	}
	p.wg.Add(j.parts - 1)
	for w := 1; w < j.parts; w++ {
		p.work[w-1] <- struct{}{}
	}
	p.runPart(0)
	p.wg.Wait()
	*j = job{}
}

// grow makes every worker's scratch buffer n bytes long.
func (p *Pool) grow(n int) {
	if len(p.scratch) < p.n {
		p.scratch = make([][]byte, p.n)
	}
	for w := range p.scratch {
		if cap(p.scratch[w]) < n {
			p.scratch[w] = make([]byte, n)
		}
		p.scratch[w] = p.scratch[w][:n]
	}
}

// MatVec sets out[i] = row i of m · a for every row. len(out) must be
// m.Rows and len(a.F) m.Cols; a must be quantized (see [Activation.Set]) if
// m is.
func (p *Pool) MatVec(out []float32, m *Matrix, a *Activation) {
	m.check(a)
	if len(out) != m.Rows {
		panic("tensor: MatVec: output length mismatch")
	}
	p.job = job{kind: 0, out: out, m: m, a: a, dot: m.rowDotter(), rows: m.Rows}
	if p.setupTiles(m, unsafe.Slice(a, 1), true) {
		p.run(len(m.Data))
		p.tiles = qTileJob{}
		return
	}
	p.run(len(m.Data))
}

// MatMul multiplies m by each activation: outs[b][i] = row i of m · as[b].
// Each weight row is read once for the whole batch, which is what makes
// prompt processing faster than one MatVec per token.
func (p *Pool) MatMul(outs [][]float32, m *Matrix, as []Activation) {
	if len(outs) != len(as) {
		panic("tensor: MatMul: batch mismatch")
	}
	for b := range as {
		m.check(&as[b])
		if len(outs[b]) != m.Rows {
			panic("tensor: MatMul: output length mismatch")
		}
	}
	if len(as) == 0 {
		return
	}
	if len(as) == 1 {
		// One activation (generation): the matrix-vector kernels, which
		// for quantized weights are faster than the batch's row kernels
		// and give the prompt kernels' results.
		p.MatVec(outs[0], m, &as[0])
		return
	}
	p.job = job{kind: 1, outs: outs, m: m, as: as, dot: m.rowDotter(), rows: m.Rows}
	if p.setupTiles(m, as, false) {
		p.run(len(m.Data) * len(as))
		p.tiles = qTileJob{}
		return
	}
	switch m.Type {
	case Q8_0:
		p.job.dot4 = active.dot4Q8_0
	case Q4_K:
		p.job.dot4 = active.dot4Q4_K
		if active.decQ4_K != nil && len(as) > 1 {
			p.job.dec, p.job.dotDec = active.decQ4_K, active.dotDecQ4_K
			p.grow(decQ4_KLen(m.Cols))
		}
	case Q6_K:
		p.job.dot4 = active.dot4Q6_K
	}
	p.run(len(m.Data) * len(as))
}
