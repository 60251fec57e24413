package tts

import (
	"context"
	"slices"

	"github.com/sottolabs/sotto/backend"
)

// Options selects voice and delivery. The zero value uses the backend's
// default voice at natural speed and pitch.
type Options struct {
	// Voice is a voice ID ("builtin:<name>") from [Lister.Voices], or ""
	// or "builtin:auto" for the backend's choice for Language.
	Voice string
	// Language is a BCP 47 tag, or "" to use the voice's language.
	Language string
	// Speed is the speaking rate relative to the voice's natural rate: 1 is
	// natural, 2 twice as fast; 0 means 1. Backends clamp it to what their
	// engine can do (see [Voice].Controls).
	Speed float64
	// Pitch shifts the voice's pitch in semitones (0 = the voice's own).
	Pitch float64
	// Variant names an engine-specific voice variant (espeak-ng's "klatt",
	// "f3" ...); "" for none.
	Variant string
	// Marks asks [Speak] for the times of the words of each chunk
	// (Chunk.Marks), found by aligning the synthesized audio with package
	// align.
	Marks bool
	// Seed asks for reproducible output; the engines here are
	// deterministic, so the same request gives the same bytes with or
	// without it.
	Seed *int64
}

// Chunk is a piece of synthesised audio: mono float32 samples at Rate Hz.
type Chunk struct {
	Samples []float32
	Rate    int
	// Marks are the words spoken in this chunk, when Options.Marks asked
	// for them (from [Speak]; backends leave it nil).
	Marks []Mark
	// MarksSource says where Marks came from: MarksEngine (the engine's
	// phone timings) or MarksAlignment (forced alignment of the audio).
	MarksSource string
	// MarksFollow is set by [Speak] on an audio chunk whose marks are
	// still being found by forced alignment: they arrive in the next
	// chunk, which has no Samples (only Rate, Marks and MarksSource).
	MarksFollow bool
	// Phones are the engine's own timings of the phones it spoke, in
	// seconds from the start of the chunk, pauses included, when the engine
	// reports them (flite does); nil otherwise. [Speak] turns them into
	// word Marks.
	Phones []PhoneTime
}

// PhoneTime is one phone an engine spoke: its label in the engine's phone
// set (flite: lower-case ARPAbet, "pau" for a pause) and its start and end
// in seconds.
type PhoneTime struct {
	Phone      string
	Start, End float64
}

// Backend is what a speech driver implements. Synthesize speaks text (one
// sentence or more, already normalized) and calls emit with successive
// chunks, from the calling goroutine only; a non-nil error from emit stops
// the work and is returned. Implementations are safe for concurrent use by
// multiple goroutines: a loaded model serves many requests at once, and
// [Speak] synthesizes the next sentence while the current one is sent.
type Backend interface {
	Synthesize(ctx context.Context, text string, opts Options, emit func(Chunk) error) error
	Close() error
}

// Voice describes one voice of a backend.
type Voice struct {
	// ID is the voice identifier requests use: "builtin:<name>".
	ID string `json:"id"`
	// Name is a human-readable name.
	Name string `json:"name"`
	// Languages are the BCP 47 tags the voice speaks, the first its own.
	Languages []string `json:"languages"`
	// Gender is "male", "female" or "" when the engine does not say.
	Gender string `json:"gender,omitempty"`
	// SampleRate is the native output rate in Hz.
	SampleRate int `json:"sample_rate"`
	// Controls lists the [Options] fields the voice honours: "speed",
	// "pitch", "variant".
	Controls []string `json:"controls"`
	// Default marks the backend's default voice.
	Default bool `json:"default,omitempty"`
}

// Lister is implemented by backends that can list their voices. Every
// driver in this module implements it.
type Lister interface {
	Voices() []Voice
}

// Resolver is implemented by backends that accept voice IDs beyond those
// they list, such as espeak-ng's "builtin:<language>+<variant>".
type Resolver interface {
	ResolveVoice(id string) (Voice, bool)
}

// FindVoice returns the voice of b with the given ID, and whether it
// exists. "" and "builtin:auto" find the default voice.
func FindVoice(b Backend, id string) (Voice, bool) {
	if r, ok := b.(Resolver); ok && id != "" && id != VoiceAuto {
		return r.ResolveVoice(id)
	}
	l, ok := b.(Lister)
	if !ok {
		return Voice{}, false
	}
	vs := l.Voices()
	if id == "" || id == VoiceAuto {
		i := slices.IndexFunc(vs, func(v Voice) bool { return v.Default })
		if i < 0 {
			return Voice{}, false
		}
		return vs[i], true
	}
	i := slices.IndexFunc(vs, func(v Voice) bool { return v.ID == id })
	if i < 0 {
		return Voice{}, false
	}
	return vs[i], true
}

// Voice IDs with a meaning of their own (spec part 2).
const (
	// VoiceAuto lets the model pick a voice fitting the text's language.
	VoiceAuto = "builtin:auto"
	// VoiceDesign describes the voice in natural language (the request's
	// instructions); see [Design].
	VoiceDesign = "builtin:design"
)

// Driver is a named way to open a [Backend].
type Driver = backend.Driver[Backend]

var drivers = backend.NewRegistry[Backend]("tts")

// Register makes a speech driver available; call it from init.
func Register(d Driver) { drivers.Register(d) }

// Drivers returns the names of the registered drivers, sorted.
func Drivers() []string { return drivers.Drivers() }

// Open opens the named driver, or the highest-priority one for "".
func Open(ctx context.Context, name string, cfg backend.Config) (Backend, error) {
	return drivers.Open(ctx, name, cfg)
}

// voiceListers list a driver's voices without opening it, for the drivers
// whose Open loads a network (piper reads its ONNX model; its voices are
// in its config).
var voiceListers = map[string]func(context.Context, backend.Config) ([]Voice, error){}

// registerVoiceLister gives driver name a way to list its voices without
// Open; call it from init.
func registerVoiceLister(name string, f func(context.Context, backend.Config) ([]Voice, error)) {
	voiceListers[name] = f
}

// ListVoices returns the voices driver name offers when opened with cfg,
// without loading a voice network: piper reads them from its config, and
// the drivers that run a program (flite, espeak-ng, clone) ask the program,
// which is all their Open does. Other drivers are opened, asked and
// closed. It fails as Open would when the driver cannot run here (a
// missing program, piper without ONNX Runtime).
func ListVoices(ctx context.Context, name string, cfg backend.Config) ([]Voice, error) {
	if f := voiceListers[name]; f != nil {
		return f(ctx, cfg)
	}
	b, err := Open(ctx, name, cfg)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	l, ok := b.(Lister)
	if !ok {
		return nil, nil
	}
	return l.Voices(), nil
}
