package tensor

import "unsafe"

// Kernels for Q8_0 and Q4_K weights on CPUs with AVX-512, for prompt
// batches (matrix × matrix) and generation (matrix × vector).
//
// Q8_0, prompt: the four-activation kernel (kernelSet.dot4Q8_0) loads a
// weight block once per four activations but each activation block once
// per row, and applies the weights' signs to the activations with 256-bit
// operations. The tile here decodes two rows once (magnitudes, sign masks,
// scales spread over the lanes), prepares each activation once per product
// (its negation and spread scales), and multiplies two rows by two
// activations per step with 512-bit operations: a blend picks each value
// or its negation under the weights' sign mask, then VPMADDUBSW, VPMADDWD,
// a conversion and a multiply-add per 64 products. (llama.cpp's AVX-512
// VNNI path needs one instruction for the first three; Go's simd/archsimd
// has no VNNI.) Measured 1.6× the four-activation kernel per block. On
// CPUs with AVX512-VNNI an assembly kernel (gemm_q8vnni_amd64.go) replaces
// the tile: 16 blocks transposed so that each 32-bit lane holds one block,
// four rows by four activations per step, VPDPBUSD for the integer sums
// and one conversion, scale product and multiply-add per 16 blocks. Q4_K
// prompt batches there take two decoded rows by four activations in
// assembly, VPDPWSSD applying the sub-block scales (1.4× per block, the
// same results as dotDecQ4_K).
//
// Q8_0, generation: four rows at a time read as stored, with the tile's
// operations per row in the same order (four independent sums; the AVX2
// kernel's single sum waits on each multiply-add's latency): 1.5× per
// block in cache, and the same results as the prompt tile. On CPUs with
// AVX512-VNNI an assembly kernel (matvec_vnni_amd64.go) takes eight rows
// as stored per call, transposing each group of 16 blocks as it loads
// it, with the VNNI prompt kernel's operations and results. A MatMul of
// one activation (how the engine generates) runs as a MatVec.
//
// Q4_K: generation uses 512-bit multiply-adds over an activation reordered
// to match the packed nibbles (1.2× per block in cache); prompt batches
// decode each row once as before. Both subtract the mins' term,
// Σ (dmin·m_j)·(dk·Σq_j), from the super-block's sum with the activation's
// factors computed once per product (one multiply-add per super-block
// instead of an integer multiply, a conversion and two float operations:
// 1.12× per block).
//
// These kernels add in another order than the single-row kernels
// (kernelSet.dotQ8_0, dotQ4_K; tested within 1e-5 of the magnitude), but a
// matrix-vector product and a batch give identical results for the same
// row and activation, so prompt and generation agree.
//
// A two-by-two tile over decoded Q4_K rows was measured too and dropped:
// 0.73 ns per block against the single-row kernel's 0.65, both bounded by
// the multiply-adds.
//
// The archsimd kernels exist only in the SIMD build on CPUs with AVX-512
// (simdTiles is nil otherwise). The VNNI Q8_0 kernels are assembly and run
// in the default amd64 build too (asmTiles, with the kernel set asmSet);
// elsewhere products take the kernel set's kernels, against which the
// tests compare.

// qTiles is a set of register-blocked kernels for prompt batches and the
// matrix-vector products of generation; see simdTiles.
type qTiles struct {
	// decQ8_0 decodes a Q8_0 row of cols values (cols a multiple of 64)
	// into decQ8_0Len(cols) bytes; prepQ8_0 writes, per activation, the
	// negated quantized values and the block scales spread over the lanes
	// (prepQ8_0Len(cols) bytes); dot2x4Q8_0 multiplies two decoded rows by
	// four activations (their quantized values q and prepared data x).
	decQ8_0    func(w, dst []byte)
	prepQ8_0   func(a *Activation, dst []byte)
	dot2x4Q8_0 func(d0, d1 []byte, q, x *[4][]byte, out *[8]float32)
	// dotDecQ8_0 is dot2x4Q8_0 for one row and one activation (the same
	// results).
	dotDecQ8_0 func(dec []byte, q, x []byte) float32
	// dot4x1Q8_0 multiplies four decoded rows by one activation (the
	// matrix-vector products of generation), per row with the operations
	// of dotDecQ8_0 in the same order, so that generation and prompt
	// batches give the same results.
	dot4x1Q8_0 func(d *[4][]byte, q, x []byte, out *[4]float32)
	// raw4x1Q8_0 is dot4x1Q8_0 over four rows as stored (len(q) a
	// multiple of 256; d: the activation's block scales), with the same
	// results.
	raw4x1Q8_0 func(w *[4][]byte, q []byte, d []float32, out *[4]float32)

	// vecQ4_K computes dotQ4_K's product (within rounding; the results of
	// dotDecQ4_K) with 512-bit operations, reading the activation's
	// 256-value quantization reordered by permQK into len(a.QK) bytes and
	// its mins' factors from prepQ4_K.
	permQK  func(a *Activation, dst []byte)
	vecQ4_K func(w, qp []byte, a *Activation, sk []float32) float32

	// Prompt batches of Q4_K rows: prepQ4_K writes an activation's factors
	// of the mins' term (dk·Σq per 32 values, len(a.SK) of them); decQ4_K
	// decodes a row (quants, scale operands, −dmin·m per 32 values, d) into
	// decQ4_KLen(cols) bytes; dotDecQ4_K multiplies a decoded row by an
	// activation, with vecQ4_K's results.
	prepQ4_K   func(a *Activation, sk []float32)
	decQ4_K    func(w, dst []byte)
	dotDecQ4_K func(dec []byte, a *Activation, sk []float32) float32

	// Prompt batches of Q8_0 rows on CPUs with AVX512-VNNI (nil
	// elsewhere; gemm_q8vnni_amd64.go): decQ8_0V decodes a row into
	// decQ8_0VLen(cols) bytes, prepQ8_0V prepares an activation into
	// prepQ8_0VLen(cols) bytes, and dot4x4Q8_0V multiplies four decoded
	// rows by four prepared activations (out[4r+t]). The results differ
	// from dot2x4Q8_0's by rounding (another order of additions).
	decQ8_0V     func(w, dst []byte)
	decQ8_0VLen  func(cols int) int
	prepQ8_0V    func(a *Activation, dst []byte)
	prepQ8_0VLen func(cols int) int
	dot4x4Q8_0V  func(d, x *[4][]byte, out *[16]float32)
	// vec8Q8_0V is the matrix-vector product of generation on those
	// CPUs: eight Q8_0 rows as stored times one activation prepared by
	// prepQ8_0V, with dot4x4Q8_0V's results (matvec_vnni_amd64.go).
	vec8Q8_0V func(w *[8][]byte, x []byte, out *[8]float32)

	// q4kw, where set, prepares every Q4_K product (MatMul of two or more
	// activations, MatVec) for its own kernels (gemm_q4kvnni_amd64.go).
	q4kw func(p *Pool, m *Matrix, as []Activation, vec bool) bool
}

// Per pair of Q8_0 blocks (64 values): the decoded row holds the 64
// magnitudes, the 16 lanes of weight scales (8 per block) and the 64-bit
// mask of negative weights, padded to whole cache lines; the prepared
// activation holds the 64 negated values and 16 lanes of its scales.
const (
	decQ8_0Pair  = 192
	prepQ8_0Pair = 128
)

func decQ8_0Len(cols int) int  { return cols / 64 * decQ8_0Pair }
func prepQ8_0Len(cols int) int { return cols / 64 * prepQ8_0Pair }

// asmTiles holds the VNNI assembly kernels in builds without the SIMD
// set, for the kernel set asmSet (both nil elsewhere or without VNNI; see
// gemm_q8vnni_amd64.go).
var (
	asmTiles *qTiles
	asmSet   *kernelSet
)

// tiles returns the tile kernels that go with kernel set k (nil: none).
func (k *kernelSet) tiles() *qTiles {
	switch k {
	case simdKernels:
		return simdTiles
	case asmSet:
		return asmTiles
	}
	return nil
}

// qTileJob describes the product (MatMul or MatVec) the tiles run.
type qTileJob struct {
	t       *qTiles
	decLen  int
	prepLen int
	prep    []byte    // prepared activations, prepLen bytes each (Q8_0), or the reordered activation (Q4_K MatVec)
	sk      []float32 // Q4_K: the activations' mins factors, skLen each
	skLen   int
	vnni    bool                         // MatMul: the prep holds prepQ8_0V's data for the VNNI kernels
	run     func(p *Pool, w, lo, hi int) // set by q4kw: computes rows lo..hi-1 on worker w
}

// tileMem holds the tile kernels' buffers, reused from product to product.
type tileMem struct {
	prep []byte
	sk   []float32
	args []tileArgs
}

// setupTiles prepares MatMul(outs, m, as) (vec: MatVec, one activation)
// for the tile kernels and reports whether they will run it.
func (p *Pool) setupTiles(m *Matrix, as []Activation, vec bool) bool {
	t := active.tiles()
	if t == nil {
		return false
	}
	if m.Type == Q4_K && t.q4kw != nil && (vec || len(as) >= 2) {
		return t.q4kw(p, m, as, vec)
	}
	tm := &p.tileMem
	switch {
	case m.Type == Q8_0 && ((!vec && len(as) >= 2 && t.dot4x4Q8_0V != nil) || (vec && t.vec8Q8_0V != nil)):
		// Any batch of two or more: short tiles repeat an activation,
		// and every batch size gives the matrix-vector product's results.
		n := t.prepQ8_0VLen(m.Cols)
		tm.prep = grow(tm.prep, n*len(as))
		for b := range as {
			t.prepQ8_0V(&as[b], tm.prep[b*n:(b+1)*n])
		}
		p.tiles = qTileJob{t: t, decLen: t.decQ8_0VLen(m.Cols), prepLen: n, prep: tm.prep[:n*len(as)], vnni: true}
		if !vec {
			p.grow(4 * p.tiles.decLen)
		}
	case m.Type == Q8_0 && t.decQ8_0 != nil && m.Cols%64 == 0 && (vec || len(as) >= 4):
		n := prepQ8_0Len(m.Cols)
		tm.prep = grow(tm.prep, n*len(as))
		for b := range as {
			t.prepQ8_0(&as[b], tm.prep[b*n:(b+1)*n])
		}
		p.tiles = qTileJob{t: t, decLen: decQ8_0Len(m.Cols), prepLen: n, prep: tm.prep[:n*len(as)]}
		p.grow(4 * p.tiles.decLen)
	case m.Type == Q4_K && t.prepQ4_K != nil && (vec || len(as) >= 2):
		k := m.Cols / qk
		tm.sk = grow(tm.sk, k*len(as))
		for b := range as {
			t.prepQ4_K(&as[b], tm.sk[b*k:(b+1)*k])
		}
		p.tiles = qTileJob{t: t, sk: tm.sk[:k*len(as)], skLen: k}
		if vec {
			tm.prep = grow(tm.prep, m.Cols)
			t.permQK(&as[0], tm.prep)
			p.tiles.prep, p.tiles.prepLen = tm.prep[:m.Cols], m.Cols
		} else {
			p.tiles.decLen = decQ4_KLen(m.Cols)
			p.grow(p.tiles.decLen)
		}
	default:
		return false
	}
	if len(tm.args) < p.n {
		tm.args = make([]tileArgs, p.n)
	}
	return true
}

// tileArgs holds one worker's arguments to the tile kernels, which reach
// them through function values: on the stack they would escape and be
// allocated per call.
type tileArgs struct {
	d4, w4 [4][]byte
	q4, x4 [4][]byte
	r4     [4]float32
	r8     [8]float32
	r16    [16]float32
	w8     [8][]byte
	v8     [8]float32
}

// runVecTiles computes rows lo..hi-1 of the current MatVec on worker w,
// four decoded rows at a time (the last ones one at a time).
func (p *Pool) runVecTiles(w, lo, hi int) {
	j, tj := &p.job, &p.tiles
	if j.m.Type == Q4_K {
		for i := lo; i < hi; i++ {
			j.out[i] = tj.t.vecQ4_K(j.m.Row(i), tj.prep, j.a, tj.sk)
		}
		return
	}
	if tj.vnni {
		p.runVecVNNI(w, lo, hi)
		return
	}
	buf, ta := p.scratch[w], &p.tileMem.args[w]
	d4 := &ta.d4
	for k := range d4 {
		d4[k] = buf[k*tj.decLen : (k+1)*tj.decLen]
	}
	q := int8Bytes(j.a.Q)
	i := lo
	if tj.t.raw4x1Q8_0 != nil && j.m.Cols%256 == 0 {
		for ; i+4 <= hi; i += 4 {
			for k := range d4 {
				ta.w4[k] = j.m.Row(i + k)
			}
			tj.t.raw4x1Q8_0(&ta.w4, q, j.a.D, &ta.r4)
			copy(j.out[i:i+4], ta.r4[:])
		}
	}
	for ; i+4 <= hi; i += 4 {
		for k := range d4 {
			tj.t.decQ8_0(j.m.Row(i+k), d4[k])
		}
		tj.t.dot4x1Q8_0(d4, q, tj.prep, &ta.r4)
		copy(j.out[i:i+4], ta.r4[:])
	}
	for ; i < hi; i++ {
		tj.t.decQ8_0(j.m.Row(i), d4[0])
		j.out[i] = tj.t.dotDecQ8_0(d4[0], q, tj.prep)
	}
}

// runVecVNNI computes rows lo..hi-1 of the current Q8_0 MatVec on worker
// w with the VNNI kernel, eight rows as stored per call; a short last
// group repeats its last row and drops the extra results, so every row
// takes the same kernel.
func (p *Pool) runVecVNNI(w, lo, hi int) {
	j, tj := &p.job, &p.tiles
	ta := &p.tileMem.args[w]
	for i := lo; i < hi; i += 8 {
		nr := min(8, hi-i)
		for k := range ta.w8 {
			ta.w8[k] = j.m.Row(i + min(k, nr-1))
		}
		tj.t.vec8Q8_0V(&ta.w8, tj.prep, &ta.v8)
		copy(j.out[i:i+nr], ta.v8[:nr])
	}
}

// runTiles computes rows lo..hi-1 of the current MatMul on worker w: two
// rows are decoded into the worker's buffer, then multiplied by the
// activations four at a time; an odd row and the last tokens take the
// single-row kernels.
func (p *Pool) runTiles(w, lo, hi int) {
	j, tj := &p.job, &p.tiles
	if tj.run != nil {
		tj.run(p, w, lo, hi)
		return
	}
	if j.kind == 0 {
		p.runVecTiles(w, lo, hi)
		return
	}
	if j.m.Type == Q4_K {
		buf := p.scratch[w][:tj.decLen]
		for i := lo; i < hi; i++ {
			tj.t.decQ4_K(j.m.Row(i), buf)
			for b := range j.as {
				j.outs[b][i] = tj.t.dotDecQ4_K(buf, &j.as[b], tj.sk[b*tj.skLen:(b+1)*tj.skLen])
			}
		}
		return
	}
	if tj.vnni {
		p.runTilesVNNI(w, lo, hi)
		return
	}
	buf, ta := p.scratch[w], &p.tileMem.args[w]
	d0, d1 := buf[:tj.decLen], buf[tj.decLen:2*tj.decLen]
	q4, x4, r := &ta.q4, &ta.x4, &ta.r8
	n := len(j.as)
	i := lo
	for ; i < hi; i += 2 {
		two := i+1 < hi
		tj.t.decQ8_0(j.m.Row(i), d0)
		if two {
			tj.t.decQ8_0(j.m.Row(i+1), d1)
		} else {
			clear(d1)
		}
		b := 0
		for ; b+4 <= n; b += 4 {
			for k := range 4 {
				q4[k] = int8Bytes(j.as[b+k].Q)
				x4[k] = tj.prep[(b+k)*tj.prepLen : (b+k+1)*tj.prepLen]
			}
			tj.t.dot2x4Q8_0(d0, d1, q4, x4, r)
			for k := range 4 {
				j.outs[b+k][i] = r[k]
				if two {
					j.outs[b+k][i+1] = r[4+k]
				}
			}
		}
		for ; b < n; b++ {
			for k, d := range [2][]byte{d0, d1} {
				if k == 1 && !two {
					break
				}
				j.outs[b][i+k] = tj.t.dotDecQ8_0(d, int8Bytes(j.as[b].Q), tj.prep[b*tj.prepLen:(b+1)*tj.prepLen])
			}
		}
	}
}

// runTilesVNNI computes rows lo..hi-1 of the current Q8_0 MatMul on
// worker w with the VNNI kernel: four rows are decoded into the worker's
// buffer, then multiplied by the activations four at a time. Short tiles
// at the edges repeat their last row or activation and drop the extra
// results, so every product takes the same kernel.
func (p *Pool) runTilesVNNI(w, lo, hi int) {
	j, tj := &p.job, &p.tiles
	buf, ta := p.scratch[w], &p.tileMem.args[w]
	d4, x4 := &ta.d4, &ta.x4
	r := &ta.r16
	n := len(j.as)
	for i := lo; i < hi; i += 4 {
		nr := min(4, hi-i)
		for k := range 4 {
			d4[k] = buf[min(k, nr-1)*tj.decLen:][:tj.decLen]
			if k < nr {
				tj.t.decQ8_0V(j.m.Row(i+k), d4[k])
			}
		}
		for b := 0; b < n; b += 4 {
			nt := min(4, n-b)
			for k := range 4 {
				x4[k] = tj.prep[(b+min(k, nt-1))*tj.prepLen:][:tj.prepLen]
			}
			tj.t.dot4x4Q8_0V(d4, x4, r)
			for rr := range nr {
				for t := range nt {
					j.outs[b+t][i+rr] = r[4*rr+t]
				}
			}
		}
	}
}

// int8Bytes views q as bytes.
func int8Bytes(q []int8) []byte {
	if len(q) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&q[0])), len(q))
}
