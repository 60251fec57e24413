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
	"sync"

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
// embeddings and timelines: the alignment backend of [Align] and the speaker
// backend ("go" driver) on the same English acoustic model's Gaussians.
//
// Its embeddings are the fused space ([speaker.MethodFused]) when the
// catalog option "speaker_network" names the model holding the x-vector
// network (Sotto/Kaldi-XVector-Callhome); that model is resolved when an
// embedding is asked for, so a download finished after the load is used at
// once. While it is not on disk, embeddings fail with the error a request
// for it would get (400 model_not_downloaded, or 503 model_downloading while
// it downloads), naming how to get it: the embedding space never changes
// with what happens to be on disk. Without the option, embeddings are v8's
// ([speaker.Method]). Timelines always use v8's windows and need no network.
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
	acoustic := filepath.Dir(p)
	cfg.Options = map[string]string{speaker.OptAcousticDir: acoustic}
	s, err := speaker.Open(ctx, "go", cfg)
	if err != nil {
		a.Close()
		return nil, err
	}
	return &alignSpeaker{aligner: a.(align.Backend), v8: s, spec: spec, acoustic: acoustic,
		network: spec.Entry.Options[OptSpeakerNetwork]}, nil
}

// OptSpeakerNetwork is the catalog option of Sotto/Lattice-1 naming the
// model that holds its speaker network; that model's option "model" names
// the network's directory among its files.
const OptSpeakerNetwork = "speaker_network"

// alignSpeaker is a model that both aligns and embeds speakers.
type alignSpeaker struct {
	aligner
	v8       speaker.Backend // timelines; embeddings when network is ""
	spec     models.LoadSpec
	acoustic string
	network  string // model ID of the speaker network, "" for none

	mu    sync.Mutex
	fused speaker.Backend // opened on the first embedding
}

type aligner = align.Backend

// embedder returns the backend that makes embeddings: the fused one,
// opened on first use once the speaker network is on disk.
func (b *alignSpeaker) embedder(ctx context.Context) (speaker.Backend, error) {
	if b.network == "" {
		return b.v8, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.fused != nil {
		return b.fused, nil
	}
	ns, err := b.spec.Require(b.network)
	if err != nil {
		return nil, networkMissing(b.spec.Entry.ID, b.network, err)
	}
	dir, err := ns.Path(ns.Entry.Options["model"])
	if err != nil {
		return nil, networkMissing(b.spec.Entry.ID, b.network, err)
	}
	cfg := b.spec.Config()
	cfg.Options = map[string]string{speaker.OptAcousticDir: b.acoustic, speaker.OptXVectorDir: dir}
	// Opened once for the model's life, whatever request came first, so
	// it is not cancelled with that request.
	f, err := speaker.Open(context.WithoutCancel(ctx), "go", cfg)
	if err != nil {
		return nil, err
	}
	b.fused = f
	return f, nil
}

// networkMissing explains why embeddings of model cannot be made while
// the speaker network model net is unavailable; err is what a request for
// net gets, and its kind, code and retry time are kept.
func networkMissing(model, net string, err error) error {
	how := fmt.Sprintf(`download it with POST /v1/models/download {"model": %q} (sotto-cli models download %s; make serve does it)`, net, net)
	if se, ok := errors.AsType[*sotto.Error](err); ok {
		c := *se
		c.Param = "model"
		c.Message = fmt.Sprintf("%s's speaker embeddings use the speaker network %s: %s", model, net, se.Message)
		if se.Code == "model_not_downloaded" {
			c.Message += "; " + how
		}
		return &c
	}
	return sotto.Invalid("model_not_downloaded", "model", "%s's speaker embeddings use the speaker network %s, which cannot be read (%v); %s", model, net, err, how)
}

// Embed makes b a [speaker.Backend].
func (b *alignSpeaker) Embed(ctx context.Context, a sotto.Audio) ([]float32, error) {
	e, err := b.embedder(ctx)
	if err != nil {
		return nil, err
	}
	return e.Embed(ctx, a)
}

// EmbedDetail makes the model a [speaker.Detailer].
func (b *alignSpeaker) EmbedDetail(ctx context.Context, a sotto.Audio) (*speaker.Embedding, error) {
	e, err := b.embedder(ctx)
	if err != nil {
		return nil, err
	}
	return speaker.EmbedDetail(ctx, e, a)
}

// Timeline makes the model a [speaker.Diarizer]; it uses v8's windows.
func (b *alignSpeaker) Timeline(ctx context.Context, a sotto.Audio, o speaker.TimelineOptions) (*speaker.Timeline, error) {
	return speaker.MakeTimeline(ctx, b.v8, a, o)
}

// Close closes the backends.
func (b *alignSpeaker) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	errs := []error{b.aligner.Close(), b.v8.Close()}
	if b.fused != nil {
		errs = append(errs, b.fused.Close())
	}
	return errors.Join(errs...)
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
