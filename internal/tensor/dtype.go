package tensor

import (
	"fmt"
	"math"
)

// DType is a weight element type, numbered as GGML numbers its types (the
// numbers GGUF files store).
type DType uint32

// The weight types this package computes with.
const (
	F32  DType = 0
	F16  DType = 1
	Q4_0 DType = 2
	Q8_0 DType = 8
	Q4_K DType = 12
	Q5_K DType = 13
	Q6_K DType = 14
	BF16 DType = 30
)

// Block sizes in elements and bytes.
const (
	qk     = 32  // elements in a Q8_0 or Q4_0 block and in an activation block
	qkK    = 256 // elements in a K-quant super-block
	q80Len = 2 + qk
	q40Len = 2 + qk/2
	q4KLen = 2 + 2 + 12 + qkK/2
	q5KLen = 2 + 2 + 12 + qkK/8 + qkK/2
	q6KLen = qkK/2 + qkK/4 + qkK/16 + 2
)

var dtypeNames = map[DType]string{
	F32: "F32", F16: "F16", BF16: "BF16", Q8_0: "Q8_0", Q4_0: "Q4_0",
	Q4_K: "Q4_K", Q5_K: "Q5_K", Q6_K: "Q6_K", Q5_0: "Q5_0", Q5_1: "Q5_1",
}

// String returns GGML's name of the type, e.g. "Q4_K".
func (t DType) String() string {
	if s, ok := dtypeNames[t]; ok {
		return s
	}
	return fmt.Sprintf("type(%d)", uint32(t))
}

// Supported reports whether this package can compute with t.
func (t DType) Supported() bool { _, ok := dtypeNames[t]; return ok }

// BlockElems returns the number of elements in one block of t (1 for float
// types), or 0 if t is not supported.
func (t DType) BlockElems() int {
	switch t {
	case F32, F16, BF16:
		return 1
	case Q8_0, Q4_0, Q5_0, Q5_1:
		return qk
	case Q4_K, Q5_K, Q6_K:
		return qkK
	}
	return 0
}

// BlockBytes returns the size in bytes of one block of t, or 0 if t is not
// supported.
func (t DType) BlockBytes() int {
	switch t {
	case F32:
		return 4
	case F16, BF16:
		return 2
	case Q8_0:
		return q80Len
	case Q4_0:
		return q40Len
	case Q5_0, Q5_1:
		return Q5BlockBytes(t)
	case Q4_K:
		return q4KLen
	case Q5_K:
		return q5KLen
	case Q6_K:
		return q6KLen
	}
	return 0
}

// RowBytes returns the size in bytes of n elements of t. It fails when t is
// unsupported or n is not a whole number of blocks.
func (t DType) RowBytes(n int) (int, error) {
	be := t.BlockElems()
	if be == 0 {
		return 0, fmt.Errorf("tensor: unsupported type %v", t)
	}
	if n < 0 || n%be != 0 {
		return 0, fmt.Errorf("tensor: %d elements of %v are not a whole number of %d-element blocks", n, t, be)
	}
	return n / be * t.BlockBytes(), nil
}

// f16Table maps every IEEE half-precision bit pattern to its float32 value.
var f16Table = func() *[1 << 16]float32 {
	var t [1 << 16]float32
	for i := range t {
		t[i] = f16ToF32Slow(uint16(i))
	}
	return &t
}()

// F16ToF32 converts an IEEE 754 half-precision value to float32.
func F16ToF32(h uint16) float32 { return f16Table[h] }

func f16ToF32Slow(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0 && mant == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: mant * 2^-24
		v := float32(mant) * (1.0 / (1 << 24))
		if sign != 0 {
			v = -v
		}
		return v
	case exp == 31:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

// F32ToF16 converts a float32 to the nearest IEEE 754 half-precision value
// (round to nearest even; overflow gives infinity).
func F32ToF16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int32(b>>23) & 0xff
	mant := b & 0x7fffff
	if exp == 0xff { // inf or NaN
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15
	if e >= 31 {
		return sign | 0x7c00
	}
	if e <= 0 { // subnormal half or zero
		if e < -10 {
			return sign
		}
		m := mant | 0x800000
		shift := uint32(14 - e)
		h := m >> shift
		rem := m & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rem > half || (rem == half && h&1 == 1) {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(e)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || (rem == 0x1000 && h&1 == 1) {
		h++ // may carry into the exponent, which is the right result
	}
	return sign | uint16(h)
}

// BF16ToF32 converts a bfloat16 value to float32.
func BF16ToF32(h uint16) float32 { return math.Float32frombits(uint32(h) << 16) }

// F32ToBF16 converts a float32 to the nearest bfloat16 (round to nearest even).
func F32ToBF16(f float32) uint16 {
	b := math.Float32bits(f)
	if b&0x7fffffff > 0x7f800000 { // NaN
		return uint16(b>>16) | 0x40
	}
	b += 0x7fff + (b>>16)&1
	return uint16(b >> 16)
}
