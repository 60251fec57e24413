package whisper

import (
	"fmt"
	"slices"
)

// TensorSpec is a weight the Whisper network needs: its name, GGML dims
// (row length first) and element type for a given file type.
type TensorSpec struct {
	Name string
	Dims []int
	Type GGMLType
}

// Specs returns every tensor a model with dimensions h needs, in the order
// [WriteRandom] writes them (whisper.cpp's loader accepts any order):
// encoder (positional embedding, the two
// convolutions, final layer norm, then each block), decoder (positional
// and token embeddings, final layer norm, then each block). The types are
// those whisper.cpp expects: F32 for biases, norms and positional
// embeddings, [FType.ConvType] for the convolution kernels and
// [FType.WeightType] for the matrices and the token embedding.
func Specs(h Hparams) []TensorSpec {
	w, _ := h.FType.WeightType()
	conv := h.FType.ConvType()
	var s []TensorSpec
	add := func(typ GGMLType, name string, dims ...int) {
		s = append(s, TensorSpec{Name: name, Dims: dims, Type: typ})
	}
	as, ts := h.NAudioState, h.NTextState
	add(TypeF32, "encoder.positional_embedding", as, h.NAudioCtx)
	add(conv, "encoder.conv1.weight", 3, h.NMels, as)
	add(TypeF32, "encoder.conv1.bias", 1, as)
	add(conv, "encoder.conv2.weight", 3, as, as)
	add(TypeF32, "encoder.conv2.bias", 1, as)
	add(TypeF32, "encoder.ln_post.weight", as)
	add(TypeF32, "encoder.ln_post.bias", as)
	block := func(prefix string, n int, cross bool) {
		add(TypeF32, prefix+".mlp_ln.weight", n)
		add(TypeF32, prefix+".mlp_ln.bias", n)
		add(w, prefix+".mlp.0.weight", n, 4*n)
		add(TypeF32, prefix+".mlp.0.bias", 4*n)
		add(w, prefix+".mlp.2.weight", 4*n, n)
		add(TypeF32, prefix+".mlp.2.bias", n)
		attn := []string{"attn"}
		if cross {
			attn = append(attn, "cross_attn")
		}
		for _, a := range attn {
			p := prefix + "." + a
			add(TypeF32, p+"_ln.weight", n)
			add(TypeF32, p+"_ln.bias", n)
			add(w, p+".query.weight", n, n)
			add(TypeF32, p+".query.bias", n)
			add(w, p+".key.weight", n, n)
			add(w, p+".value.weight", n, n)
			add(TypeF32, p+".value.bias", n)
			add(w, p+".out.weight", n, n)
			add(TypeF32, p+".out.bias", n)
		}
	}
	for i := range h.NAudioLayer {
		block(fmt.Sprintf("encoder.blocks.%d", i), as, false)
	}
	add(TypeF32, "decoder.positional_embedding", ts, h.NTextCtx)
	add(w, "decoder.token_embedding.weight", ts, h.NVocab)
	add(TypeF32, "decoder.ln.weight", ts)
	add(TypeF32, "decoder.ln.bias", ts)
	for i := range h.NTextLayer {
		block(fmt.Sprintf("decoder.blocks.%d", i), ts, true)
	}
	return s
}

// CheckTensors reports whether m holds exactly the tensors [Specs] lists
// for its dimensions, each with the expected shape and element type (as
// whisper.cpp's loader demands). A file without tensors fails it.
func (m *Model) CheckTensors() error {
	specs := Specs(m.Hparams)
	if len(m.Tensors) != len(specs) {
		return fmt.Errorf("%w: %d tensors (want %d)", ErrFormat, len(m.Tensors), len(specs))
	}
	for _, s := range specs {
		t, ok := m.Tensor(s.Name)
		if !ok {
			return fmt.Errorf("%w: missing tensor %q", ErrFormat, s.Name)
		}
		if !slices.Equal(t.Dims, s.Dims) {
			return fmt.Errorf("%w: tensor %q has dims %v (want %v)", ErrFormat, s.Name, t.Dims, s.Dims)
		}
		if t.Type != s.Type {
			return fmt.Errorf("%w: tensor %q has type %v (want %v)", ErrFormat, s.Name, t.Type, s.Type)
		}
	}
	return nil
}
