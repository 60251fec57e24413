// Package onnxtest writes small ONNX models for tests: a graph of standard
// operators with its initializers, inputs, outputs and metadata, encoded
// as the ONNX protobuf (ModelProto) by hand, so tests of the native
// backends need no Python and no downloaded model.
//
//	var g onnxtest.Graph
//	g.Input("x", onnxtest.Float, 1, onnxtest.Dynamic("N"))
//	g.InitFloat("k", nil, []float32{2})
//	g.Node("Mul", []string{"x", "k"}, "y")
//	g.Output("y", onnxtest.Float, 1, onnxtest.Dynamic("N"))
//	model := g.Model(13, map[string]string{"framework": "test"})
package onnxtest

import (
	"encoding/binary"
	"maps"
	"math"
	"slices"
)

// Element types of tensors (ONNX TensorProto.DataType).
const (
	Float = 1
	Int64 = 7
)

// Dim is one dimension of a tensor shape: a fixed size (an int) or a
// named dynamic size (Dynamic).
type Dim any

// Dynamic names a dimension whose size is given at run time.
type Dynamic string

// Graph accumulates the parts of one ONNX graph.
type Graph struct {
	nodes, inits, inputs, outputs [][]byte
}

// Attr is an encoded node attribute (AttrInt, AttrInts).
type Attr []byte

// AttrInt is an integer attribute.
func AttrInt(name string, v int64) Attr {
	a := field(nil, 1, []byte(name))
	a = intField(a, 3, uint64(v))
	return intField(a, 20, 2) // type INT
}

// AttrInts is an attribute holding a list of integers.
func AttrInts(name string, vs ...int64) Attr {
	a := field(nil, 1, []byte(name))
	for _, v := range vs {
		a = intField(a, 8, uint64(v))
	}
	return intField(a, 20, 7) // type INTS
}

// Node adds an operator with its inputs, one output and attributes.
func (g *Graph) Node(op string, in []string, out string, attrs ...Attr) {
	var n []byte
	for _, i := range in {
		n = field(n, 1, []byte(i))
	}
	n = field(n, 2, []byte(out))
	n = field(n, 4, []byte(op))
	for _, a := range attrs {
		n = field(n, 5, a)
	}
	g.nodes = append(g.nodes, n)
}

// InitFloat adds a float32 constant (dims nil: a scalar).
func (g *Graph) InitFloat(name string, dims []int64, vals []float32) {
	raw := make([]byte, 0, 4*len(vals))
	for _, v := range vals {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(v))
	}
	g.inits = append(g.inits, initializer(name, Float, dims, raw))
}

// InitInt64 adds an int64 constant (dims nil: a scalar).
func (g *Graph) InitInt64(name string, dims []int64, vals []int64) {
	raw := make([]byte, 0, 8*len(vals))
	for _, v := range vals {
		raw = binary.LittleEndian.AppendUint64(raw, uint64(v))
	}
	g.inits = append(g.inits, initializer(name, Int64, dims, raw))
}

// Input declares a graph input.
func (g *Graph) Input(name string, elem int, dims ...Dim) {
	g.inputs = append(g.inputs, valueInfo(name, elem, dims))
}

// Output declares a graph output.
func (g *Graph) Output(name string, elem int, dims ...Dim) {
	g.outputs = append(g.outputs, valueInfo(name, elem, dims))
}

// Model encodes the graph as a model of the given opset (IR version 8),
// with metadata_props from meta.
func (g *Graph) Model(opset int, meta map[string]string) []byte {
	var gr []byte
	for _, n := range g.nodes {
		gr = field(gr, 1, n)
	}
	gr = field(gr, 2, []byte("onnxtest"))
	for _, i := range g.inits {
		gr = field(gr, 5, i)
	}
	for _, i := range g.inputs {
		gr = field(gr, 11, i)
	}
	for _, o := range g.outputs {
		gr = field(gr, 12, o)
	}
	m := intField(nil, 1, 8) // ir_version
	m = field(m, 7, gr)
	m = field(m, 8, intField(field(nil, 1, nil), 2, uint64(opset)))
	for _, k := range slices.Sorted(maps.Keys(meta)) {
		m = field(m, 14, field(field(nil, 1, []byte(k)), 2, []byte(meta[k])))
	}
	return m
}

func initializer(name string, elem int, dims []int64, raw []byte) []byte {
	var t []byte
	for _, d := range dims {
		t = intField(t, 1, uint64(d))
	}
	t = intField(t, 2, uint64(elem))
	t = field(t, 8, []byte(name))
	return field(t, 9, raw)
}

func valueInfo(name string, elem int, dims []Dim) []byte {
	var shape []byte
	for _, d := range dims {
		var dim []byte
		switch d := d.(type) {
		case Dynamic:
			dim = field(nil, 2, []byte(d))
		case int:
			dim = intField(nil, 1, uint64(d))
		case int64:
			dim = intField(nil, 1, uint64(d))
		default:
			panic("onnxtest: a dimension is an int or a Dynamic")
		}
		shape = field(shape, 1, dim)
	}
	tensor := intField(nil, 1, uint64(elem))
	tensor = field(tensor, 2, shape)
	return field(field(nil, 1, []byte(name)), 2, field(nil, 1, tensor))
}

func varint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func field(b []byte, num int, payload []byte) []byte {
	b = varint(b, uint64(num)<<3|2)
	b = varint(b, uint64(len(payload)))
	return append(b, payload...)
}

func intField(b []byte, num int, v uint64) []byte { return varint(varint(b, uint64(num)<<3), v) }
