package whisper

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
)

// Writer writes a GGML Whisper file: [Writer.Header] once, then one
// [Writer.Tensor] per weight, then [Writer.Flush].
type Writer struct {
	w   *bufio.Writer
	err error
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: bufio.NewWriterSize(w, 1<<20)} }

func (w *Writer) write(p []byte) {
	if w.err == nil {
		_, w.err = w.w.Write(p)
	}
}

func (w *Writer) i32(v int) { w.write(binary.LittleEndian.AppendUint32(nil, uint32(int32(v)))) }

// Header writes the magic, h (the ftype field as h.FType + 1000 ×
// h.QntVersion, as whisper.cpp's quantizer stores it), the mel filters and
// the vocabulary.
func (w *Writer) Header(h Hparams, f Filters, vocab [][]byte) error {
	if f.NMel*f.NFFT != len(f.Data) {
		return fmt.Errorf("whisper: write: %d filter weights for %d×%d", len(f.Data), f.NMel, f.NFFT)
	}
	w.i32(Magic)
	for _, v := range []int{h.NVocab, h.NAudioCtx, h.NAudioState, h.NAudioHead, h.NAudioLayer,
		h.NTextCtx, h.NTextState, h.NTextHead, h.NTextLayer, h.NMels, int(h.FType) + qntVersionFactor*h.QntVersion} {
		w.i32(v)
	}
	w.i32(f.NMel)
	w.i32(f.NFFT)
	buf := make([]byte, 0, 4*len(f.Data))
	for _, v := range f.Data {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
	}
	w.write(buf)
	w.i32(len(vocab))
	for _, t := range vocab {
		w.i32(len(t))
		w.write(t)
	}
	return w.err
}

// Tensor writes one tensor record: dims count, name length, type, dims,
// name, then data, which must be exactly the size of the dims' elements
// of typ.
func (w *Writer) Tensor(name string, typ GGMLType, dims []int, data []byte) error {
	n := int64(1)
	for _, d := range dims {
		n *= int64(d)
	}
	size, err := typ.Size(n)
	if err != nil {
		return fmt.Errorf("whisper: write tensor %q: %w", name, err)
	}
	if size != int64(len(data)) {
		return fmt.Errorf("whisper: write tensor %q: %d bytes of data for %d elements of %v (want %d)", name, len(data), n, typ, size)
	}
	w.i32(len(dims))
	w.i32(len(name))
	w.i32(int(typ))
	for _, d := range dims {
		w.i32(d)
	}
	w.write([]byte(name))
	w.write(data)
	return w.err
}

// Flush writes any buffered data to the underlying writer.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	return w.w.Flush()
}
