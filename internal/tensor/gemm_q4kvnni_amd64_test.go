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

// edgyQ4_K returns n random Q4_K values where some super-blocks have the
// extremes of every field: all quants 15, all 6-bit scales and mins 63,
// subnormal half-float d and dmin.
func edgyQ4_K(n int, r *rand.Rand) []byte {
	w := RandomData(Q4_K, n, 0.5, r)
	for b := 0; b < len(w); b += q4KLen {
		switch r.IntN(5) {
		case 0:
			for i := range 12 {
				w[b+4+i] = 0xff
			}
			for i := range 128 {
				w[b+16+i] = 0xff
			}
		case 1:
			binary.LittleEndian.PutUint16(w[b:], uint16(1+r.IntN(0x3ff)))
			binary.LittleEndian.PutUint16(w[b+2:], uint16(1+r.IntN(0x3ff)))
		}
	}
	return w
}

// q4kwTiles returns the variable that holds the active kernel set's tiles
// (simdTiles in the SIMD build, asmTiles in the default one) when they
// include the sub-block-lane kernels, nil otherwise.
func q4kwTiles() **qTiles {
	for _, v := range []**qTiles{&simdTiles, &asmTiles} {
		if *v != nil && *v == active.tiles() && (*v).q4kw != nil {
			return v
		}
	}
	return nil
}

// TestQ4_KWDecode checks the decoded row's layout against Dequantize: in
// chunk c, lane k, byte i, the quant times the lane's scale minus the
// sub-block's min is value 32j+16h+4c+i (j = 2(k&7>>1) + k/8, h = k&1).
func TestQ4_KWDecode(t *testing.T) {
	if !hasQ4_KW {
		t.Skip("no AVX512-VNNI on this CPU")
	}
	r := rand.New(rand.NewPCG(41, 42))
	const nsb = 5
	w := edgyQ4_K(nsb*qkK, r)
	want := make([]float32, nsb*qkK)
	Dequantize(Q4_K, w, want)
	dec := make([]byte, nsb*decQ4_KWSB)
	decQ4_KW(w, dec)
	for s := range nsb {
		d := dec[s*decQ4_KWSB:]
		f := func(off int) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(d[off:])) }
		for c := range 4 {
			for k := range 16 {
				j, h := 2*((k&7)>>1)+k/8, k&1
				for i := range 4 {
					q := d[64*c+4*k+i]
					if k >= 8 && q&0xf != 0 || k < 8 && q > 15 {
						t.Fatalf("sb %d chunk %d lane %d: quant %#x in the wrong nibble", s, c, k, q)
					}
					got := f(256+4*k)*float32(q) - f(320+4*j)
					x := want[s*qkK+32*j+16*h+4*c+i]
					if math.Abs(float64(got-x)) > 1e-6*math.Abs(float64(x))+1e-30 {
						t.Fatalf("sb %d chunk %d lane %d byte %d: %v; Dequantize %v", s, c, k, i, got, x)
					}
				}
			}
		}
		for k := 8; k < 16; k++ {
			if f(320+4*k) != 0 {
				t.Fatalf("sb %d: min lane %d = %v; want 0", s, k, f(320+4*k))
			}
		}
	}
}

// TestQ4_KW checks the Q4_K kernels through MatMul and MatVec over row
// counts that are not multiples of two, batches that are not multiples of
// four, and extreme weights: every activation's batch result must equal
// its matrix-vector product exactly (prompt and generation agree), and
// both must be within rounding of the float64 reference and of the kernels
// the set has without them (archsimd, or portable in the default build).
func TestQ4_KW(t *testing.T) {
	tv := q4kwTiles()
	if tv == nil {
		t.Skip("no AVX512-VNNI on this CPU")
	}
	r := rand.New(rand.NewPCG(43, 44))
	for _, threads := range []int{1, 2} {
		p := NewPool(threads)
		defer p.Close()
		for _, tc := range []struct{ rows, cols, batch int }{
			{1, 256, 2}, {2, 256, 5}, {3, 768, 4}, {5, 512, 7}, {6, 1024, 9},
			{9, 256, 13}, {64, 512, 3}, {130, 256, 6}, {7, 2048, 1},
		} {
			t.Run(fmt.Sprintf("t%d/%dx%dx%d", threads, tc.rows, tc.cols, tc.batch), func(t *testing.T) {
				m, err := NewMatrix(Q4_K, tc.rows, tc.cols, edgyQ4_K(tc.rows*tc.cols, r))
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
				got, plain := make([][]float32, len(as)), make([][]float32, len(as))
				for b := range as {
					got[b], plain[b] = make([]float32, m.Rows), make([]float32, m.Rows)
				}
				p.MatMul(got, m, as)
				saved := *tv
				noW := *saved
				noW.q4kw = nil
				*tv = &noW
				p.MatMul(plain, m, as)
				*tv = saved
				vec := make([]float32, m.Rows)
				for b := range as {
					p.MatVec(vec, m, &as[b])
					for i := range m.Rows {
						if got[b][i] != vec[i] {
							t.Fatalf("batch out[%d][%d] = %v; MatVec %v", b, i, got[b][i], vec[i])
						}
						ref, mag := refDot(Q4_K, m.Row(i), &as[b])
						if d := math.Abs(float64(got[b][i]) - ref); d > 1e-5*mag+1e-6 {
							t.Fatalf("out[%d][%d] = %v; want %v", b, i, got[b][i], ref)
						}
						if d := math.Abs(float64(got[b][i] - plain[b][i])); d > 1e-5*mag+1e-6 {
							t.Fatalf("out[%d][%d] = %v; archsimd kernels %v", b, i, got[b][i], plain[b][i])
						}
					}
				}
			})
		}
	}
}

// BenchmarkQ4_KW times Q4_K prompt batches and matrix-vector products
// (one thread) without these kernels ("without": the archsimd tiles and
// first VNNI kernel in the SIMD build, portable loops otherwise) and
// these ("w"), in thread CPU time per block of 32 products: 1024×1024 by
// 64 activations and by one, 16384×1024 by one (9 MB, from memory).
func BenchmarkQ4_KW(b *testing.B) {
	tv := q4kwTiles()
	if tv == nil {
		b.Skip("no AVX512-VNNI on this CPU")
	}
	for _, sz := range [][3]int{{1024, 1024, 64}, {1024, 1024, 1}, {16384, 1024, 1}} {
		rows, cols, batch := sz[0], sz[1], sz[2]
		r := rand.New(rand.NewPCG(3, 4))
		as, outs := randomActivations(r, batch, cols, rows)
		m, _ := NewMatrix(Q4_K, rows, cols, RandomData(Q4_K, rows*cols, 1, r))
		for _, w := range []bool{false, true} {
			name := "without"
			if w {
				name = "w"
			}
			b.Run(fmt.Sprintf("%dx%dx%d/%s", rows, cols, batch, name), func(b *testing.B) {
				saved := *tv
				if !w {
					plain := *saved
					plain.q4kw = nil
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
