package tensor

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// kernelSets returns every kernel set this build can run: generic, and the
// SIMD set when compiled in and supported by the CPU.
func kernelSets() []*kernelSet {
	sets := []*kernelSet{&generic}
	if simdKernels != nil {
		sets = append(sets, simdKernels)
	}
	if asmSet != nil { // the default build's set with the VNNI tiles
		sets = append(sets, asmSet)
	}
	return sets
}

// forEachKernels runs f once per kernel set, with that set active.
func forEachKernels(t *testing.T, f func(t *testing.T)) {
	for _, k := range kernelSets() {
		t.Run(k.name, func(t *testing.T) {
			saved := active
			active = k
			defer func() { active = saved }()
			f(t)
		})
	}
}

var allTypes = []DType{F32, F16, BF16, Q8_0, Q4_0, Q4_K, Q5_K, Q6_K}

// refDequant is an element-by-element float64 reading of GGML's block
// layouts, kept independent of the kernels under test.
func refDequant(t DType, src []byte, n int) []float64 {
	out := make([]float64, n)
	h := func(b []byte) float64 { return float64(f16ToF32Slow(binary.LittleEndian.Uint16(b))) }
	for i := range n {
		switch t {
		case F32:
			out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:])))
		case F16:
			out[i] = h(src[2*i:])
		case BF16:
			out[i] = float64(math.Float32frombits(uint32(binary.LittleEndian.Uint16(src[2*i:])) << 16))
		case Q8_0:
			blk := src[(i/32)*34:]
			out[i] = h(blk) * float64(int8(blk[2+i%32]))
		case Q4_0:
			blk := src[(i/32)*18:]
			l := i % 32
			q := int(blk[2+l%16])
			if l >= 16 {
				q >>= 4
			}
			out[i] = h(blk) * float64(q&15-8)
		case Q4_K, Q5_K:
			bl := 144
			if t == Q5_K {
				bl = 176
			}
			blk := src[(i/256)*bl:]
			p := i % 256
			j, l := p/32, p%32
			s := blk[4:16]
			var sc, m int
			if j < 4 {
				sc, m = int(s[j]&0x3f), int(s[j+4]&0x3f)
			} else {
				sc = int(s[j+4]&0xf) + 16*int(s[j-4]>>6)
				m = int(s[j+4]>>4) + 16*int(s[j]>>6)
			}
			qs := blk[16:]
			if t == Q5_K {
				qs = blk[48:]
			}
			q := int(qs[32*(j/2)+l])
			if j%2 == 1 {
				q >>= 4
			}
			q &= 15
			if t == Q5_K && blk[16+l]&(1<<j) != 0 {
				q += 16
			}
			out[i] = h(blk)*float64(sc)*float64(q) - h(blk[2:])*float64(m)
		case Q6_K:
			blk := src[(i/256)*210:]
			p := i % 256
			half, r := p/128, p%128
			grp, l := r/32, r%32
			lo := int(blk[64*half+32*(grp%2)+l])
			if grp >= 2 {
				lo >>= 4
			}
			hi := int(blk[128+32*half+l]) >> (2 * grp) & 3
			sc := int8(blk[192+8*half+2*grp+l/16])
			out[i] = h(blk[208:]) * float64(sc) * float64(lo&15+16*hi-32)
		}
	}
	return out
}

func TestF16RoundTrip(t *testing.T) {
	for h := range 1 << 16 {
		f := F16ToF32(uint16(h))
		if f != f { // NaN
			continue
		}
		if got := F32ToF16(f); got != uint16(h) {
			t.Fatalf("F32ToF16(F16ToF32(%#04x)=%v) = %#04x", h, f, got)
		}
	}
	for _, c := range []struct {
		f float32
		h uint16
	}{{1, 0x3c00}, {-2, 0xc000}, {65504, 0x7bff}, {1e6, 0x7c00}, {5.960464477539063e-08, 0x0001}, {1 + 1.0/2048, 0x3c00 /* tie to even */}, {1 + 3.0/2048, 0x3c02}} {
		if got := F32ToF16(c.f); got != c.h {
			t.Errorf("F32ToF16(%v) = %#04x; want %#04x", c.f, got, c.h)
		}
	}
}

func TestBF16(t *testing.T) {
	for h := range 1 << 16 {
		f := BF16ToF32(uint16(h))
		if f != f {
			continue
		}
		if got := F32ToBF16(f); got != uint16(h) {
			t.Fatalf("F32ToBF16(BF16ToF32(%#04x)) = %#04x", h, got)
		}
	}
}

func TestDequantize(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, typ := range allTypes {
		n := 512
		data := RandomData(typ, n, 1, r)
		got := make([]float32, n)
		Dequantize(typ, data, got)
		want := refDequant(typ, data, n)
		for i := range n {
			if d := math.Abs(float64(got[i]) - want[i]); d > 1e-6*(1+math.Abs(want[i])) {
				t.Fatalf("Dequantize(%v)[%d] = %v; want %v", typ, i, got[i], want[i])
			}
		}
	}
}

func TestQuantizeRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	x := make([]float32, 256)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	for _, c := range []struct {
		typ    DType
		q      func([]float32, []byte)
		levels float64 // steps across the block's largest magnitude
		tol    float64 // error bound in steps
	}{
		{Q8_0, QuantizeQ8_0, 127, 0.51},
		// Q4_0 maps the extreme value to -8, so values of the other sign
		// beyond +7 steps clip, by at most one step.
		{Q4_0, QuantizeQ4_0, 8, 1},
	} {
		nb, _ := c.typ.RowBytes(len(x))
		buf := make([]byte, nb)
		c.q(x, buf)
		y := make([]float32, len(x))
		Dequantize(c.typ, buf, y)
		for b := 0; b < len(x)/32; b++ {
			var amax float64
			for _, v := range x[b*32 : b*32+32] {
				amax = math.Max(amax, math.Abs(float64(v)))
			}
			step := amax / c.levels
			for i := b * 32; i < b*32+32; i++ {
				if d := math.Abs(float64(x[i] - y[i])); d > step*c.tol+1e-3*amax {
					t.Fatalf("%v round trip [%d]: %v → %v (step %v)", c.typ, i, x[i], y[i], step)
				}
			}
		}
	}
}

func TestActivation(t *testing.T) {
	forEachKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 6))
		x := make([]float32, 1024)
		for i := range x {
			x[i] = float32(r.NormFloat64() * 3)
		}
		x[7] = 0
		for i := 64; i < 96; i++ { // an all-zero block
			x[i] = 0
		}
		var a Activation
		a.Set(x)
		for b, d := range a.D {
			var sum int32
			for i := b * 32; i < b*32+32; i++ {
				sum += int32(a.Q[i])
				if e := math.Abs(float64(x[i]) - float64(d)*float64(a.Q[i])); e > float64(d)*0.5001 {
					t.Fatalf("Activation[%d] = %v·%d for %v", i, d, a.Q[i], x[i])
				}
			}
			if sum != a.S[b] {
				t.Fatalf("Activation.S[%d] = %d; want %d", b, a.S[b], sum)
			}
		}
		for i, q := range a.QK {
			d := a.DK[i/256]
			if e := math.Abs(float64(x[i]) - float64(d)*float64(q)); e > float64(d)*0.5001 {
				t.Fatalf("Activation.QK[%d] = %v·%d for %v", i, d, q, x[i])
			}
		}
		for b, s := range a.SK {
			var sum int32
			for _, q := range a.QK[b*32 : b*32+32] {
				sum += int32(q)
			}
			if sum != s {
				t.Fatalf("Activation.SK[%d] = %d; want %d", b, s, sum)
			}
		}
	})
}

// refDot is Σ w_i x_i in float64 over the dequantized row and, for quantized
// types, the activation as its kernel sees it (D·Q).
func refDot(typ DType, w []byte, a *Activation) (dot, mag float64) {
	wv := refDequant(typ, w, len(a.F))
	for i, v := range wv {
		x := float64(a.F[i])
		switch typ {
		case F32, F16, BF16:
		case Q4_K, Q5_K, Q6_K:
			x = float64(a.DK[i/256]) * float64(a.QK[i])
		default:
			x = float64(a.D[i/32]) * float64(a.Q[i])
		}
		dot += v * x
		mag += math.Abs(v * x)
	}
	return dot, mag
}

func TestDotKernels(t *testing.T) {
	forEachKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(7, 8))
		for _, typ := range allTypes {
			for _, n := range []int{256, 512, 2048} {
				w := RandomData(typ, n, 0.5, r)
				x := make([]float32, n)
				for i := range x {
					x[i] = float32(r.NormFloat64())
				}
				var a Activation
				a.Set(x)
				m, err := NewMatrix(typ, 1, n, w)
				if err != nil {
					t.Fatal(err)
				}
				got := m.DotRow(0, &a)
				want, mag := refDot(typ, w, &a)
				if d := math.Abs(float64(got) - want); d > 1e-5*mag+1e-6 {
					t.Errorf("%v n=%d: dot = %v; want %v (|Σ| %v)", typ, n, got, want, mag)
				}
			}
		}
	})
}

func TestDotF32(t *testing.T) {
	forEachKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 10))
		for _, n := range []int{0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 1000} {
			a, b := make([]float32, n), make([]float32, n)
			var want, mag float64
			for i := range a {
				a[i], b[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
				want += float64(a[i]) * float64(b[i])
				mag += math.Abs(float64(a[i]) * float64(b[i]))
			}
			if got := Dot(a, b); math.Abs(float64(got)-want) > 1e-6*mag+1e-7 {
				t.Errorf("Dot(n=%d) = %v; want %v", n, got, want)
			}
			y := append([]float32(nil), b...)
			Axpy(0.5, a, y)
			for i := range y {
				if w := float64(b[i]) + 0.5*float64(a[i]); math.Abs(float64(y[i])-w) > 1e-6*(1+math.Abs(w)) {
					t.Fatalf("Axpy(n=%d)[%d] = %v; want %v", n, i, y[i], w)
				}
			}
		}
	})
}

func TestOps(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	n := 96
	x, w := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], w[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
	}
	var ss float64
	for _, v := range x {
		ss += float64(v) * float64(v)
	}
	inv := 1 / math.Sqrt(ss/float64(n)+1e-5)
	got := make([]float32, n)
	RMSNorm(got, x, w, 1e-5)
	for i := range x {
		want := float64(x[i]) * inv * float64(w[i])
		if math.Abs(float64(got[i])-want) > 1e-5*(1+math.Abs(want)) {
			t.Fatalf("RMSNorm[%d] = %v; want %v", i, got[i], want)
		}
	}

	s := append([]float32(nil), x...)
	Softmax(s)
	var z float64
	for _, v := range x {
		z += math.Exp(float64(v))
	}
	for i, v := range x {
		if want := math.Exp(float64(v)) / z; math.Abs(float64(s[i])-want) > 1e-6 {
			t.Fatalf("Softmax[%d] = %v; want %v", i, s[i], want)
		}
	}

	for _, v := range []float64{-20, -1, 0, 0.5, 3, 30} {
		if got, want := SiLU(float32(v)), v/(1+math.Exp(-v)); math.Abs(float64(got)-want) > 1e-6*(1+math.Abs(want)) {
			t.Errorf("SiLU(%v) = %v; want %v", v, got, want)
		}
	}
}

func TestRope(t *testing.T) {
	const head, pos = 16, 37
	for _, neox := range []bool{false, true} {
		r := NewRope(head, 10000, neox)
		x := make([]float32, 2*head)
		for i := range x {
			x[i] = float32(i%5) - 2
		}
		got := append([]float32(nil), x...)
		r.Apply(got, pos)
		for o := 0; o < len(x); o += head {
			for i := range head / 2 {
				a, b := o+2*i, o+2*i+1
				if neox {
					a, b = o+i, o+i+head/2
				}
				th := float64(pos) * math.Pow(10000, -float64(2*i)/head)
				wa := float64(x[a])*math.Cos(th) - float64(x[b])*math.Sin(th)
				wb := float64(x[a])*math.Sin(th) + float64(x[b])*math.Cos(th)
				if math.Abs(float64(got[a])-wa) > 1e-4 || math.Abs(float64(got[b])-wb) > 1e-4 {
					t.Fatalf("Rope(neox=%v) pair %d = %v,%v; want %v,%v", neox, i, got[a], got[b], wa, wb)
				}
			}
		}
	}
}

func TestMatVecPool(t *testing.T) {
	forEachKernels(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(13, 14))
		p := NewPool(3)
		defer p.Close()
		for _, typ := range allTypes {
			rows, cols := 301, 512 // odd: the two-row kernels leave one
			m, err := NewMatrix(typ, rows, cols, RandomData(typ, rows*cols, 0.5, r))
			if err != nil {
				t.Fatal(err)
			}
			// Six activations: one group of four (the dot4 kernels) and two single.
			as, outs := randomActivations(r, 6, cols, rows)
			out := make([]float32, rows)
			p.MatVec(out, m, &as[1])
			p.MatMul(outs, m, as)
			for i := range rows {
				want, _ := refDot(typ, m.Row(i), &as[1])
				if d := math.Abs(float64(out[i]) - want); d > 1e-3 {
					t.Fatalf("%v MatVec[%d] = %v; want %v", typ, i, out[i], want)
				}
				// Multi-row kernels must give the single kernel's results
				// (the Q8_0 and Q4_K kernels of gemm_q.go: within rounding;
				// TestMatMulTiles checks them).
				if tiled(typ) {
					_, mag := refDot(typ, m.Row(i), &as[1])
					if d := math.Abs(float64(out[i] - m.DotRow(i, &as[1]))); d > 1e-5*mag {
						t.Fatalf("%v MatVec[%d] = %v; DotRow = %v", typ, i, out[i], m.DotRow(i, &as[1]))
					}
				} else if out[i] != m.DotRow(i, &as[1]) {
					t.Fatalf("%v MatVec[%d] = %v; DotRow = %v", typ, i, out[i], m.DotRow(i, &as[1]))
				}
				for b := range as {
					single := m.DotRow(i, &as[b])
					// The Q8_0 and Q4_K kernels of gemm_q.go round
					// differently; TestMatMulTiles checks them.
					if tiled(typ) {
						_, mag := refDot(typ, m.Row(i), &as[b])
						if d := math.Abs(float64(outs[b][i] - single)); d <= 1e-5*mag {
							continue
						}
					}
					if outs[b][i] != single {
						t.Fatalf("%v MatMul[%d][%d] = %v; want %v", typ, b, i, outs[b][i], single)
					}
				}
			}
		}
	})
}

func TestMatVecNoAlloc(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	p := NewPool(2)
	defer p.Close()
	m, _ := NewMatrix(Q8_0, 512, 512, RandomData(Q8_0, 512*512, 1, r))
	x := make([]float32, 512)
	out := make([]float32, 512)
	var a Activation
	a.Set(x)
	if n := testing.AllocsPerRun(20, func() { a.Set(x); p.MatVec(out, m, &a) }); n != 0 {
		t.Errorf("MatVec allocates %v times per call; want 0", n)
	}
}

func TestNewMatrixErrors(t *testing.T) {
	for _, c := range []struct {
		typ        DType
		rows, cols int
		size       int
	}{{Q4_K, 1, 100, 144}, {Q8_0, 2, 32, 34}, {DType(99), 1, 1, 1}, {F32, -1, 4, 0}} {
		if _, err := NewMatrix(c.typ, c.rows, c.cols, make([]byte, c.size)); err == nil {
			t.Errorf("NewMatrix(%v, %d, %d, %d bytes) succeeded; want error", c.typ, c.rows, c.cols, c.size)
		}
	}
}

func BenchmarkDotF32(b *testing.B) {
	for _, k := range kernelSets() {
		b.Run(k.name, func(b *testing.B) {
			x, y := make([]float32, 4096), make([]float32, 4096)
			b.SetBytes(4096 * 4)
			for b.Loop() {
				k.dotF32(x, y)
			}
		})
	}
}

func BenchmarkMatVec(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	const rows, cols = 2048, 2048
	x := make([]float32, cols)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	for _, typ := range allTypes {
		m, _ := NewMatrix(typ, rows, cols, RandomData(typ, rows*cols, 1, r))
		for _, k := range kernelSets() {
			for _, threads := range []int{1, 2} {
				b.Run(fmt.Sprintf("%v/%s/t%d", typ, k.name, threads), func(b *testing.B) {
					saved := active
					active = k
					defer func() { active = saved }()
					p := NewPool(threads)
					defer p.Close()
					var a Activation
					out := make([]float32, rows)
					b.SetBytes(int64(len(m.Data)))
					for b.Loop() {
						a.Set(x)
						p.MatVec(out, m, &a)
					}
				})
			}
		}
	}
}

// TestDotF16Specials runs every half-precision value (zeros, subnormals,
// normals, infinities) through the F16 kernels one at a time.
func TestDotF16Specials(t *testing.T) {
	forEachKernels(t, func(t *testing.T) {
		w := make([]byte, 2*16)
		x := make([]float32, 16)
		x[3] = 1
		for h := range 1 << 16 {
			w[6], w[7] = byte(h), byte(h>>8)
			want := f16ToF32Slow(uint16(h))
			got := active.dotF16(w, x)
			if want != want { // NaN
				if got == got {
					t.Fatalf("dotF16(NaN %#04x) = %v; want NaN", h, got)
				}
				continue
			}
			if math.IsInf(float64(want), 0) {
				if got != want {
					t.Fatalf("dotF16(%#04x) = %v; want %v", h, got, want)
				}
				continue
			}
			if got != want {
				t.Fatalf("dotF16(%#04x) = %v; want %v", h, got, want)
			}
		}
	})
}

// randomActivations returns n activations of cols standard normal values
// and n zeroed outputs of rows values each: the operands of a matrix
// product of a rows × cols matrix in tests and benchmarks.
func randomActivations(r *rand.Rand, n, cols, rows int) ([]Activation, [][]float32) {
	as := make([]Activation, n)
	outs := make([][]float32, n)
	for k := range as {
		x := make([]float32, cols)
		for i := range x {
			x[i] = float32(r.NormFloat64())
		}
		as[k].Set(x)
		outs[k] = make([]float32, rows)
	}
	return as, outs
}
