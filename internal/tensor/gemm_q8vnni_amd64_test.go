//go:build amd64 && !purego

package tensor

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// edgyQ8_0 returns n random Q8_0 values whose quants are often the
// extremes (−128, −127, 127) and whose block scales are sometimes
// subnormal half floats: the cases an integer kernel gets wrong first.
func edgyQ8_0(n int, r *rand.Rand) []byte {
	w := RandomData(Q8_0, n, 0.5, r)
	for b := 0; b < len(w); b += q80Len {
		for i := range qk {
			switch r.IntN(8) {
			case 0:
				w[b+2+i] = 0x80 // −128
			case 1:
				w[b+2+i] = 127
			case 2:
				w[b+2+i] = 0x81 // −127
			}
		}
		if r.IntN(4) == 0 { // a subnormal f16 scale
			binary.LittleEndian.PutUint16(w[b:], uint16(1+r.IntN(0x3ff)))
		}
	}
	return w
}

// vnniTiles returns the variable that holds this build's VNNI kernels
// (simdTiles in the SIMD build, asmTiles in the default one) and the kernel
// set they go with; nil, nil on CPUs without AVX512-VNNI.
func vnniTiles() (**qTiles, *kernelSet) {
	switch {
	case simdTiles != nil && simdTiles.dot4x4Q8_0V != nil:
		return &simdTiles, simdKernels
	case asmTiles != nil:
		return &asmTiles, asmSet
	}
	return nil, nil
}

// fma32 returns x*y+z rounded once to float32, as VFMADD231PS computes it:
// the product of two float32s is exact in float64, the sum's rounding
// error is recovered (TwoSum), and a float64 sum that lies exactly halfway
// between two float32s is resolved by that error's sign.
func fma32(x, y, z float32) float32 {
	p := float64(x) * float64(y)
	s := p + float64(z)
	bb := s - p
	e := (p - (s - bb)) + (float64(z) - bb)
	r := float32(s)
	if e == 0 || float64(r) == s {
		return r
	}
	lo, hi := r, math.Nextafter32(r, float32(math.Inf(1)))
	if float64(r) > s {
		lo, hi = math.Nextafter32(r, float32(math.Inf(-1))), r
	}
	if s-float64(lo) != float64(hi)-s {
		return r
	}
	if e > 0 {
		return hi
	}
	return lo
}

// q8VModel is the VNNI kernels' product of a Q8_0 row and an activation
// in portable Go, operation by operation: per group of 16 blocks and lane
// p (block q8VBeta[p], zero past the row's end) the exact integer sum,
// converted, times the activation's block scale, then a fused
// multiply-add with the row's block scale into the lane's sum; the lanes
// added as reduce16Asm adds them.
func q8VModel(w []byte, a *Activation) float32 {
	nb := len(a.D)
	var acc [16]float32
	for g := range q8VGroups(nb * qk) {
		for p := range acc {
			b := g*q8VGroup + q8VBeta[p]
			if b >= nb {
				acc[p] = fma32(0, 0, acc[p])
				continue
			}
			blk := w[b*q80Len : (b+1)*q80Len]
			var is int32
			for i, v := range blk[2:] {
				is += int32(int8(v)) * int32(a.Q[b*qk+i])
			}
			acc[p] = fma32(float32(is)*a.D[b], F16ToF32(le16(blk)), acc[p])
		}
	}
	return reduce16Model(&acc)
}

// reduce16Model adds 16 lanes in reduce16Asm's order.
func reduce16Model(a *[16]float32) float32 {
	var s8 [8]float32
	var s4 [4]float32
	for i := range s8 {
		s8[i] = a[i] + a[i+8]
	}
	for i := range s4 {
		s4[i] = s8[i] + s8[i+4]
	}
	return (s4[0] + s4[2]) + (s4[1] + s4[3])
}

func TestFMA32(t *testing.T) {
	for _, c := range []struct{ x, y, z, want float32 }{
		{1, 1, 1, 2},
		// The exact result lies 2^-70 below a midpoint that the float64
		// sum rounds to; ties-to-even would then round up.
		{1 - 0x1p-23, 0x1p-24 * (1 + 0x1p-23), 1 + 0x1p-23, 1 + 0x1p-23},
		{1 + 0x1p-12, 1 - 0x1p-12, -1, -0x1p-24},
		{0x1p-149, 0.5, 0, 0}, // halfway to the smallest subnormal: even
		{0x1p-149, 0.75, 0, 0x1p-149},
	} {
		if got := fma32(c.x, c.y, c.z); got != c.want {
			t.Errorf("fma32(%g, %g, %g) = %g; want %g", c.x, c.y, c.z, got, c.want)
		}
	}
	// Against float64 arithmetic where that is exact: small integers.
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		x, y, z := float32(r.IntN(4096)-2048), float32(r.IntN(4096)-2048), float32(r.IntN(1<<20))
		if got, want := fma32(x, y, z), float32(float64(x)*float64(y)+float64(z)); got != want {
			t.Fatalf("fma32(%g, %g, %g) = %g; want %g", x, y, z, got, want)
		}
	}
}

// TestQ8_0VNNI checks the VNNI Q8_0 kernels (prompt batches through
// MatMul, generation through MatVec) over row, activation and block counts
// that fill neither the 4×4 tile, the eight rows of the matrix-vector
// kernel nor whole groups of 16 blocks: every result must equal the
// portable model q8VModel exactly, MatVec must equal the batch exactly,
// and both the float64 reference within rounding. The weights include
// −128 and ±127 and subnormal scales.
func TestQ8_0VNNI(t *testing.T) {
	tv, k := vnniTiles()
	if tv == nil {
		t.Skip("no AVX512-VNNI on this CPU")
	}
	saved := active
	active = k
	defer func() { active = saved }()
	r := rand.New(rand.NewPCG(31, 32))
	for _, tc := range []struct{ rows, cols, batch, threads int }{
		{1, 32, 2, 1}, {3, 96, 3, 1}, {4, 512, 4, 2}, {5, 480, 6, 1}, {7, 1024, 7, 2},
		{8, 544, 8, 1}, {9, 1280, 11, 2}, {13, 128, 13, 1}, {2, 2048, 9, 2},
		{17, 384, 5, 2}, {33, 1536, 4, 1}, {64, 512, 2, 2},
	} {
		t.Run(fmt.Sprintf("%dx%dx%d/%d", tc.rows, tc.cols, tc.batch, tc.threads), func(t *testing.T) {
			m, err := NewMatrix(Q8_0, tc.rows, tc.cols, edgyQ8_0(tc.rows*tc.cols, r))
			if err != nil {
				t.Fatal(err)
			}
			as := make([]Activation, tc.batch)
			for b := range as {
				x := make([]float32, tc.cols)
				for i := range x {
					x[i] = float32(r.NormFloat64())
				}
				if b%3 == 1 {
					x[r.IntN(tc.cols)] = 40 // a value that quantizes to ±127
				}
				as[b].Set(x)
			}
			p := NewPool(tc.threads)
			defer p.Close()
			batch := make([][]float32, len(as))
			for b := range batch {
				batch[b] = make([]float32, m.Rows)
			}
			p.MatMul(batch, m, as)
			vec := make([]float32, m.Rows)
			for b := range as {
				p.MatVec(vec, m, &as[b])
				for i := range m.Rows {
					model := q8VModel(m.Row(i), &as[b])
					if batch[b][i] != model || vec[i] != model {
						t.Fatalf("activation %d row %d: MatMul %v, MatVec %v; model %v", b, i, batch[b][i], vec[i], model)
					}
					ref, mag := refDot(Q8_0, m.Row(i), &as[b])
					if d := math.Abs(float64(model) - ref); d > 1e-5*mag+1e-6 {
						t.Fatalf("activation %d row %d: %v; want %v", b, i, model, ref)
					}
				}
			}
		})
	}
}

// BenchmarkVNNI times Q8_0 prompt batches (MatMul, one thread) without
// and with the VNNI kernel (without: the archsimd tile in the SIMD build,
// the portable kernels otherwise; Q4_K's kernels have their own
// benchmark), in thread CPU time per block of 32 products: a 1024×1024 matrix by 64 activations, and 16×1024 by 8 (operands in the
// first-level cache).
func BenchmarkVNNI(b *testing.B) {
	tv, k := vnniTiles()
	if tv == nil {
		b.Skip("no AVX512-VNNI on this CPU")
	}
	saved := active
	active = k
	defer func() { active = saved }()
	for _, sz := range [][3]int{{1024, 1024, 64}, {16, 1024, 8}} {
		rows, cols, batch := sz[0], sz[1], sz[2]
		r := rand.New(rand.NewPCG(3, 4))
		as := make([]Activation, batch)
		outs := make([][]float32, batch)
		for k := range as {
			x := make([]float32, cols)
			for i := range x {
				x[i] = float32(r.NormFloat64())
			}
			as[k].Set(x)
			outs[k] = make([]float32, rows)
		}
		{
			typ := Q8_0
			m, _ := NewMatrix(typ, rows, cols, RandomData(typ, rows*cols, 1, r))
			for _, vnni := range []bool{false, true} {
				b.Run(fmt.Sprintf("%v/%dx%dx%d/vnni=%v", typ, rows, cols, batch, vnni), func(b *testing.B) {
					saved := *tv
					if !vnni {
						plain := **tv
						plain.dot4x4Q8_0V = nil
						*tv = &plain
					}
					defer func() { *tv = saved }()
					p := NewPool(1)
					defer p.Close()
					runtime.LockOSThread()
					defer runtime.UnlockOSThread()
					c0 := threadCPU()
					for b.Loop() {
						p.MatMul(outs, m, as)
					}
					b.ReportMetric(float64(threadCPU()-c0)/float64(b.N)/float64(rows*cols/32*batch), "cpu-ns/block")
				})
			}
		}
	}
}
