//go:build amd64 && !purego

package tensor

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// Q4_K products in assembly for CPUs with AVX512-VNNI
// (gemm_q4kvnni_amd64.s), for prompt batches and generation alike.
//
// The archsimd kernels (and an earlier VNNI prompt kernel, removed as
// these replaced it everywhere it could run) apply each sub-block's 6-bit scale in the integer
// domain: per 64 values and row-activation pair a VPMADDUBSW (pairs of
// u8×s8 products into 16 bits) and a VPMADDWD or VPDPWSSD (times the
// scales), eight multiply instructions per super-block, plus a reduction
// of 16 lanes to 8, a conversion and three float operations. Here the
// quants are reordered once per row so that every 32-bit lane of every
// 64-byte chunk holds four values of the same sub-block: lanes 2P and
// 2P+1 the even sub-block 2P, lanes 8+2P and 9+2P the odd sub-block 2P+1.
// Four VPDPBUSD (u8×s8, four products per lane, accumulated) then leave in
// each lane the integer sum of 16 products of one sub-block, which is
// converted and multiplied by its float scale d·sc_j·dk: four multiply
// instructions per super-block, one conversion and three float operations
// (scale product, multiply-add, the mins' term).
//
// The reorder: the 128 packed bytes of a super-block are 32 dwords D;
// bytes 32P…32P+31 hold sub-block 2P in their low nibbles and 2P+1 in
// their high ones. Chunk c (0–3) takes dword 8P+4h+c (P = 0…3, h = 0, 1)
// into lanes 2P+h and 8+2P+h (one VPERMI2D), then keeps the low nibbles in
// lanes 0–7 and the high ones, unshifted (times 16), in lanes 8–15 (one
// VPANDD); the lane scales of the odd sub-blocks are divided by 16 to
// match, which is exact. The largest lane sum, 16·15·16·127 = 487 680,
// is exact in float32. The activation is reordered to match
// (prepQ4_KW): lane k of chunk c holds activation values 32j+16h+4c…+3 of
// sub-block j.
//
// Generation (vecQ4_KWAsm) decodes each super-block of rows as stored in
// registers with the same instructions and multiplies it with the same
// operations in the same order as the prompt kernel (mul2Q4_KWAsm, two
// decoded rows by four activations), so a prompt batch and the
// matrix-vector products give identical results. Both add in another
// order than the archsimd kernels (results within rounding of them).

// Sizes per super-block of a decoded row (decQ4_KWAsm: quants, lane
// scales, mins) and of a prepared activation (prepQ4_KW: quants, mins
// factors, dk, padding).
const (
	decQ4_KWSB  = 384
	prepQ4_KWSB = 384
)

// hasQ4_KW reports whether the CPU and the operating system support the
// instructions of the kernels (AVX-512 F, BW, VL, DQ and VNNI; F16C for
// the scales).
var hasQ4_KW = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL &&
	cpu.X86.HasAVX512DQ && cpu.X86.HasAVX512VNNI

func init() {
	if simdTiles != nil && hasQ4_KW {
		simdTiles.q4kw = setupQ4_KW
	}
}

//go:noescape
func decQ4_KWAsm(w, dst unsafe.Pointer, nsb int)

//go:noescape
func vecQ4_KWAsm(w unsafe.Pointer, rowBytes, nrows int, x unsafe.Pointer, nsb int, out unsafe.Pointer)

//go:noescape
func mul2Q4_KWAsm(rows *[2]unsafe.Pointer, x unsafe.Pointer, stride, ngroups, nsb int, outs unsafe.Pointer, off, ntok, two int, res unsafe.Pointer)

// q4kActIdx[16c+k] is the dword of a super-block's 256 activation values
// (64 dwords) that goes to lane k of chunk c.
var q4kActIdx = func() (t [64]uint8) {
	for c := range 4 {
		for k := range 16 {
			p, h := (k&7)>>1, k&1
			j := 2 * p
			if k >= 8 {
				j++
			}
			t[16*c+k] = uint8((32*j + 16*h + 4*c) / 4)
		}
	}
	return t
}()

// prepQ4_KW writes a's 256-value quantization reordered to the decoded
// rows' lanes, the mins' factors dk·Σq per sub-block (8 lanes, then 8
// zeros) and dk: prepQ4_KWSB bytes per super-block.
func prepQ4_KW(a *Activation, dst []byte) {
	nsb := len(a.DK)
	if nsb == 0 {
		return
	}
	_, _, _ = a.QK[nsb*qkK-1], a.SK[nsb*8-1], dst[nsb*prepQ4_KWSB-1]
	src := unsafe.Slice((*uint32)(unsafe.Pointer(&a.QK[0])), nsb*qkK/4)
	for i, dk := range a.DK[:nsb] {
		o := (*[prepQ4_KWSB / 4]uint32)(unsafe.Pointer(&dst[i*prepQ4_KWSB]))
		s := (*[64]uint32)(src[i*64:])
		for k, x := range &q4kActIdx {
			o[k] = s[x]
		}
		f := (*[17]float32)(unsafe.Pointer(&o[64]))
		for j := range 8 {
			f[j] = float32(a.SK[8*i+j]) * dk
			f[8+j] = 0
		}
		f[16] = dk
	}
}

// decQ4_KW decodes a Q4_K row into decQ4_KWSB bytes per super-block.
func decQ4_KW(w, dst []byte) {
	nsb := len(w) / q4KLen
	if nsb == 0 {
		return
	}
	_, _ = w[nsb*q4KLen-1], dst[nsb*decQ4_KWSB-1]
	decQ4_KWAsm(unsafe.Pointer(&w[0]), unsafe.Pointer(&dst[0]), nsb)
}

// setupQ4_KW prepares MatMul(outs, m, as) (vec: MatVec, one activation)
// of a Q4_K matrix for the kernels: every activation is prepared once,
// and a batch's count is padded to a multiple of four with zeros (whose
// results are dropped).
func setupQ4_KW(p *Pool, m *Matrix, as []Activation, vec bool) bool {
	nsb := m.Cols / qkK
	stride := nsb * prepQ4_KWSB
	slots := len(as)
	if !vec {
		slots = (len(as) + 3) &^ 3
	}
	tm := &p.tileMem
	tm.prep = grow(tm.prep, stride*slots)
	for b := range as {
		prepQ4_KW(&as[b], tm.prep[b*stride:(b+1)*stride])
	}
	clear(tm.prep[len(as)*stride : slots*stride])
	p.tiles = qTileJob{t: active.tiles(), prep: tm.prep[:stride*slots], prepLen: stride, run: runQ4_KW}
	if !vec {
		p.tiles.decLen = nsb * decQ4_KWSB
		p.grow(2*p.tiles.decLen + 8*len(as) + 32)
	}
	return true
}

// runQ4_KW computes rows lo..hi-1 of the current Q4_K product on worker
// w: a MatVec reads the rows as stored; a MatMul decodes two rows at a
// time into the worker's buffer and multiplies them by every activation
// (an odd last row is paired with itself and its copy dropped).
func runQ4_KW(p *Pool, w, lo, hi int) {
	j, tj := &p.job, &p.tiles
	if hi <= lo {
		return
	}
	m := j.m
	nsb := m.Cols / qkK
	if nsb == 0 {
		if j.kind == 0 {
			clear(j.out[lo:hi])
		} else {
			for b := range j.outs {
				clear(j.outs[b][lo:hi])
			}
		}
		return
	}
	if j.kind == 0 {
		_ = j.out[hi-1]
		vecQ4_KWAsm(unsafe.Pointer(unsafe.SliceData(m.Row(lo))), m.rowBytes, hi-lo,
			unsafe.Pointer(&tj.prep[0]), nsb, unsafe.Pointer(&j.out[lo]))
		return
	}
	dl, n := tj.decLen, len(j.outs)
	ng := len(tj.prep) / tj.prepLen / 4
	buf := p.scratch[w][:2*dl+8*n+32]
	// The outputs' addresses, for the kernel to store its results
	// directly; j.outs keeps the (heap) slices alive during the call.
	outs := unsafe.Slice((*uintptr)(unsafe.Pointer(&buf[2*dl])), n)
	for b, out := range j.outs {
		_ = out[hi-1]
		outs[b] = uintptr(unsafe.Pointer(unsafe.SliceData(out)))
	}
	res := unsafe.Pointer(&buf[2*dl+8*n])
	var rows [2]unsafe.Pointer
	for i := lo; i < hi; i += 2 {
		decQ4_KW(m.Row(i), buf[:dl])
		rows[0], rows[1] = unsafe.Pointer(&buf[0]), unsafe.Pointer(&buf[0])
		two := 0
		if i+1 < hi {
			decQ4_KW(m.Row(i+1), buf[dl:2*dl])
			rows[1], two = unsafe.Pointer(&buf[dl]), 1
		}
		mul2Q4_KWAsm(&rows, unsafe.Pointer(&tj.prep[0]), tj.prepLen, ng, nsb, unsafe.Pointer(&outs[0]), 4*i, n, two, res)
	}
}
