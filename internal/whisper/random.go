package whisper

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strings"

	"github.com/sottolabs/sotto/internal/tensor"
)

// WriteRandom writes a complete model with dimensions h (h.FType chooses
// the weight type) whose weights are pseudo-random, drawn from seed, and
// whose mel filters and vocabulary are f and vocab (taken from a real
// file, e.g. whisper.cpp's models/for-tests-ggml-tiny.bin, which carries
// everything but the weights). The same arguments give the same bytes on
// every machine and Go release: values come from PCG's integer stream
// (one stream per tensor, keyed by seed and name) turned into floats with
// exact arithmetic, then rounded to the tensor's type.
//
// The values are scaled so that activations stay of order one through the
// network: matrices with standard deviation 1/√(fan-in), layer-norm gains
// near 1, small biases.
func WriteRandom(ctx context.Context, w io.Writer, h Hparams, f Filters, vocab [][]byte, seed uint64) error {
	if _, ok := h.FType.WeightType(); !ok {
		return fmt.Errorf("whisper: random model: unknown ftype %d", h.FType)
	}
	if h.FType != FTypeF32 && h.FType != FTypeF16 && h.QntVersion == 0 {
		h.QntVersion = 2 // as whisper.cpp's quantizer writes
	}
	wr := NewWriter(w)
	if err := wr.Header(h, f, vocab); err != nil {
		return err
	}
	for _, s := range Specs(h) {
		if err := ctx.Err(); err != nil {
			return err
		}
		data, err := randomTensor(s, seed)
		if err != nil {
			return err
		}
		if err := wr.Tensor(s.Name, s.Type, s.Dims, data); err != nil {
			return err
		}
	}
	return wr.Flush()
}

// randomTensor returns the bytes of one random tensor.
func randomTensor(s TensorSpec, seed uint64) ([]byte, error) {
	hs := fnv.New64a()
	hs.Write([]byte(s.Name))
	r := rand.New(rand.NewPCG(seed, hs.Sum64()))
	n := 1
	for _, d := range s.Dims {
		n *= d
	}
	// normal returns an approximately standard normal value: the sum of
	// four uniforms on [0, 1) with 24-bit resolution, centred and scaled
	// to unit variance. Every step is exact or correctly rounded float64
	// arithmetic, so the result does not depend on the platform.
	normal := func() float64 {
		var s uint64
		for range 4 {
			s += r.Uint64() >> 40
		}
		u := float64(s)/(1<<24) - 2 // variance 4/12
		return u * math.Sqrt(3)
	}
	mean, std := 0.0, 0.0
	switch name := s.Name; {
	case strings.HasSuffix(name, "ln.weight") || strings.HasSuffix(name, "ln_post.weight"):
		mean, std = 1, 0.1
	case strings.HasSuffix(name, ".bias"):
		std = 0.02
	case strings.HasSuffix(name, "positional_embedding"):
		std = 0.1
	case name == "decoder.token_embedding.weight":
		std = 0.05
	case strings.HasSuffix(name, "conv1.weight") || strings.HasSuffix(name, "conv2.weight"):
		std = 1 / math.Sqrt(float64(s.Dims[0]*s.Dims[1]))
	default: // matrices, Dims[0] inputs per row
		std = 1 / math.Sqrt(float64(s.Dims[0]))
	}
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(mean + float64(std*normal()))
	}
	size, err := s.Type.Size(int64(n))
	if err != nil {
		return nil, err
	}
	out := make([]byte, size)
	switch s.Type {
	case TypeF32:
		for i, v := range x {
			binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(v))
		}
	case TypeF16:
		for i, v := range x {
			binary.LittleEndian.PutUint16(out[2*i:], tensor.F32ToF16(v))
		}
	case TypeQ8_0:
		tensor.QuantizeQ8_0(x, out)
	case TypeQ4_0:
		tensor.QuantizeQ4_0(x, out)
	case TypeQ5_0:
		tensor.QuantizeQ5_0(x, out)
	case TypeQ5_1:
		tensor.QuantizeQ5_1(x, out)
	default:
		return nil, fmt.Errorf("whisper: random model: cannot write %v tensors", s.Type)
	}
	return out, nil
}

// GenerateFile reads the model file from (for its dimensions, mel filters
// and vocabulary) and writes to path a random-weight model of the same
// shape with weight type ft, as [WriteRandom] does with seed.
func GenerateFile(ctx context.Context, from, path string, ft FType, seed uint64) (err error) {
	src, err := Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	h := src.Hparams
	h.FType, h.QntVersion = ft, 0
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("whisper: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("whisper: %w", cerr)
		}
	}()
	return WriteRandom(ctx, f, h, src.Filters, src.Vocab, seed)
}
