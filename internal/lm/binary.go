package lm

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"unsafe"
)

// The compact binary form of a [Model] ("Sotto LM"): the model's own
// arrays, written so that a load checks them and uses them in place instead
// of parsing text. All values are little-endian; every section starts at a
// multiple of 8 bytes from the start of the file, zero-padded.
//
//	offset  size  field
//	0       8     magic "SOTTOLM\x00"
//	8       4     version (binaryVersion)
//	12      4     order n, 1 to 6
//	16      8     size of the whole file in bytes
//	24      4     CRC-32C (Castagnoli) of the file without these 4 bytes:
//	              bytes 0 … 23, then 28 … size-1
//	28      4     source length s, at most maxSource
//	32      24    counts[6]: words, then the entries of each order 2 … n
//	              (blanks included, as Model.Counts); 0 past n
//	56      4     spelling bytes b
//	60      4     0
//	64      s     source: the writer's record of what the model was made
//	              from, opaque to this package
//	        4·c1  uint32 end of each word's spelling in the spelling bytes
//	        b     the spellings, one after the other
//	        12·(c1+1) unigrams {float32 prob, float32 back-off, uint32 next}
//	              (the last is the sentinel whose next ends the bigrams)
//	per order k = 2 … n-1, ck entries:
//	        4·ck uint32 word, 4·ck float32 prob, 4·ck float32 back-off,
//	        4·(ck+1) uint32 next
//	order n (n ≥ 2), cn entries:
//	        4·cn uint32 word, 4·cn float32 prob
//
// Entries are the reversed trie described in package lm's doc: unigram w's
// children are the bigram entries [next(w), next(w+1)), each holding the
// word before w, sorted by word id; a k-gram entry's children, likewise,
// hold the word one further back. Scores are the in-memory ones, natural
// logs as float32 (no quantisation), so a model read back scores bit for
// bit as the one written; entries are written in the model's order.
const (
	binaryMagic   = "SOTTOLM\x00"
	binaryVersion = 1
	binaryHeader  = 64
	maxSource     = 4096
	maxEntries    = 1 << 28 // per order, as ParseARPA's count limit
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// binarySum is the checksum of a binary model b (at least the header
// long): CRC-32C of b without its checksum field.
func binarySum(b []byte) uint32 {
	return crc32.Update(crc32.Checksum(b[:24], castagnoli), castagnoli, b[28:])
}

// IsBinary reports whether data starts like a model in the compact binary
// form of [Model.WriteBinary].
func IsBinary(data []byte) bool { return bytes.HasPrefix(data, []byte(binaryMagic)) }

// pad8 rounds n up to a multiple of 8.
func pad8(n int64) int64 { return (n + 7) &^ 7 }

// binaryLayout returns the size of each section in file order (padding
// excluded) for a model of the given order, counts, source and spelling
// lengths.
func binaryLayout(order int, counts [6]int64, source, spell int64) []int64 {
	s := []int64{source, 4 * counts[0], spell, 12 * (counts[0] + 1)}
	for k := 2; k <= order; k++ {
		c := counts[k-1]
		if k < order {
			s = append(s, 4*c, 4*c, 4*c, 4*(c+1))
		} else {
			s = append(s, 4*c, 4*c)
		}
	}
	return s
}

// WriteBinary writes m in the compact binary form (see [ParseBinary]).
// source, at most 4096 bytes, is stored as is and returned by ParseBinary:
// the caller's record of what the model was made from, so that it can tell
// a binary file made from another source.
func (m *Model) WriteBinary(w io.Writer, source string) error {
	if len(source) > maxSource {
		return fmt.Errorf("lm: binary source record of %d bytes (at most %d)", len(source), maxSource)
	}
	if m.order < 1 || m.order > 6 {
		return fmt.Errorf("lm: order %d cannot be written (1 to 6)", m.order)
	}
	var counts [6]int64
	for k, c := range m.Counts() {
		if c >= maxEntries {
			return fmt.Errorf("lm: %d %d-grams: too many to write", c, k+1)
		}
		counts[k] = int64(c)
	}
	var spell int64
	for _, w := range m.words {
		spell += int64(len(w))
	}
	if spell > math.MaxUint32 {
		return fmt.Errorf("lm: %d bytes of spellings: too many to write", spell)
	}
	size := int64(binaryHeader)
	for _, s := range binaryLayout(m.order, counts, int64(len(source)), spell) {
		size += pad8(s)
	}
	if int64(int(size)) != size {
		return fmt.Errorf("lm: a binary model of %d bytes cannot be built here", size)
	}
	b := make([]byte, 0, size)
	le := binary.LittleEndian
	b = append(b, binaryMagic...)
	b = le.AppendUint32(b, binaryVersion)
	b = le.AppendUint32(b, uint32(m.order))
	b = le.AppendUint64(b, uint64(size))
	b = le.AppendUint32(b, 0) // CRC, set below
	b = le.AppendUint32(b, uint32(len(source)))
	for _, c := range counts {
		b = le.AppendUint32(b, uint32(c))
	}
	b = le.AppendUint32(b, uint32(spell))
	b = le.AppendUint32(b, 0)
	align := func() {
		for len(b)%8 != 0 {
			b = append(b, 0)
		}
	}
	u32 := func(v []uint32) {
		for _, x := range v {
			b = le.AppendUint32(b, x)
		}
		align()
	}
	f32 := func(v []float32) {
		for _, x := range v {
			b = le.AppendUint32(b, math.Float32bits(x))
		}
		align()
	}
	b = append(b, source...)
	align()
	end := uint32(0)
	for _, w := range m.words {
		end += uint32(len(w))
		b = le.AppendUint32(b, end)
	}
	align()
	for _, w := range m.words {
		b = append(b, w...)
	}
	align()
	for _, u := range m.uni {
		b = le.AppendUint32(b, math.Float32bits(u.prob))
		b = le.AppendUint32(b, math.Float32bits(u.bo))
		b = le.AppendUint32(b, u.next)
	}
	align()
	for _, l := range m.mid {
		u32(l.word)
		f32(l.prob)
		f32(l.bo)
		u32(l.next)
	}
	if m.order > 1 {
		u32(m.long.word)
		f32(m.long.prob)
	}
	if int64(len(b)) != size {
		return fmt.Errorf("lm: internal error: wrote %d bytes of a %d-byte binary model", len(b), size)
	}
	le.PutUint32(b[24:], binarySum(b))
	_, err := w.Write(b)
	return err
}

// littleEndian reports whether this machine stores numbers little-endian,
// as the binary form does; the arrays are then used in place.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// unigramInPlace reports whether unigram's memory layout is the file's
// 12-byte record.
var unigramInPlace = unsafe.Sizeof(unigram{}) == 12 && unsafe.Offsetof(unigram{}.bo) == 4 && unsafe.Offsetof(unigram{}.next) == 8

// ParseBinary reads a model in the compact binary form written by
// [Model.WriteBinary] and returns it with the source record stored in it.
// The file's magic, version, size, checksum and structure (counts, word
// ids, pointers within their levels, finite scores) are all checked,
// so a truncated, corrupt or foreign file is an error, never a model.
// name labels errors.
//
// On a little-endian machine the model's arrays are data itself (the
// n-grams cost no allocation); data must not be changed afterwards. data
// is copied once when it is not 4-byte aligned.
func ParseBinary(name string, data []byte) (*Model, string, error) {
	inPlace := littleEndian && unigramInPlace
	if inPlace && len(data) > 0 && uintptr(unsafe.Pointer(&data[0]))%4 != 0 {
		a := make([]uint32, (len(data)+3)/4)
		c := unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), len(data))
		copy(c, data)
		data = c
	}
	return parseBinary(name, data, inPlace)
}

// parseBinary is ParseBinary; inPlace says whether the arrays may alias
// data (which must then be 4-byte aligned) or are decoded into copies.
func parseBinary(name string, data []byte, inPlace bool) (*Model, string, error) {
	fail := func(format string, args ...any) (*Model, string, error) {
		return nil, "", fmt.Errorf("lm: %s: "+format, append([]any{name}, args...)...)
	}
	if !IsBinary(data) {
		return fail("not a binary language model (no %q magic)", binaryMagic)
	}
	if len(data) < binaryHeader {
		return fail("truncated header (%d bytes)", len(data))
	}
	le := binary.LittleEndian
	if v := le.Uint32(data[8:]); v != binaryVersion {
		return fail("binary format version %d (this program reads version %d)", v, binaryVersion)
	}
	order := int(le.Uint32(data[12:]))
	if order < 1 || order > 6 {
		return fail("order %d unsupported (want 1 to 6)", order)
	}
	if size := le.Uint64(data[16:]); size != uint64(len(data)) {
		return fail("%d bytes; the header says %d (truncated or extended)", len(data), size)
	}
	if sum, want := binarySum(data), le.Uint32(data[24:]); sum != want {
		return fail("checksum %08x; the header says %08x (corrupt)", sum, want)
	}
	source := int64(le.Uint32(data[28:]))
	if source > maxSource {
		return fail("source record of %d bytes (at most %d)", source, maxSource)
	}
	var counts [6]int64
	for k := range counts {
		c := int64(le.Uint32(data[32+4*k:]))
		if c >= maxEntries {
			return fail("%d %d-grams: too many", c, k+1)
		}
		if k >= order && c != 0 {
			return fail("%d %d-grams in an order-%d model", c, k+1, order)
		}
		counts[k] = c
	}
	if counts[0] == 0 {
		return fail("no unigrams")
	}
	spell := int64(le.Uint32(data[56:]))
	// Sections, checked against the size before any is sliced.
	p := int64(binaryHeader)
	var sec [][]byte
	for _, s := range binaryLayout(order, counts, source, spell) {
		if p+pad8(s) > int64(len(data)) {
			return fail("sections need more than the file's %d bytes", len(data))
		}
		sec = append(sec, data[p:p+s])
		p += pad8(s)
	}
	if p != int64(len(data)) {
		return fail("%d bytes after the last section", int64(len(data))-p)
	}
	u32 := func(b []byte) []uint32 {
		if len(b) == 0 {
			return []uint32{}
		}
		if inPlace {
			return unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), len(b)/4)
		}
		v := make([]uint32, len(b)/4)
		for i := range v {
			v[i] = le.Uint32(b[4*i:])
		}
		return v
	}
	f32 := func(b []byte) []float32 {
		if len(b) == 0 {
			return []float32{}
		}
		if inPlace {
			return unsafe.Slice((*float32)(unsafe.Pointer(&b[0])), len(b)/4)
		}
		v := make([]float32, len(b)/4)
		for i := range v {
			v[i] = math.Float32frombits(le.Uint32(b[4*i:]))
		}
		return v
	}
	finite := func(v []float32) bool {
		for _, x := range v {
			if x-x != 0 { // NaN or ±Inf
				return false
			}
		}
		return true
	}
	m := &Model{order: order}
	src := string(sec[0])
	// Words: one string holds every spelling; each word is a slice of it.
	ends := u32(sec[1])
	all := string(sec[2])
	m.words = make([]string, len(ends))
	start := uint32(0)
	for i, e := range ends {
		if e < start || int64(e) > spell {
			return fail("word %d ends at byte %d (previous %d, %d bytes)", i, e, start, spell)
		}
		m.words[i] = all[start:e]
		start = e
	}
	if int64(start) != spell {
		return fail("the words use %d of %d spelling bytes", start, spell)
	}
	if u := sec[3]; inPlace {
		m.uni = unsafe.Slice((*unigram)(unsafe.Pointer(&u[0])), counts[0]+1)
	} else {
		m.uni = make([]unigram, counts[0]+1)
		for i := range m.uni {
			r := u[12*i:]
			m.uni[i] = unigram{math.Float32frombits(le.Uint32(r)), math.Float32frombits(le.Uint32(r[4:])), le.Uint32(r[8:])}
		}
	}
	for i, u := range m.uni {
		if x, y := u.prob-u.prob, u.bo-u.bo; x != 0 || y != 0 {
			return fail("unigram %d: score %v, back-off %v", i, u.prob, u.bo)
		}
	}
	s := sec[4:]
	for k := 2; k <= order; k++ {
		if k < order {
			l := middle{word: u32(s[0]), prob: f32(s[1]), bo: f32(s[2]), next: u32(s[3])}
			if !finite(l.prob) || !finite(l.bo) {
				return fail("a %d-gram score is not a finite number", k)
			}
			m.mid = append(m.mid, l)
			s = s[4:]
			continue
		}
		m.long = longest{word: u32(s[0]), prob: f32(s[1])}
		if !finite(m.long.prob) {
			return fail("a %d-gram score is not a finite number", k)
		}
	}
	if err := m.checkBinary(name); err != nil {
		return nil, "", err
	}
	return m, src, nil
}

// checkBinary finishes a model read from the binary form: the checks of
// build (pointers non-decreasing and within the next level, word ids in
// range), and also that each level is reached in full from the one below.
// The order of a parent's children is not checked: the lookups' binary
// search needs it only to find an n-gram, not to stay in range, and a
// model is written as it was read (Debian's en-us.lm.bin holds two pairs
// of trigrams out of order, kept so).
func (m *Model) checkBinary(name string) error {
	if err := m.build(name); err != nil {
		return err
	}
	for k := 2; k <= m.order; k++ {
		var first, last uint32
		size := len(m.long.word)
		if k < m.order {
			size = len(m.mid[k-2].word)
		}
		if k == 2 {
			first, last = m.uni[0].next, m.uni[len(m.uni)-1].next
		} else {
			next := m.mid[k-3].next
			first, last = next[0], next[len(next)-1]
		}
		if first != 0 || int(last) != size {
			return fmt.Errorf("lm: %s: the %d-grams reached are [%d, %d) of %d", name, k, first, last, size)
		}
	}
	return nil
}
