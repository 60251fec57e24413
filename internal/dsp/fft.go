// Package dsp holds the signal-processing pieces several front ends share:
// a radix-2 FFT, used by the acoustic engine's MFCC front end
// (internal/sphinx) and the speaker filterbank (speaker.Fbank). Whisper's
// log-mel keeps its own transform: its 400-point frames are not a power of
// two, and it must match whisper.cpp's arithmetic. [YIN] is the pitch
// tracker of the speaker embedding's pitch part and the voice converter
// (tts/internal/vc).
package dsp

import (
	"fmt"
	"math"
	"math/bits"
)

// FFT is an in-place iterative radix-2 complex FFT of a fixed size, with
// its bit-reversal permutation and twiddle factors computed once. It is
// read-only after NewFFT and safe for concurrent use.
type FFT struct {
	n        int
	rev      []int
	cos, sin []float64
}

// NewFFT prepares an FFT of size n, a power of two ≥ 2; another n panics
// (sizes are fixed by the caller's configuration, never by input data).
func NewFFT(n int) *FFT {
	if n < 2 || n&(n-1) != 0 {
		panic(fmt.Sprintf("dsp: FFT size %d is not a power of two ≥ 2", n))
	}
	f := &FFT{n: n, rev: make([]int, n), cos: make([]float64, n/2), sin: make([]float64, n/2)}
	shift := 64 - bits.Len(uint(n-1))
	for i := range n {
		f.rev[i] = int(bits.Reverse64(uint64(i)) >> shift)
	}
	for i := range n / 2 {
		f.cos[i] = math.Cos(2 * math.Pi * float64(i) / float64(n))
		f.sin[i] = -math.Sin(2 * math.Pi * float64(i) / float64(n))
	}
	return f
}

// Len is the transform size.
func (f *FFT) Len() int { return f.n }

// Transform replaces (re, im), both of length Len, by their forward
// discrete Fourier transform: X[k] = Σ x[j] e^(−2πi jk/n).
func (f *FFT) Transform(re, im []float64) {
	n := f.n
	re, im = re[:n], im[:n]
	for i, r := range f.rev {
		if i < r {
			re[i], re[r] = re[r], re[i]
			im[i], im[r] = im[r], im[i]
		}
	}
	for size := 2; size <= n; size <<= 1 {
		half, step := size/2, n/size
		for start := 0; start < n; start += size {
			for k := range half {
				wr, wi := f.cos[k*step], f.sin[k*step]
				a, b := start+k, start+k+half
				tr := re[b]*wr - im[b]*wi
				ti := re[b]*wi + im[b]*wr
				re[b], im[b] = re[a]-tr, im[a]-ti
				re[a] += tr
				im[a] += ti
			}
		}
	}
}

// PowerSpectrum transforms the real frame x (length ≤ Len, zero-padded)
// and writes |X[k]|² for k = 0 … Len/2 into out (length Len/2+1), using
// re and im (length Len) as scratch.
func (f *FFT) PowerSpectrum(x, out, re, im []float64) {
	n := f.n
	copy(re[:n], x)
	clear(re[len(x):n])
	clear(im[:n])
	f.Transform(re, im)
	for k := 0; k <= n/2; k++ {
		out[k] = re[k]*re[k] + im[k]*im[k]
	}
}
