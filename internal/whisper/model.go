package whisper

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/sottolabs/sotto/internal/mmap"
)

// ErrFormat is wrapped by every error about a malformed or unsupported
// model file.
var ErrFormat = errors.New("whisper: malformed model file")

// Magic is the first four bytes of a GGML Whisper file ("ggml" read as a
// little-endian uint32).
const Magic = 0x67676d6c

// Limits that keep a hostile header from asking for absurd allocations.
// The largest official model (large-v3) is far inside every one.
const (
	maxVocab     = 1 << 20
	maxCtx       = 1 << 16
	maxState     = 1 << 15
	maxLayers    = 256
	maxMels      = 1024
	maxFFT       = 1 << 14
	maxNameBytes = 1 << 10
	maxTokenLen  = 1 << 16
)

// Hparams are a model's dimensions, in the order the file stores them.
type Hparams struct {
	NVocab      int // vocabulary size, special tokens included
	NAudioCtx   int // encoder positions (1500 for 30 s)
	NAudioState int // encoder width
	NAudioHead  int // encoder attention heads
	NAudioLayer int // encoder blocks
	NTextCtx    int // decoder positions (448)
	NTextState  int // decoder width
	NTextHead   int // decoder attention heads
	NTextLayer  int // decoder blocks
	NMels       int // mel bins of the input (80, or 128 for large-v3)
	FType       FType
	// QntVersion is the quantization version the file's ftype field
	// carried (ftype / 1000); 0 for files never quantized.
	QntVersion int
}

// Filters is the mel filter bank stored in the file: NMel rows of NFFT
// weights (NFFT = 201 bins from 0 Hz to the Nyquist frequency for
// Whisper's 400-point FFT), row-major.
type Filters struct {
	NMel, NFFT int
	Data       []float32
}

// Tensor is one named weight of the model. Dims are GGML's ne: Dims[0] is
// the length of a row (the fastest-varying index).
type Tensor struct {
	Name string
	Type GGMLType
	Dims []int
	// Offset is the position of the data in the file.
	Offset int64
	// Data is the tensor's bytes: a slice of the mapped file, read-only,
	// valid until the model is closed.
	Data []byte
}

// Elements returns the number of elements of t.
func (t *Tensor) Elements() int {
	n := 1
	for _, d := range t.Dims {
		n *= d
	}
	return n
}

// Model is a parsed GGML Whisper file: dimensions, mel filters, the stored
// vocabulary and the tensors. Tensor data points into the file's mapping.
type Model struct {
	Hparams Hparams
	Filters Filters
	// Vocab holds the tokens as the file stores them, by id. Files carry
	// the BPE vocabulary only; the special tokens above it (end of text,
	// start of transcript, languages, timestamps) are implied by
	// Hparams.NVocab.
	Vocab   [][]byte
	Tensors []Tensor

	byName map[string]int
	unmap  func() error
}

// Tensor returns the tensor named name.
func (m *Model) Tensor(name string) (*Tensor, bool) {
	i, ok := m.byName[name]
	if !ok {
		return nil, false
	}
	return &m.Tensors[i], true
}

// Close releases the file mapping. Tensor data must not be used after.
func (m *Model) Close() error {
	if m.unmap == nil {
		return nil
	}
	f := m.unmap
	m.unmap = nil
	return f()
}

// Open maps the model file at path read-only and parses it.
func Open(path string) (*Model, error) {
	b, unmap, err := mmap.File(path)
	if errors.Is(err, mmap.ErrEmpty) {
		return nil, fmt.Errorf("whisper: open model: %w: %v", ErrFormat, err)
	}
	if err != nil {
		return nil, fmt.Errorf("whisper: open model: %w", err)
	}
	m, err := Parse(b)
	if err != nil {
		if unmap != nil {
			unmap()
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	m.unmap = unmap
	return m, nil
}

// reader walks a byte slice, failing with ErrFormat instead of reading
// past its end.
type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
	}
}

func (r *reader) left() int { return len(r.b) - r.off }

func (r *reader) bytes(n int, what string) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > r.left() {
		r.fail("%s: %d bytes at offset %d run past the end of the file (%d bytes)", what, n, r.off, len(r.b))
		return nil
	}
	p := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return p
}

func (r *reader) u32(what string) uint32 {
	p := r.bytes(4, what)
	if p == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(p)
}

func (r *reader) i32(what string) int32 { return int32(r.u32(what)) }

// Parse parses a GGML Whisper file held in b. The model keeps b: tensor
// data are slices of it. A file with no tensors (whisper.cpp's
// models/for-tests-*.bin) parses; [Model.CheckTensors] tells whether a
// model has every weight the network needs.
func Parse(b []byte) (*Model, error) {
	r := &reader{b: b}
	if magic := r.u32("magic"); r.err == nil && magic != Magic {
		return nil, fmt.Errorf("%w: bad magic %#08x (want %#08x)", ErrFormat, magic, Magic)
	}
	m := &Model{}
	h := &m.Hparams
	fields := []struct {
		p        *int
		name     string
		min, max int
	}{
		{&h.NVocab, "n_vocab", 1, maxVocab},
		{&h.NAudioCtx, "n_audio_ctx", 1, maxCtx},
		{&h.NAudioState, "n_audio_state", 1, maxState},
		{&h.NAudioHead, "n_audio_head", 1, maxState},
		{&h.NAudioLayer, "n_audio_layer", 1, maxLayers},
		{&h.NTextCtx, "n_text_ctx", 1, maxCtx},
		{&h.NTextState, "n_text_state", 1, maxState},
		{&h.NTextHead, "n_text_head", 1, maxState},
		{&h.NTextLayer, "n_text_layer", 1, maxLayers},
		{&h.NMels, "n_mels", 1, maxMels},
	}
	for _, f := range fields {
		v := r.i32(f.name)
		if r.err != nil {
			return nil, r.err
		}
		if int(v) < f.min || int(v) > f.max {
			return nil, fmt.Errorf("%w: %s = %d (want %d–%d)", ErrFormat, f.name, v, f.min, f.max)
		}
		*f.p = int(v)
	}
	ft := r.i32("ftype")
	if r.err != nil {
		return nil, r.err
	}
	if ft < 0 {
		return nil, fmt.Errorf("%w: ftype %d", ErrFormat, ft)
	}
	h.FType, h.QntVersion = FType(ft%qntVersionFactor), int(ft/qntVersionFactor)
	if _, ok := h.FType.WeightType(); !ok {
		return nil, fmt.Errorf("%w: unknown ftype %d", ErrFormat, h.FType)
	}
	if h.NAudioState%h.NAudioHead != 0 || h.NTextState%h.NTextHead != 0 {
		return nil, fmt.Errorf("%w: width %d/%d not divisible by heads %d/%d", ErrFormat, h.NAudioState, h.NTextState, h.NAudioHead, h.NTextHead)
	}
	if h.NAudioState != h.NTextState {
		return nil, fmt.Errorf("%w: n_audio_state %d != n_text_state %d", ErrFormat, h.NAudioState, h.NTextState)
	}

	// Mel filters.
	nMel, nFFT := r.i32("filters n_mel"), r.i32("filters n_fft")
	if r.err != nil {
		return nil, r.err
	}
	if nMel < 1 || nMel > maxMels || nFFT < 1 || nFFT > maxFFT {
		return nil, fmt.Errorf("%w: mel filters %d×%d", ErrFormat, nMel, nFFT)
	}
	if int(nMel) != h.NMels {
		return nil, fmt.Errorf("%w: %d mel filters for n_mels = %d", ErrFormat, nMel, h.NMels)
	}
	fb := r.bytes(int(nMel)*int(nFFT)*4, "mel filters")
	if r.err != nil {
		return nil, r.err
	}
	m.Filters = Filters{NMel: int(nMel), NFFT: int(nFFT), Data: make([]float32, len(fb)/4)}
	for i := range m.Filters.Data {
		m.Filters.Data[i] = math.Float32frombits(binary.LittleEndian.Uint32(fb[4*i:]))
	}

	// Vocabulary.
	nv := r.i32("n_vocab")
	if r.err != nil {
		return nil, r.err
	}
	if nv < 0 || int(nv) > h.NVocab {
		return nil, fmt.Errorf("%w: %d vocabulary entries for n_vocab = %d", ErrFormat, nv, h.NVocab)
	}
	if int(nv) > r.left()/4 {
		return nil, fmt.Errorf("%w: %d vocabulary entries cannot fit in %d bytes", ErrFormat, nv, r.left())
	}
	m.Vocab = make([][]byte, nv)
	for i := range m.Vocab {
		n := r.u32("token length")
		if r.err == nil && n > maxTokenLen {
			r.fail("token %d is %d bytes long", i, n)
		}
		m.Vocab[i] = r.bytes(int(n), "token")
		if r.err != nil {
			return nil, r.err
		}
	}

	// Tensors, until the end of the file.
	m.byName = map[string]int{}
	for r.left() > 0 {
		start := r.off
		nd, nameLen, typ := r.i32("tensor n_dims"), r.i32("tensor name length"), r.u32("tensor type")
		if r.err != nil {
			return nil, r.err
		}
		if nd < 1 || nd > 4 {
			return nil, fmt.Errorf("%w: tensor at offset %d has %d dimensions (want 1–4)", ErrFormat, start, nd)
		}
		if nameLen < 1 || nameLen > maxNameBytes {
			return nil, fmt.Errorf("%w: tensor at offset %d has a %d-byte name", ErrFormat, start, nameLen)
		}
		t := Tensor{Type: GGMLType(typ), Dims: make([]int, nd)}
		n := int64(1)
		for i := range t.Dims {
			d := r.i32("tensor dimension")
			if r.err != nil {
				return nil, r.err
			}
			if d < 1 {
				return nil, fmt.Errorf("%w: tensor at offset %d has dimension %d", ErrFormat, start, d)
			}
			if n > math.MaxInt64/int64(d) {
				return nil, fmt.Errorf("%w: tensor at offset %d: element count overflows", ErrFormat, start)
			}
			t.Dims[i] = int(d)
			n *= int64(d)
		}
		t.Name = string(r.bytes(int(nameLen), "tensor name"))
		if r.err != nil {
			return nil, r.err
		}
		if _, dup := m.byName[t.Name]; dup {
			return nil, fmt.Errorf("%w: duplicate tensor %q", ErrFormat, t.Name)
		}
		if t.Dims[0]%blockElems(t.Type) != 0 {
			return nil, fmt.Errorf("%w: tensor %q: row of %d elements is not a whole number of %v blocks", ErrFormat, t.Name, t.Dims[0], t.Type)
		}
		size, err := t.Type.Size(n)
		if err != nil {
			return nil, fmt.Errorf("tensor %q: %w", t.Name, err)
		}
		if size > int64(r.left()) {
			return nil, fmt.Errorf("%w: tensor %q (%d bytes at offset %d) runs past the end of the file", ErrFormat, t.Name, size, r.off)
		}
		t.Offset = int64(r.off)
		t.Data = r.bytes(int(size), "tensor data")
		m.byName[t.Name] = len(m.Tensors)
		m.Tensors = append(m.Tensors, t)
	}
	return m, nil
}

// blockElems returns the block length of t, or 1 for unknown types (whose
// size check fails anyway).
func blockElems(t GGMLType) int {
	if ti, ok := ggmlTypes[t]; ok {
		return ti.elems
	}
	return 1
}
