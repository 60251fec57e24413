//go:build goexperiment.simd && amd64

package tensor

import (
	"simd/archsimd"
	"unsafe"
)

// roundF16AVX2 is roundF16Generic eight values at a time, with the
// magnitude rounded as roundF16x8 does (mantissa to 10 bits for normal
// half-precision values, to a multiple of 2^−24 below 2^−14), then
// magnitudes above 65504 set to infinity, NaNs passed through and the sign
// put back. The last values of a slice whose length is not a multiple of
// eight are rounded in scalar code after the vector state is cleared.
func roundF16AVX2(x []float32) {
	n8 := len(x) &^ 7
	if n8 > 0 {
		p := unsafe.Pointer(&x[0])
		absMask, signMask := archsimd.BroadcastUint32x8(0x7fffffff), archsimd.BroadcastUint32x8(0x80000000)
		bit0, rnd, keep := archsimd.BroadcastUint32x8(1), archsimd.BroadcastUint32x8(0xfff), archsimd.BroadcastUint32x8(0xffffe000)
		sh13 := lane(13)
		half, f16n := f32c(0.5), f32c(0x1p-14)
		maxF16, inf := f32c(65504), archsimd.BroadcastUint32x8(0x7f800000)
		infI := inf.AsInt32x8()
		for off := 0; off < 4*n8; off += 32 {
			v := ldF32(p, off).AsUint32x8()
			a := v.And(absMask)
			af := a.AsFloat32x8()
			rn := a.Add(rnd).Add(a.ShiftRight(sh13).And(bit0)).And(keep).AsFloat32x8()
			r := rn.Merge(af.Add(half).Sub(half), af.GreaterEqual(f16n))
			r = inf.AsFloat32x8().Merge(r, r.Greater(maxF16))
			r = r.AsUint32x8().Or(v.And(signMask)).AsFloat32x8()
			r = v.AsFloat32x8().Merge(r, a.AsInt32x8().Greater(infI)) // NaN: as it was
			r.Store((*[8]float32)(unsafe.Add(p, off)))
		}
		archsimd.ClearAVXUpperBits()
	}
	roundF16Generic(x[n8:])
}
