//go:build goexperiment.simd && amd64

// Keep in sync with gemm_q_none.go.

package tensor

import (
	"simd/archsimd"
	"unsafe"
)

// simdTiles holds the AVX-512 prompt tiles (gemm_q.go), nil without
// AVX-512 or the SIMD kernel set.
var simdTiles = func() *qTiles {
	if simdKernels == nil || !archsimd.X86.AVX512() {
		return nil
	}
	return &qTiles{
		decQ8_0:    decQ8_0AVX512,
		prepQ8_0:   prepQ8_0AVX512,
		dot2x4Q8_0: dot2x4Q8_0AVX512,
		dotDecQ8_0: dotDecQ8_0AVX512,
		dot4x1Q8_0: dot4x1Q8_0AVX512,
		raw4x1Q8_0: raw4x1Q8_0AVX512,
		permQK:     permQKAVX512,
		vecQ4_K:    vecQ4_KAVX512,
		prepQ4_K:   prepQ4_KAVX512,
		decQ4_K:    decQ4_KMinAVX512,
		dotDecQ4_K: dotDecQ4_KMinAVX512,
	}
}()

func ldF32x16(p unsafe.Pointer, off int) archsimd.Float32x16 {
	return archsimd.LoadFloat32x16((*[16]float32)(unsafe.Add(p, off)))
}

func ldI32x16(p unsafe.Pointer, off int) archsimd.Int32x16 {
	return archsimd.LoadInt32x16((*[16]int32)(unsafe.Add(p, off)))
}

func mask64(p unsafe.Pointer, off int) archsimd.Mask8x64 {
	return archsimd.Mask8x64FromBits(*(*uint64)(unsafe.Add(p, off)))
}

// qsum4 stores the four partial sums v's lanes reduce to, in the order of
// hsumClear: the low half plus the high half.
func qsum4(v archsimd.Float32x8, s *[4]float32) { v.GetLo().Add(v.GetHi()).Store(s) }

// decQ8_0AVX512 decodes a Q8_0 row (see decQ8_0Pair): per pair of blocks
// the magnitudes of the 64 weights, each block's scale in 8 lanes, and the
// signs as a 64-bit mask.
func decQ8_0AVX512(w, dst []byte) {
	np := len(w) / (2 * q80Len)
	if np == 0 {
		return
	}
	_, _ = w[np*2*q80Len-1], dst[np*decQ8_0Pair-1]
	pw, pd := unsafe.Pointer(&w[0]), unsafe.Pointer(&dst[0])
	var zero archsimd.Int8x64
	for i := 0; i < np; i++ {
		v := zero.SetLo(ldI8(pw, 2)).SetHi(ldI8(pw, q80Len+2))
		v.Abs().Store((*[64]int8)(pd))
		*(*uint64)(unsafe.Add(pd, 128)) = v.Less(zero).ToBits()
		if i&3 == 0 && i+4 <= np {
			// The scales of the next eight blocks, converted in vector
			// registers (a table lookup per block missed the cache).
			sc := f16x8At(h4(pw, q80Len), h4(unsafe.Add(pw, 4*q80Len), q80Len))
			for k := range 8 {
				sc.Permute(archsimd.LoadUint32x8(&permIdx[k])).Store((*[8]float32)(unsafe.Add(pd, (k>>1)*decQ8_0Pair+64+32*(k&1))))
			}
		} else if i >= np&^3 {
			archsimd.BroadcastUint32x8(f16Bits[*(*uint16)(pw)]).Store((*[8]uint32)(unsafe.Add(pd, 64)))
			archsimd.BroadcastUint32x8(f16Bits[*(*uint16)(unsafe.Add(pw, q80Len))]).Store((*[8]uint32)(unsafe.Add(pd, 96)))
		}
		pw, pd = unsafe.Add(pw, 2*q80Len), unsafe.Add(pd, decQ8_0Pair)
	}
	archsimd.ClearAVXUpperBits()
}

// prepQ8_0AVX512 writes, per pair of blocks of a, the 64 negated values
// and each block's scale in 8 lanes (see prepQ8_0Pair).
func prepQ8_0AVX512(a *Activation, dst []byte) {
	np := len(a.D) / 2
	if np == 0 {
		return
	}
	_, _, _ = a.Q[np*64-1], a.D[2*np-1], dst[np*prepQ8_0Pair-1]
	pq, pa, pd := unsafe.Pointer(&a.Q[0]), unsafe.Pointer(&a.D[0]), unsafe.Pointer(&dst[0])
	var zero archsimd.Int8x64
	for range np {
		zero.Sub(ldI8x64(pq, 0)).Store((*[64]int8)(pd))
		archsimd.BroadcastUint32x8(*(*uint32)(pa)).Store((*[8]uint32)(unsafe.Add(pd, 64)))
		archsimd.BroadcastUint32x8(*(*uint32)(unsafe.Add(pa, 4))).Store((*[8]uint32)(unsafe.Add(pd, 96)))
		pq, pa, pd = unsafe.Add(pq, 64), unsafe.Add(pa, 8), unsafe.Add(pd, prepQ8_0Pair)
	}
	archsimd.ClearAVXUpperBits()
}

// dot2x4Q8_0AVX512 multiplies two decoded Q8_0 rows by four activations
// (quantized values q, prepared data x) as two tiles of two by two: with
// four, the accumulators and operands would not fit the sixteen vector
// registers the compiler uses.
func dot2x4Q8_0AVX512(d0, d1 []byte, q, x *[4][]byte, out *[8]float32) {
	var r [4]float32
	dot2x2Q8_0AVX512(d0, d1, q[0], q[1], x[0], x[1], &r)
	out[0], out[1], out[4], out[5] = r[0], r[1], r[2], r[3]
	dot2x2Q8_0AVX512(d0, d1, q[2], q[3], x[2], x[3], &r)
	out[2], out[3], out[6], out[7] = r[0], r[1], r[2], r[3]
}

// dot2x2Q8_0AVX512 sets out to rows d0, d1 times activations (qa, xa), (qb,
// xb): out[2r+t]. Per pair of blocks and activation: the activation's values
// with the weights' signs (a blend of the values and their negations under
// the sign mask), VPMADDUBSW with the magnitudes, VPMADDWD with ones, and
// the product of the two blocks' scales, lane by lane.
func dot2x2Q8_0AVX512(d0, d1, qa, qb, xa, xb []byte, out *[4]float32) {
	np := len(d0) / decQ8_0Pair
	if np == 0 {
		*out = [4]float32{}
		return
	}
	_, _ = d0[np*decQ8_0Pair-1], d1[np*decQ8_0Pair-1]
	_, _, _, _ = qa[np*64-1], qb[np*64-1], xa[np*prepQ8_0Pair-1], xb[np*prepQ8_0Pair-1]
	p0, p1 := unsafe.Pointer(&d0[0]), unsafe.Pointer(&d1[0])
	q0, q1 := unsafe.Pointer(&qa[0]), unsafe.Pointer(&qb[0])
	x0, x1 := unsafe.Pointer(&xa[0]), unsafe.Pointer(&xb[0])
	ones := archsimd.BroadcastInt16x32(1)
	var c00, c01, c10, c11 archsimd.Float32x16
	for range np {
		w0, w1 := ldU8x64(p0, 0), ldU8x64(p1, 0)
		m0, m1 := mask64(p0, 128), mask64(p1, 128)
		a, n := ldI8x64(q0, 0), ldI8x64(x0, 0)
		c00 = w0.DotProductPairsSaturated(n.Merge(a, m0)).DotProductPairs(ones).ConvertToFloat32().MulAdd(ldF32x16(p0, 64).Mul(ldF32x16(x0, 64)), c00)
		c10 = w1.DotProductPairsSaturated(n.Merge(a, m1)).DotProductPairs(ones).ConvertToFloat32().MulAdd(ldF32x16(p1, 64).Mul(ldF32x16(x0, 64)), c10)
		a, n = ldI8x64(q1, 0), ldI8x64(x1, 0)
		c01 = w0.DotProductPairsSaturated(n.Merge(a, m0)).DotProductPairs(ones).ConvertToFloat32().MulAdd(ldF32x16(p0, 64).Mul(ldF32x16(x1, 64)), c01)
		c11 = w1.DotProductPairsSaturated(n.Merge(a, m1)).DotProductPairs(ones).ConvertToFloat32().MulAdd(ldF32x16(p1, 64).Mul(ldF32x16(x1, 64)), c11)
		p0, p1 = unsafe.Add(p0, decQ8_0Pair), unsafe.Add(p1, decQ8_0Pair)
		q0, q1 = unsafe.Add(q0, 64), unsafe.Add(q1, 64)
		x0, x1 = unsafe.Add(x0, prepQ8_0Pair), unsafe.Add(x1, prepQ8_0Pair)
	}
	var s [4][4]float32
	qsum4(c00.GetLo().Add(c00.GetHi()), &s[0])
	qsum4(c01.GetLo().Add(c01.GetHi()), &s[1])
	qsum4(c10.GetLo().Add(c10.GetHi()), &s[2])
	qsum4(c11.GetLo().Add(c11.GetHi()), &s[3])
	archsimd.ClearAVXUpperBits()
	for k := range out {
		out[k] = (s[k][0] + s[k][1]) + (s[k][2] + s[k][3])
	}
}

// dotDecQ8_0AVX512 is dot2x4Q8_0AVX512 for one decoded row and one
// activation, with the same operations per pair and the same final
// reduction, so the two give identical results.
func dotDecQ8_0AVX512(dec, q, x []byte) float32 {
	np := len(dec) / decQ8_0Pair
	if np == 0 {
		return 0
	}
	_, _, _ = dec[np*decQ8_0Pair-1], q[np*64-1], x[np*prepQ8_0Pair-1]
	p, pq, px := unsafe.Pointer(&dec[0]), unsafe.Pointer(&q[0]), unsafe.Pointer(&x[0])
	ones := archsimd.BroadcastInt16x32(1)
	var c archsimd.Float32x16
	for i := range np {
		o, oq, ox := i*decQ8_0Pair, i*64, i*prepQ8_0Pair
		v := ldI8x64(px, ox).Merge(ldI8x64(pq, oq), mask64(p, o+128))
		c = ldU8x64(p, o).DotProductPairsSaturated(v).DotProductPairs(ones).ConvertToFloat32().MulAdd(ldF32x16(p, o+64).Mul(ldF32x16(px, ox+64)), c)
	}
	return hsumClear(c.GetLo().Add(c.GetHi()))
}

// dot4x1Q8_0AVX512 is dotDecQ8_0AVX512 for four decoded rows and one
// activation: the four sums are independent chains of multiply-adds (one
// row's chain alone waits on the latency of each).
func dot4x1Q8_0AVX512(d *[4][]byte, q, x []byte, out *[4]float32) {
	np := len(d[0]) / decQ8_0Pair
	if np == 0 {
		*out = [4]float32{}
		return
	}
	_, _, _, _ = d[0][np*decQ8_0Pair-1], d[1][np*decQ8_0Pair-1], d[2][np*decQ8_0Pair-1], d[3][np*decQ8_0Pair-1]
	_, _ = q[np*64-1], x[np*prepQ8_0Pair-1]
	p0, p1, p2, p3 := unsafe.Pointer(&d[0][0]), unsafe.Pointer(&d[1][0]), unsafe.Pointer(&d[2][0]), unsafe.Pointer(&d[3][0])
	pq, px := unsafe.Pointer(&q[0]), unsafe.Pointer(&x[0])
	ones := archsimd.BroadcastInt16x32(1)
	var c0, c1, c2, c3 archsimd.Float32x16
	for range np {
		a, n, sa := ldI8x64(pq, 0), ldI8x64(px, 0), ldF32x16(px, 64)
		c0 = ldU8x64(p0, 0).DotProductPairsSaturated(n.Merge(a, mask64(p0, 128))).DotProductPairs(ones).ConvertToFloat32().MulAdd(ldF32x16(p0, 64).Mul(sa), c0)
		c1 = ldU8x64(p1, 0).DotProductPairsSaturated(n.Merge(a, mask64(p1, 128))).DotProductPairs(ones).ConvertToFloat32().MulAdd(ldF32x16(p1, 64).Mul(sa), c1)
		c2 = ldU8x64(p2, 0).DotProductPairsSaturated(n.Merge(a, mask64(p2, 128))).DotProductPairs(ones).ConvertToFloat32().MulAdd(ldF32x16(p2, 64).Mul(sa), c2)
		c3 = ldU8x64(p3, 0).DotProductPairsSaturated(n.Merge(a, mask64(p3, 128))).DotProductPairs(ones).ConvertToFloat32().MulAdd(ldF32x16(p3, 64).Mul(sa), c3)
		p0, p1, p2, p3 = unsafe.Add(p0, decQ8_0Pair), unsafe.Add(p1, decQ8_0Pair), unsafe.Add(p2, decQ8_0Pair), unsafe.Add(p3, decQ8_0Pair)
		pq, px = unsafe.Add(pq, 64), unsafe.Add(px, prepQ8_0Pair)
	}
	var s [4][4]float32
	qsum4(c0.GetLo().Add(c0.GetHi()), &s[0])
	qsum4(c1.GetLo().Add(c1.GetHi()), &s[1])
	qsum4(c2.GetLo().Add(c2.GetHi()), &s[2])
	qsum4(c3.GetLo().Add(c3.GetHi()), &s[3])
	archsimd.ClearAVXUpperBits()
	for k := range out {
		out[k] = (s[k][0] + s[k][1]) + (s[k][2] + s[k][3])
	}
}

// pairIdx[k] spreads lanes 2k and 2k+1 of a vector over the two halves of
// a 16-lane one (the scales of the k-th pair of eight blocks).
var pairIdx = func() (t [4][16]uint32) {
	for k := range t {
		for j := range 16 {
			t[k][j] = uint32(2*k + j/8)
		}
	}
	return t
}()

// raw4x1Q8_0AVX512 is dot4x1Q8_0AVX512 reading four Q8_0 rows as stored
// (no decoded copy): per pair of blocks it takes the magnitudes and sign
// mask from the weights, negates the activation's values once for the four
// rows, and per eight blocks multiplies the weights' scales (converted in
// vector registers) by the activation's. The products, the integer sums
// and the order of the additions are those of dot4x1Q8_0AVX512, so the
// results are identical. len(q) must be a multiple of 256.
func raw4x1Q8_0AVX512(w *[4][]byte, q []byte, d []float32, out *[4]float32) {
	ng := len(q) / 256
	if ng == 0 {
		*out = [4]float32{}
		return
	}
	n := ng * 8 * q80Len
	_, _, _, _ = w[0][n-1], w[1][n-1], w[2][n-1], w[3][n-1]
	_, _ = q[ng*256-1], d[ng*8-1]
	p0, p1, p2, p3 := unsafe.Pointer(&w[0][0]), unsafe.Pointer(&w[1][0]), unsafe.Pointer(&w[2][0]), unsafe.Pointer(&w[3][0])
	pq, pd := unsafe.Pointer(&q[0]), unsafe.Pointer(&d[0])
	ones := archsimd.BroadcastInt16x32(1)
	var zero archsimd.Int8x64
	var c0, c1, c2, c3 archsimd.Float32x16
	for range ng {
		da := ldF32(pd, 0)
		var s0, s1, s2, s3 archsimd.Float32x16
		s0 = s0.SetLo(f16x8At(h4(p0, q80Len), h4(unsafe.Add(p0, 4*q80Len), q80Len)).Mul(da))
		s1 = s1.SetLo(f16x8At(h4(p1, q80Len), h4(unsafe.Add(p1, 4*q80Len), q80Len)).Mul(da))
		s2 = s2.SetLo(f16x8At(h4(p2, q80Len), h4(unsafe.Add(p2, 4*q80Len), q80Len)).Mul(da))
		s3 = s3.SetLo(f16x8At(h4(p3, q80Len), h4(unsafe.Add(p3, 4*q80Len), q80Len)).Mul(da))
		for k := range 4 {
			idx := archsimd.LoadUint32x16(&pairIdx[k])
			a := ldI8x64(pq, 0)
			n := zero.Sub(a)
			v := zero.SetLo(ldI8(p0, 2)).SetHi(ldI8(p0, q80Len+2))
			c0 = v.Abs().AsUint8x64().DotProductPairsSaturated(n.Merge(a, v.Less(zero))).DotProductPairs(ones).ConvertToFloat32().MulAdd(s0.Permute(idx), c0)
			v = zero.SetLo(ldI8(p1, 2)).SetHi(ldI8(p1, q80Len+2))
			c1 = v.Abs().AsUint8x64().DotProductPairsSaturated(n.Merge(a, v.Less(zero))).DotProductPairs(ones).ConvertToFloat32().MulAdd(s1.Permute(idx), c1)
			v = zero.SetLo(ldI8(p2, 2)).SetHi(ldI8(p2, q80Len+2))
			c2 = v.Abs().AsUint8x64().DotProductPairsSaturated(n.Merge(a, v.Less(zero))).DotProductPairs(ones).ConvertToFloat32().MulAdd(s2.Permute(idx), c2)
			v = zero.SetLo(ldI8(p3, 2)).SetHi(ldI8(p3, q80Len+2))
			c3 = v.Abs().AsUint8x64().DotProductPairsSaturated(n.Merge(a, v.Less(zero))).DotProductPairs(ones).ConvertToFloat32().MulAdd(s3.Permute(idx), c3)
			p0, p1, p2, p3 = unsafe.Add(p0, 2*q80Len), unsafe.Add(p1, 2*q80Len), unsafe.Add(p2, 2*q80Len), unsafe.Add(p3, 2*q80Len)
			pq = unsafe.Add(pq, 64)
		}
		pd = unsafe.Add(pd, 32)
	}
	var s [4][4]float32
	qsum4(c0.GetLo().Add(c0.GetHi()), &s[0])
	qsum4(c1.GetLo().Add(c1.GetHi()), &s[1])
	qsum4(c2.GetLo().Add(c2.GetHi()), &s[2])
	qsum4(c3.GetLo().Add(c3.GetHi()), &s[3])
	archsimd.ClearAVXUpperBits()
	for k := range out {
		out[k] = (s[k][0] + s[k][1]) + (s[k][2] + s[k][3])
	}
}

// permQKAVX512 copies a's 256-value quantization with the 32-value groups
// of every 128 reordered 0, 2, 1, 3 (see vecQ4_KAVX512).
func permQKAVX512(a *Activation, dst []byte) {
	n := len(a.QK) / 128
	if n == 0 {
		return
	}
	_, _ = a.QK[n*128-1], dst[n*128-1]
	ps, pd := unsafe.Pointer(&a.QK[0]), unsafe.Pointer(&dst[0])
	for range n {
		ldI8(ps, 0).Store((*[32]int8)(pd))
		ldI8(ps, 64).Store((*[32]int8)(unsafe.Add(pd, 32)))
		ldI8(ps, 32).Store((*[32]int8)(unsafe.Add(pd, 64)))
		ldI8(ps, 96).Store((*[32]int8)(unsafe.Add(pd, 96)))
		ps, pd = unsafe.Add(ps, 128), unsafe.Add(pd, 128)
	}
	archsimd.ClearAVXUpperBits()
}

// q4KIdx[h] spreads the scales of sub-blocks (h, h+2) for h = 0, 1, 4, 5
// over the two halves of a 16-lane vector (see vecQ4_KAVX512).
var q4KIdx = func() (t [4][16]uint32) {
	for k, h := range [4]uint32{0, 1, 4, 5} {
		for j := range 16 {
			t[k][j] = h + 2*uint32(j/8)
		}
	}
	return t
}()

// vecQ4_KAVX512 is dotQ4_KAVX2 with 512-bit multiply-adds: a 64-byte load
// of packed quants holds sub-blocks 0 and 2 in its low nibbles and 1 and 3
// in its high ones (4–7 in the next), so the activation is read in that
// order (qp, from permQKAVX512) and each sub-block's scale spread over its
// half of the operand. The mins' term, Σ (dmin·m_j)·(dk·Σq_j) with the
// activation's factors (sk, from prepQ4_KAVX512) computed once per product,
// is subtracted from the same sum per super-block, as in
// dotDecQ4_KMinAVX512, whose results it equals.
func vecQ4_KAVX512(w []byte, qp []byte, a *Activation, sk []float32) float32 {
	nsb := len(a.DK)
	if nsb == 0 {
		return 0
	}
	_, _, _, _ = w[nsb*q4KLen-1], qp[nsb*qkK-1], sk[nsb*8-1], a.DK[nsb-1]
	pw, pq, pdk, psk := unsafe.Pointer(&w[0]), unsafe.Pointer(&qp[0]), unsafe.Pointer(&a.DK[0]), unsafe.Pointer(&sk[0])
	tab := f16Bits
	low4 := archsimd.BroadcastUint8x64(0x0f)
	c4 := archsimd.BroadcastUint32x16(4)
	var acc archsimd.Float32x8
	for range nsb {
		d := archsimd.BroadcastUint32x8(tab[*(*uint16)(pw)]).AsFloat32x8().Mul(bcastU32(pdk, 0))
		ndmin := archsimd.BroadcastUint32x8(tab[*(*uint16)(unsafe.Add(pw, 2))] ^ 1<<31).AsFloat32x8()
		sv8, mv := kScales((*[12]byte)(unsafe.Add(pw, 4)))
		nmw := mv.ConvertToFloat32().Mul(ndmin)
		var sv archsimd.Int32x16
		sv = sv.SetLo(sv8)
		x0, x1 := ldU8x64(pw, 16), ldU8x64(pw, 80)
		p0 := x0.And(low4).DotProductPairsSaturated(ldI8x64(pq, 0)).DotProductPairs(sv.Permute(archsimd.LoadUint32x16(&q4KIdx[0])).AsInt16x32())
		p1 := x0.AsUint32x16().ShiftRight(c4).AsUint8x64().And(low4).DotProductPairsSaturated(ldI8x64(pq, 64)).DotProductPairs(sv.Permute(archsimd.LoadUint32x16(&q4KIdx[1])).AsInt16x32())
		p2 := x1.And(low4).DotProductPairsSaturated(ldI8x64(pq, 128)).DotProductPairs(sv.Permute(archsimd.LoadUint32x16(&q4KIdx[2])).AsInt16x32())
		p3 := x1.AsUint32x16().ShiftRight(c4).AsUint8x64().And(low4).DotProductPairsSaturated(ldI8x64(pq, 192)).DotProductPairs(sv.Permute(archsimd.LoadUint32x16(&q4KIdx[3])).AsInt16x32())
		s := p0.Add(p1).Add(p2.Add(p3))
		acc = s.GetLo().Add(s.GetHi()).ConvertToFloat32().MulAdd(d, acc)
		acc = nmw.MulAdd(ldF32(psk, 0), acc)
		pw, pq, pdk, psk = unsafe.Add(pw, q4KLen), unsafe.Add(pq, qkK), unsafe.Add(pdk, 4), unsafe.Add(psk, 8*4)
	}
	return hsumClear(acc)
}

// prepQ4_KAVX512 writes the activation's factors of the Q4_K mins' term,
// dk·Σq per 32 values, into sk (len(a.SK) values).
func prepQ4_KAVX512(a *Activation, sk []float32) {
	nsb := len(a.DK)
	if nsb == 0 {
		return
	}
	_, _, _ = a.DK[nsb-1], a.SK[nsb*8-1], sk[nsb*8-1]
	pdk, ps, pd := unsafe.Pointer(&a.DK[0]), unsafe.Pointer(&a.SK[0]), unsafe.Pointer(&sk[0])
	for range nsb {
		ldI32(ps, 0).ConvertToFloat32().Mul(bcastU32(pdk, 0)).Store((*[8]float32)(pd))
		pdk, ps, pd = unsafe.Add(pdk, 4), unsafe.Add(ps, 32), unsafe.Add(pd, 32)
	}
	archsimd.ClearAVXUpperBits()
}

// decQ4_KMinAVX512 is decQ4_KAVX2 with the mins stored as the float
// products −dmin·m_j (at 512, as vecQ4_KAVX512 computes them) and d at 544.
func decQ4_KMinAVX512(w, dst []byte) { decQ4_KRows(w, dst, true) }

// dotDecQ4_KMinAVX512 multiplies a row decoded by decQ4_KMinAVX512 by an
// activation (sk: its factors from prepQ4_KAVX512): dotDecQ4_KAVX512 with
// one multiply-add for the mins' term per super-block instead of an
// integer multiply, a conversion and two float operations.
func dotDecQ4_KMinAVX512(dec []byte, a *Activation, sk []float32) float32 {
	nsb := len(a.DK)
	if nsb == 0 {
		return 0
	}
	_, _, _ = dec[nsb*decQ4_KSB-1], a.QK[nsb*qkK-1], sk[nsb*8-1]
	pd, pq, pdk, psk := unsafe.Pointer(&dec[0]), unsafe.Pointer(&a.QK[0]), unsafe.Pointer(&a.DK[0]), unsafe.Pointer(&sk[0])
	var acc archsimd.Float32x8
	for range nsb {
		d := bcastU32(pd, 544).Mul(bcastU32(pdk, 0))
		p0 := ldU8x64(pd, 0).DotProductPairsSaturated(ldI8x64(pq, 0)).DotProductPairs(ldI16x32(pd, 256))
		p1 := ldU8x64(pd, 64).DotProductPairsSaturated(ldI8x64(pq, 64)).DotProductPairs(ldI16x32(pd, 320))
		p2 := ldU8x64(pd, 128).DotProductPairsSaturated(ldI8x64(pq, 128)).DotProductPairs(ldI16x32(pd, 384))
		p3 := ldU8x64(pd, 192).DotProductPairsSaturated(ldI8x64(pq, 192)).DotProductPairs(ldI16x32(pd, 448))
		s := p0.Add(p1).Add(p2.Add(p3))
		acc = s.GetLo().Add(s.GetHi()).ConvertToFloat32().MulAdd(d, acc)
		acc = ldF32(pd, 512).MulAdd(ldF32(psk, 0), acc)
		pd, pq, pdk, psk = unsafe.Add(pd, decQ4_KSB), unsafe.Add(pq, qkK), unsafe.Add(pdk, 4), unsafe.Add(psk, 8*4)
	}
	return hsumClear(acc)
}
