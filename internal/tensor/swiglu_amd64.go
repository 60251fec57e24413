//go:build amd64 && !purego

package tensor

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// SwiGLU of prompt batches and generation in assembly on CPUs with
// AVX-512 (swiglu_amd64.s): 16 lanes per step with a polynomial exp in
// float32 instead of math.Exp in float64 per value, which was a third of
// the time a prompt spent outside the matrix products. The results are
// within 4e-7 relative of the float64 formula (TestSwiGLUAsm).

//go:noescape
func swigluAVX512(gate, up *float32, n int)

func init() {
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ {
		swigluKernel = swigluAsm
	}
}

func swigluAsm(gate, up []float32) {
	if len(gate) == 0 {
		return
	}
	up = up[:len(gate)]
	swigluAVX512(unsafe.SliceData(gate), unsafe.SliceData(up), len(gate))
}
