// Package gguf reads and writes GGUF files, the model format of GGML and
// llama.cpp: a header, typed metadata key/value pairs, tensor descriptions,
// and aligned tensor data.
//
//	import "github.com/sottolabs/sotto/llm/gguf"
//
//	f, err := gguf.Open("model.gguf") // memory-mapped where the OS allows
//	if err != nil { ... }
//	defer f.Close()
//	arch, _ := f.String("general.architecture")
//	if t, ok := f.Tensor("token_embd.weight"); ok {
//		data := f.Data(t) // t.Size() bytes, read-only
//		fmt.Println(arch, t.Dims, t.Type, len(data))
//	}
//
// # Validation
//
// Everything read from the file is checked before use: string and array
// lengths against the bytes left, tensor ranks (at most 4), dimension
// products against overflow, tensor types against the known GGML types,
// and every tensor's data against the alignment and the end of the file.
// A malformed file yields an error wrapping [ErrFormat], never a panic.
//
// # Writing
//
// [Writer] builds files with the same layout, for converters, tests and
// benchmarks.
package gguf
