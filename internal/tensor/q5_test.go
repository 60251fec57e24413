package tensor

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// refQ5 reads element i of a Q5_0 or Q5_1 row bit by bit from GGML's
// documented layout, independently of DequantizeQ5.
func refQ5(t DType, src []byte, i int) float64 {
	bl := Q5BlockBytes(t)
	blk := src[(i/32)*bl:]
	l := i % 32
	h := func(b []byte) float64 { return float64(f16ToF32Slow(binary.LittleEndian.Uint16(b))) }
	hdr := 2
	if t == Q5_1 {
		hdr = 4
	}
	qh := blk[hdr : hdr+4]
	qs := blk[hdr+4:]
	var lo byte
	if l < 16 {
		lo = qs[l] & 15
	} else {
		lo = qs[l-16] >> 4
	}
	hb := (qh[l/8] >> uint(l%8)) & 1
	q := int(lo) + 16*int(hb)
	if t == Q5_0 {
		return h(blk) * float64(q-16)
	}
	return h(blk)*float64(q) + h(blk[2:])
}

func TestQ5RoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	const n = 32 * 40
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	x[7] = 0 // a zero in a block
	for i := 64; i < 96; i++ {
		x[i] = 0 // an all-zero block
	}
	for _, tc := range []struct {
		name  string
		t     DType
		quant func([]float32, []byte)
	}{{"Q5_0", Q5_0, QuantizeQ5_0}, {"Q5_1", Q5_1, QuantizeQ5_1}} {
		t.Run(tc.name, func(t *testing.T) {
			buf := make([]byte, n/32*Q5BlockBytes(tc.t))
			tc.quant(x, buf)
			y := make([]float32, n)
			DequantizeQ5(tc.t, buf, y)
			for b := 0; b < n/32; b++ {
				lo, hi := x[b*32], x[b*32]
				for _, v := range x[b*32 : b*32+32] {
					lo, hi = min(lo, v), max(hi, v)
				}
				// Half a quantization step, plus f16 rounding of the scale;
				// Q5_0 maps the extreme to −16, so the other sign can clip
				// by up to a whole step at +15.
				step := float64(max(hi, -lo)) / 16 * 2
				if tc.t == Q5_1 {
					step = float64(hi-lo) / 31
				}
				for i := b * 32; i < b*32+32; i++ {
					if ref := refQ5(tc.t, buf, i); float64(y[i]) != ref {
						t.Fatalf("DequantizeQ5[%d] = %v; reference reading %v", i, y[i], ref)
					}
					if d := math.Abs(float64(y[i] - x[i])); d > step*0.5+2e-3*math.Abs(float64(x[i]))+1e-3 {
						t.Fatalf("element %d: %v quantized to %v (error %g, step %g)", i, x[i], y[i], d, step)
					}
				}
			}
			for i := 64; i < 96; i++ {
				if y[i] != 0 {
					t.Fatalf("zero block element %d = %v; want 0", i, y[i])
				}
			}
		})
	}
}

func TestQ5ExtremeMapsToMinus16(t *testing.T) {
	x := make([]float32, 32)
	for i := range x {
		x[i] = float32(i) / 31
	}
	x[3] = -2 // the largest magnitude, negative
	buf := make([]byte, Q5BlockBytes(Q5_0))
	QuantizeQ5_0(x, buf)
	y := make([]float32, 32)
	DequantizeQ5(Q5_0, buf, y)
	if y[3] != -2 {
		t.Errorf("DequantizeQ5 of the extreme -2 = %v; want exactly -2", y[3])
	}
}
