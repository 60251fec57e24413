package onnx

// addModel returns a minimal ONNX model, y = a + b over float32 vectors of
// length n, encoded by hand (protobuf wire format) so that the test needs
// no model file and no protobuf library.
func addModel(n int64) []byte {
	varint := func(b []byte, v uint64) []byte {
		for v >= 0x80 {
			b = append(b, byte(v)|0x80)
			v >>= 7
		}
		return append(b, byte(v))
	}
	field := func(b []byte, num int, payload []byte) []byte { // length-delimited
		b = varint(b, uint64(num)<<3|2)
		b = varint(b, uint64(len(payload)))
		return append(b, payload...)
	}
	intField := func(b []byte, num int, v uint64) []byte {
		return varint(varint(b, uint64(num)<<3), v)
	}
	str := func(s string) []byte { return []byte(s) }
	valueInfo := func(name string) []byte {
		dim := intField(nil, 1, uint64(n))             // Dimension.dim_value
		shape := field(nil, 1, dim)                    // TensorShapeProto.dim
		tensor := intField(nil, 1, 1)                  // TypeProto.Tensor.elem_type = FLOAT
		tensor = field(tensor, 2, shape)               // .shape
		typ := field(nil, 1, tensor)                   // TypeProto.tensor_type
		return field(field(nil, 1, str(name)), 2, typ) // ValueInfoProto{name, type}
	}
	node := field(nil, 1, str("a"))
	node = field(node, 1, str("b"))
	node = field(node, 2, str("y"))
	node = field(node, 4, str("Add"))
	graph := field(nil, 1, node)
	graph = field(graph, 2, str("add"))
	graph = field(graph, 11, valueInfo("a"))
	graph = field(graph, 11, valueInfo("b"))
	graph = field(graph, 12, valueInfo("y"))
	opset := intField(field(nil, 1, nil), 2, 13)
	model := intField(nil, 1, 8) // ir_version
	model = field(model, 7, graph)
	model = field(model, 8, opset)
	return model
}
