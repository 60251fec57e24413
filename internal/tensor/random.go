package tensor

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
)

// RandomData returns n elements of type t (n a whole number of blocks) with
// pseudo-random values of magnitude about scale, drawn from r: normal values
// stored as floats, or quantized with QuantizeQ8_0 and QuantizeQ4_0, or (for
// the K-quants) random super-block scales and quantized values. Tests and
// benchmarks use it to build models with random weights.
func RandomData(t DType, n int, scale float64, r *rand.Rand) []byte {
	size, err := t.RowBytes(n)
	if err != nil {
		panic(err)
	}
	out := make([]byte, size)
	norm := func() float32 { return float32(r.NormFloat64() * scale) }
	switch t {
	case F32:
		for i := range n {
			binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(norm()))
		}
	case F16:
		for i := range n {
			binary.LittleEndian.PutUint16(out[2*i:], F32ToF16(norm()))
		}
	case BF16:
		for i := range n {
			binary.LittleEndian.PutUint16(out[2*i:], F32ToBF16(norm()))
		}
	case Q8_0, Q4_0:
		x := make([]float32, n)
		for i := range x {
			x[i] = norm()
		}
		if t == Q8_0 {
			QuantizeQ8_0(x, out)
		} else {
			QuantizeQ4_0(x, out)
		}
	case Q4_K, Q5_K:
		bl := t.BlockBytes()
		levels := 15.0
		if t == Q5_K {
			levels = 31
		}
		for b := 0; b < n/qkK; b++ {
			blk := out[b*bl : (b+1)*bl]
			for i := 4; i < bl; i++ {
				blk[i] = byte(r.Uint32())
			}
			// Scales average about 32 and mins about 32: values ≈ d·32·q − dmin·32.
			d := 2 * scale / (32 * levels)
			binary.LittleEndian.PutUint16(blk, F32ToF16(float32(d)))
			binary.LittleEndian.PutUint16(blk[2:], F32ToF16(float32(d*levels/2)))
		}
	case Q6_K:
		for b := 0; b < n/qkK; b++ {
			blk := out[b*q6KLen : (b+1)*q6KLen]
			for i := 0; i < 192; i++ {
				blk[i] = byte(r.Uint32())
			}
			for i := 192; i < 208; i++ {
				blk[i] = byte(int8(r.IntN(255) - 127))
			}
			binary.LittleEndian.PutUint16(blk[208:], F32ToF16(float32(2*scale/(64*32))))
		}
	default:
		panic("tensor: RandomData: unsupported type " + t.String())
	}
	return out
}
