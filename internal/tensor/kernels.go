package tensor

import (
	"math"
	"unsafe"
)

// kernelSet is one implementation of the inner loops. generic is always
// available; a SIMD set replaces active at init when the CPU supports it.
type kernelSet struct {
	name        string
	dotF32      func(a, b []float32) float32
	axpy        func(alpha float32, x, y []float32) // y += alpha*x
	dotF16      func(w []byte, x []float32) float32
	dotBF16     func(w []byte, x []float32) float32
	dotQ8_0     func(w []byte, a *Activation) float32
	dotQ4_0     func(w []byte, a *Activation) float32
	dotQ4_K     func(w []byte, a *Activation) float32
	dotQ5_K     func(w []byte, a *Activation) float32
	dotQ6_K     func(w []byte, a *Activation) float32
	quantizeAct func(x, d []float32, q []int8, s []int32)
	// quantizeActK quantizes with one scale per 256 values, sums per 32.
	quantizeActK func(x, d []float32, q []int8, s []int32)
	// Four activations against one weight row at once (nil: none), giving
	// the same results as four single calls; prompt batches use them.
	dot4Q8_0 func(w []byte, a *[4]*Activation, out *[4]float32)
	dot4Q4_K func(w []byte, a *[4]*Activation, out *[4]float32)
	dot4Q6_K func(w []byte, a *[4]*Activation, out *[4]float32)
	// Prompt batches of K-quant rows (nil: none): decQ4_K unpacks a row
	// once (quants, scales, mins) into a buffer of decQ4_KLen(cols)
	// bytes, which dotDecQ4_K then multiplies by each activation with the
	// same operations, in the same order, as dotQ4_K.
	decQ4_K    func(w, dst []byte)
	dotDecQ4_K func(dec []byte, a *Activation) float32
	// gemm4 multiplies four packed float32 weight rows by a block of
	// activations (see gemm_f.go).
	gemm4 func(w []float32, xs, outs [][]float32, i0 int)
	// softmaxF16 is SoftmaxF16's kernel (see f16softmax.go).
	softmaxF16 func(x []float32)
	// roundF16 is RoundF16's kernel (see f16round.go).
	roundF16 func(x []float32)
}

var generic = kernelSet{
	name:         "generic",
	dotF32:       dotF32Generic,
	axpy:         axpyGeneric,
	dotF16:       dotF16Generic,
	dotBF16:      dotBF16Generic,
	dotQ8_0:      dotQ8_0Generic,
	dotQ4_0:      dotQ4_0Generic,
	dotQ4_K:      dotQ4_KGeneric,
	dotQ5_K:      dotQ5_KGeneric,
	dotQ6_K:      dotQ6_KGeneric,
	quantizeAct:  quantizeActGeneric,
	quantizeActK: quantizeActKGeneric,
	gemm4:        gemm4Generic,
	softmaxF16:   softmaxF16Generic,
	roundF16:     roundF16Generic,
}

// active is the kernel set in use.
var active = &generic

// Kernels names the active kernel set: "generic", or in a
// GOEXPERIMENT=simd build "avx2" on a CPU with AVX2 and FMA, "avx2+avx512"
// when the CPU also has AVX-512 (used by some prompt-batch kernels). On
// amd64 CPUs with F16C the half-precision products run in assembly
// (f16asm_amd64.s); without the SIMD set that set is "generic+f16c", and
// "generic+f16c+vnni" where the CPU also has AVX512-VNNI, whose Q8_0
// products then run in assembly too (gemm_q8vnni_amd64.go).
func Kernels() string { return active.name }

// Dot returns the dot product of a and b, which must have equal lengths.
func Dot(a, b []float32) float32 {
	if len(a) != len(b) {
		panic("tensor: Dot: length mismatch")
	}
	return active.dotF32(a, b)
}

// Axpy adds alpha*x to y in place; len(x) must equal len(y).
func Axpy(alpha float32, x, y []float32) {
	if len(x) != len(y) {
		panic("tensor: Axpy: length mismatch")
	}
	active.axpy(alpha, x, y)
}

func dotF32Generic(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func axpyGeneric(alpha float32, x, y []float32) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}

// dotF16Generic reads each weight through the conversion table with four
// independent sums (one chain of additions would bound the loop by its
// latency).
func dotF16Generic(w []byte, x []float32) float32 {
	w = w[:2*len(x)]
	t := f16Table
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(x); i += 4 {
		b := w[2*i : 2*i+8 : 2*i+8]
		s0 += t[uint16(b[0])|uint16(b[1])<<8] * x[i]
		s1 += t[uint16(b[2])|uint16(b[3])<<8] * x[i+1]
		s2 += t[uint16(b[4])|uint16(b[5])<<8] * x[i+2]
		s3 += t[uint16(b[6])|uint16(b[7])<<8] * x[i+3]
	}
	for ; i < len(x); i++ {
		s0 += t[uint16(w[2*i])|uint16(w[2*i+1])<<8] * x[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func dotBF16Generic(w []byte, x []float32) float32 {
	w = w[:2*len(x)]
	var s float32
	for i, v := range x {
		s += math.Float32frombits((uint32(w[2*i])|uint32(w[2*i+1])<<8)<<16) * v
	}
	return s
}

func dotQ8_0Generic(w []byte, a *Activation) float32 {
	var sum float32
	for b, da := range a.D {
		blk := w[b*q80Len : b*q80Len+q80Len]
		q := a.Q[b*qk : b*qk+qk]
		var is int32
		for i, v := range blk[2:] {
			is += int32(int8(v)) * int32(q[i])
		}
		sum += F16ToF32(le16(blk)) * da * float32(is)
	}
	return sum
}

func dotQ4_0Generic(w []byte, a *Activation) float32 {
	var sum float32
	for b, da := range a.D {
		blk := w[b*q40Len : b*q40Len+q40Len]
		q := a.Q[b*qk : b*qk+qk]
		var is int32
		for i, v := range blk[2:] {
			is += int32(v&0xf)*int32(q[i]) + int32(v>>4)*int32(q[i+qk/2])
		}
		// Values are stored offset by 8: Σ(v-8)q = Σvq - 8Σq.
		sum += F16ToF32(le16(blk)) * da * float32(is-8*a.S[b])
	}
	return sum
}

func dotQ4_KGeneric(w []byte, a *Activation) float32 {
	var sum float32
	for sb, dk := range a.DK {
		blk := w[sb*q4KLen : sb*q4KLen+q4KLen]
		qs := blk[16:]
		var isum, imin int32
		for j := range 8 {
			s, m := scaleMinK(j, blk[4:16])
			q := a.QK[sb*qkK+32*j : sb*qkK+32*j+32]
			src := qs[32*(j/2) : 32*(j/2)+32]
			var is int32
			if j&1 == 0 {
				for l, v := range src {
					is += int32(v&0xf) * int32(q[l])
				}
			} else {
				for l, v := range src {
					is += int32(v>>4) * int32(q[l])
				}
			}
			isum += int32(s) * is
			imin += int32(m) * a.SK[sb*8+j]
		}
		sum += dk * (F16ToF32(le16(blk))*float32(isum) - F16ToF32(le16(blk[2:]))*float32(imin))
	}
	return sum
}

func dotQ5_KGeneric(w []byte, a *Activation) float32 {
	var sum float32
	for sb, dk := range a.DK {
		blk := w[sb*q5KLen : sb*q5KLen+q5KLen]
		qh := blk[16:48]
		qs := blk[48:]
		var isum, imin int32
		for j := range 8 {
			s, m := scaleMinK(j, blk[4:16])
			q := a.QK[sb*qkK+32*j : sb*qkK+32*j+32]
			src := qs[32*(j/2) : 32*(j/2)+32]
			shift := uint(4 * (j & 1))
			var is int32
			for l, v := range src {
				x := (v>>shift)&0xf | ((qh[l]>>uint(j))&1)<<4
				is += int32(x) * int32(q[l])
			}
			isum += int32(s) * is
			imin += int32(m) * a.SK[sb*8+j]
		}
		sum += dk * (F16ToF32(le16(blk))*float32(isum) - F16ToF32(le16(blk[2:]))*float32(imin))
	}
	return sum
}

func dotQ6_KGeneric(w []byte, a *Activation) float32 {
	var sum float32
	for sb, dk := range a.DK {
		blk := w[sb*q6KLen : sb*q6KLen+q6KLen]
		sc := blk[192:208]
		var isum int32
		for n := range 2 {
			ql := blk[64*n:]
			qh := blk[128+32*n:]
			for k := range 4 {
				q := a.QK[sb*qkK+128*n+32*k:]
				lo := ql[32*(k&1) : 32*(k&1)+32]
				shift := uint(4 * (k >> 1))
				var is0, is1 int32
				for l := range 16 {
					v := int32((lo[l]>>shift)&0xf|((qh[l]>>uint(2*k))&3)<<4) - 32
					is0 += v * int32(q[l])
				}
				for l := 16; l < 32; l++ {
					v := int32((lo[l]>>shift)&0xf|((qh[l]>>uint(2*k))&3)<<4) - 32
					is1 += v * int32(q[l])
				}
				isum += int32(int8(sc[8*n+2*k]))*is0 + int32(int8(sc[8*n+2*k+1]))*is1
			}
		}
		sum += dk * F16ToF32(le16(blk[208:])) * float32(isum)
	}
	return sum
}

// f32s views b (little-endian float32s, 4-byte aligned) as []float32.
func f32s(b []byte) []float32 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), len(b)/4)
}
