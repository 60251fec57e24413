package tensor

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Activation is a float32 vector together with its 8-bit quantization in
// blocks of 32 (a float32 scale and the sum of the quantized values per
// block), the form in which quantized weights read their input. The zero
// value is empty; [Activation.Set] fills it, reusing its buffers, so a
// decode loop that keeps one Activation per vector allocates nothing per
// token.
type Activation struct {
	F []float32 // the values, copied by Set
	D []float32 // per block: the scale, F ≈ D*Q
	Q []int8    // the quantized values (empty when len(F) is not a multiple of 32)
	S []int32   // per block: the sum of Q

	// The same values quantized with one scale per 256 (GGML's Q8_K), which
	// the K-quant kernels read: their integer sums then run over a whole
	// super-block. Empty when len(F) is not a multiple of 256.
	DK []float32 // per 256 values: the scale, F ≈ DK*QK
	QK []int8
	SK []int32 // per 32 values: the sum of QK
}

// Set copies x and quantizes it when its length is a multiple of 32.
func (a *Activation) Set(x []float32) {
	a.F = append(a.F[:0], x...)
	if len(x)%qk != 0 {
		a.D, a.Q, a.S = a.D[:0], a.Q[:0], a.S[:0]
		return
	}
	nb := len(x) / qk
	a.D = grow(a.D, nb)
	a.S = grow(a.S, nb)
	a.Q = grow(a.Q, len(x))
	if quantizeBoth != nil && (active == simdKernels || active == asmSet) && len(x)%qkK == 0 {
		a.DK = grow(a.DK, len(x)/qkK)
		a.QK = grow(a.QK, len(x))
		a.SK = grow(a.SK, nb)
		quantizeBoth(a)
		return
	}
	active.quantizeAct(a.F, a.D, a.Q, a.S)
	if len(x)%qkK != 0 {
		a.DK, a.QK, a.SK = a.DK[:0], a.QK[:0], a.SK[:0]
		return
	}
	a.DK = grow(a.DK, len(x)/qkK)
	a.QK = grow(a.QK, len(x))
	a.SK = grow(a.SK, nb)
	active.quantizeActK(a.F, a.DK, a.QK, a.SK)
}

// quantizeBoth, where set (quant_amd64.go), fills both quantizations of
// an activation whose length is a multiple of 256 in one pass, with the
// SIMD kernel set's results.
var quantizeBoth func(a *Activation)

func quantizeActKGeneric(x, d []float32, q []int8, s []int32) {
	for b := range d {
		xs := x[b*qkK : b*qkK+qkK]
		var amax float32
		for _, v := range xs {
			amax = max(amax, abs32(v))
		}
		scale := amax / 127
		d[b] = scale
		var inv float32
		if scale != 0 {
			inv = 1 / scale
		}
		qs := q[b*qkK : b*qkK+qkK]
		for i, v := range xs {
			qs[i] = int8(roundHalfAway(v * inv))
		}
		for j := range qkK / qk {
			var sum int32
			for _, v := range qs[j*qk : j*qk+qk] {
				sum += int32(v)
			}
			s[b*(qkK/qk)+j] = sum
		}
	}
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

func quantizeActGeneric(x, d []float32, q []int8, s []int32) {
	for b := range d {
		xs := x[b*qk : b*qk+qk]
		var amax float32
		for _, v := range xs {
			amax = max(amax, abs32(v))
		}
		scale := amax / 127
		d[b] = scale
		var inv float32
		if scale != 0 {
			inv = 1 / scale
		}
		var sum int32
		qs := q[b*qk : b*qk+qk]
		for i, v := range xs {
			iv := int32(roundHalfAway(v * inv))
			qs[i] = int8(iv)
			sum += iv
		}
		s[b] = sum
	}
}

func abs32(v float32) float32 { return math.Float32frombits(math.Float32bits(v) &^ (1 << 31)) }

// roundHalfAway rounds to the nearest integer, halves away from zero (C's
// roundf).
func roundHalfAway(v float32) float32 {
	if v < 0 {
		return -float32(math.Floor(float64(-v) + 0.5))
	}
	return float32(math.Floor(float64(v) + 0.5))
}

func le16(b []byte) uint16 { return binary.LittleEndian.Uint16(b) }

// Dequantize converts len(dst) elements of type t stored in src to float32.
// len(dst) must be a whole number of blocks and src must hold them.
func Dequantize(t DType, src []byte, dst []float32) {
	n, err := t.RowBytes(len(dst))
	if err != nil {
		panic(err)
	}
	if len(src) < n {
		panic(fmt.Sprintf("tensor: Dequantize: %d bytes for %d elements of %v; want %d", len(src), len(dst), t, n))
	}
	switch t {
	case Q5_0, Q5_1:
		DequantizeQ5(t, src, dst) // q5.go
	case F32:
		for i := range dst {
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
		}
	case F16:
		for i := range dst {
			dst[i] = F16ToF32(le16(src[2*i:]))
		}
	case BF16:
		for i := range dst {
			dst[i] = BF16ToF32(le16(src[2*i:]))
		}
	case Q8_0:
		for b := 0; b < len(dst)/qk; b++ {
			blk := src[b*q80Len:]
			d := F16ToF32(le16(blk))
			for i := range qk {
				dst[b*qk+i] = d * float32(int8(blk[2+i]))
			}
		}
	case Q4_0:
		for b := 0; b < len(dst)/qk; b++ {
			blk := src[b*q40Len:]
			d := F16ToF32(le16(blk))
			y := dst[b*qk:]
			for i := range qk / 2 {
				y[i] = d * float32(int(blk[2+i]&0xf)-8)
				y[i+qk/2] = d * float32(int(blk[2+i]>>4)-8)
			}
		}
	case Q4_K:
		for b := 0; b < len(dst)/qkK; b++ {
			dequantQ4K(src[b*q4KLen:], dst[b*qkK:])
		}
	case Q5_K:
		for b := 0; b < len(dst)/qkK; b++ {
			dequantQ5K(src[b*q5KLen:], dst[b*qkK:])
		}
	case Q6_K:
		for b := 0; b < len(dst)/qkK; b++ {
			dequantQ6K(src[b*q6KLen:], dst[b*qkK:])
		}
	}
}

// decQ4_KLen is the size in bytes of a decoded Q4_K row of cols values
// (see kernelSet.decQ4_K): per super-block 256 unpacked quants, eight
// scale vectors of 32 bytes, the mins (32 bytes) and d, dmin as float32
// bits.
func decQ4_KLen(cols int) int { return cols / qkK * decQ4_KSB }

const decQ4_KSB = 256 + 8*32 + 32 + 32 // padded to whole vectors

// scaleMinK returns the 6-bit scale and min of sub-block j (0..7) from the
// 12 packed bytes of a Q4_K or Q5_K super-block: sub-blocks 0–3 keep theirs
// in the low six bits of bytes j and j+4; sub-blocks 4–7 keep their low four
// bits in the nibbles of byte j+4 and their top two bits in the high bits of
// bytes j-4 (scale) and j (min).
func scaleMinK(j int, s []byte) (sc, m uint8) {
	if j < 4 {
		return s[j] & 63, s[j+4] & 63
	}
	return s[j+4]&0xf | (s[j-4]>>6)<<4, s[j+4]>>4 | (s[j]>>6)<<4
}

// Q4_K super-block: d f16, dmin f16, scales [12], qs [128]. Sub-block j of
// 32 values reads the low (even j) or high (odd j) nibbles of qs[32*(j/2):].
func dequantQ4K(blk []byte, y []float32) {
	d := F16ToF32(le16(blk))
	dmin := F16ToF32(le16(blk[2:]))
	sc := blk[4:16]
	qs := blk[16 : 16+128]
	for j := range 8 {
		s, m := scaleMinK(j, sc)
		ds, dm := d*float32(s), dmin*float32(m)
		q := qs[32*(j/2):]
		shift := uint(4 * (j & 1))
		for l := range 32 {
			y[32*j+l] = ds*float32((q[l]>>shift)&0xf) - dm
		}
	}
}

// Q5_K super-block: d, dmin, scales [12], qh [32], qs [128]; bit j of qh[l]
// is the fifth bit of value l of sub-block j.
func dequantQ5K(blk []byte, y []float32) {
	d := F16ToF32(le16(blk))
	dmin := F16ToF32(le16(blk[2:]))
	sc := blk[4:16]
	qh := blk[16:48]
	qs := blk[48 : 48+128]
	for j := range 8 {
		s, m := scaleMinK(j, sc)
		ds, dm := d*float32(s), dmin*float32(m)
		q := qs[32*(j/2):]
		shift := uint(4 * (j & 1))
		for l := range 32 {
			v := (q[l]>>shift)&0xf | ((qh[l]>>uint(j))&1)<<4
			y[32*j+l] = ds*float32(v) - dm
		}
	}
}

// q6KValue returns the 6-bit value (0..63) at position p (0..255) of a Q6_K
// super-block and the index of its scale. Layout: ql [128] (low nibbles),
// qh [64] (two high bits), scales [16] int8, d f16. Each half of 128 values
// uses 64 bytes of ql and 32 of qh; within a half, group k (0..3) of 32
// values takes the low (k even) or high (k odd) nibbles of ql[32*(k&1):] and
// bits 2k..2k+1 of qh.
func q6KValue(blk []byte, p int) (v uint8, scale int) {
	n, r := p/128, p%128
	k, l := r/32, r%32
	ql := blk[64*n:]
	qh := blk[128+32*n:]
	lo := ql[l+32*(k&1)]
	if k >= 2 {
		lo >>= 4
	}
	return lo&0xf | ((qh[l]>>uint(2*k))&3)<<4, 8*n + 2*k + l/16
}

func dequantQ6K(blk []byte, y []float32) {
	d := F16ToF32(le16(blk[208:]))
	sc := blk[192:208]
	for p := range qkK {
		v, s := q6KValue(blk, p)
		y[p] = d * float32(int8(sc[s])) * float32(int(v)-32)
	}
}

// QuantizeQ8_0 stores src (a whole number of 32-element blocks) into dst in
// GGML's Q8_0 layout: per block an f16 scale and 32 int8 values.
func QuantizeQ8_0(src []float32, dst []byte) {
	for b := 0; b < len(src)/qk; b++ {
		xs := src[b*qk : b*qk+qk]
		var amax float32
		for _, v := range xs {
			amax = max(amax, abs32(v))
		}
		d := amax / 127
		var inv float32
		if d != 0 {
			inv = 1 / d
		}
		blk := dst[b*q80Len : b*q80Len+q80Len]
		binary.LittleEndian.PutUint16(blk, F32ToF16(d))
		for i, v := range xs {
			blk[2+i] = byte(int8(roundHalfAway(v * inv)))
		}
	}
}

// QuantizeQ4_0 stores src (a whole number of 32-element blocks) into dst in
// GGML's Q4_0 layout: per block an f16 scale and 32 four-bit values (offset
// 8), the value of largest magnitude mapping to -8.
func QuantizeQ4_0(src []float32, dst []byte) {
	for b := 0; b < len(src)/qk; b++ {
		xs := src[b*qk : b*qk+qk]
		var amax, vmax float32
		for _, v := range xs {
			if abs32(v) > amax {
				amax, vmax = abs32(v), v
			}
		}
		d := vmax / -8
		var inv float32
		if d != 0 {
			inv = 1 / d
		}
		blk := dst[b*q40Len : b*q40Len+q40Len]
		binary.LittleEndian.PutUint16(blk, F32ToF16(d))
		q := func(v float32) byte { return byte(min(15, max(0, int(v*inv+8.5)))) }
		for i := range qk / 2 {
			blk[2+i] = q(xs[i]) | q(xs[i+qk/2])<<4
		}
	}
}
