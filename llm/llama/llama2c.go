package llama

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/sottolabs/sotto/internal/tensor"
	"github.com/sottolabs/sotto/llm/gguf"
	"github.com/sottolabs/sotto/llm/tokenizer"
)

// Llama2C is a checkpoint in the format of Karpathy's llama2.c: seven
// little-endian int32 (dim, hidden_dim, n_layers, n_heads, n_kv_heads,
// vocab_size, seq_len; a negative vocab_size means the classifier is not
// shared with the token embedding) followed by float32 weights, and a
// tokenizer.bin (int32 max_token_length, then per token a float32 score, an
// int32 length and the bytes).
type Llama2C struct {
	Config
	Shared bool
	// Weights in llama2.c order, each a float32 slice over the file.
	Embed, AttnNorm, Wq, Wk, Wv, Wo, FFNNorm, W1, W2, W3, OutNorm, Cls []float32
	Tokens                                                             []string // pieces as stored (spaces as ' ')
	Scores                                                             []float32
}

// ReadLlama2C reads a llama2.c checkpoint and its tokenizer file.
func ReadLlama2C(checkpoint, tokenizerPath string) (*Llama2C, error) {
	buf, err := os.ReadFile(checkpoint)
	if err != nil {
		return nil, err
	}
	c, err := parseLlama2C(buf)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", checkpoint, err)
	}
	tb, err := os.ReadFile(tokenizerPath)
	if err != nil {
		return nil, err
	}
	if c.Tokens, c.Scores, err = parseLlama2CTokenizer(tb, c.Vocab); err != nil {
		return nil, fmt.Errorf("%s: %w", tokenizerPath, err)
	}
	return c, nil
}

var errLlama2C = errors.New("llama2.c checkpoint")

func parseLlama2C(buf []byte) (*Llama2C, error) {
	if len(buf) < 28 {
		return nil, fmt.Errorf("%w: %d bytes, shorter than the header", errLlama2C, len(buf))
	}
	var h [7]int
	for i := range h {
		h[i] = int(int32(binary.LittleEndian.Uint32(buf[4*i:])))
	}
	c := &Llama2C{Config: Config{Arch: "llama", Dim: h[0], Hidden: h[1], Layers: h[2], Heads: h[3], KVHeads: h[4],
		Vocab: h[5], Context: h[6], RopeBase: 10000, NormEps: 1e-5}}
	c.Shared = c.Vocab > 0
	if c.Vocab < 0 {
		c.Vocab = -c.Vocab
	}
	const limit = 1 << 20
	for _, v := range h {
		if v == 0 || v < -limit || v > limit {
			return nil, fmt.Errorf("%w: implausible header %v", errLlama2C, h)
		}
	}
	if c.Dim <= 0 || c.Heads <= 0 || c.KVHeads <= 0 || c.Dim%c.Heads != 0 || c.Heads%c.KVHeads != 0 || c.Hidden <= 0 || c.Layers <= 0 || c.Context <= 0 {
		return nil, fmt.Errorf("%w: inconsistent header %v", errLlama2C, h)
	}
	c.HeadDim = c.Dim / c.Heads
	kv := c.KVHeads * c.HeadDim
	L := c.Layers
	floats := buf[28:]
	if len(floats)%4 != 0 {
		return nil, fmt.Errorf("%w: weights are not whole float32s", errLlama2C)
	}
	f := make([]float32, len(floats)/4)
	for i := range f {
		f[i] = math.Float32frombits(binary.LittleEndian.Uint32(floats[4*i:]))
	}
	off := 0
	take := func(n int) []float32 {
		if n > len(f)-off {
			off = len(f) + 1
			return nil
		}
		s := f[off : off+n : off+n]
		off += n
		return s
	}
	c.Embed = take(c.Vocab * c.Dim)
	c.AttnNorm = take(L * c.Dim)
	c.Wq = take(L * c.Dim * c.Dim)
	c.Wk = take(L * c.Dim * kv)
	c.Wv = take(L * c.Dim * kv)
	c.Wo = take(L * c.Dim * c.Dim)
	c.FFNNorm = take(L * c.Dim)
	c.W1 = take(L * c.Hidden * c.Dim)
	c.W2 = take(L * c.Dim * c.Hidden)
	c.W3 = take(L * c.Hidden * c.Dim)
	c.OutNorm = take(c.Dim)
	take(c.Context * c.HeadDim / 2) // freq_cis_real (unused)
	take(c.Context * c.HeadDim / 2) // freq_cis_imag (unused)
	c.Cls = c.Embed
	if !c.Shared {
		c.Cls = take(c.Vocab * c.Dim)
	}
	if off > len(f) {
		return nil, fmt.Errorf("%w: %d bytes of weights are too few for the header %v", errLlama2C, len(floats), h)
	}
	return c, nil
}

func parseLlama2CTokenizer(b []byte, vocab int) ([]string, []float32, error) {
	if len(b) < 4 {
		return nil, nil, fmt.Errorf("llama2.c tokenizer: truncated")
	}
	off := 4 // max_token_length
	tokens := make([]string, vocab)
	scores := make([]float32, vocab)
	for i := range vocab {
		if len(b)-off < 8 {
			return nil, nil, fmt.Errorf("llama2.c tokenizer: truncated at token %d", i)
		}
		scores[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[off:]))
		n := int(int32(binary.LittleEndian.Uint32(b[off+4:])))
		off += 8
		if n < 0 || n > len(b)-off {
			return nil, nil, fmt.Errorf("llama2.c tokenizer: token %d length %d", i, n)
		}
		tokens[i] = string(b[off : off+n])
		off += n
	}
	return tokens, scores, nil
}

// ggufTokens returns the vocabulary in GGUF form: spaces as "▁", token
// types (0 unknown, 1 BOS and 2 EOS control, <0xXX> bytes).
func (c *Llama2C) ggufTokens() ([]string, []int32) {
	tokens := make([]string, len(c.Tokens))
	types := make([]int32, len(c.Tokens))
	for i, t := range c.Tokens {
		tokens[i] = strings.ReplaceAll(t, " ", "▁")
		types[i] = 1
		switch {
		case i == 0:
			types[i] = 2
		case i == 1 || i == 2:
			types[i] = 3
		case len(t) == 6 && strings.HasPrefix(t, "<0x") && t[5] == '>':
			types[i] = 6
		}
	}
	return tokens, types
}

// Tokenizer returns the checkpoint's SentencePiece tokenizer (BOS 1, EOS 2,
// as llama2.c fixes them).
func (c *Llama2C) Tokenizer() *tokenizer.SentencePiece {
	tokens, types := c.ggufTokens()
	sp := tokenizer.NewSentencePiece(tokens, c.Scores, types, 1, 2)
	sp.AddEOG(1) // see WriteGGUF's eot_token_id
	return sp
}

// Model returns the engine model over the checkpoint's weights.
func (c *Llama2C) Model() (*Model, error) {
	kv := c.KVHeads * c.HeadDim
	var errs []error
	mat := func(w []float32, rows, cols int) *tensor.Matrix {
		m, err := tensor.NewMatrix(tensor.F32, rows, cols, f32bytes(w))
		errs = append(errs, err)
		return m
	}
	m := &Model{Config: c.Config}
	m.Embed = mat(c.Embed, c.Vocab, c.Dim)
	m.Output = m.Embed
	if !c.Shared {
		m.Output = mat(c.Cls, c.Vocab, c.Dim)
	}
	m.OutNorm = c.OutNorm
	D, H := c.Dim, c.Hidden
	for l := range c.Layers {
		m.Layers = append(m.Layers, Layer{
			AttnNorm: c.AttnNorm[l*D : (l+1)*D],
			Wq:       mat(c.Wq[l*D*D:(l+1)*D*D], D, D),
			Wk:       mat(c.Wk[l*D*kv:(l+1)*D*kv], kv, D),
			Wv:       mat(c.Wv[l*D*kv:(l+1)*D*kv], kv, D),
			Wo:       mat(c.Wo[l*D*D:(l+1)*D*D], D, D),
			FFNNorm:  c.FFNNorm[l*D : (l+1)*D],
			Gate:     mat(c.W1[l*H*D:(l+1)*H*D], H, D),
			Down:     mat(c.W2[l*D*H:(l+1)*D*H], D, H),
			Up:       mat(c.W3[l*H*D:(l+1)*H*D], H, D),
		})
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// f32bytes returns the little-endian bytes of w.
func f32bytes(w []float32) []byte {
	b := make([]byte, 4*len(w))
	for i, v := range w {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}

// WriteGGUF writes the checkpoint as a GGUF file (architecture "llama",
// SentencePiece vocabulary "llama", float32 tensors), which this engine and
// llama.cpp load. llama2.c rotates adjacent pairs, as GGUF's llama layout
// does, so no weight is permuted.
func (c *Llama2C) WriteGGUF(out io.Writer, name string) error {
	w := &gguf.Writer{}
	w.AddKV("general.architecture", "llama")
	w.AddKV("general.name", name)
	w.AddKV("general.file_type", uint32(0)) // all F32
	w.AddKV("llama.context_length", uint32(c.Context))
	w.AddKV("llama.embedding_length", uint32(c.Dim))
	w.AddKV("llama.block_count", uint32(c.Layers))
	w.AddKV("llama.feed_forward_length", uint32(c.Hidden))
	w.AddKV("llama.rope.dimension_count", uint32(c.HeadDim))
	w.AddKV("llama.attention.head_count", uint32(c.Heads))
	w.AddKV("llama.attention.head_count_kv", uint32(c.KVHeads))
	w.AddKV("llama.attention.layer_norm_rms_epsilon", float32(c.NormEps))
	w.AddKV("llama.rope.freq_base", float32(c.RopeBase))
	w.AddKV("llama.vocab_size", uint32(c.Vocab))
	tokens, types := c.ggufTokens()
	w.AddKV("tokenizer.ggml.model", "llama")
	w.AddKV("tokenizer.ggml.tokens", tokens)
	w.AddKV("tokenizer.ggml.scores", c.Scores)
	w.AddKV("tokenizer.ggml.token_type", types)
	w.AddKV("tokenizer.ggml.unknown_token_id", uint32(0))
	w.AddKV("tokenizer.ggml.bos_token_id", uint32(1))
	w.AddKV("tokenizer.ggml.eos_token_id", uint32(2))
	// llama2.c's models were trained on texts separated by BOS (no EOS):
	// its run.c ends a sample when the model writes BOS, and so does the
	// engine (BOS as the end-of-turn token).
	w.AddKV("tokenizer.ggml.eot_token_id", uint32(1))
	w.AddKV("tokenizer.ggml.add_bos_token", true)
	w.AddKV("tokenizer.ggml.add_eos_token", false)
	kv := c.KVHeads * c.HeadDim
	D, H := c.Dim, c.Hidden
	add := func(name string, v []float32, dims ...uint64) {
		w.AddTensor(name, tensor.F32, dims, f32bytes(v))
	}
	u := func(n int) uint64 { return uint64(n) }
	add("token_embd.weight", c.Embed, u(D), u(c.Vocab))
	for l := range c.Layers {
		p := fmt.Sprintf("blk.%d.", l)
		add(p+"attn_norm.weight", c.AttnNorm[l*D:(l+1)*D], u(D))
		add(p+"attn_q.weight", c.Wq[l*D*D:(l+1)*D*D], u(D), u(D))
		add(p+"attn_k.weight", c.Wk[l*D*kv:(l+1)*D*kv], u(D), u(kv))
		add(p+"attn_v.weight", c.Wv[l*D*kv:(l+1)*D*kv], u(D), u(kv))
		add(p+"attn_output.weight", c.Wo[l*D*D:(l+1)*D*D], u(D), u(D))
		add(p+"ffn_norm.weight", c.FFNNorm[l*D:(l+1)*D], u(D))
		add(p+"ffn_gate.weight", c.W1[l*H*D:(l+1)*H*D], u(D), u(H))
		add(p+"ffn_down.weight", c.W2[l*D*H:(l+1)*D*H], u(H), u(D))
		add(p+"ffn_up.weight", c.W3[l*H*D:(l+1)*H*D], u(D), u(H))
	}
	add("output_norm.weight", c.OutNorm, u(D))
	if !c.Shared {
		add("output.weight", c.Cls, u(D), u(c.Vocab))
	}
	_, err := w.WriteTo(out)
	return err
}
