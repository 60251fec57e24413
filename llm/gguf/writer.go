package gguf

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/sottolabs/sotto/internal/tensor"
)

// Writer assembles a GGUF (version 3) file: add metadata and tensors, then
// call WriteTo. Tensor data is kept by reference until then.
type Writer struct {
	Alignment int // 0 means DefaultAlignment
	kv        []KV
	tensors   []TensorInfo
	data      [][]byte
	err       error
}

// AddKV adds a metadata pair. v must be one of the Go types listed at [KV]
// (int and float64 are accepted too and stored as int32 and float32 when
// they fit, otherwise int64 and float64) or a slice of them.
func (w *Writer) AddKV(key string, v any) {
	switch x := v.(type) {
	case int:
		if x == int(int32(x)) {
			v = int32(x)
		} else {
			v = int64(x)
		}
	case []int:
		s := make([]int32, len(x))
		for i, e := range x {
			s[i] = int32(e)
		}
		v = s
	}
	if _, err := valueType(v); err != nil && w.err == nil {
		w.err = fmt.Errorf("gguf: key %q: %w", key, err)
	}
	w.kv = append(w.kv, KV{key, v})
}

// AddTensor adds a tensor of type t with dims (fastest-varying first) and
// its data, which must have exactly the tensor's size.
func (w *Writer) AddTensor(name string, t tensor.DType, dims []uint64, data []byte) {
	size, err := TensorSize(t, dims)
	if err == nil && size != uint64(len(data)) {
		err = fmt.Errorf("has %d bytes of data, want %d", len(data), size)
	}
	if err != nil {
		if w.err == nil {
			w.err = fmt.Errorf("gguf: tensor %q: %w", name, err)
		}
		return
	}
	w.tensors = append(w.tensors, TensorInfo{Name: name, Dims: append([]uint64(nil), dims...), Type: t, size: size})
	w.data = append(w.data, data)
}

func valueType(v any) (ValueType, error) {
	switch v.(type) {
	case uint8:
		return TypeUint8, nil
	case int8:
		return TypeInt8, nil
	case uint16:
		return TypeUint16, nil
	case int16:
		return TypeInt16, nil
	case uint32:
		return TypeUint32, nil
	case int32:
		return TypeInt32, nil
	case float32:
		return TypeFloat32, nil
	case bool:
		return TypeBool, nil
	case string:
		return TypeString, nil
	case uint64:
		return TypeUint64, nil
	case int64:
		return TypeInt64, nil
	case float64:
		return TypeFloat64, nil
	case []uint8, []int8, []uint16, []int16, []uint32, []int32, []float32, []bool, []string, []uint64, []int64, []float64, []any:
		return TypeArray, nil
	}
	return 0, fmt.Errorf("unsupported value type %T", v)
}

type encoder struct {
	w   *bufio.Writer
	n   int64
	err error
}

func (e *encoder) bytes(b []byte) {
	if e.err != nil {
		return
	}
	m, err := e.w.Write(b)
	e.n += int64(m)
	e.err = err
}

func (e *encoder) u32(v uint32) { e.bytes(binary.LittleEndian.AppendUint32(nil, v)) }
func (e *encoder) u64(v uint64) { e.bytes(binary.LittleEndian.AppendUint64(nil, v)) }
func (e *encoder) str(s string) { e.u64(uint64(len(s))); e.bytes([]byte(s)) }

func (e *encoder) value(v any) {
	switch x := v.(type) {
	case uint8:
		e.bytes([]byte{x})
	case int8:
		e.bytes([]byte{byte(x)})
	case uint16:
		e.bytes(binary.LittleEndian.AppendUint16(nil, x))
	case int16:
		e.bytes(binary.LittleEndian.AppendUint16(nil, uint16(x)))
	case uint32:
		e.u32(x)
	case int32:
		e.u32(uint32(x))
	case float32:
		e.u32(math.Float32bits(x))
	case bool:
		b := byte(0)
		if x {
			b = 1
		}
		e.bytes([]byte{b})
	case string:
		e.str(x)
	case uint64:
		e.u64(x)
	case int64:
		e.u64(uint64(x))
	case float64:
		e.u64(math.Float64bits(x))
	case []uint8:
		arr(e, TypeUint8, x)
	case []int8:
		arr(e, TypeInt8, x)
	case []uint16:
		arr(e, TypeUint16, x)
	case []int16:
		arr(e, TypeInt16, x)
	case []uint32:
		arr(e, TypeUint32, x)
	case []int32:
		arr(e, TypeInt32, x)
	case []float32:
		arr(e, TypeFloat32, x)
	case []bool:
		arr(e, TypeBool, x)
	case []string:
		arr(e, TypeString, x)
	case []uint64:
		arr(e, TypeUint64, x)
	case []int64:
		arr(e, TypeInt64, x)
	case []float64:
		arr(e, TypeFloat64, x)
	case []any:
		// Arrays of arrays: the element type is that of the first element.
		et := TypeArray
		if len(x) > 0 {
			et, _ = valueType(x[0])
		}
		e.u32(uint32(et))
		e.u64(uint64(len(x)))
		for _, v := range x {
			if vt, _ := valueType(v); vt != et {
				e.err = fmt.Errorf("gguf: mixed array element types")
				return
			}
			e.value(v)
		}
	}
}

func arr[T any](e *encoder, t ValueType, s []T) {
	e.u32(uint32(t))
	e.u64(uint64(len(s)))
	for _, v := range s {
		e.value(v)
	}
}

// WriteTo writes the file. It reports the first error of the Add calls.
func (w *Writer) WriteTo(out io.Writer) (int64, error) {
	if w.err != nil {
		return 0, w.err
	}
	al := uint64(w.Alignment)
	if al == 0 {
		al = DefaultAlignment
	}
	e := &encoder{w: bufio.NewWriter(out)}
	e.bytes([]byte(Magic))
	e.u32(3)
	e.u64(uint64(len(w.tensors)))
	kv := w.kv
	if w.Alignment != 0 && w.Alignment != DefaultAlignment {
		kv = append(kv[:len(kv):len(kv)], KV{"general.alignment", uint32(al)})
	}
	e.u64(uint64(len(kv)))
	for _, p := range kv {
		e.str(p.Key)
		t, _ := valueType(p.Value)
		e.u32(uint32(t))
		e.value(p.Value)
	}
	var off uint64
	for i := range w.tensors {
		t := &w.tensors[i]
		off = (off + al - 1) / al * al
		t.Offset = off
		off += t.size
		e.str(t.Name)
		e.u32(uint32(len(t.Dims)))
		for _, d := range t.Dims {
			e.u64(d)
		}
		e.u32(uint32(t.Type))
		e.u64(t.Offset)
	}
	pad := func() {
		if r := uint64(e.n) % al; r != 0 {
			e.bytes(make([]byte, al-r))
		}
	}
	pad()
	for _, d := range w.data {
		pad()
		e.bytes(d)
	}
	if e.err == nil {
		e.err = e.w.Flush()
	}
	return e.n, e.err
}
