package tts

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/backend/onnx"
	"github.com/sottolabs/sotto/internal/g2p"
)

// The piper driver speaks with neural VITS voices in Piper's layout: an
// ONNX model that takes espeak-ng phoneme IDs and returns PCM, and a JSON
// file beside it with the sample rate, the espeak-ng voice, the inference
// scales and the phoneme → ID table. It needs ONNX Runtime: in a build
// without the onnx tag (and cgo) Open returns 501 capability_unavailable
// naming the rebuild.

func init() {
	Register(Driver{Name: "piper", Priority: 5, Open: openPiper})
	registerVoiceLister("piper", listPiperVoices)
}

// Catalog options of a piper model: the ONNX file and its JSON config, as
// paths (the loader resolves the catalog's file names).
const (
	OptPiperModel  = "model"
	OptPiperConfig = "config"
)

// piperConfig is the part of a Piper voice's .onnx.json that synthesis
// needs.
type piperConfig struct {
	Audio struct {
		SampleRate int `json:"sample_rate"`
	} `json:"audio"`
	Espeak struct {
		Voice string `json:"voice"`
	} `json:"espeak"`
	Inference struct {
		NoiseScale  float64 `json:"noise_scale"`
		LengthScale float64 `json:"length_scale"`
		NoiseW      float64 `json:"noise_w"`
	} `json:"inference"`
	PhonemeType  string             `json:"phoneme_type"`
	PhonemeIDMap map[string][]int64 `json:"phoneme_id_map"`
	NumSpeakers  int                `json:"num_speakers"`
	SpeakerIDMap map[string]int64   `json:"speaker_id_map"`
	Language     struct {
		Code string `json:"code"`
	} `json:"language"`
	Dataset string `json:"dataset"`
}

// parsePiperConfig reads and checks a voice config.
func parsePiperConfig(b []byte) (*piperConfig, error) {
	var c piperConfig
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("tts: piper config: %w", err)
	}
	switch {
	case c.Audio.SampleRate < 8000 || c.Audio.SampleRate > 48000:
		return nil, fmt.Errorf("tts: piper config: sample rate %d Hz out of range", c.Audio.SampleRate)
	case c.PhonemeType != "" && c.PhonemeType != "espeak":
		return nil, fmt.Errorf("tts: piper config: phoneme_type %q is not supported (only espeak)", c.PhonemeType)
	case c.Espeak.Voice == "":
		return nil, fmt.Errorf("tts: piper config: no espeak voice")
	}
	for _, k := range []string{"_", "^", "$"} {
		if len(c.PhonemeIDMap[k]) == 0 {
			return nil, fmt.Errorf("tts: piper config: phoneme_id_map lacks %q", k)
		}
	}
	if c.Inference.LengthScale <= 0 {
		c.Inference.LengthScale = 1
	}
	return &c, nil
}

// ids turns a phoneme string into model input IDs the way Piper does: the
// start symbol "^", then each phoneme (one code point; those the table
// lacks are skipped) followed by the pad "_", then the end symbol "$"; a
// pad also follows the start symbol.
func (c *piperConfig) ids(phonemes string) []int64 {
	m := c.PhonemeIDMap
	out := slices.Concat(m["^"], m["_"])
	for _, r := range phonemes {
		id, ok := m[string(r)]
		if !ok {
			continue
		}
		out = append(out, id...)
		out = append(out, m["_"]...)
	}
	return append(out, m["$"]...)
}

type piper struct {
	cfg     *piperConfig
	session *onnx.Session
	phon    *g2p.Phonemizer
	voices  []Voice
	speaker map[string]int64 // voice ID → speaker ID (multi-speaker models)
}

var _ Backend = (*piper)(nil)
var _ Lister = (*piper)(nil)

func openPiper(ctx context.Context, cfg backend.Config) (Backend, error) {
	c, modelPath, err := readPiperConfig(cfg)
	if err != nil {
		return nil, err
	}
	mb, err := os.ReadFile(modelPath)
	if err != nil {
		return nil, fmt.Errorf("tts: piper: %w", err)
	}
	inputs := []string{"input", "input_lengths", "scales"}
	if c.NumSpeakers > 1 {
		inputs = append(inputs, "sid")
	}
	s, err := onnx.NewSession(mb, inputs, []string{"output"})
	if err != nil {
		return nil, fmt.Errorf("tts: piper: %w", err)
	}
	p := &piper{cfg: c, session: s, phon: g2p.NewPhonemizer(g2p.PhonemizerConfig{Path: cfg.Options["espeak"]}), speaker: map[string]int64{}}
	p.voices, p.speaker = piperVoices(c)
	return p, nil
}

// readPiperConfig checks that piper can run in this build and reads the
// voice config that cfg's options name; it returns the config and the
// path of the .onnx file.
func readPiperConfig(cfg backend.Config) (*piperConfig, string, error) {
	if !onnx.Available() {
		return nil, "", sotto.NotImplemented("capability_unavailable", "tts: piper voices need ONNX Runtime: %v", onnx.ErrUnavailable)
	}
	modelPath, confPath := cfg.Options[OptPiperModel], cfg.Options[OptPiperConfig]
	if confPath == "" && modelPath != "" {
		confPath = modelPath + ".json"
	}
	if modelPath == "" {
		return nil, "", fmt.Errorf("tts: piper: option %q (the .onnx file) is required", OptPiperModel)
	}
	cb, err := os.ReadFile(confPath)
	if err != nil {
		return nil, "", fmt.Errorf("tts: piper: %w", err)
	}
	c, err := parsePiperConfig(cb)
	if err != nil {
		return nil, "", err
	}
	return c, modelPath, nil
}

// listPiperVoices lists a piper model's voices from its config alone: the
// ONNX network is not read.
func listPiperVoices(_ context.Context, cfg backend.Config) ([]Voice, error) {
	c, _, err := readPiperConfig(cfg)
	if err != nil {
		return nil, err
	}
	vs, _ := piperVoices(c)
	return vs, nil
}

// piperVoices are the voices of a piper config: one, or one per speaker of
// a multi-speaker model (in name order, the first the default) with the
// speaker ID of each.
func piperVoices(c *piperConfig) ([]Voice, map[string]int64) {
	lang := strings.ReplaceAll(c.Language.Code, "_", "-")
	if lang == "" {
		lang = c.Espeak.Voice
	}
	name := c.Dataset
	if name == "" {
		name = "default"
	}
	controls := []string{"speed"}
	speaker := map[string]int64{}
	if len(c.SpeakerIDMap) <= 1 {
		return []Voice{{ID: "builtin:" + name, Name: name, Languages: []string{lang}, SampleRate: c.Audio.SampleRate, Controls: controls, Default: true}}, speaker
	}
	names := make([]string, 0, len(c.SpeakerIDMap))
	for n := range c.SpeakerIDMap {
		names = append(names, n)
	}
	sort.Strings(names)
	var voices []Voice
	for i, n := range names {
		id := "builtin:" + name + "-" + n
		voices = append(voices, Voice{ID: id, Name: name + " " + n, Languages: []string{lang}, SampleRate: c.Audio.SampleRate, Controls: controls, Default: i == 0})
		speaker[id] = c.SpeakerIDMap[n]
	}
	return voices, speaker
}

func (p *piper) Voices() []Voice { return slices.Clone(p.voices) }

func (p *piper) Close() error {
	p.phon.Close()
	return p.session.Close()
}

// phonemes phonemizes text with the voice's espeak-ng voice, a word at a
// time, keeping the punctuation after each word that the model knows
// (",", ".", "!", "?" ...) and a space between words.
func (p *piper) phonemes(ctx context.Context, text string) (string, error) {
	words := strings.Fields(text)
	core := make([]string, len(words))
	for i, w := range words {
		core[i] = strings.TrimFunc(w, unicode.IsPunct)
	}
	ipa, err := p.phon.IPA(ctx, p.cfg.Espeak.Voice, core)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i, w := range words {
		if ipa[i] != "" {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(ipa[i])
		}
		for len(w) > 0 {
			r, n := utf8.DecodeLastRuneInString(w)
			if !unicode.IsPunct(r) {
				break
			}
			w = w[:len(w)-n]
		}
		tail := words[i][len(w):]
		for _, r := range tail {
			if _, ok := p.cfg.PhonemeIDMap[string(r)]; ok {
				b.WriteRune(r)
			}
		}
	}
	return b.String(), nil
}

// Synthesize phonemizes text and runs the model once.
func (p *piper) Synthesize(ctx context.Context, text string, opts Options, emit func(Chunk) error) error {
	v, ok := FindVoice(p, opts.Voice)
	if !ok {
		return unknownVoice(opts.Voice)
	}
	ph, err := p.phonemes(ctx, text)
	if err != nil {
		return err
	}
	ids := p.cfg.ids(ph)
	inf := p.cfg.Inference
	in := []onnx.Tensor{
		{Shape: []int64{1, int64(len(ids))}, Int64: ids},
		{Shape: []int64{1}, Int64: []int64{int64(len(ids))}},
		{Shape: []int64{3}, Data: []float32{float32(inf.NoiseScale), float32(inf.LengthScale / clampSpeed(opts.Speed)), float32(inf.NoiseW)}},
	}
	if p.cfg.NumSpeakers > 1 {
		in = append(in, onnx.Tensor{Shape: []int64{1}, Int64: []int64{p.speaker[v.ID]}})
	}
	out, err := p.session.Run(ctx, in)
	if err != nil {
		return err
	}
	s := out[0].Data
	for i, x := range s {
		if math.IsNaN(float64(x)) {
			s[i] = 0
		}
	}
	return emit(Chunk{Samples: s, Rate: p.cfg.Audio.SampleRate})
}
