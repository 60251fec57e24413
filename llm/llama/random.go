package llama

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/sottolabs/sotto/internal/tensor"
	"github.com/sottolabs/sotto/llm/gguf"
)

// RandomSpec describes a model with random weights, for tests and
// benchmarks: the shapes of a real architecture without a real model's
// download.
type RandomSpec struct {
	Arch                                string // "llama", "qwen2", "qwen3"
	Dim, Hidden, Layers, Heads, KVHeads int
	HeadDim, Vocab, Context             int
	Type                                tensor.DType // of every matrix
	OutType                             tensor.DType // of output.weight; F32 (0) means tied to the embedding
	Bias, QKNorm                        bool         // q/k/v biases (Qwen2), q/k norms (Qwen3)
	Seed                                uint64
}

// Params returns the number of weights.
func (s *RandomSpec) Params() int {
	q, kv := s.Heads*s.HeadDim, s.KVHeads*s.HeadDim
	n := s.Vocab * s.Dim
	if s.OutType != 0 {
		n *= 2
	}
	return n + s.Layers*(s.Dim*(q+2*kv)+q*s.Dim+3*s.Dim*s.Hidden)
}

// WriteRandomGGUF writes a GGUF file with the spec's shapes, random weights
// and a SentencePiece vocabulary of placeholder pieces (<unk>, <s>, </s>,
// the 256 byte pieces, then "▁tN"; vocabularies under 260 tokens get none),
// so that other GGUF runtimes load it too.
func WriteRandomGGUF(out io.Writer, s RandomSpec) error {
	r := rand.New(rand.NewPCG(s.Seed, 99))
	w := &gguf.Writer{}
	a := s.Arch
	w.AddKV("general.architecture", a)
	w.AddKV("general.name", fmt.Sprintf("random-%s-%v", a, s.Type))
	w.AddKV(a+".context_length", uint32(s.Context))
	w.AddKV(a+".embedding_length", uint32(s.Dim))
	w.AddKV(a+".block_count", uint32(s.Layers))
	w.AddKV(a+".feed_forward_length", uint32(s.Hidden))
	w.AddKV(a+".attention.head_count", uint32(s.Heads))
	w.AddKV(a+".attention.head_count_kv", uint32(s.KVHeads))
	w.AddKV(a+".attention.key_length", uint32(s.HeadDim))
	w.AddKV(a+".attention.value_length", uint32(s.HeadDim))
	w.AddKV(a+".rope.dimension_count", uint32(s.HeadDim))
	w.AddKV(a+".attention.layer_norm_rms_epsilon", float32(1e-6))
	w.AddKV(a+".rope.freq_base", float32(1e6))
	if s.Vocab >= 260 {
		tokens := make([]string, s.Vocab)
		scores := make([]float32, s.Vocab)
		types := make([]int32, s.Vocab)
		for i := range tokens {
			switch {
			case i == 0:
				tokens[i], types[i] = "<unk>", 2
			case i == 1:
				tokens[i], types[i] = "<s>", 3
			case i == 2:
				tokens[i], types[i] = "</s>", 3
			case i < 259:
				tokens[i], types[i] = fmt.Sprintf("<0x%02X>", i-3), 6
			default:
				tokens[i], types[i] = fmt.Sprintf("▁t%d", i), 1
				scores[i] = -float32(i)
			}
		}
		w.AddKV("tokenizer.ggml.model", "llama")
		w.AddKV("tokenizer.ggml.tokens", tokens)
		w.AddKV("tokenizer.ggml.scores", scores)
		w.AddKV("tokenizer.ggml.token_type", types)
		w.AddKV("tokenizer.ggml.bos_token_id", uint32(1))
		w.AddKV("tokenizer.ggml.eos_token_id", uint32(2))
		w.AddKV("tokenizer.ggml.unknown_token_id", uint32(0))
	}
	u := func(n int) uint64 { return uint64(n) }
	mat := func(name string, typ tensor.DType, rows, cols int, scale float64) {
		w.AddTensor(name, typ, []uint64{u(cols), u(rows)}, tensor.RandomData(typ, rows*cols, scale, r))
	}
	vec := func(name string, n int, mean, scale float64) {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(mean + scale*r.NormFloat64())
		}
		w.AddTensor(name, tensor.F32, []uint64{u(n)}, f32bytes(v))
	}
	q, kv := s.Heads*s.HeadDim, s.KVHeads*s.HeadDim
	isq := func(n int) float64 { return 1 / math.Sqrt(float64(n)) }
	mat("token_embd.weight", s.Type, s.Vocab, s.Dim, 1)
	for l := range s.Layers {
		p := fmt.Sprintf("blk.%d.", l)
		vec(p+"attn_norm.weight", s.Dim, 1, 0.1)
		mat(p+"attn_q.weight", s.Type, q, s.Dim, isq(s.Dim))
		mat(p+"attn_k.weight", s.Type, kv, s.Dim, isq(s.Dim))
		mat(p+"attn_v.weight", s.Type, kv, s.Dim, isq(s.Dim))
		mat(p+"attn_output.weight", s.Type, s.Dim, q, isq(q))
		if s.Bias {
			vec(p+"attn_q.bias", q, 0, 0.1)
			vec(p+"attn_k.bias", kv, 0, 0.1)
			vec(p+"attn_v.bias", kv, 0, 0.1)
		}
		if s.QKNorm {
			vec(p+"attn_q_norm.weight", s.HeadDim, 1, 0.1)
			vec(p+"attn_k_norm.weight", s.HeadDim, 1, 0.1)
		}
		vec(p+"ffn_norm.weight", s.Dim, 1, 0.1)
		mat(p+"ffn_gate.weight", s.Type, s.Hidden, s.Dim, isq(s.Dim))
		mat(p+"ffn_up.weight", s.Type, s.Hidden, s.Dim, isq(s.Dim))
		mat(p+"ffn_down.weight", s.Type, s.Dim, s.Hidden, isq(s.Hidden))
	}
	vec("output_norm.weight", s.Dim, 1, 0.1)
	if s.OutType != 0 {
		mat("output.weight", s.OutType, s.Vocab, s.Dim, isq(s.Dim))
	}
	_, err := w.WriteTo(out)
	return err
}
