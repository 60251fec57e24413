//go:build goexperiment.simd && amd64

package tensor

import (
	"simd/archsimd"
	"unsafe"
)

// gemm4AVX2 is gemm4Generic with eight lanes per sum: for each pair of
// activations eight vector accumulators (four rows × two activations)
// take one fused multiply-add per eight values, and a tree of horizontal
// adds turns each activation's four accumulators into the four outputs,
// stored as one vector. When the rows' length is not a multiple of eight,
// the last few products of each sum are added afterwards in scalar code
// (after the vector state is cleared).
func gemm4AVX2(w []float32, xs, outs [][]float32, i0 int) {
	k := len(w) / gemmPanel
	k8 := k &^ 7
	if k8 == 0 {
		gemm4Generic(w, xs, outs, i0)
		return
	}
	_ = w[gemmPanel*k-1]
	pw := unsafe.Pointer(&w[0])
	rb := 4 * k  // bytes per row
	nb := 4 * k8 // bytes per row taken in vectors
	j := 0
	for ; j+2 <= len(xs); j += 2 {
		x0, x1 := xs[j][:k], xs[j+1][:k]
		o0, o1 := outs[j][i0:i0+4], outs[j+1][i0:i0+4]
		p0, p1 := unsafe.Pointer(&x0[0]), unsafe.Pointer(&x1[0])
		var a00, a10, a20, a30, a01, a11, a21, a31 archsimd.Float32x8
		for off := 0; off < nb; off += 32 {
			v0, v1 := ldF32(p0, off), ldF32(p1, off)
			r := ldF32(pw, off)
			a00 = r.MulAdd(v0, a00)
			a01 = r.MulAdd(v1, a01)
			r = ldF32(pw, rb+off)
			a10 = r.MulAdd(v0, a10)
			a11 = r.MulAdd(v1, a11)
			r = ldF32(pw, 2*rb+off)
			a20 = r.MulAdd(v0, a20)
			a21 = r.MulAdd(v1, a21)
			r = ldF32(pw, 3*rb+off)
			a30 = r.MulAdd(v0, a30)
			a31 = r.MulAdd(v1, a31)
		}
		sum4(a00, a10, a20, a30).Store((*[4]float32)(o0))
		sum4(a01, a11, a21, a31).Store((*[4]float32)(o1))
	}
	for ; j < len(xs); j++ {
		x := xs[j][:k]
		o := outs[j][i0 : i0+4]
		p := unsafe.Pointer(&x[0])
		var a0, a1, a2, a3 archsimd.Float32x8
		for off := 0; off < nb; off += 32 {
			v := ldF32(p, off)
			a0 = ldF32(pw, off).MulAdd(v, a0)
			a1 = ldF32(pw, rb+off).MulAdd(v, a1)
			a2 = ldF32(pw, 2*rb+off).MulAdd(v, a2)
			a3 = ldF32(pw, 3*rb+off).MulAdd(v, a3)
		}
		sum4(a0, a1, a2, a3).Store((*[4]float32)(o))
	}
	archsimd.ClearAVXUpperBits()
	gemm4Tail(w, k, k8, xs, outs, i0)
}

// sum4 returns the sums of the lanes of a, b, c and d, in that order.
func sum4(a, b, c, d archsimd.Float32x8) archsimd.Float32x4 {
	h := a.AddPairsGrouped(b).AddPairsGrouped(c.AddPairsGrouped(d))
	return h.GetLo().Add(h.GetHi())
}
