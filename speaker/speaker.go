package speaker

import (
	"context"
	"math"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
)

// Dim is the number of values in an embedding.
const Dim = 256

// Similarity returns the cosine similarity of a and b, in [-1, 1]. It
// returns a 400-kind *sotto.Error when the lengths differ, a vector is all
// zeros, or a value is not finite.
func Similarity(a, b []float64) (float64, error) {
	if len(a) != len(b) {
		return 0, sotto.Invalid("bad_request", "embedding_b", "embeddings differ in length (%d and %d)", len(a), len(b))
	}
	// The cosine does not depend on length: each vector is scaled to a
	// largest magnitude of 1 first, so the squares of legal JSON numbers
	// (1e308, 1e-320) neither overflow to Inf nor vanish to 0.
	sa, err := maxAbs(a, "embedding_a")
	if err != nil {
		return 0, err
	}
	sb, err := maxAbs(b, "embedding_b")
	if err != nil {
		return 0, err
	}
	var dot, na, nb float64
	for i := range a {
		x, y := a[i]/sa, b[i]/sb
		dot += x * y
		na += x * x
		nb += y * y
	}
	c := dot / (math.Sqrt(na) * math.Sqrt(nb))
	return max(-1, min(1, c)), nil
}

// maxAbs returns the largest magnitude in v, or an error naming param when
// a value is not finite or all are zero.
func maxAbs(v []float64, param string) (float64, error) {
	m := 0.0
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, sotto.Invalid("bad_request", param, "%s[%d] is not a finite number", param, i)
		}
		m = max(m, math.Abs(x))
	}
	if m == 0 {
		return 0, sotto.Invalid("bad_request", param, "%s is all zeros; its direction is undefined", param)
	}
	return m, nil
}

// Backend extracts embeddings from audio.
type Backend interface {
	// Embed returns a unit-length embedding of Dim values for the speech in a.
	Embed(ctx context.Context, a sotto.Audio) ([]float32, error)
	Close() error
}

// Driver is a named way to open a [Backend].
type Driver = backend.Driver[Backend]

var drivers = backend.NewRegistry[Backend]("speaker")

// Register makes a speaker driver available; call it from init. It panics
// on an empty name, a nil Open or a duplicate name.
func Register(d Driver) { drivers.Register(d) }

// Drivers returns the names of the registered drivers, sorted.
func Drivers() []string { return drivers.Drivers() }

// Open opens the named driver, or the highest-priority one for "".
func Open(ctx context.Context, name string, cfg backend.Config) (Backend, error) {
	return drivers.Open(ctx, name, cfg)
}

// Embedding is an embedding with what went into it.
type Embedding struct {
	// Vector holds Dim values of unit length.
	Vector []float32
	// SpeechSeconds is the duration of the speech the embedding describes,
	// after voice-activity detection dropped pauses and silence.
	SpeechSeconds float64
	// Method names the embedding space (for example "sphinx-mllr-v6").
	// Only embeddings of the same method are comparable.
	Method string
}

// Detailer is implemented by backends that report, besides the vector,
// how much speech an embedding describes.
type Detailer interface {
	EmbedDetail(ctx context.Context, a sotto.Audio) (*Embedding, error)
}

// EmbedDetail returns b's embedding of a with its details when b is a
// [Detailer], else the bare vector from Embed (SpeechSeconds then is the
// audio's duration and Method is empty).
func EmbedDetail(ctx context.Context, b Backend, a sotto.Audio) (*Embedding, error) {
	if d, ok := b.(Detailer); ok {
		return d.EmbedDetail(ctx, a)
	}
	v, err := b.Embed(ctx, a)
	if err != nil {
		return nil, err
	}
	return &Embedding{Vector: v, SpeechSeconds: a.Seconds()}, nil
}

// VerifyThreshold is the similarity of two "go" (sphinx-mllr-v8)
// embeddings of at least 5 s of speech each at and above which they are
// more likely than not the same speaker. It was calibrated on the dev part
// of the shared speaker trials (the equal-error point of whole utterances;
// docs/bench/speaker.md gives its false-accept and false-reject rates). It
// belongs to that method only, and it is a starting point for an
// application's own trade-off, not a decision of identity.
const VerifyThreshold = 0.39

// ShortClipThreshold is the equal-error threshold of 3-second clips (about
// 2 s of speech): similarities of short clips run lower, so VerifyThreshold
// rejects many true pairs of them.
const ShortClipThreshold = 0.29

// FusedVerifyThreshold is VerifyThreshold for embeddings of MethodFused
// (the "go" driver with OptXVectorDir): the equal-error threshold of whole
// utterances on the dev trials (docs/bench/speaker.md gives its error
// rates). Its cosines run on another scale than v8's.
const FusedVerifyThreshold = 0.43

// FusedShortClipThreshold is ShortClipThreshold for embeddings of
// MethodFused: the equal-error threshold of 3-second clips on the dev
// trials.
const FusedShortClipThreshold = 0.37

// Float64 converts an embedding as [Backend.Embed] returns it to the
// float64 slice [Similarity] and the HTTP API take.
func Float64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}
