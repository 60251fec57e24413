package tensor

import (
	"encoding/binary"
	"fmt"
)

// GGML's five-bit block types, used by quantized Whisper model files:
// their layout, quantizers, dequantizers and dot products. A [Matrix] of
// either type is multiplied against the 8-bit form of the activation
// ([Activation.Q], one scale per 32 values), as GGML multiplies them with
// Q8_0 activations; [Pool.MatMulF] takes them too, converting each row to
// float32 once per product.
const (
	Q5_0 DType = 6 // per 32 values: f16 scale d, 32 high bits, 16 bytes of low nibbles; x = d·(q−16)
	Q5_1 DType = 7 // per 32 values: f16 scale d, f16 minimum m, 32 high bits, 16 bytes of nibbles; x = d·q + m
)

// Block sizes in bytes of Q5_0 and Q5_1.
const (
	q50Len = 2 + 4 + qk/2
	q51Len = 2 + 2 + 4 + qk/2
)

// Q5BlockBytes returns the size in bytes of one 32-element block of t
// (Q5_0 or Q5_1), or 0 for any other type.
func Q5BlockBytes(t DType) int {
	switch t {
	case Q5_0:
		return q50Len
	case Q5_1:
		return q51Len
	}
	return 0
}

// q5Value returns the five-bit value l (0..31) of a block: the low four
// bits come from nibble l%16 of qs (low nibble for l < 16, high after),
// the fifth from bit l of the little-endian 32-bit qh.
func q5Value(qh uint32, qs []byte, l int) int {
	lo := qs[l%16]
	if l >= 16 {
		lo >>= 4
	}
	return int(lo&0xf) | int((qh>>uint(l))&1)<<4
}

// DequantizeQ5 converts len(dst) elements (a whole number of 32-element
// blocks) of type t (Q5_0 or Q5_1) stored in src to float32.
func DequantizeQ5(t DType, src []byte, dst []float32) {
	bl := Q5BlockBytes(t)
	if bl == 0 {
		panic(fmt.Sprintf("tensor: DequantizeQ5: type %v", t))
	}
	if len(dst)%qk != 0 || len(src) < len(dst)/qk*bl {
		panic(fmt.Sprintf("tensor: DequantizeQ5: %d bytes for %d elements of %v", len(src), len(dst), t))
	}
	for b := 0; b < len(dst)/qk; b++ {
		blk := src[b*bl : (b+1)*bl]
		d := F16ToF32(le16(blk))
		y := dst[b*qk : (b+1)*qk]
		if t == Q5_0 {
			qh := binary.LittleEndian.Uint32(blk[2:])
			for l := range qk {
				y[l] = d * float32(q5Value(qh, blk[6:], l)-16)
			}
			continue
		}
		m := F16ToF32(le16(blk[2:]))
		qh := binary.LittleEndian.Uint32(blk[4:])
		for l := range qk {
			y[l] = d*float32(q5Value(qh, blk[8:], l)) + m
		}
	}
}

// QuantizeQ5_0 stores src (a whole number of 32-element blocks) into dst
// in GGML's Q5_0 layout. As in GGML's reference quantizer, the value of
// largest magnitude maps to −16, so d = −that value / 16. Products are
// rounded explicitly to float32 before adding, so no platform fuses them
// and the bytes are the same everywhere.
func QuantizeQ5_0(src []float32, dst []byte) {
	for b := 0; b < len(src)/qk; b++ {
		xs := src[b*qk : b*qk+qk]
		var amax, vmax float32
		for _, v := range xs {
			if abs32(v) > amax {
				amax, vmax = abs32(v), v
			}
		}
		d := vmax / -16
		var inv float32
		if d != 0 {
			inv = 1 / d
		}
		blk := dst[b*q50Len : (b+1)*q50Len]
		binary.LittleEndian.PutUint16(blk, F32ToF16(d))
		var qh uint32
		qs := blk[6:]
		for i := range qk / 2 {
			q0 := min(31, max(0, int(float32(xs[i]*inv)+16.5)))
			q1 := min(31, max(0, int(float32(xs[i+qk/2]*inv)+16.5)))
			qs[i] = byte(q0&0xf) | byte(q1&0xf)<<4
			qh |= uint32(q0>>4) << uint(i)
			qh |= uint32(q1>>4) << uint(i+qk/2)
		}
		binary.LittleEndian.PutUint32(blk[2:], qh)
	}
}

// QuantizeQ5_1 stores src (a whole number of 32-element blocks) into dst
// in GGML's Q5_1 layout: d = (max−min)/31, m = min, q = round((x−m)/d).
func QuantizeQ5_1(src []float32, dst []byte) {
	for b := 0; b < len(src)/qk; b++ {
		xs := src[b*qk : b*qk+qk]
		lo, hi := xs[0], xs[0]
		for _, v := range xs {
			lo, hi = min(lo, v), max(hi, v)
		}
		d := (hi - lo) / 31
		var inv float32
		if d != 0 {
			inv = 1 / d
		}
		blk := dst[b*q51Len : (b+1)*q51Len]
		binary.LittleEndian.PutUint16(blk, F32ToF16(d))
		binary.LittleEndian.PutUint16(blk[2:], F32ToF16(lo))
		var qh uint32
		qs := blk[8:]
		for i := range qk / 2 {
			q0 := min(31, max(0, int(float32((xs[i]-lo)*inv)+0.5)))
			q1 := min(31, max(0, int(float32((xs[i+qk/2]-lo)*inv)+0.5)))
			qs[i] = byte(q0&0xf) | byte(q1&0xf)<<4
			qh |= uint32(q0>>4) << uint(i)
			qh |= uint32(q1>>4) << uint(i+qk/2)
		}
		binary.LittleEndian.PutUint32(blk[4:], qh)
	}
}

// dotQ5_0 and dotQ5_1 are the row kernels of Q5_0 and Q5_1 matrices:
// the portable ones below, or on amd64 CPUs with AVX2 the assembly ones
// of q5_amd64.s (both builds).
var (
	dotQ5_0 = dotQ5_0Generic
	dotQ5_1 = dotQ5_1Generic
)

// dotQ5_0Generic returns a Q5_0 row · the 8-bit activation a: per block
// d·dₐ·Σ(q−16)·qₐ, the integer sum taken as Σq·qₐ − 16·Σqₐ.
func dotQ5_0Generic(w []byte, a *Activation) float32 {
	var sum float32
	for b, da := range a.D {
		blk := w[b*q50Len : (b+1)*q50Len]
		qh := binary.LittleEndian.Uint32(blk[2:])
		is := q5Sum(qh, blk[6:6+qk/2], a.Q[b*qk:b*qk+qk])
		sum += F16ToF32(le16(blk)) * da * float32(is-16*a.S[b])
	}
	return sum
}

// dotQ5_1Generic returns a Q5_1 row · the 8-bit activation a: per block
// d·dₐ·Σq·qₐ + m·dₐ·Σqₐ.
func dotQ5_1Generic(w []byte, a *Activation) float32 {
	var sum float32
	for b, da := range a.D {
		blk := w[b*q51Len : (b+1)*q51Len]
		qh := binary.LittleEndian.Uint32(blk[4:])
		is := q5Sum(qh, blk[8:8+qk/2], a.Q[b*qk:b*qk+qk])
		sum += F16ToF32(le16(blk))*da*float32(is) + F16ToF32(le16(blk[2:]))*da*float32(a.S[b])
	}
	return sum
}

// q5Sum returns Σ q_l·x_l over a block's 32 five-bit values q_l (0…31,
// see q5Value) and 32 activation values x.
func q5Sum(qh uint32, qs []byte, x []int8) int32 {
	qs, x = qs[:qk/2], x[:qk]
	var is int32
	for i, v := range qs {
		lo := int32(v&0xf) | int32(qh>>uint(i)&1)<<4
		hi := int32(v>>4) | int32(qh>>uint(i+qk/2)&1)<<4
		is += lo*int32(x[i]) + hi*int32(x[i+qk/2])
	}
	return is
}
