//go:build goexperiment.simd && amd64

// Keep in sync with simd_none.go and the generic kernels in kernels.go: the
// tests run both sets against the same float64 references.

package tensor

import (
	"math"
	"simd/archsimd"
	"unsafe"
)

// simdKernels is the AVX2+FMA kernel set, nil when the CPU lacks either.
var simdKernels = func() *kernelSet {
	if !archsimd.X86.AVX2() || !archsimd.X86.FMA() {
		return nil
	}
	k := generic
	k.name = "avx2"
	k.dotF32 = dotF32AVX2
	k.axpy = axpyAVX2
	k.dotF16 = dotF16AVX2
	k.quantizeAct = quantizeActAVX2
	k.quantizeActK = quantizeActKAVX2
	k.dotQ8_0 = dotQ8_0AVX2
	k.dotQ4_K = dotQ4_KAVX2
	// dotBF16 (f16asm_amd64.go), dotQ4_0, dotQ5_K and dotQ6_K: the
	// assembly kernels of q8q4_amd64.go
	// and kquant_amd64.go, set there (faster than their archsimd forms,
	// which they replaced).
	k.dot4Q8_0 = dot4Q8_0AVX2
	k.dot4Q4_K = dot4Q4_KAVX2
	k.dot4Q6_K = dot4Q6_KAVX2
	k.decQ4_K = decQ4_KAVX2
	k.dotDecQ4_K = dotDecQ4_KAVX2
	// The float matrix panel, F16 rounding and F16 softmax are the
	// assembly kernels of f16asm_amd64.go (twice, three and 1.3 times as
	// fast as their archsimd forms were), set there where the CPU has F16C.
	if archsimd.X86.AVX512() {
		// 512-bit VPMADDUBSW/VPMADDWD: measured 1.45× the multiply-adds
		// per second of the 256-bit forms on this project's Xeon.
		k.name = "avx2+avx512"
		k.dotDecQ4_K = dotDecQ4_KAVX512
	}
	return &k
}()

func init() {
	if simdKernels != nil {
		active = simdKernels
	}
}

func dotF32AVX2(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 archsimd.Float32x8
	i := 0
	for ; i+32 <= len(a); i += 32 {
		s0 = archsimd.LoadFloat32x8((*[8]float32)(a[i:])).MulAdd(archsimd.LoadFloat32x8((*[8]float32)(b[i:])), s0)
		s1 = archsimd.LoadFloat32x8((*[8]float32)(a[i+8:])).MulAdd(archsimd.LoadFloat32x8((*[8]float32)(b[i+8:])), s1)
		s2 = archsimd.LoadFloat32x8((*[8]float32)(a[i+16:])).MulAdd(archsimd.LoadFloat32x8((*[8]float32)(b[i+16:])), s2)
		s3 = archsimd.LoadFloat32x8((*[8]float32)(a[i+24:])).MulAdd(archsimd.LoadFloat32x8((*[8]float32)(b[i+24:])), s3)
	}
	for ; i+8 <= len(a); i += 8 {
		s0 = archsimd.LoadFloat32x8((*[8]float32)(a[i:])).MulAdd(archsimd.LoadFloat32x8((*[8]float32)(b[i:])), s0)
	}
	s := hsumClear(s0.Add(s1).Add(s2.Add(s3)))
	for ; i < len(a); i++ {
		s += a[i] * b[i]
	}
	return s
}

func axpyAVX2(alpha float32, x, y []float32) {
	y = y[:len(x)]
	va := archsimd.BroadcastFloat32x8(alpha)
	i := 0
	for ; i+8 <= len(x); i += 8 {
		p := (*[8]float32)(y[i:])
		archsimd.LoadFloat32x8((*[8]float32)(x[i:])).MulAdd(va, archsimd.LoadFloat32x8(p)).Store(p)
	}
	archsimd.ClearAVXUpperBits()
	for ; i < len(x); i++ {
		y[i] += alpha * x[i]
	}
}

// The integer kernels below keep every floating-point operation inside
// their loops in vector registers: the Go compiler emits legacy SSE for
// scalar float32 arithmetic and even loads, and mixing those with 256-bit
// AVX state costs a state transition each time (measured: 16× slower).
// Block scales are therefore read as integer bits (f16Bits), combined eight
// at a time as vectors, and picked per block with Permute; the final
// reduction ends with VZEROUPPER before any scalar code.

// f16Bits holds the float32 bit patterns of every half-precision value.
var f16Bits = func() *[1 << 16]uint32 {
	var t [1 << 16]uint32
	for i := range t {
		t[i] = math.Float32bits(f16Table[i])
	}
	return &t
}()

func f16b(b []byte) uint32 { return f16Bits[uint16(b[0])|uint16(b[1])<<8] }

// hsumClear returns the sum of v's lanes and clears the upper AVX state.
func hsumClear(v archsimd.Float32x8) float32 {
	var a [4]float32
	v.GetLo().Add(v.GetHi()).Store(&a)
	archsimd.ClearAVXUpperBits()
	return (a[0] + a[1]) + (a[2] + a[3])
}

func lane(i int) archsimd.Uint32x8 { return archsimd.BroadcastUint32x8(uint32(i)) }

// i8x32 loads 32 int8 values from b (which must hold them).
func i8x32(b []byte) archsimd.Int8x32 {
	_ = b[31]
	return archsimd.LoadInt8x32((*[32]int8)(unsafe.Pointer(&b[0])))
}

func u8x32(b []byte) archsimd.Uint8x32 {
	_ = b[31]
	return archsimd.LoadUint8x32((*[32]uint8)(unsafe.Pointer(&b[0])))
}

func actQ(a *Activation, b int) archsimd.Int8x32 {
	return archsimd.LoadInt8x32((*[32]int8)(a.Q[b*qk:]))
}

func f32x8(s []float32) archsimd.Float32x8 { return archsimd.LoadFloat32x8((*[8]float32)(s)) }
func i32x8(s []int32) archsimd.Int32x8     { return archsimd.LoadInt32x8((*[8]int32)(s)) }

func dotQ8_0AVX2(w []byte, a *Activation) float32 {
	nb := len(a.D)
	n8 := nb &^ 7
	var s float32
	if n8 > 0 {
		_, _ = w[nb*q80Len-1], a.Q[nb*qk-1]
		pw, pq, pd := unsafe.Pointer(&w[0]), unsafe.Pointer(&a.Q[0]), unsafe.Pointer(&a.D[0])
		ones := archsimd.BroadcastInt16x16(1)
		var acc archsimd.Float32x8
		for g := 0; g < n8; g += 8 {
			dv := f16x8At(h4(pw, q80Len), h4(unsafe.Add(pw, 4*q80Len), q80Len)).Mul(ldF32(pd, 0))
			for i := range 8 {
				wq := ldI8(pw, i*q80Len+2)
				p := wq.Abs().AsUint8x32().DotProductPairsSaturated(ldI8(pq, i*qk).CopySign(wq)).DotProductPairs(ones).ConvertToFloat32()
				acc = p.MulAdd(dv.Permute(archsimd.LoadUint32x8(&permIdx[i])), acc)
			}
			pw, pq, pd = unsafe.Add(pw, 8*q80Len), unsafe.Add(pq, 8*qk), unsafe.Add(pd, 8*4)
		}
		s = hsumClear(acc)
	}
	if n8 < nb {
		t := *a
		t.D, t.Q, t.S = a.D[n8:], a.Q[n8*qk:], a.S[n8:]
		s += dotQ8_0Generic(w[n8*q80Len:], &t)
	}
	return s
}

// f16x8 converts eight half-precision bit patterns (one per 32-bit lane)
// to float32 exactly, in vector registers, as dotF16AVX2 does: exponent and
// mantissa moved into a float32 and multiplied by 2^112 rebias normal and
// subnormal values alike; exponent 31 (infinity, NaN) gets float32's
// all-ones exponent, computed branch-free as −((em + 0x400) >> 15) &
// 0x7f800000. The constants are built here; the compiler keeps them out
// of memory when the function is inlined into a loop.
func f16x8(u archsimd.Uint32x8) archsimd.Float32x8 {
	em := u.And(archsimd.BroadcastUint32x8(0x7fff))
	f := em.ShiftLeft(lane(13)).AsFloat32x8().Mul(archsimd.BroadcastUint32x8(0x77800000).AsFloat32x8())
	var zero archsimd.Uint32x8
	inf := zero.Sub(em.Add(archsimd.BroadcastUint32x8(0x400)).ShiftRight(lane(15))).And(archsimd.BroadcastUint32x8(0x7f800000))
	return f.AsUint32x8().Or(inf).Or(u.And(archsimd.BroadcastUint32x8(0x8000)).ShiftLeft(lane(16))).AsFloat32x8()
}

// f16x8At returns the eight f16 values at p, p+stride, … p+7·stride as
// float32 (the scales of eight consecutive blocks), without a round trip
// through memory: eight small stores and a wide load stall store
// forwarding. The two 64-bit words are passed in so that this stays within
// the inliner's budget: see h4.
func f16x8At(u0, u1 uint64) archsimd.Float32x8 {
	return f16x8(archsimd.BroadcastUint64x2(u0).SetElem(1, u1).AsUint16x8().ExtendToUint32())
}

// h4 packs the four f16 values at p, p+stride, p+2·stride, p+3·stride.
func h4(p unsafe.Pointer, stride int) uint64 {
	return uint64(*(*uint16)(p)) | uint64(*(*uint16)(unsafe.Add(p, stride)))<<16 |
		uint64(*(*uint16)(unsafe.Add(p, 2*stride)))<<32 | uint64(*(*uint16)(unsafe.Add(p, 3*stride)))<<48
}

// permIdx[i] selects lane i into every lane (the indices of Permute); a
// load from this table costs less than broadcasting a lane number.
var permIdx = func() (t [8][8]uint32) {
	for i := range t {
		for j := range t[i] {
			t[i][j] = uint32(i)
		}
	}
	return t
}()

// The kernels read weights and activations through unsafe pointers after
// one bounds check per call: slicing per block costs more scalar
// instructions than the block's vector work.

func ldI8(p unsafe.Pointer, off int) archsimd.Int8x32 {
	return archsimd.LoadInt8x32((*[32]int8)(unsafe.Add(p, off)))
}

func ldU8(p unsafe.Pointer, off int) archsimd.Uint8x32 {
	return archsimd.LoadUint8x32((*[32]uint8)(unsafe.Add(p, off)))
}

func ldF32(p unsafe.Pointer, off int) archsimd.Float32x8 {
	return archsimd.LoadFloat32x8((*[8]float32)(unsafe.Add(p, off)))
}

func ldI32(p unsafe.Pointer, off int) archsimd.Int32x8 {
	return archsimd.LoadInt32x8((*[8]int32)(unsafe.Add(p, off)))
}

// bcastU32 broadcasts the 32 bits at p+off.
func bcastU32(p unsafe.Pointer, off int) archsimd.Float32x8 {
	return archsimd.BroadcastUint32x8(*(*uint32)(unsafe.Add(p, off))).AsFloat32x8()
}

// kScales unpacks the eight 6-bit scales of a Q4_K/Q5_K super-block, each
// repeated in both 16-bit halves of its lane (for VPMADDWD after a lane
// permute), and its eight mins. It applies scaleMinK's rule to whole 32-bit
// words (bytes 0–3, 4–7, 8–11 of the packed scales), so that no per-byte
// loop runs: scales 0–3 are the low six bits of word 0, mins 0–3 those of
// word 1; scales 4–7 take their low nibbles from word 2 and top bits from
// word 0's high bits, mins 4–7 the high nibbles of word 2 and word 1's high
// bits.
func kScales(sc *[12]byte) (archsimd.Int32x8, archsimd.Int32x8) {
	w0 := uint32(sc[0]) | uint32(sc[1])<<8 | uint32(sc[2])<<16 | uint32(sc[3])<<24
	w1 := uint32(sc[4]) | uint32(sc[5])<<8 | uint32(sc[6])<<16 | uint32(sc[7])<<24
	w2 := uint32(sc[8]) | uint32(sc[9])<<8 | uint32(sc[10])<<16 | uint32(sc[11])<<24
	const low6, low4, low2 = 0x3f3f3f3f, 0x0f0f0f0f, 0x03030303
	scales := uint64(w0&low6) | uint64(w2&low4|(w0>>6)&low2<<4)<<32
	mins := uint64(w1&low6) | uint64((w2>>4)&low4|(w1>>6)&low2<<4)<<32
	sv := archsimd.BroadcastUint64x2(scales).AsUint8x16().ExtendLo8ToUint32()
	mv := archsimd.BroadcastUint64x2(mins).AsUint8x16().ExtendLo8ToUint32()
	return sv.Or(sv.ShiftLeft(lane(16))).AsInt32x8(), mv.AsInt32x8()
}

// bcastBits broadcasts the float32 at p without a scalar float load.
func bcastBits(p *float32) archsimd.Float32x8 {
	return archsimd.BroadcastUint32x8(*(*uint32)(unsafe.Pointer(p))).AsFloat32x8()
}

func actQK(a *Activation, i int) archsimd.Int8x32 {
	return archsimd.LoadInt8x32((*[32]int8)(a.QK[i:]))
}

func dotQ4_KAVX2(w []byte, a *Activation) float32 {
	nsb := len(a.DK)
	if nsb == 0 {
		return 0
	}
	_, _, _ = w[nsb*q4KLen-1], a.QK[nsb*qkK-1], a.SK[nsb*8-1]
	pw, pq, pdk, psk := unsafe.Pointer(&w[0]), unsafe.Pointer(&a.QK[0]), unsafe.Pointer(&a.DK[0]), unsafe.Pointer(&a.SK[0])
	tab := f16Bits
	low4 := archsimd.BroadcastUint8x32(0x0f)
	c4 := lane(4)
	var acc, accMin archsimd.Float32x8
	for range nsb {
		dk := bcastU32(pdk, 0)
		d := archsimd.BroadcastUint32x8(tab[*(*uint16)(pw)]).AsFloat32x8().Mul(dk)
		dmin := archsimd.BroadcastUint32x8(tab[*(*uint16)(unsafe.Add(pw, 2))]).AsFloat32x8().Mul(dk)
		sv, mv := kScales((*[12]byte)(unsafe.Add(pw, 4)))
		accMin = mv.Mul(ldI32(psk, 0)).ConvertToFloat32().MulAdd(dmin, accMin)
		var isum archsimd.Int32x8
		for c := range 4 {
			x := ldU8(pw, 16+32*c)
			lo := x.And(low4)
			hi := x.AsUint32x8().ShiftRight(c4).AsUint8x32().And(low4)
			p0 := lo.DotProductPairsSaturated(ldI8(pq, 64*c)).DotProductPairs(sv.Permute(archsimd.LoadUint32x8(&permIdx[2*c])).AsInt16x16())
			p1 := hi.DotProductPairsSaturated(ldI8(pq, 64*c+32)).DotProductPairs(sv.Permute(archsimd.LoadUint32x8(&permIdx[2*c+1])).AsInt16x16())
			isum = isum.Add(p0).Add(p1)
		}
		acc = isum.ConvertToFloat32().MulAdd(d, acc)
		pw, pq, pdk, psk = unsafe.Add(pw, q4KLen), unsafe.Add(pq, qkK), unsafe.Add(pdk, 4), unsafe.Add(psk, 8*4)
	}
	return hsumClear(acc.Sub(accMin))
}

// q6KScales returns eight int8 scales of a Q6_K super-block (at p: those
// of one half, 16 values each), one per lane, repeated in both 16-bit
// halves of the lane; q6Idx[k] permutes the scales of group k (2k, 2k+1)
// into the two 128-bit halves for VPMADDWD.
func q6KScales(p unsafe.Pointer) archsimd.Int32x8 {
	v := archsimd.BroadcastUint64x2(*(*uint64)(p)).AsInt8x16().ExtendLo8ToInt32()
	return v.And(archsimd.BroadcastInt32x8(0xffff)).Or(v.ShiftLeft(lane(16).AsInt32x8()))
}

var q6Idx = [4][8]uint32{{0, 0, 0, 0, 1, 1, 1, 1}, {2, 2, 2, 2, 3, 3, 3, 3}, {4, 4, 4, 4, 5, 5, 5, 5}, {6, 6, 6, 6, 7, 7, 7, 7}}

// decQ4_KAVX2 unpacks a Q4_K row for dotDecQ4_KAVX2 (layout per
// super-block, decQ4_KSB bytes: 256 quants 0..15 in value order, the eight
// sub-block scales as the VPMADDWD operands dotQ4_KAVX2 builds, the eight
// mins as int32, then d and dmin as float32 bits).
func decQ4_KAVX2(w, dst []byte) { decQ4_KRows(w, dst, false) }

// decQ4_KRows is decQ4_KAVX2 and, with negMins, decQ4_KMinAVX512
// (gemm_q_amd64.go): the mins as the float products −dmin·m_j instead of
// int32, and no dmin.
func decQ4_KRows(w, dst []byte, negMins bool) {
	nsb := len(w) / q4KLen
	if nsb == 0 {
		return
	}
	_, _ = w[nsb*q4KLen-1], dst[nsb*decQ4_KSB-1]
	pw, pd := unsafe.Pointer(&w[0]), unsafe.Pointer(&dst[0])
	tab := f16Bits
	low4 := archsimd.BroadcastUint8x32(0x0f)
	c4 := lane(4)
	for range nsb {
		sv, mv := kScales((*[12]byte)(unsafe.Add(pw, 4)))
		for c := range 4 {
			x := ldU8(pw, 16+32*c)
			x.And(low4).Store((*[32]uint8)(unsafe.Add(pd, 64*c)))
			x.AsUint32x8().ShiftRight(c4).AsUint8x32().And(low4).Store((*[32]uint8)(unsafe.Add(pd, 64*c+32)))
		}
		for j := range 8 {
			sv.Permute(archsimd.LoadUint32x8(&permIdx[j])).Store((*[8]int32)(unsafe.Add(pd, 256+32*j)))
		}
		if negMins {
			ndmin := archsimd.BroadcastUint32x8(tab[*(*uint16)(unsafe.Add(pw, 2))] ^ 1<<31).AsFloat32x8()
			mv.ConvertToFloat32().Mul(ndmin).Store((*[8]float32)(unsafe.Add(pd, 512)))
		} else {
			mv.Store((*[8]int32)(unsafe.Add(pd, 512)))
			*(*uint32)(unsafe.Add(pd, 548)) = tab[*(*uint16)(unsafe.Add(pw, 2))]
		}
		*(*uint32)(unsafe.Add(pd, 544)) = tab[*(*uint16)(pw)]
		pw, pd = unsafe.Add(pw, q4KLen), unsafe.Add(pd, decQ4_KSB)
	}
	archsimd.ClearAVXUpperBits()
}

// dotDecQ4_KAVX2 is dotQ4_KAVX2 over a row decoded by decQ4_KAVX2: the
// float operations are the same, in the same order, so the results are
// identical; the integer sums (exact) are grouped differently.
func dotDecQ4_KAVX2(dec []byte, a *Activation) float32 {
	nsb := len(a.DK)
	if nsb == 0 {
		return 0
	}
	_, _, _ = dec[nsb*decQ4_KSB-1], a.QK[nsb*qkK-1], a.SK[nsb*8-1]
	pd, pq, pdk, psk := unsafe.Pointer(&dec[0]), unsafe.Pointer(&a.QK[0]), unsafe.Pointer(&a.DK[0]), unsafe.Pointer(&a.SK[0])
	var acc, accMin archsimd.Float32x8
	for range nsb {
		dk := bcastU32(pdk, 0)
		d := bcastU32(pd, 544).Mul(dk)
		dmin := bcastU32(pd, 548).Mul(dk)
		accMin = ldI32(pd, 512).Mul(ldI32(psk, 0)).ConvertToFloat32().MulAdd(dmin, accMin)
		p0 := ldU8(pd, 0).DotProductPairsSaturated(ldI8(pq, 0)).DotProductPairs(ldI16(pd, 256))
		p1 := ldU8(pd, 32).DotProductPairsSaturated(ldI8(pq, 32)).DotProductPairs(ldI16(pd, 288))
		p2 := ldU8(pd, 64).DotProductPairsSaturated(ldI8(pq, 64)).DotProductPairs(ldI16(pd, 320))
		p3 := ldU8(pd, 96).DotProductPairsSaturated(ldI8(pq, 96)).DotProductPairs(ldI16(pd, 352))
		p4 := ldU8(pd, 128).DotProductPairsSaturated(ldI8(pq, 128)).DotProductPairs(ldI16(pd, 384))
		p5 := ldU8(pd, 160).DotProductPairsSaturated(ldI8(pq, 160)).DotProductPairs(ldI16(pd, 416))
		p6 := ldU8(pd, 192).DotProductPairsSaturated(ldI8(pq, 192)).DotProductPairs(ldI16(pd, 448))
		p7 := ldU8(pd, 224).DotProductPairsSaturated(ldI8(pq, 224)).DotProductPairs(ldI16(pd, 480))
		isum := p0.Add(p1).Add(p2.Add(p3)).Add(p4.Add(p5).Add(p6.Add(p7)))
		acc = isum.ConvertToFloat32().MulAdd(d, acc)
		pd, pq, pdk, psk = unsafe.Add(pd, decQ4_KSB), unsafe.Add(pq, qkK), unsafe.Add(pdk, 4), unsafe.Add(psk, 8*4)
	}
	return hsumClear(acc.Sub(accMin))
}

// dotDecQ4_KAVX512 is dotDecQ4_KAVX2 with two sub-blocks per 512-bit
// multiply-add; only the exact integer sums are grouped differently, so
// the results are identical.
func dotDecQ4_KAVX512(dec []byte, a *Activation) float32 {
	nsb := len(a.DK)
	if nsb == 0 {
		return 0
	}
	_, _, _ = dec[nsb*decQ4_KSB-1], a.QK[nsb*qkK-1], a.SK[nsb*8-1]
	pd, pq, pdk, psk := unsafe.Pointer(&dec[0]), unsafe.Pointer(&a.QK[0]), unsafe.Pointer(&a.DK[0]), unsafe.Pointer(&a.SK[0])
	var acc, accMin archsimd.Float32x8
	for range nsb {
		dk := bcastU32(pdk, 0)
		d := bcastU32(pd, 544).Mul(dk)
		dmin := bcastU32(pd, 548).Mul(dk)
		accMin = ldI32(pd, 512).Mul(ldI32(psk, 0)).ConvertToFloat32().MulAdd(dmin, accMin)
		p0 := ldU8x64(pd, 0).DotProductPairsSaturated(ldI8x64(pq, 0)).DotProductPairs(ldI16x32(pd, 256))
		p1 := ldU8x64(pd, 64).DotProductPairsSaturated(ldI8x64(pq, 64)).DotProductPairs(ldI16x32(pd, 320))
		p2 := ldU8x64(pd, 128).DotProductPairsSaturated(ldI8x64(pq, 128)).DotProductPairs(ldI16x32(pd, 384))
		p3 := ldU8x64(pd, 192).DotProductPairsSaturated(ldI8x64(pq, 192)).DotProductPairs(ldI16x32(pd, 448))
		s := p0.Add(p1).Add(p2.Add(p3))
		acc = s.GetLo().Add(s.GetHi()).ConvertToFloat32().MulAdd(d, acc)
		pd, pq, pdk, psk = unsafe.Add(pd, decQ4_KSB), unsafe.Add(pq, qkK), unsafe.Add(pdk, 4), unsafe.Add(psk, 8*4)
	}
	return hsumClear(acc.Sub(accMin))
}

func ldU8x64(p unsafe.Pointer, off int) archsimd.Uint8x64 {
	return archsimd.LoadUint8x64((*[64]uint8)(unsafe.Add(p, off)))
}

func ldI8x64(p unsafe.Pointer, off int) archsimd.Int8x64 {
	return archsimd.LoadInt8x64((*[64]int8)(unsafe.Add(p, off)))
}

func ldI16x32(p unsafe.Pointer, off int) archsimd.Int16x32 {
	return archsimd.LoadInt16x32((*[32]int16)(unsafe.Add(p, off)))
}

func ldI16(p unsafe.Pointer, off int) archsimd.Int16x16 {
	return archsimd.LoadInt16x16((*[16]int16)(unsafe.Add(p, off)))
}

// dot4Q8_0AVX2 is dotQ8_0AVX2 for four activations, each weight block
// loaded once; per activation the operations are those of the single
// kernel, in the same order, so the results are identical.
func dot4Q8_0AVX2(w []byte, as *[4]*Activation, out *[4]float32) {
	a0, a1, a2, a3 := as[0], as[1], as[2], as[3]
	nb := len(a0.D)
	n8 := nb &^ 7
	var s [4][4]float32
	if n8 > 0 {
		_ = w[nb*q80Len-1]
		_, _, _, _ = a0.Q[nb*qk-1], a1.Q[nb*qk-1], a2.Q[nb*qk-1], a3.Q[nb*qk-1]
		_, _, _, _ = a0.D[nb-1], a1.D[nb-1], a2.D[nb-1], a3.D[nb-1]
		pw := unsafe.Pointer(&w[0])
		q0, q1, q2, q3 := unsafe.Pointer(&a0.Q[0]), unsafe.Pointer(&a1.Q[0]), unsafe.Pointer(&a2.Q[0]), unsafe.Pointer(&a3.Q[0])
		d0, d1, d2, d3 := unsafe.Pointer(&a0.D[0]), unsafe.Pointer(&a1.D[0]), unsafe.Pointer(&a2.D[0]), unsafe.Pointer(&a3.D[0])
		ones := archsimd.BroadcastInt16x16(1)
		var acc0, acc1, acc2, acc3 archsimd.Float32x8
		for g := 0; g < n8; g += 8 {
			wd := f16x8At(h4(pw, q80Len), h4(unsafe.Add(pw, 4*q80Len), q80Len))
			o := 4 * g
			dv0, dv1 := wd.Mul(ldF32(d0, o)), wd.Mul(ldF32(d1, o))
			dv2, dv3 := wd.Mul(ldF32(d2, o)), wd.Mul(ldF32(d3, o))
			for i := range 8 {
				wq := ldI8(pw, i*q80Len+2)
				wa := wq.Abs().AsUint8x32()
				l := archsimd.LoadUint32x8(&permIdx[i])
				o := (g + i) * qk
				acc0 = wa.DotProductPairsSaturated(ldI8(q0, o).CopySign(wq)).DotProductPairs(ones).ConvertToFloat32().MulAdd(dv0.Permute(l), acc0)
				acc1 = wa.DotProductPairsSaturated(ldI8(q1, o).CopySign(wq)).DotProductPairs(ones).ConvertToFloat32().MulAdd(dv1.Permute(l), acc1)
				acc2 = wa.DotProductPairsSaturated(ldI8(q2, o).CopySign(wq)).DotProductPairs(ones).ConvertToFloat32().MulAdd(dv2.Permute(l), acc2)
				acc3 = wa.DotProductPairsSaturated(ldI8(q3, o).CopySign(wq)).DotProductPairs(ones).ConvertToFloat32().MulAdd(dv3.Permute(l), acc3)
			}
			pw = unsafe.Add(pw, 8*q80Len)
		}
		acc0.GetLo().Add(acc0.GetHi()).Store(&s[0])
		acc1.GetLo().Add(acc1.GetHi()).Store(&s[1])
		acc2.GetLo().Add(acc2.GetHi()).Store(&s[2])
		acc3.GetLo().Add(acc3.GetHi()).Store(&s[3])
		archsimd.ClearAVXUpperBits()
	}
	for k, a := range as {
		out[k] = (s[k][0] + s[k][1]) + (s[k][2] + s[k][3])
		if n8 < nb {
			t := *a
			t.D, t.Q, t.S = a.D[n8:], a.Q[n8*qk:], a.S[n8:]
			out[k] += dotQ8_0Generic(w[n8*q80Len:], &t)
		}
	}
}

// dot4Q4_KAVX2 is dotQ4_KAVX2 for four activations (see dot4Q8_0AVX2).
func dot4Q4_KAVX2(w []byte, as *[4]*Activation, out *[4]float32) {
	a0, a1, a2, a3 := as[0], as[1], as[2], as[3]
	nsb := len(a0.DK)
	if nsb == 0 {
		*out = [4]float32{}
		return
	}
	_ = w[nsb*q4KLen-1]
	_, _, _, _ = a0.QK[nsb*qkK-1], a1.QK[nsb*qkK-1], a2.QK[nsb*qkK-1], a3.QK[nsb*qkK-1]
	_, _, _, _ = a0.SK[nsb*8-1], a1.SK[nsb*8-1], a2.SK[nsb*8-1], a3.SK[nsb*8-1]
	_, _, _, _ = a0.DK[nsb-1], a1.DK[nsb-1], a2.DK[nsb-1], a3.DK[nsb-1]
	pw := unsafe.Pointer(&w[0])
	q0, q1, q2, q3 := unsafe.Pointer(&a0.QK[0]), unsafe.Pointer(&a1.QK[0]), unsafe.Pointer(&a2.QK[0]), unsafe.Pointer(&a3.QK[0])
	tab := f16Bits
	low4 := archsimd.BroadcastUint8x32(0x0f)
	c4 := lane(4)
	var acc0, acc1, acc2, acc3, min0, min1, min2, min3 archsimd.Float32x8
	for sb := range nsb {
		wd := archsimd.BroadcastUint32x8(tab[*(*uint16)(pw)]).AsFloat32x8()
		wm := archsimd.BroadcastUint32x8(tab[*(*uint16)(unsafe.Add(pw, 2))]).AsFloat32x8()
		sv, mv := kScales((*[12]byte)(unsafe.Add(pw, 4)))
		dk0, dk1, dk2, dk3 := bcastBits(&a0.DK[sb]), bcastBits(&a1.DK[sb]), bcastBits(&a2.DK[sb]), bcastBits(&a3.DK[sb])
		min0 = mv.Mul(i32x8(a0.SK[sb*8:])).ConvertToFloat32().MulAdd(wm.Mul(dk0), min0)
		min1 = mv.Mul(i32x8(a1.SK[sb*8:])).ConvertToFloat32().MulAdd(wm.Mul(dk1), min1)
		min2 = mv.Mul(i32x8(a2.SK[sb*8:])).ConvertToFloat32().MulAdd(wm.Mul(dk2), min2)
		min3 = mv.Mul(i32x8(a3.SK[sb*8:])).ConvertToFloat32().MulAdd(wm.Mul(dk3), min3)
		var is0, is1, is2, is3 archsimd.Int32x8
		for c := range 4 {
			x := ldU8(pw, 16+32*c)
			lo := x.And(low4)
			hi := x.AsUint32x8().ShiftRight(c4).AsUint8x32().And(low4)
			s0 := sv.Permute(archsimd.LoadUint32x8(&permIdx[2*c])).AsInt16x16()
			s1 := sv.Permute(archsimd.LoadUint32x8(&permIdx[2*c+1])).AsInt16x16()
			o := sb*qkK + 64*c
			is0 = is0.Add(lo.DotProductPairsSaturated(ldI8(q0, o)).DotProductPairs(s0)).Add(hi.DotProductPairsSaturated(ldI8(q0, o+32)).DotProductPairs(s1))
			is1 = is1.Add(lo.DotProductPairsSaturated(ldI8(q1, o)).DotProductPairs(s0)).Add(hi.DotProductPairsSaturated(ldI8(q1, o+32)).DotProductPairs(s1))
			is2 = is2.Add(lo.DotProductPairsSaturated(ldI8(q2, o)).DotProductPairs(s0)).Add(hi.DotProductPairsSaturated(ldI8(q2, o+32)).DotProductPairs(s1))
			is3 = is3.Add(lo.DotProductPairsSaturated(ldI8(q3, o)).DotProductPairs(s0)).Add(hi.DotProductPairsSaturated(ldI8(q3, o+32)).DotProductPairs(s1))
		}
		acc0 = is0.ConvertToFloat32().MulAdd(wd.Mul(dk0), acc0)
		acc1 = is1.ConvertToFloat32().MulAdd(wd.Mul(dk1), acc1)
		acc2 = is2.ConvertToFloat32().MulAdd(wd.Mul(dk2), acc2)
		acc3 = is3.ConvertToFloat32().MulAdd(wd.Mul(dk3), acc3)
		pw = unsafe.Add(pw, q4KLen)
	}
	var s [4][4]float32
	acc0 = acc0.Sub(min0)
	acc1 = acc1.Sub(min1)
	acc2 = acc2.Sub(min2)
	acc3 = acc3.Sub(min3)
	acc0.GetLo().Add(acc0.GetHi()).Store(&s[0])
	acc1.GetLo().Add(acc1.GetHi()).Store(&s[1])
	acc2.GetLo().Add(acc2.GetHi()).Store(&s[2])
	acc3.GetLo().Add(acc3.GetHi()).Store(&s[3])
	archsimd.ClearAVXUpperBits()
	for k := range out {
		out[k] = (s[k][0] + s[k][1]) + (s[k][2] + s[k][3])
	}
}

// dot4Q6_KAVX2 is dotQ6_KAsm (kquant_amd64.s) for four activations (see
// dot4Q8_0AVX2), with the same results.
func dot4Q6_KAVX2(w []byte, as *[4]*Activation, out *[4]float32) {
	a0, a1, a2, a3 := as[0], as[1], as[2], as[3]
	nsb := len(a0.DK)
	if nsb == 0 {
		*out = [4]float32{}
		return
	}
	_ = w[nsb*q6KLen-1]
	_, _, _, _ = a0.QK[nsb*qkK-1], a1.QK[nsb*qkK-1], a2.QK[nsb*qkK-1], a3.QK[nsb*qkK-1]
	_, _, _, _ = a0.DK[nsb-1], a1.DK[nsb-1], a2.DK[nsb-1], a3.DK[nsb-1]
	pw := unsafe.Pointer(&w[0])
	q0, q1, q2, q3 := unsafe.Pointer(&a0.QK[0]), unsafe.Pointer(&a1.QK[0]), unsafe.Pointer(&a2.QK[0]), unsafe.Pointer(&a3.QK[0])
	tab := f16Bits
	low4, m30 := archsimd.BroadcastUint8x32(0x0f), archsimd.BroadcastUint8x32(0x30)
	k32 := archsimd.BroadcastInt8x32(32)
	c2, c4 := lane(2), lane(4)
	var acc0, acc1, acc2, acc3 archsimd.Float32x8
	for sb := range nsb {
		wd := archsimd.BroadcastUint32x8(tab[*(*uint16)(unsafe.Add(pw, 208))]).AsFloat32x8()
		var is0, is1, is2, is3 archsimd.Int32x8
		for g := range 8 {
			n, k := g>>2, g&3
			ql := ldU8(pw, 64*n+32*(k&1))
			hb := ldU8(pw, 128+32*n).AsUint32x8()
			var lo, hi archsimd.Uint8x32
			switch k {
			case 0:
				lo, hi = ql.And(low4), hb.ShiftLeft(c4).AsUint8x32()
			case 1:
				lo, hi = ql.And(low4), hb.ShiftLeft(c2).AsUint8x32()
			case 2:
				lo, hi = ql.AsUint32x8().ShiftRight(c4).AsUint8x32().And(low4), hb.AsUint8x32()
			default:
				lo, hi = ql.AsUint32x8().ShiftRight(c4).AsUint8x32().And(low4), hb.ShiftRight(c2).AsUint8x32()
			}
			v := lo.Or(hi.And(m30)).AsInt8x32().Sub(k32)
			va := v.Abs().AsUint8x32()
			scv := q6KScales(unsafe.Add(pw, 192+8*n)).Permute(archsimd.LoadUint32x8(&q6Idx[k])).AsInt16x16()
			o := sb*qkK + 32*g
			is0 = is0.Add(va.DotProductPairsSaturated(ldI8(q0, o).CopySign(v)).DotProductPairs(scv))
			is1 = is1.Add(va.DotProductPairsSaturated(ldI8(q1, o).CopySign(v)).DotProductPairs(scv))
			is2 = is2.Add(va.DotProductPairsSaturated(ldI8(q2, o).CopySign(v)).DotProductPairs(scv))
			is3 = is3.Add(va.DotProductPairsSaturated(ldI8(q3, o).CopySign(v)).DotProductPairs(scv))
		}
		acc0 = is0.ConvertToFloat32().MulAdd(wd.Mul(bcastBits(&a0.DK[sb])), acc0)
		acc1 = is1.ConvertToFloat32().MulAdd(wd.Mul(bcastBits(&a1.DK[sb])), acc1)
		acc2 = is2.ConvertToFloat32().MulAdd(wd.Mul(bcastBits(&a2.DK[sb])), acc2)
		acc3 = is3.ConvertToFloat32().MulAdd(wd.Mul(bcastBits(&a3.DK[sb])), acc3)
		pw = unsafe.Add(pw, q6KLen)
	}
	var s [4][4]float32
	acc0.GetLo().Add(acc0.GetHi()).Store(&s[0])
	acc1.GetLo().Add(acc1.GetHi()).Store(&s[1])
	acc2.GetLo().Add(acc2.GetHi()).Store(&s[2])
	acc3.GetLo().Add(acc3.GetHi()).Store(&s[3])
	archsimd.ClearAVXUpperBits()
	for k := range out {
		out[k] = (s[k][0] + s[k][1]) + (s[k][2] + s[k][3])
	}
}

// dotF16AVX2 converts half-precision weights to float32 exactly with
// integer and float vector operations, as f16x8 does, sixteen values per
// step into two independent sums, so that the loop is bound by throughput
// rather than by the latency of one chain of fused multiply-adds. The
// constants are locals: a struct of vectors returned by a function is
// copied with legacy SSE moves, which next to 256-bit instructions cost a
// state transition each (measured: the whole product 7× slower).
func dotF16AVX2(w []byte, x []float32) float32 {
	n := len(x)
	w = w[:2*n]
	absMask, signMask := archsimd.BroadcastUint32x8(0x7fff), archsimd.BroadcastUint32x8(0x8000)
	c400, expMask := archsimd.BroadcastUint32x8(0x400), archsimd.BroadcastUint32x8(0x7f800000)
	sh13, sh15, sh16 := lane(13), lane(15), lane(16)
	scale := archsimd.BroadcastUint32x8(0x77800000).AsFloat32x8()
	var zero archsimd.Uint32x8
	conv := func(u archsimd.Uint32x8) archsimd.Float32x8 {
		em := u.And(absMask)
		f := em.ShiftLeft(sh13).AsFloat32x8().Mul(scale)
		inf := zero.Sub(em.Add(c400).ShiftRight(sh15)).And(expMask)
		return f.AsUint32x8().Or(inf).Or(u.And(signMask).ShiftLeft(sh16)).AsFloat32x8()
	}
	var s0, s1 archsimd.Float32x8
	i := 0
	if n >= 16 {
		pw, px := unsafe.Pointer(&w[0]), unsafe.Pointer(&x[0])
		for ; i+16 <= n; i += 16 {
			h := archsimd.LoadUint16x16((*[16]uint16)(unsafe.Add(pw, 2*i)))
			s0 = conv(h.GetLo().ExtendToUint32()).MulAdd(ldF32(px, 4*i), s0)
			s1 = conv(h.GetHi().ExtendToUint32()).MulAdd(ldF32(px, 4*i+32), s1)
		}
	}
	for ; i+8 <= n; i += 8 {
		u := archsimd.LoadUint16x8((*[8]uint16)(unsafe.Pointer(&w[2*i]))).ExtendToUint32()
		s0 = conv(u).MulAdd(archsimd.LoadFloat32x8((*[8]float32)(x[i:])), s0)
	}
	s := hsumClear(s0.Add(s1))
	for ; i < n; i++ {
		s += F16ToF32(uint16(w[2*i])|uint16(w[2*i+1])<<8) * x[i]
	}
	return s
}

// quantizeBlock quantizes n (a multiple of 8) values of x with one scale
// (largest magnitude / 127, rounded halves away from zero, as the generic
// code) into q, storing the scale's bits into *d and the sum of each 32
// values into sums. All float work stays in vector registers.
func quantizeBlock(x []float32, d *float32, q []int8, sums []int32, qi *[8]int32) {
	absMask := archsimd.BroadcastUint32x8(0x7fffffff)
	var m archsimd.Uint32x8
	for i := 0; i+8 <= len(x); i += 8 {
		m = m.Max(f32x8(x[i:]).AsUint32x8().And(absMask)) // non-negative floats order as integers
	}
	var mb [8]uint32
	m.Store(&mb)
	amax := max(mb[0], mb[1], mb[2], mb[3], mb[4], mb[5], mb[6], mb[7])
	av := archsimd.BroadcastUint32x8(amax).AsFloat32x8()
	dv := av.Div(archsimd.BroadcastUint32x8(0x42fe0000).AsFloat32x8()) // amax / 127, as the generic code
	var inv archsimd.Float32x8
	if amax != 0 {
		inv = archsimd.BroadcastUint32x8(0x3f800000).AsFloat32x8().Div(dv)
	}
	dv.AsUint32x8().Store(&mb)
	*(*uint32)(unsafe.Pointer(d)) = mb[0]
	signMask := archsimd.BroadcastUint32x8(0x80000000)
	half := archsimd.BroadcastUint32x8(0x3f000000)
	for i := 0; i+8 <= len(x); i += 8 {
		v := f32x8(x[i:]).Mul(inv)
		h := v.AsUint32x8().And(signMask).Or(half).AsFloat32x8() // ±0.5
		v.Add(h).ConvertToInt32().Store(qi)
		var sum int32
		for j, r := range qi[:] {
			q[i+j] = int8(r)
			sum += r
		}
		sums[i/32] += sum
	}
}

func quantizeActAVX2(x, d []float32, q []int8, s []int32) {
	var qi [8]int32
	for b := range d {
		s[b] = 0
		quantizeBlock(x[b*qk:b*qk+qk], &d[b], q[b*qk:b*qk+qk], s[b:b+1], &qi)
	}
	archsimd.ClearAVXUpperBits()
}

func quantizeActKAVX2(x, d []float32, q []int8, s []int32) {
	var qi [8]int32
	clear(s)
	for b := range d {
		quantizeBlock(x[b*qkK:b*qkK+qkK], &d[b], q[b*qkK:b*qkK+qkK], s[b*(qkK/qk):(b+1)*(qkK/qk)], &qi)
	}
	archsimd.ClearAVXUpperBits()
}
