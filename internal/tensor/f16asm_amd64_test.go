//go:build amd64 && !purego

package tensor

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// f16AsmKernels returns the assembly F16 dot products this CPU can run,
// each wrapped like dotF16Asm (the loop over whole groups, the rest one
// by one), by name.
func f16AsmKernels() map[string]func(w []byte, x []float32) float32 {
	ks := map[string]func(w []byte, x []float32) float32{}
	wrap := func(f func(w *byte, x *float32, n int) float32, group int) func(w []byte, x []float32) float32 {
		return func(w []byte, x []float32) float32 {
			var s float32
			m := len(x) / group * group
			if m > 0 {
				s = f(&w[0], &x[0], m)
			}
			for i := m; i < len(x); i++ {
				s += F16ToF32(binary.LittleEndian.Uint16(w[2*i:])) * x[i]
			}
			return s
		}
	}
	if hasF16C {
		ks["f16c"] = wrap(dotF16F16C, 8)
		ks["dotF16Asm"] = dotF16Asm
	}
	if hasF16AVX512 {
		ks["avx512"] = wrap(dotF16AVX512, 16)
	}
	return ks
}

// TestDotF16Asm compares the assembly kernels with a float64 reference
// and with dotF16Generic over lengths that exercise every path: empty,
// shorter than one group, odd, one value past each loop's step.
func TestDotF16Asm(t *testing.T) {
	ks := f16AsmKernels()
	if len(ks) == 0 {
		t.Skip("CPU without AVX2, F16C and FMA: no assembly F16 kernel to test")
	}
	r := rand.New(rand.NewPCG(16, 5))
	for _, n := range []int{0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 95, 127, 129, 383, 384, 1000, 1531, 4097} {
		w := make([]byte, 2*n)
		x := make([]float32, n)
		var ref, mag float64
		for i := range n {
			h := F32ToF16(float32(r.NormFloat64()))
			binary.LittleEndian.PutUint16(w[2*i:], h)
			x[i] = float32(r.NormFloat64())
			p := float64(f16ToF32Slow(h)) * float64(x[i])
			ref += p
			mag += math.Abs(p)
		}
		// float32 sums of n products: error below n·ε·Σ|p| with room.
		tol := float64(n+1) * 0x1p-23 * mag
		gen := dotF16Generic(w, x)
		for name, f := range ks {
			got := f(w, x)
			if d := math.Abs(float64(got) - ref); d > tol {
				t.Errorf("%s n=%d: got %v, float64 reference %v (|Δ| %g > %g)", name, n, got, ref, d, tol)
			}
			if d := math.Abs(float64(got) - float64(gen)); d > 2*tol {
				t.Errorf("%s n=%d: got %v, dotF16Generic %v", name, n, got, gen)
			}
		}
	}
}

// TestDotF16AsmSpecials runs every half-precision value through each
// assembly kernel at each position of a group, against the exact
// conversion: zeros, subnormals, normals, infinities and NaNs.
func TestDotF16AsmSpecials(t *testing.T) {
	ks := f16AsmKernels()
	if len(ks) == 0 {
		t.Skip("CPU without AVX2, F16C and FMA: no assembly F16 kernel to test")
	}
	for name, f := range ks {
		for _, pos := range []int{0, 5, 15, 40} {
			t.Run(fmt.Sprintf("%s/pos%d", name, pos), func(t *testing.T) {
				w := make([]byte, 2*64)
				x := make([]float32, 64)
				x[pos] = 1
				for h := range 1 << 16 {
					w[2*pos], w[2*pos+1] = byte(h), byte(h>>8)
					want, got := f16ToF32Slow(uint16(h)), f(w, x)
					if want != want {
						if got == got {
							t.Fatalf("%#04x: got %v; want NaN", h, got)
						}
						continue
					}
					if got != want {
						t.Fatalf("%#04x: got %v; want %v", h, got, want)
					}
				}
			})
		}
	}
}

// TestF16AsmSelected checks that the active kernels use the assembly
// product on a CPU that can run it, in either build.
func TestF16AsmSelected(t *testing.T) {
	if !hasF16C {
		t.Skip("CPU without AVX2, F16C and FMA")
	}
	w := []byte{0x00, 0x3c} // 1.0
	x := []float32{2}
	if got := active.dotF16(w, x); got != 2 {
		t.Fatalf("active.dotF16 = %v; want 2", got)
	}
	if simdKernels == nil && active != f16cKernels {
		t.Fatalf("active kernel set %q; want generic+f16c", active.name)
	}
}

// f16BenchPeers holds further F16 kernels to measure next to the
// assembly ones (the archsimd kernel in SIMD builds).
var f16BenchPeers = map[string]func(w []byte, x []float32) float32{}

func BenchmarkDotF16Kernels(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 384 * 4
	w := RandomData(F16, n, 1, r)
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	ks := f16AsmKernels()
	ks["generic"] = dotF16Generic
	for name, f := range f16BenchPeers {
		ks[name] = f
	}
	for name, f := range ks {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(2 * n)
			for b.Loop() {
				f(w, x)
			}
		})
	}
}
