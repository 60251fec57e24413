package gguf

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/sottolabs/sotto/internal/mmap"
	"github.com/sottolabs/sotto/internal/tensor"
)

// ErrFormat is wrapped by every error about a malformed or unsupported file.
var ErrFormat = errors.New("gguf: malformed file")

// Magic is the first four bytes of a GGUF file.
const Magic = "GGUF"

// DefaultAlignment is the tensor data alignment when general.alignment is
// absent.
const DefaultAlignment = 32

// ValueType is the type tag of a metadata value.
type ValueType uint32

// The metadata value types.
const (
	TypeUint8 ValueType = iota
	TypeInt8
	TypeUint16
	TypeInt16
	TypeUint32
	TypeInt32
	TypeFloat32
	TypeBool
	TypeString
	TypeArray
	TypeUint64
	TypeInt64
	TypeFloat64
)

// KV is one metadata pair. Value holds the Go type matching the GGUF type:
// uint8, int8, uint16, int16, uint32, int32, float32, bool, string, uint64,
// int64, float64, or a slice of one of them for arrays ([]string for string
// arrays). Arrays of arrays are read as []any.
type KV struct {
	Key   string
	Value any
}

// TensorInfo describes one tensor. Dims lists the extents fastest-varying
// first (GGML's ne[0], ne[1], ...): a matrix with rows of n elements has
// Dims[0] == n.
type TensorInfo struct {
	Name   string
	Dims   []uint64
	Type   tensor.DType
	Offset uint64 // from the start of the data section
	size   uint64
}

// Elements returns the number of elements.
func (t *TensorInfo) Elements() uint64 {
	n := uint64(1)
	for _, d := range t.Dims {
		n *= d
	}
	return n
}

// Size returns the size of the tensor's data in bytes.
func (t *TensorInfo) Size() uint64 { return t.size }

// File is a parsed GGUF file. Its methods are safe for concurrent use; the
// data returned by Data stays valid until Close.
type File struct {
	Version   uint32
	KV        []KV
	Tensors   []TensorInfo
	Alignment int
	// DataOffset is the file offset of the tensor data section.
	DataOffset int64

	kv      map[string]int
	tensors map[string]int
	buf     []byte
	unmap   func() error
}

// typeInfo gives elements per block and bytes per block of the GGML tensor
// types a file may hold, including ones this module cannot compute with.
var typeInfo = map[tensor.DType][2]uint64{
	0: {1, 4}, 1: {1, 2}, 2: {32, 18}, 3: {32, 20}, 6: {32, 22}, 7: {32, 24},
	8: {32, 34}, 9: {32, 36}, 10: {256, 84}, 11: {256, 110}, 12: {256, 144},
	13: {256, 176}, 14: {256, 210}, 15: {256, 292}, 24: {1, 1}, 25: {1, 2},
	26: {1, 4}, 27: {1, 8}, 28: {1, 8}, 30: {1, 2}, 34: {256, 54}, 35: {256, 66},
}

// TensorSize returns the byte size of a tensor of type t with the given
// dimensions, or an error if t is unknown, the row is not a whole number of
// blocks, or the size overflows.
func TensorSize(t tensor.DType, dims []uint64) (uint64, error) {
	ti, ok := typeInfo[t]
	if !ok {
		return 0, fmt.Errorf("%w: unknown tensor type %d", ErrFormat, uint32(t))
	}
	if len(dims) == 0 || len(dims) > 4 {
		return 0, fmt.Errorf("%w: tensor rank %d (want 1–4)", ErrFormat, len(dims))
	}
	if dims[0]%ti[0] != 0 {
		return 0, fmt.Errorf("%w: row of %d elements is not a whole number of %d-element %v blocks", ErrFormat, dims[0], ti[0], t)
	}
	size := dims[0] / ti[0] * ti[1]
	for _, d := range dims[1:] {
		if d != 0 && size > math.MaxInt64/d {
			return 0, fmt.Errorf("%w: tensor size overflows", ErrFormat)
		}
		size *= d
	}
	return size, nil
}

// Parse reads a GGUF file held in memory. The File refers to buf, which
// must not be modified while the File is in use.
func Parse(buf []byte) (*File, error) {
	d := decoder{b: buf}
	if len(buf) < 4 || string(buf[:4]) != Magic {
		return nil, fmt.Errorf("%w: no GGUF magic", ErrFormat)
	}
	d.off = 4
	f := &File{buf: buf, kv: map[string]int{}, tensors: map[string]int{}, Alignment: DefaultAlignment}
	f.Version = d.u32()
	if d.err == nil && (f.Version < 2 || f.Version > 3) {
		return nil, fmt.Errorf("%w: version %d (want 2 or 3)", ErrFormat, f.Version)
	}
	nt, nkv := d.u64(), d.u64()
	if d.err != nil {
		return nil, d.err
	}
	// Every pair and tensor info takes at least 12 bytes.
	if nkv > uint64(len(buf))/12 || nt > uint64(len(buf))/12 {
		return nil, fmt.Errorf("%w: %d metadata pairs and %d tensors cannot fit in %d bytes", ErrFormat, nkv, nt, len(buf))
	}
	f.KV = make([]KV, 0, nkv)
	for range nkv {
		k := d.str()
		v := d.value(ValueType(d.u32()), 0)
		if d.err != nil {
			return nil, d.err
		}
		if _, dup := f.kv[k]; dup {
			return nil, fmt.Errorf("%w: duplicate key %q", ErrFormat, k)
		}
		f.kv[k] = len(f.KV)
		f.KV = append(f.KV, KV{k, v})
	}
	if i, ok := f.kv["general.alignment"]; ok {
		a, ok := f.KV[i].Value.(uint32)
		if !ok || a == 0 || a&(a-1) != 0 || a > 1<<20 {
			return nil, fmt.Errorf("%w: general.alignment %v is not a power of two uint32", ErrFormat, f.KV[i].Value)
		}
		f.Alignment = int(a)
	}
	f.Tensors = make([]TensorInfo, 0, nt)
	for range nt {
		var t TensorInfo
		t.Name = d.str()
		nd := d.u32()
		if d.err == nil && (nd == 0 || nd > 4) {
			return nil, fmt.Errorf("%w: tensor %q has rank %d (want 1–4)", ErrFormat, t.Name, nd)
		}
		for range nd {
			t.Dims = append(t.Dims, d.u64())
		}
		t.Type = tensor.DType(d.u32())
		t.Offset = d.u64()
		if d.err != nil {
			return nil, d.err
		}
		size, err := TensorSize(t.Type, t.Dims)
		if err != nil {
			return nil, fmt.Errorf("tensor %q: %w", t.Name, err)
		}
		t.size = size
		if _, dup := f.tensors[t.Name]; dup {
			return nil, fmt.Errorf("%w: duplicate tensor %q", ErrFormat, t.Name)
		}
		f.tensors[t.Name] = len(f.Tensors)
		f.Tensors = append(f.Tensors, t)
	}
	al := uint64(f.Alignment)
	start := (uint64(d.off) + al - 1) / al * al
	if len(f.Tensors) > 0 && start > uint64(len(buf)) {
		return nil, fmt.Errorf("%w: data section starts past the end of the file", ErrFormat)
	}
	f.DataOffset = int64(start)
	avail := uint64(0)
	if start < uint64(len(buf)) {
		avail = uint64(len(buf)) - start
	}
	order := make([]int, len(f.Tensors))
	for i := range order {
		t := &f.Tensors[i]
		order[i] = i
		if t.Offset%al != 0 {
			return nil, fmt.Errorf("%w: tensor %q offset %d is not a multiple of the alignment %d", ErrFormat, t.Name, t.Offset, al)
		}
		if t.Offset > avail || t.size > avail-t.Offset {
			return nil, fmt.Errorf("%w: tensor %q (%d bytes at %d) lies past the end of the file", ErrFormat, t.Name, t.size, t.Offset)
		}
	}
	sort.Slice(order, func(a, b int) bool { return f.Tensors[order[a]].Offset < f.Tensors[order[b]].Offset })
	for i := 1; i < len(order); i++ {
		p, q := &f.Tensors[order[i-1]], &f.Tensors[order[i]]
		if p.Offset+p.size > q.Offset {
			return nil, fmt.Errorf("%w: tensors %q and %q overlap", ErrFormat, p.Name, q.Name)
		}
	}
	return f, nil
}

// Open reads the GGUF file at path, memory-mapping it where the operating
// system allows and reading it whole otherwise.
func Open(path string) (*File, error) {
	buf, unmap, err := mmap.File(path)
	if errors.Is(err, mmap.ErrEmpty) {
		return nil, fmt.Errorf("%w: %v", ErrFormat, err)
	}
	if err != nil {
		return nil, err
	}
	f, err := Parse(buf)
	if err != nil {
		if unmap != nil {
			unmap()
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.unmap = unmap
	return f, nil
}

// Close releases the file's memory. Data returned earlier must not be used
// afterwards.
func (f *File) Close() error {
	f.buf = nil
	if f.unmap != nil {
		u := f.unmap
		f.unmap = nil
		return u()
	}
	return nil
}

// Data returns the bytes of tensor t (read-only).
func (f *File) Data(t *TensorInfo) []byte {
	s := uint64(f.DataOffset) + t.Offset
	return f.buf[s : s+t.size : s+t.size]
}

// Tensor returns the tensor named name.
func (f *File) Tensor(name string) (*TensorInfo, bool) {
	i, ok := f.tensors[name]
	if !ok {
		return nil, false
	}
	return &f.Tensors[i], true
}

// Value returns the metadata value of key.
func (f *File) Value(key string) (any, bool) {
	i, ok := f.kv[key]
	if !ok {
		return nil, false
	}
	return f.KV[i].Value, true
}

// String returns a string value.
func (f *File) String(key string) (string, bool) {
	v, ok := f.Value(key)
	s, ok2 := v.(string)
	return s, ok && ok2
}

// Uint returns an unsigned or non-negative signed integer value of any width.
func (f *File) Uint(key string) (uint64, bool) {
	v, ok := f.Value(key)
	if !ok {
		return 0, false
	}
	switch x := v.(type) {
	case uint8:
		return uint64(x), true
	case uint16:
		return uint64(x), true
	case uint32:
		return uint64(x), true
	case uint64:
		return x, true
	case int8, int16, int32, int64:
		i := toInt(x)
		return uint64(i), i >= 0
	}
	return 0, false
}

func toInt(v any) int64 {
	switch x := v.(type) {
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int64:
		return x
	}
	return 0
}

// Float returns a floating-point value (float32 or float64).
func (f *File) Float(key string) (float64, bool) {
	v, ok := f.Value(key)
	switch x := v.(type) {
	case float32:
		return float64(x), ok
	case float64:
		return x, ok
	}
	return 0, false
}

// Bool returns a boolean value.
func (f *File) Bool(key string) (bool, bool) {
	v, ok := f.Value(key)
	b, ok2 := v.(bool)
	return b, ok && ok2
}

// Strings returns a string array.
func (f *File) Strings(key string) ([]string, bool) {
	v, ok := f.Value(key)
	s, ok2 := v.([]string)
	return s, ok && ok2
}

// Float32s returns a float32 array.
func (f *File) Float32s(key string) ([]float32, bool) {
	v, ok := f.Value(key)
	s, ok2 := v.([]float32)
	return s, ok && ok2
}

// Int32s returns an int32 array (uint32 and int32 arrays).
func (f *File) Int32s(key string) ([]int32, bool) {
	v, ok := f.Value(key)
	switch s := v.(type) {
	case []int32:
		return s, ok
	case []uint32:
		out := make([]int32, len(s))
		for i, x := range s {
			out[i] = int32(x)
		}
		return out, ok
	}
	return nil, false
}

// Architecture returns general.architecture, or "" when absent.
func (f *File) Architecture() string { s, _ := f.String("general.architecture"); return s }

type decoder struct {
	b   []byte
	off int
	err error
}

func (d *decoder) need(n uint64) bool {
	if d.err != nil {
		return false
	}
	if n > uint64(len(d.b)-d.off) {
		d.err = fmt.Errorf("%w: truncated at byte %d (need %d more)", ErrFormat, d.off, n)
		return false
	}
	return true
}

func (d *decoder) u8() uint8 {
	if !d.need(1) {
		return 0
	}
	d.off++
	return d.b[d.off-1]
}

func (d *decoder) u16() uint16 {
	if !d.need(2) {
		return 0
	}
	d.off += 2
	return binary.LittleEndian.Uint16(d.b[d.off-2:])
}

func (d *decoder) u32() uint32 {
	if !d.need(4) {
		return 0
	}
	d.off += 4
	return binary.LittleEndian.Uint32(d.b[d.off-4:])
}

func (d *decoder) u64() uint64 {
	if !d.need(8) {
		return 0
	}
	d.off += 8
	return binary.LittleEndian.Uint64(d.b[d.off-8:])
}

func (d *decoder) str() string {
	n := d.u64()
	if !d.need(n) {
		return ""
	}
	s := string(d.b[d.off : d.off+int(n)])
	d.off += int(n)
	return s
}

// elemSize is the encoded size of a scalar type, 0 for strings and arrays.
var elemSize = [...]uint64{TypeUint8: 1, TypeInt8: 1, TypeUint16: 2, TypeInt16: 2, TypeUint32: 4,
	TypeInt32: 4, TypeFloat32: 4, TypeBool: 1, TypeString: 0, TypeArray: 0, TypeUint64: 8, TypeInt64: 8, TypeFloat64: 8}

func (d *decoder) value(t ValueType, depth int) any {
	switch t {
	case TypeUint8:
		return d.u8()
	case TypeInt8:
		return int8(d.u8())
	case TypeUint16:
		return d.u16()
	case TypeInt16:
		return int16(d.u16())
	case TypeUint32:
		return d.u32()
	case TypeInt32:
		return int32(d.u32())
	case TypeFloat32:
		return math.Float32frombits(d.u32())
	case TypeBool:
		b := d.u8()
		if b > 1 && d.err == nil {
			d.err = fmt.Errorf("%w: bool value %d", ErrFormat, b)
		}
		return b == 1
	case TypeString:
		return d.str()
	case TypeUint64:
		return d.u64()
	case TypeInt64:
		return int64(d.u64())
	case TypeFloat64:
		return math.Float64frombits(d.u64())
	case TypeArray:
		et := ValueType(d.u32())
		n := d.u64()
		if d.err != nil {
			return nil
		}
		if depth > 2 {
			d.err = fmt.Errorf("%w: arrays nested too deeply", ErrFormat)
			return nil
		}
		if int(et) >= len(elemSize) {
			d.err = fmt.Errorf("%w: array of unknown type %d", ErrFormat, et)
			return nil
		}
		least := elemSize[et]
		if least == 0 {
			least = 8 // strings and arrays take at least 8 bytes
		}
		if n > uint64(len(d.b)) || !d.need(n*least) {
			if d.err == nil {
				d.err = fmt.Errorf("%w: array of %d elements", ErrFormat, n)
			}
			return nil
		}
		return d.array(et, int(n), depth)
	}
	if d.err == nil {
		d.err = fmt.Errorf("%w: unknown value type %d", ErrFormat, t)
	}
	return nil
}

func (d *decoder) array(et ValueType, n, depth int) any {
	switch et {
	case TypeUint8:
		return fill(d, n, d.u8)
	case TypeInt8:
		return fill(d, n, func() int8 { return int8(d.u8()) })
	case TypeUint16:
		return fill(d, n, d.u16)
	case TypeInt16:
		return fill(d, n, func() int16 { return int16(d.u16()) })
	case TypeUint32:
		return fill(d, n, d.u32)
	case TypeInt32:
		return fill(d, n, func() int32 { return int32(d.u32()) })
	case TypeFloat32:
		return fill(d, n, func() float32 { return math.Float32frombits(d.u32()) })
	case TypeBool:
		return fill(d, n, func() bool { return d.value(TypeBool, depth).(bool) })
	case TypeString:
		return fill(d, n, d.str)
	case TypeUint64:
		return fill(d, n, d.u64)
	case TypeInt64:
		return fill(d, n, func() int64 { return int64(d.u64()) })
	case TypeFloat64:
		return fill(d, n, func() float64 { return math.Float64frombits(d.u64()) })
	case TypeArray:
		return fill(d, n, func() any { return d.value(TypeArray, depth+1) })
	}
	return nil
}

func fill[T any](d *decoder, n int, next func() T) []T {
	out := make([]T, 0, n)
	for range n {
		v := next()
		if d.err != nil {
			return nil
		}
		out = append(out, v)
	}
	return out
}

// Describe returns a short human-readable summary (architecture, counts).
func (f *File) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "GGUF v%d, %s, %d metadata pairs, %d tensors", f.Version, f.Architecture(), len(f.KV), len(f.Tensors))
	return b.String()
}
