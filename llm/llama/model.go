package llama

import (
	"errors"
	"fmt"
	"io"

	"github.com/sottolabs/sotto/internal/tensor"
	"github.com/sottolabs/sotto/llm/gguf"
)

// ErrUnsupported is wrapped by errors about models this engine cannot run
// (architecture, tensor type, missing tensor).
var ErrUnsupported = errors.New("llama: unsupported model")

// Config holds a model's hyperparameters.
type Config struct {
	Arch       string  // "llama", "qwen2", "qwen3", ...
	Dim        int     // embedding width
	Hidden     int     // feed-forward width
	Layers     int     // transformer blocks
	Heads      int     // query heads
	KVHeads    int     // key/value heads (grouped-query attention when < Heads)
	HeadDim    int     // values per head
	Vocab      int     // vocabulary size
	Context    int     // trained context length in tokens
	RopeBase   float64 // rotary frequency base
	RopeNeoX   bool    // rotate (i, i+HeadDim/2) pairs instead of (2i, 2i+1)
	NormEps    float32 // RMSNorm epsilon
	RopeFactor []float32
}

// Layer holds one transformer block's weights. Bias and norm slices are nil
// when the architecture has none.
type Layer struct {
	AttnNorm       []float32
	Wq, Wk, Wv, Wo *tensor.Matrix
	Bq, Bk, Bv     []float32
	QNorm, KNorm   []float32 // per-head RMSNorm of queries and keys (Qwen3)
	FFNNorm        []float32
	Gate, Up, Down *tensor.Matrix
}

// Model is a loaded language model: weights (usually memory-mapped) and
// hyperparameters. It is read-only and safe for concurrent use; each
// generation runs in its own [State].
type Model struct {
	Config
	Embed   *tensor.Matrix // Vocab rows of Dim
	Layers  []Layer
	OutNorm []float32
	Output  *tensor.Matrix // Vocab rows of Dim; Embed when tied
	closer  io.Closer
	release func() error // frees the copied weights (copyWeights)
}

// Close releases the model's memory (the copied weights and the file
// mapping).
func (m *Model) Close() error {
	if m.release != nil {
		r := m.release
		m.release = nil
		if err := r(); err != nil {
			return err
		}
	}
	if m.closer != nil {
		c := m.closer
		m.closer = nil
		return c.Close()
	}
	return nil
}

// copyWeights moves the matrices that every token multiplies (the blocks'
// and the output) out of the file mapping into memory backed by huge pages
// (see [tensor.CopyToMemory]: generation from 4 KiB file pages spends much
// of its time on address translation). The token embedding, read one row
// per token, stays mapped. The file pages read for the copy are dropped
// from the resident set, so that the process holds the weights once. If
// the memory cannot be had, the weights stay mapped: slower, not wrong.
func (m *Model) copyWeights() {
	mats := []*tensor.Matrix{m.Output}
	for i := range m.Layers {
		l := &m.Layers[i]
		mats = append(mats, l.Wq, l.Wk, l.Wv, l.Wo, l.Gate, l.Up, l.Down)
	}
	orig := make([][]byte, len(mats))
	for i, x := range mats {
		orig[i] = x.Data
	}
	release, err := tensor.CopyToMemory(mats)
	if err != nil {
		return
	}
	m.release = release
	// Whole pages inside a matrix's range hold only that matrix, which now
	// reads its copy (a tied output's embedding too: same matrix).
	for _, b := range orig {
		tensor.ReleaseMapped(b)
	}
}

// validate checks the shapes of every weight against the configuration.
func (m *Model) validate() error {
	c := &m.Config
	if c.Dim <= 0 || c.Hidden <= 0 || c.Layers <= 0 || c.Heads <= 0 || c.KVHeads <= 0 || c.Vocab <= 0 || c.HeadDim <= 0 || c.HeadDim%2 != 0 {
		return fmt.Errorf("%w: bad hyperparameters %+v", ErrUnsupported, *c)
	}
	if c.Heads%c.KVHeads != 0 {
		return fmt.Errorf("%w: %d heads not a multiple of %d key/value heads", ErrUnsupported, c.Heads, c.KVHeads)
	}
	if c.Context <= 0 {
		c.Context = 2048
	}
	if len(c.RopeFactor) != 0 && len(c.RopeFactor) != c.HeadDim/2 {
		return fmt.Errorf("%w: %d rope frequency factors for head size %d", ErrUnsupported, len(c.RopeFactor), c.HeadDim)
	}
	q, kv := c.Heads*c.HeadDim, c.KVHeads*c.HeadDim
	shape := func(name string, w *tensor.Matrix, rows, cols int) error {
		if w == nil {
			return fmt.Errorf("%w: missing %s", ErrUnsupported, name)
		}
		if w.Rows != rows || w.Cols != cols {
			return fmt.Errorf("%w: %s is %d×%d; want %d×%d", ErrUnsupported, name, w.Rows, w.Cols, rows, cols)
		}
		return nil
	}
	vec := func(name string, v []float32, n int, optional bool) error {
		if v == nil && optional {
			return nil
		}
		if len(v) != n {
			return fmt.Errorf("%w: %s has %d values; want %d", ErrUnsupported, name, len(v), n)
		}
		return nil
	}
	errs := []error{shape("token embedding", m.Embed, c.Vocab, c.Dim), shape("output", m.Output, c.Vocab, c.Dim),
		vec("output norm", m.OutNorm, c.Dim, false)}
	if len(m.Layers) != c.Layers {
		errs = append(errs, fmt.Errorf("%w: %d layers; want %d", ErrUnsupported, len(m.Layers), c.Layers))
	}
	for i := range m.Layers {
		l := &m.Layers[i]
		p := fmt.Sprintf("layer %d ", i)
		errs = append(errs,
			vec(p+"attention norm", l.AttnNorm, c.Dim, false), vec(p+"ffn norm", l.FFNNorm, c.Dim, false),
			shape(p+"q", l.Wq, q, c.Dim), shape(p+"k", l.Wk, kv, c.Dim), shape(p+"v", l.Wv, kv, c.Dim),
			shape(p+"attention output", l.Wo, c.Dim, q),
			vec(p+"q bias", l.Bq, q, true), vec(p+"k bias", l.Bk, kv, true), vec(p+"v bias", l.Bv, kv, true),
			vec(p+"q norm", l.QNorm, c.HeadDim, true), vec(p+"k norm", l.KNorm, c.HeadDim, true),
			shape(p+"gate", l.Gate, c.Hidden, c.Dim), shape(p+"up", l.Up, c.Hidden, c.Dim), shape(p+"down", l.Down, c.Dim, c.Hidden))
	}
	return errors.Join(errs...)
}

// archInfo lists the GGUF architectures this engine runs and their rotary
// layout.
var archInfo = map[string]struct{ neox bool }{
	"llama": {false}, "mistral": {false}, "granite": {false},
	"qwen2": {true}, "qwen3": {true},
}

// FromGGUF builds a model over a parsed GGUF file's tensors (not copied:
// the file must stay open while the model is used; Model.Close closes it).
func FromGGUF(f *gguf.File) (*Model, error) {
	arch := f.Architecture()
	ai, ok := archInfo[arch]
	if !ok {
		return nil, fmt.Errorf("%w: architecture %q (supported: llama, mistral, qwen2, qwen3)", ErrUnsupported, arch)
	}
	u := func(key string) int {
		v, _ := f.Uint(arch + "." + key)
		return int(v)
	}
	c := Config{Arch: arch, Dim: u("embedding_length"), Hidden: u("feed_forward_length"), Layers: u("block_count"),
		Heads: u("attention.head_count"), KVHeads: u("attention.head_count_kv"), Context: u("context_length"),
		RopeNeoX: ai.neox, RopeBase: 10000, NormEps: 1e-5}
	if c.KVHeads == 0 {
		c.KVHeads = c.Heads
	}
	if c.Heads > 0 {
		c.HeadDim = c.Dim / c.Heads
	}
	if k := u("attention.key_length"); k > 0 {
		c.HeadDim = k
	}
	if b, ok := f.Float(arch + ".rope.freq_base"); ok {
		c.RopeBase = b
	}
	if e, ok := f.Float(arch + ".attention.layer_norm_rms_epsilon"); ok {
		c.NormEps = float32(e)
	}
	if rd := u("rope.dimension_count"); rd != 0 && rd != c.HeadDim {
		return nil, fmt.Errorf("%w: partial rotary embedding (%d of %d)", ErrUnsupported, rd, c.HeadDim)
	}
	var errs []error
	mat := func(name string, optional bool) *tensor.Matrix {
		t, ok := f.Tensor(name)
		if !ok {
			if !optional {
				errs = append(errs, fmt.Errorf("%w: missing tensor %s", ErrUnsupported, name))
			}
			return nil
		}
		if len(t.Dims) > 2 {
			errs = append(errs, fmt.Errorf("%w: tensor %s has %d dimensions", ErrUnsupported, name, len(t.Dims)))
			return nil
		}
		rows := 1
		if len(t.Dims) == 2 {
			rows = int(t.Dims[1])
		}
		m, err := tensor.NewMatrix(t.Type, rows, int(t.Dims[0]), f.Data(t))
		if err != nil {
			errs = append(errs, fmt.Errorf("%w: tensor %s: %v", ErrUnsupported, name, err))
		}
		return m
	}
	vec := func(name string, optional bool) []float32 {
		m := mat(name, optional)
		if m == nil {
			return nil
		}
		out := make([]float32, m.Rows*m.Cols)
		for r := range m.Rows {
			m.DequantizeRow(r, out[r*m.Cols:])
		}
		return out
	}
	m := &Model{Config: c}
	m.Embed = mat("token_embd.weight", false)
	if m.Embed != nil {
		m.Vocab = m.Embed.Rows
	}
	m.OutNorm = vec("output_norm.weight", false)
	m.Output = mat("output.weight", true)
	if m.Output == nil {
		m.Output = m.Embed
	}
	if rf := vec("rope_freqs.weight", true); rf != nil {
		m.RopeFactor = rf
	}
	for i := range c.Layers {
		p := fmt.Sprintf("blk.%d.", i)
		m.Layers = append(m.Layers, Layer{
			AttnNorm: vec(p+"attn_norm.weight", false),
			Wq:       mat(p+"attn_q.weight", false), Wk: mat(p+"attn_k.weight", false),
			Wv: mat(p+"attn_v.weight", false), Wo: mat(p+"attn_output.weight", false),
			Bq: vec(p+"attn_q.bias", true), Bk: vec(p+"attn_k.bias", true), Bv: vec(p+"attn_v.bias", true),
			QNorm: vec(p+"attn_q_norm.weight", true), KNorm: vec(p+"attn_k_norm.weight", true),
			FFNNorm: vec(p+"ffn_norm.weight", false),
			Gate:    mat(p+"ffn_gate.weight", false), Up: mat(p+"ffn_up.weight", false), Down: mat(p+"ffn_down.weight", false),
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

// LoadGGUF opens a GGUF file and builds the model and its tokenizer. The
// file is memory-mapped; the weight matrices of the transformer blocks and
// the output are then copied into anonymous memory, backed by transparent
// huge pages on Linux, which makes a pass over them markedly faster.
func LoadGGUF(path string) (*Model, error) {
	f, err := gguf.Open(path)
	if err != nil {
		return nil, err
	}
	m, err := FromGGUF(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m.closer = f
	m.copyWeights()
	return m, nil
}
