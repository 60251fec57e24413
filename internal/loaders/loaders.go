// Package loaders connects the model runtime (internal/models) to the
// capability packages: for each catalog backend name it registers the
// function that opens the capability's backend on the model's files.
package loaders

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/asr"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/speaker"
	"github.com/sottolabs/sotto/tts"
)

// Register registers every loader this build has with rt and, when rt
// takes them (a *models.Manager does), the inspectors that list a speech
// model's voices without loading it (GET /v1/audio/voices).
func Register(rt interface {
	RegisterLoader(name string, l models.Loader)
}) {
	rt.RegisterLoader("lattice-1", Lattice1)
	rt.RegisterLoader("lattice-2", Align)
	rt.RegisterLoader("flite", Speech("flite"))
	rt.RegisterLoader("espeak-ng", Speech("espeak-ng"))
	rt.RegisterLoader("clone", Clone)
	rt.RegisterLoader("lattice-asr", Transcribe)
	rt.RegisterLoader(WhisperBackend, Whisper)
	rt.RegisterLoader(LLMBackend, LLM)
	rt.RegisterLoader("piper", Piper)
	rt.RegisterLoader("wespeaker", WeSpeaker)
	if ri, ok := rt.(interface {
		RegisterInspector(name string, f models.Inspector)
	}); ok {
		for name, cfg := range speechConfigs {
			ri.RegisterInspector(name, voices(name, cfg))
		}
	}
}

// speechConfigs build, for each speech backend, the tts driver
// configuration its loader opens (the same for both: the driver is named
// as the backend).
var speechConfigs = map[string]func(models.LoadSpec) (backend.Config, error){
	"flite":     programConfig("flite"),
	"espeak-ng": programConfig("espeak-ng"),
	"clone":     cloneConfig,
	"piper":     piperConfig,
}

// voices returns the inspector of a speech backend: the voices of the
// model, as a []tts.Voice, listed without loading it ([tts.ListVoices]).
func voices(driver string, config func(models.LoadSpec) (backend.Config, error)) models.Inspector {
	return func(ctx context.Context, spec models.LoadSpec) (any, error) {
		cfg, err := config(spec)
		if err != nil {
			return nil, err
		}
		return tts.ListVoices(ctx, driver, cfg)
	}
}

// Piper opens a Piper voice (tts driver "piper", ONNX Runtime builds). The
// entry's options name its files: "model" (the .onnx), "config" (its
// .onnx.json) and "espeak" (the espeak-ng program file).
func Piper(ctx context.Context, spec models.LoadSpec) (io.Closer, error) {
	cfg, err := piperConfig(spec)
	if err != nil {
		return nil, err
	}
	return tts.Open(ctx, "piper", cfg)
}

func piperConfig(spec models.LoadSpec) (backend.Config, error) {
	cfg := spec.Config()
	err := filePaths(spec, cfg.Options, tts.OptPiperModel, tts.OptPiperConfig, "espeak")
	return cfg, err
}

// WeSpeaker opens a WeSpeaker speaker-embedding network (speaker driver
// "wespeaker", ONNX Runtime builds); the entry's option "model" names its
// .onnx file.
func WeSpeaker(ctx context.Context, spec models.LoadSpec) (io.Closer, error) {
	cfg := spec.Config()
	if err := filePaths(spec, cfg.Options, speaker.OptModelFile); err != nil {
		return nil, err
	}
	return speaker.Open(ctx, "wespeaker", cfg)
}

// filePaths replaces the options named by keys, each the name of one of
// the entry's files, by that file's path on disk. An option that is not
// set is left unset.
func filePaths(spec models.LoadSpec, opts map[string]string, keys ...string) error {
	for _, k := range keys {
		name := opts[k]
		if name == "" {
			continue
		}
		p, err := spec.Path(name)
		if err != nil {
			return fmt.Errorf("loaders: %s: file %q (option %s) is not on disk: %w", spec.Entry.ID, name, k, err)
		}
		opts[k] = p
	}
	return nil
}

// Transcribe opens the pure-Go recognizer (asr driver "go") of a
// transcription model. The catalog entry's options name its acoustic model
// ("mdef"), dictionary ("dict") and language model ("lm").
func Transcribe(ctx context.Context, spec models.LoadSpec) (io.Closer, error) {
	cfg := spec.Config()
	opts := map[string]string{}
	for key, def := range map[string]string{"mdef": "en-us/mdef", "dict": "cmudict-en-us.dict", "lm": "en-us.lm.bin"} {
		name := cfg.Options[key]
		if name == "" {
			name = def
		}
		p, ok := spec.Paths[name]
		if !ok {
			return nil, fmt.Errorf("loaders: %s: file %q (option %s) is not on disk", spec.Entry.ID, name, key)
		}
		switch key {
		case "mdef":
			opts[asr.OptAcousticDir] = filepath.Dir(p)
		case "dict":
			opts[asr.OptDict] = p
		case "lm":
			opts[asr.OptLM] = p
		}
	}
	cfg.Options = opts
	return asr.Open(ctx, "go", cfg)
}

// Speech returns the loader of a speech model run by a program: the tts
// driver of that name, given the program's path as found on this system.
func Speech(driver string) models.Loader {
	config := programConfig(driver)
	return func(ctx context.Context, spec models.LoadSpec) (io.Closer, error) {
		cfg, _ := config(spec)
		return tts.Open(ctx, driver, cfg)
	}
}

// programConfig returns the driver configuration of a speech model run by
// the program named driver: the entry's options, and the program's path as
// found on this system.
func programConfig(driver string) func(models.LoadSpec) (backend.Config, error) {
	return func(spec models.LoadSpec) (backend.Config, error) {
		cfg := spec.Config()
		if cfg.Options == nil {
			cfg.Options = map[string]string{}
		}
		if p, ok := spec.Paths[driver]; ok {
			cfg.Options["program"] = p
		}
		return cfg, nil
	}
}

// Clone opens the voice-cloning model (tts driver "clone"), given the
// paths of its two base engines, flite and espeak-ng, as found here.
func Clone(ctx context.Context, spec models.LoadSpec) (io.Closer, error) {
	cfg, _ := cloneConfig(spec)
	return tts.Open(ctx, "clone", cfg)
}

func cloneConfig(spec models.LoadSpec) (backend.Config, error) {
	cfg := spec.Config()
	cfg.Options = map[string]string{}
	for _, prog := range []string{tts.OptCloneFlite, tts.OptCloneEspeak} {
		if p, ok := spec.Paths[prog]; ok {
			cfg.Options[prog] = p
		}
	}
	return cfg, nil
}

// packLanguages are the languages whose acoustic model may come from a
// language pack (catalog options "mdef.<lang>" and "dict.<lang>").
var packLanguages = []string{"zh", "de"}

// packs passes the language packs of a Lattice model to the align driver:
// the acoustic model directory and dictionary of each pack on disk, or why
// a pack cannot be used (not downloaded). Packs are resolved with
// [models.LoadSpec.Path], which finds files inside unpacked archives.
func packs(spec models.LoadSpec, catalog, opts map[string]string) {
	for _, lang := range packLanguages {
		mdefName, dictName := catalog["mdef."+lang], catalog["dict."+lang]
		if mdefName == "" {
			continue
		}
		if dictName == "" {
			opts[align.OptPackMissing+lang] = "the catalog names no dict." + lang
			continue
		}
		mdef, err := spec.Path(mdefName)
		if err == nil {
			var dict string
			if dict, err = spec.Path(dictName); err == nil {
				opts[align.OptPackDir+lang] = filepath.Dir(mdef)
				opts[align.OptPackDict+lang] = dict
				continue
			}
		}
		opts[align.OptPackMissing+lang] = err.Error()
	}
}

// Align opens the alignment backend of a Lattice model. The catalog entry's
// options name its files ("mdef": "en-us/mdef", "dict":
// "cmudict-en-us.dict"); they are resolved to the paths the store found.
func Align(ctx context.Context, spec models.LoadSpec) (io.Closer, error) {
	cfg := spec.Config()
	opts := map[string]string{}
	resolve := func(key, def string) (string, error) {
		name := cfg.Options[key]
		if name == "" {
			name = def
		}
		p, ok := spec.Paths[name]
		if !ok {
			return "", fmt.Errorf("loaders: %s: file %q (option %s) is not on disk", spec.Entry.ID, name, key)
		}
		return p, nil
	}
	mdef, err := resolve("mdef", "en-us/mdef")
	if err != nil {
		return nil, err
	}
	dict, err := resolve("dict", "cmudict-en-us.dict")
	if err != nil {
		return nil, err
	}
	opts[align.OptAcousticDir] = filepath.Dir(mdef)
	opts[align.OptDict] = dict
	packs(spec, cfg.Options, opts)
	cfg.Options = opts
	return align.Open(ctx, "", cfg)
}

// Lattice1 opens Sotto/Lattice-1, which serves alignment and speaker
// embeddings: the alignment backend of [Align] and the speaker backend
// ("go" driver) on the same English acoustic model's Gaussians.
func Lattice1(ctx context.Context, spec models.LoadSpec) (io.Closer, error) {
	a, err := Align(ctx, spec)
	if err != nil {
		return nil, err
	}
	cfg := spec.Config()
	p, ok := spec.Paths["en-us/means"]
	if !ok {
		a.Close()
		return nil, fmt.Errorf("loaders: %s: file %q is not on disk", spec.Entry.ID, "en-us/means")
	}
	cfg.Options = map[string]string{speaker.OptAcousticDir: filepath.Dir(p)}
	s, err := speaker.Open(ctx, "go", cfg)
	if err != nil {
		a.Close()
		return nil, err
	}
	return alignSpeaker{a.(align.Backend), s}, nil
}

// alignSpeaker is a model that both aligns and embeds speakers.
type alignSpeaker struct {
	aligner
	embedder
}

type (
	aligner  = align.Backend
	embedder = speaker.Backend
)

// Close closes both backends.
func (b alignSpeaker) Close() error {
	return errors.Join(b.aligner.Close(), b.embedder.Close())
}

// EmbedDetail makes the model a [speaker.Detailer] when its speaker
// backend is one.
func (b alignSpeaker) EmbedDetail(ctx context.Context, a sotto.Audio) (*speaker.Embedding, error) {
	return speaker.EmbedDetail(ctx, b.embedder, a)
}

// Timeline makes the model a [speaker.Diarizer].
func (b alignSpeaker) Timeline(ctx context.Context, a sotto.Audio, o speaker.TimelineOptions) (*speaker.Timeline, error) {
	return speaker.MakeTimeline(ctx, b.embedder, a, o)
}

// Open opens model id from the model store described by cfg, for a
// command-line tool that uses one model and exits: it returns what the
// model's loader returned (an align.Backend, asr.Backend, …) and a function
// that releases the model and closes the store.
func Open(ctx context.Context, cfg models.Config, id string) (loaded any, release func(), err error) {
	m, err := models.New(cfg)
	if err != nil {
		return nil, nil, err
	}
	Register(m)
	loaded, rel, err := m.Acquire(ctx, id)
	if err != nil {
		m.Close(context.Background())
		return nil, nil, err
	}
	return loaded, func() { rel(); m.Close(context.Background()) }, nil
}
