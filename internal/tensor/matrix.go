package tensor

import (
	"fmt"
	"unsafe"
)

// Matrix is a row-major weight matrix of Rows rows of Cols elements of
// type Type, stored as GGML stores it: each row a whole number of blocks.
// Data is read, never modified; it may be memory-mapped.
type Matrix struct {
	Type     DType
	Rows     int
	Cols     int
	Data     []byte
	rowBytes int
}

// NewMatrix checks that data holds rows×cols elements of type t and returns
// the matrix over it (not copied, except float32 data that is not 4-byte
// aligned).
func NewMatrix(t DType, rows, cols int, data []byte) (*Matrix, error) {
	rb, err := t.RowBytes(cols)
	if err != nil {
		return nil, err
	}
	if rows < 0 || (rb != 0 && rows > len(data)/rb) || rows*rb != len(data) {
		return nil, fmt.Errorf("tensor: %d×%d %v matrix needs %d bytes, have %d", rows, cols, t, rows*rb, len(data))
	}
	if t == F32 && len(data) > 0 && uintptr(unsafe.Pointer(&data[0]))%4 != 0 {
		data = append(make([]byte, 0, len(data)+4), data...)
	}
	return &Matrix{Type: t, Rows: rows, Cols: cols, Data: data, rowBytes: rb}, nil
}

// RowBytes returns the size of one row in bytes.
func (m *Matrix) RowBytes() int { return m.rowBytes }

// Row returns the stored bytes of row i.
func (m *Matrix) Row(i int) []byte { return m.Data[i*m.rowBytes : (i+1)*m.rowBytes] }

// DequantizeRow converts row i to float32 into dst (length Cols).
func (m *Matrix) DequantizeRow(i int, dst []float32) { Dequantize(m.Type, m.Row(i), dst[:m.Cols]) }

// Quantized reports whether m's rows are read against the 8-bit form of the
// activation (Activation.Q) rather than its float32 values.
func (m *Matrix) Quantized() bool {
	switch m.Type {
	case F32, F16, BF16:
		return false
	}
	return true
}

// rowDotter returns the kernel computing one row of m against an
// activation.
func (m *Matrix) rowDotter() func(w []byte, a *Activation) float32 {
	switch m.Type {
	case F32:
		return dotRowF32
	case F16:
		return dotRowF16
	case BF16:
		return dotRowBF16
	case Q8_0:
		return active.dotQ8_0
	case Q4_0:
		return active.dotQ4_0
	case Q4_K:
		return active.dotQ4_K
	case Q5_K:
		return active.dotQ5_K
	case Q6_K:
		return active.dotQ6_K
	case Q5_0:
		return dotQ5_0 // q5.go
	case Q5_1:
		return dotQ5_1
	}
	panic("tensor: unsupported type " + m.Type.String())
}

func dotRowF32(w []byte, a *Activation) float32  { return active.dotF32(f32s(w), a.F) }
func dotRowF16(w []byte, a *Activation) float32  { return active.dotF16(w, a.F) }
func dotRowBF16(w []byte, a *Activation) float32 { return active.dotBF16(w, a.F) }

// DotRow returns the dot product of row i of m and the activation a.
func (m *Matrix) DotRow(i int, a *Activation) float32 {
	m.check(a)
	return m.rowDotter()(m.Row(i), a)
}

func (m *Matrix) check(a *Activation) {
	if len(a.F) != m.Cols {
		panic(fmt.Sprintf("tensor: %d-column matrix times %d-vector", m.Cols, len(a.F)))
	}
	if m.Quantized() && len(a.Q) != m.Cols {
		panic("tensor: quantized matrix times an activation not quantized")
	}
	switch m.Type {
	case Q4_K, Q5_K, Q6_K:
		if len(a.QK) != m.Cols {
			panic("tensor: K-quant matrix times an activation without its 256-block quantization")
		}
	}
}
