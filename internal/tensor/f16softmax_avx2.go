//go:build goexperiment.simd && amd64

package tensor

import (
	"math"
	"simd/archsimd"
	"unsafe"
)

// f32c broadcasts a float32 constant through its bits (no scalar float
// instruction, see the note above f16Bits in simd_amd64.go).
func f32c(v float32) archsimd.Float32x8 {
	return archsimd.BroadcastUint32x8(math.Float32bits(v)).AsFloat32x8()
}

// swapIdx holds the lane permutations of a butterfly over eight lanes:
// halves, pairs, neighbours.
var swapIdx = [3][8]uint32{{4, 5, 6, 7, 0, 1, 2, 3}, {2, 3, 0, 1, 6, 7, 4, 5}, {1, 0, 3, 2, 5, 4, 7, 6}}

// allMax returns a vector whose every lane is the largest lane of v.
func allMax(v archsimd.Float32x8) archsimd.Float32x8 {
	for i := range swapIdx {
		v = v.Max(v.Permute(archsimd.LoadUint32x8(&swapIdx[i])))
	}
	return v
}

// allSum returns a vector whose every lane is the sum of v's lanes.
func allSum(v archsimd.Float32x8) archsimd.Float32x8 {
	for i := range swapIdx {
		v = v.Add(v.Permute(archsimd.LoadUint32x8(&swapIdx[i])))
	}
	return v
}

// lanes8 numbers the lanes of a vector.
var lanes8 = [8]int32{0, 1, 2, 3, 4, 5, 6, 7}

// vconst holds the vector constants of exp8 and roundF16x8, broadcast once
// per row rather than once per use (a broadcast from a general register
// costs two instructions), shift counts among them (see f16conv).
type vconst struct {
	lo, log2e, ln2hi, ln2lo             archsimd.Float32x8
	c6, c5, c4, c3, c2, one, half, f16n archsimd.Float32x8
	bias, sh23                          archsimd.Int32x8
	bit0, rnd, keep, sh13               archsimd.Uint32x8
}

// init sets the constants. (It fills *c in place: a struct of vectors
// returned by value is copied with legacy SSE moves, which next to 256-bit
// instructions cost a state transition each.)
func (c *vconst) init() {
	c.lo, c.log2e, c.ln2hi, c.ln2lo = f32c(-87.33), f32c(math.Log2E), f32c(-0.693359375), f32c(2.12194440e-4)
	c.c6, c.c5, c.c4, c.c3, c.c2 = f32c(1.0/720), f32c(1.0/120), f32c(1.0/24), f32c(1.0/6), f32c(0.5)
	c.one, c.half, c.f16n = f32c(1), f32c(0.5), f32c(0x1p-14)
	c.bias, c.sh23, c.sh13 = archsimd.BroadcastInt32x8(127), archsimd.BroadcastInt32x8(23), lane(13)
	c.bit0, c.rnd, c.keep = archsimd.BroadcastUint32x8(1), archsimd.BroadcastUint32x8(0xfff), archsimd.BroadcastUint32x8(0xffffe000)
}

// exp8 returns e^x for x ≤ 0 (inputs below −87.33 give about 1.2e−38,
// which rounds to 0 in half precision): x = n·ln 2 + r with |r| ≤ ln 2 / 2
// (ln 2 split in two parts, Cody and Waite's reduction), e^r from its
// Taylor polynomial of degree 6 (error below 2e−7 relative), and 2^n
// built in the exponent bits.
func (c *vconst) exp8(x archsimd.Float32x8) archsimd.Float32x8 {
	x = x.Max(c.lo)
	n := x.Mul(c.log2e).RoundToEven()
	r := n.MulAdd(c.ln2hi, x)
	r = n.MulAdd(c.ln2lo, r)
	p := c.c6.MulAdd(r, c.c5)
	p = p.MulAdd(r, c.c4)
	p = p.MulAdd(r, c.c3)
	p = p.MulAdd(r, c.c2)
	p = p.MulAdd(r, c.one)
	p = p.MulAdd(r, c.one)
	scale := n.ConvertToInt32().Add(c.bias).ShiftLeft(c.sh23).AsFloat32x8()
	return p.Mul(scale)
}

// roundF16x8 rounds values in [0, 65504] to the nearest half-precision
// value (ties to even), as F16ToF32(F32ToF16(v)) does: normal values by
// rounding the float32 mantissa to 10 bits, values below 2^−14 (half
// precision's subnormals) to a multiple of 2^−24 by adding and
// subtracting 0.5, whose float32 spacing is 2^−24.
func (c *vconst) roundF16x8(v archsimd.Float32x8) archsimd.Float32x8 {
	b := v.AsUint32x8()
	odd := b.ShiftRight(c.sh13).And(c.bit0)
	rn := b.Add(c.rnd).Add(odd).And(c.keep).AsFloat32x8()
	sub := v.Add(c.half).Sub(c.half)
	return rn.Merge(sub, v.GreaterEqual(c.f16n))
}

// softmaxF16AVX2 is softmaxF16Generic in vectors of eight. A row whose
// length is not a multiple of eight ends with one vector over its last
// eight values, overlapping the one before: the overlapped values are
// computed twice with the same result, and the sum takes them once.
func softmaxF16AVX2(x []float32) {
	n := len(x)
	if n < 8 {
		softmaxF16Generic(x)
		return
	}
	n8 := n &^ 7
	var c vconst
	c.init()
	p := unsafe.Pointer(&x[0])
	last := 4 * (n - 8) // byte offset of the last eight values
	vm := ldF32(p, last)
	for off := 0; off < 4*n8; off += 32 {
		vm = vm.Max(ldF32(p, off))
	}
	vm = allMax(vm)
	tail := ldF32(p, last)
	var sum archsimd.Float32x8
	for off := 0; off < 4*n8; off += 32 {
		e := c.exp8(ldF32(p, off).Sub(vm))
		e.Store((*[8]float32)(unsafe.Add(p, off)))
		sum = sum.Add(e)
	}
	if n8 < n {
		e := c.exp8(tail.Sub(vm))
		e.Store((*[8]float32)(unsafe.Add(p, last)))
		var zero archsimd.Float32x8
		fresh := archsimd.LoadInt32x8(&lanes8).GreaterEqual(archsimd.BroadcastInt32x8(int32(8 - (n - n8))))
		sum = sum.Add(e.Merge(zero, fresh))
	}
	inv := c.one.Div(allSum(sum))
	tail = ldF32(p, last)
	for off := 0; off < 4*n8; off += 32 {
		c.roundF16x8(ldF32(p, off).Mul(inv)).Store((*[8]float32)(unsafe.Add(p, off)))
	}
	if n8 < n {
		c.roundF16x8(tail.Mul(inv)).Store((*[8]float32)(unsafe.Add(p, last)))
	}
	archsimd.ClearAVXUpperBits()
}
