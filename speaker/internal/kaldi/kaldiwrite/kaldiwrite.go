// Package kaldiwrite writes Kaldi's binary format for tests: the tiny
// networks and objects that the kaldi package's tests and the speakertest
// package build. It writes only what the kaldi package reads.
package kaldiwrite

import (
	"bytes"
	"encoding/binary"
)

// Writer appends Kaldi binary data: tokens end with a space, numbers carry
// their size byte, vectors and matrices an FV/FM tag.
type Writer struct{ bytes.Buffer }

// Token writes a token such as "<Nnet3>".
func (w *Writer) Token(s string) { w.WriteString(s + " ") }

// Int32 writes a 32-bit integer.
func (w *Writer) Int32(v int) {
	w.WriteByte(4)
	binary.Write(&w.Buffer, binary.LittleEndian, int32(v))
}

// Float32 writes v as a 32-bit float.
func (w *Writer) Float32(v float64) {
	w.WriteByte(4)
	binary.Write(&w.Buffer, binary.LittleEndian, float32(v))
}

// Float64 writes a 64-bit float.
func (w *Writer) Float64(v float64) {
	w.WriteByte(8)
	binary.Write(&w.Buffer, binary.LittleEndian, v)
}

// Bool writes T or F.
func (w *Writer) Bool(b bool) {
	if b {
		w.WriteByte('T')
	} else {
		w.WriteByte('F')
	}
}

// Vector writes a float vector.
func (w *Writer) Vector(v ...float32) {
	w.Token("FV")
	w.Int32(len(v))
	binary.Write(&w.Buffer, binary.LittleEndian, v)
}

// Matrix writes a rows × cols float matrix, v in row order.
func (w *Writer) Matrix(rows, cols int, v ...float32) {
	w.Token("FM")
	w.Int32(rows)
	w.Int32(cols)
	binary.Write(&w.Buffer, binary.LittleEndian, v)
}
