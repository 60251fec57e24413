//go:build amd64 && !purego

package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSwiGLUAsm checks the assembly SwiGLU against SiLU's formula
// x/(1+e^−x)·up in float64 over every tail length and the values where an exp goes
// wrong first: zeros, the ends of float32's exp range, ±100 and beyond,
// infinities and NaN.
func TestSwiGLUAsm(t *testing.T) {
	if swigluKernel == nil {
		t.Skip("no AVX-512 on this CPU")
	}
	r := rand.New(rand.NewPCG(51, 52))
	special := []float32{0, float32(math.Copysign(0, -1)), 1e-30, -1e-30, 0.3465, -0.3466, 87.3, -87.3, 88.8, -88.8,
		89, -89, 103, -103, 1e4, -1e4, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	for n := range 70 {
		gate, up := make([]float32, n), make([]float32, n+1)
		for i := range gate {
			if r.IntN(3) == 0 {
				gate[i] = special[r.IntN(len(special))]
			} else {
				gate[i] = float32(r.NormFloat64() * 6)
			}
			up[i] = float32(r.NormFloat64())
		}
		up[n] = 123 // past the end: must be left alone
		x := append([]float32(nil), gate...)
		swigluAsm(gate, up[:n])
		for i, v := range x {
			// e^−x rounded to float32 as SiLU rounds it (it overflows
			// beyond x = −88.7, and the result is then −0).
			e := float64(float32(math.Exp(-float64(v))))
			want := float64(v) / (1 + e) * float64(up[i])
			got := float64(gate[i])
			switch {
			case math.IsNaN(want):
				if !math.IsNaN(got) {
					t.Fatalf("n=%d: SwiGLU(%v, %v) = %v; want NaN", n, v, up[i], got)
				}
			case math.Abs(got-want) > 4e-7*math.Abs(want)+1e-38:
				t.Fatalf("n=%d: SwiGLU(%v, %v) = %v; want %v (%.2g relative)", n, v, up[i], got, want, math.Abs(got-want)/math.Abs(want))
			}
		}
		if up[n] != 123 {
			t.Fatal("wrote past the end")
		}
	}
}

// BenchmarkSwiGLU times SwiGLU over 4096 values with the float64 loop and
// the assembly.
func BenchmarkSwiGLU(b *testing.B) {
	gate, up := make([]float32, 4096), make([]float32, 4096)
	for i := range gate {
		gate[i], up[i] = float32(i%13)-6, 0.5
	}
	saved := swigluKernel
	defer func() { swigluKernel = saved }()
	for _, name := range []string{"loop", "asm"} {
		if name == "loop" {
			swigluKernel = nil
		} else if swigluKernel = saved; saved == nil {
			continue
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				SwiGLU(gate, up)
				copy(gate, up) // keep the values bounded
			}
		})
	}
}
