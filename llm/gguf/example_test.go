package gguf_test

import (
	"bytes"
	"fmt"

	"github.com/sottolabs/sotto/internal/tensor"
	"github.com/sottolabs/sotto/llm/gguf"
)

// Writing a GGUF file with one metadata pair and one tensor, and reading it
// back.
func ExampleParse() {
	w := &gguf.Writer{}
	w.AddKV("general.architecture", "llama")
	w.AddTensor("v", tensor.F32, []uint64{2}, []byte{0, 0, 128, 63, 0, 0, 0, 64}) // 1, 2
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		panic(err)
	}
	f, err := gguf.Parse(buf.Bytes())
	if err != nil {
		panic(err)
	}
	t, _ := f.Tensor("v")
	fmt.Println(f.Architecture(), t.Type, t.Dims, t.Size(), f.DataOffset%32)
	// Output: llama F32 [2] 8 0
}
