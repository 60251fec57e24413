package tts

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/tts/internal/vc"
)

// The clone driver is Sotto's voice-cloning model (catalog Sotto/Clone): a
// base voice of flite or espeak-ng speaks, then a signal-processing voice
// conversion moves the result toward a reference speaker measured from a
// recording ([AnalyzeVoice]): F0 mean and range through the engine's own
// pitch settings, vocal-tract length by a frequency warp (resampling by α,
// then WSOLA back to the original duration), the long-term spectral
// envelope by an equalizer, and the speaking rate through the engine's
// speed. No trained weights: it moves the long-term statistics of a voice,
// not its fine detail (docs/bench/tts.md measures how far that gets).

func init() {
	Register(Driver{Name: "clone", Priority: 5, Open: openClone})
}

// Options of the clone driver naming the engine programs; each defaults to
// the program on $PATH. At least one must be installed.
const (
	OptCloneFlite  = "flite"
	OptCloneEspeak = "espeak-ng"
)

// Clone recipes (spec part 4, clone_recipe).
const (
	// RecipeControllable keeps style control: the base voice and the
	// design words of the instructions (pitch, speed) apply, then the
	// conversion, with the spectral equalizer at part strength.
	RecipeControllable = "controllable"
	// RecipeUltimate aims at the closest match and takes no style: the
	// base voice nearest the reference is chosen, and the equalizer
	// matches the full long-term spectrum.
	RecipeUltimate = "ultimate"
)

// MinReferenceSpeech is the least speech, in seconds after the
// voice-activity gate, a reference recording must hold.
const MinReferenceSpeech = 3.0

// VoiceProfile is the long-term description of a speaker that cloning
// matches: F0 mean and spread, long-term average spectrum, syllable rate.
// Its JSON form is what a voice library stores.
type VoiceProfile = vc.Profile

// AnalyzeVoice measures the voice in a reference recording, mono samples
// at rate Hz. A recording with less than [MinReferenceSpeech] seconds of
// speech is a 422 insufficient_speech error naming param, as is one with
// no voiced speech (no F0 found).
func AnalyzeVoice(ctx context.Context, samples []float32, rate int, param string) (VoiceProfile, error) {
	if err := ctx.Err(); err != nil {
		return VoiceProfile{}, err
	}
	p := vc.Analyze(samples, rate)
	if p.SpeechSeconds < MinReferenceSpeech {
		return p, sotto.Unsatisfiable("insufficient_speech", param,
			"the reference holds %.1f s of speech; cloning needs at least %.0f s", p.SpeechSeconds, MinReferenceSpeech)
	}
	if p.F0Mean == 0 || p.Voiced < 0.1 {
		return p, sotto.Unsatisfiable("insufficient_speech", param, "no voiced speech found in the reference (no pitch could be measured)")
	}
	return p, nil
}

// CloneOptions says how to clone a voice.
type CloneOptions struct {
	// Reference is the speaker to move toward (from [AnalyzeVoice]).
	Reference VoiceProfile
	// Recipe is RecipeControllable ("" means it) or RecipeUltimate.
	Recipe string
	// BaseVoice is the voice that speaks before conversion, for
	// RecipeControllable ("" for the default voice). RecipeUltimate
	// chooses its own.
	BaseVoice string
	// Variant is an espeak-ng variant for the base voice (controllable).
	Variant string
	// Language is the language to be spoken (ultimate chooses among its
	// voices); "" for the base voice's.
	Language string
	// RetryBadcase judges every converted sentence (clipping, level,
	// voicing, pitch) and, when it fails, synthesizes it once more with a
	// milder conversion (half the warp and the equalizer).
	RetryBadcase bool
}

// CloneReport says what a cloned voice does and, after synthesis, how the
// judge of RetryBadcase ruled. Its JSON form is the X-Sotto-Clone header.
type CloneReport struct {
	Recipe    string `json:"recipe"`
	BaseVoice string `json:"base_voice"`
	// Alpha is the frequency-warp factor (>1 raises formants: a shorter
	// vocal tract).
	Alpha float64 `json:"alpha"`
	// F0Target and F0Std are the engine's F0 settings in Hz before the
	// warp (0 when the base voice has no pitch control).
	F0Target float64 `json:"f0_target"`
	F0Std    float64 `json:"f0_std,omitempty"`
	// Speed is the engine speed factor from the reference's speaking rate.
	Speed float64 `json:"speed"`
	// EQStrength is the fraction of the long-term spectral difference the
	// equalizer applies (halved, and no rate matching, when ReferenceSNR
	// is under 25 dB).
	EQStrength float64 `json:"eq_strength"`
	// ReferenceSNR is the reference's loud-to-quiet spread in dB.
	ReferenceSNR float64 `json:"reference_snr_db"`
	// Judged counts the sentences the judge checked, Retried those it sent
	// back for a milder conversion, Reasons why (one per retry).
	Judged  int      `json:"judged"`
	Retried int      `json:"retried"`
	Reasons []string `json:"reasons,omitempty"`
}

// Cloner is implemented by backends that clone voices (the clone driver).
type Cloner interface {
	// Clone prepares a voice moved toward opts.Reference. The first call
	// for a base voice synthesizes a short calibration text with it (its
	// statistics are cached); cancelling ctx stops that.
	Clone(ctx context.Context, opts CloneOptions) (*ClonedVoice, error)
}

// calibrationText is what the clone driver speaks to measure a base voice
// (three Harvard sentences, list 1: phonetically balanced English).
const calibrationText = "The birch canoe slid on the smooth planks. Glue the sheet to the dark blue background. It's easy to tell the depth of a well. These days a chicken leg is a rare dish."

type cloner struct {
	fl     *flite // nil when flite is not installed
	es     *espeak
	voices []Voice
	mu     sync.Mutex
	calib  map[string]vc.Profile
}

var _ Backend = (*cloner)(nil)
var _ Lister = (*cloner)(nil)
var _ Resolver = (*cloner)(nil)
var _ Cloner = (*cloner)(nil)

func openClone(ctx context.Context, cfg backend.Config) (Backend, error) {
	c := &cloner{calib: map[string]vc.Profile{}}
	var errs []error
	if b, err := openFlite(ctx, backend.Config{Options: map[string]string{"program": cfg.Options[OptCloneFlite]}}); err == nil {
		c.fl = b.(*flite)
		c.voices = append(c.voices, c.fl.Voices()...)
	} else {
		errs = append(errs, err)
	}
	if b, err := openEspeak(ctx, backend.Config{Options: map[string]string{"program": cfg.Options[OptCloneEspeak]}}); err == nil {
		c.es = b.(*espeak)
		for _, v := range c.es.Voices() {
			v.Default = v.Default && c.fl == nil
			c.voices = append(c.voices, v)
		}
	} else {
		errs = append(errs, err)
	}
	if c.fl == nil && c.es == nil {
		return nil, fmt.Errorf("tts: clone: no base engine: %w", errors.Join(errs...))
	}
	return c, nil
}

func (c *cloner) Voices() []Voice { return slices.Clone(c.voices) }

func (c *cloner) ResolveVoice(id string) (Voice, bool) {
	if c.fl != nil {
		if v, ok := FindVoice(c.fl, id); ok {
			return v, true
		}
	}
	if c.es != nil {
		return c.es.ResolveVoice(id)
	}
	return Voice{}, false
}

// Variants and VariantFor pass espeak-ng's variants through, so that
// builtin:design works on this model as on Sotto/eSpeak.
func (c *cloner) Variants() []string {
	if c.es == nil {
		return nil
	}
	return c.es.Variants()
}

func (c *cloner) VariantFor(g string) string {
	if c.es == nil {
		return ""
	}
	return c.es.VariantFor(g)
}

func (c *cloner) Close() error { return nil }

// Synthesize speaks with the base voice alone, without conversion.
func (c *cloner) Synthesize(ctx context.Context, text string, opts Options, emit func(Chunk) error) error {
	return c.engine(opts.Voice).Synthesize(ctx, text, opts, emit)
}

// engine returns the engine that has voice id: flite for its voices and,
// when installed, for the default ("" or builtin:auto); espeak-ng otherwise.
func (c *cloner) engine(id string) Backend {
	if c.fl != nil {
		if _, ok := FindVoice(c.fl, id); ok {
			return c.fl
		}
	}
	if c.es == nil {
		return c.fl // its Synthesize reports the unknown voice
	}
	return c.es
}

// engineSettings is how the base engine is asked to speak.
type engineSettings struct {
	voice        Voice
	variant      string
	f0, f0std    float64 // Hz; 0: the voice's own
	speed, pitch float64 // pitch: semitones, for engines set in semitones
}

// f0Control reports how a voice's F0 is set: "hz" (flite voices that honour
// int_f0_target_mean), "semitones" (espeak-ng's -p) or "" (none: flite rms).
func (c *cloner) f0Control(v Voice) string {
	if c.fl != nil {
		if fv, ok := c.fl.byID[v.ID]; ok {
			if fv.name == "rms" { // its clustergen model ignores the F0 target features
				return ""
			}
			return "hz"
		}
	}
	return "semitones"
}

// speak runs the base engine with s on text.
func (c *cloner) speak(ctx context.Context, text string, s engineSettings) (Chunk, error) {
	if c.fl != nil {
		if fv, ok := c.fl.byID[s.voice.ID]; ok {
			args := []string{"-voice", fv.name}
			if sp := clampSpeed(s.speed); sp != 1 {
				args = append(args, "--setf", "duration_stretch="+strconv.FormatFloat(1/sp, 'g', 6, 64))
			}
			if s.f0 > 0 && c.f0Control(s.voice) == "hz" {
				args = append(args, "--setf", "int_f0_target_mean="+strconv.FormatFloat(s.f0, 'f', 1, 64))
				if s.f0std > 0 {
					args = append(args, "--setf", "int_f0_target_stddev="+strconv.FormatFloat(s.f0std, 'f', 1, 64))
				}
			}
			args = append(args, "-psdur", "-t", text, "-o", wavFD)
			ch, segs, err := runWAVSide(ctx, c.fl.prog, args)
			if err != nil {
				return Chunk{}, err
			}
			ch.Phones = parseSegments(segs)
			return ch, nil
		}
	}
	if c.es == nil {
		return Chunk{}, unknownVoice(s.voice.ID)
	}
	var out Chunk
	err := c.es.Synthesize(ctx, text, Options{Voice: s.voice.ID, Variant: s.variant, Speed: s.speed, Pitch: s.pitch}, func(ch Chunk) error {
		out.Samples = append(out.Samples, ch.Samples...)
		out.Rate = ch.Rate
		return nil
	})
	return out, err
}

// profile measures the base engine with settings s, its output warped by
// alpha, on the calibration text (cached).
func (c *cloner) profile(ctx context.Context, s engineSettings, alpha float64) (vc.Profile, error) {
	key := fmt.Sprintf("%s+%s f0=%.0f/%.0f speed=%.2f pitch=%.1f α=%.3f", s.voice.ID, s.variant, s.f0, s.f0std, s.speed, s.pitch, alpha)
	c.mu.Lock()
	p, ok := c.calib[key]
	c.mu.Unlock()
	if ok {
		return p, nil
	}
	ch, err := c.speak(ctx, calibrationText, s)
	if err != nil {
		return vc.Profile{}, err
	}
	p = vc.Analyze(vc.Warp(ch.Samples, ch.Rate, alpha), ch.Rate)
	c.mu.Lock()
	if len(c.calib) > 4096 {
		clear(c.calib)
	}
	c.calib[key] = p
	c.mu.Unlock()
	return p, nil
}

// Clone prepares a voice moved toward opts.Reference; see [Cloner].
func (c *cloner) Clone(ctx context.Context, opts CloneOptions) (*ClonedVoice, error) {
	ref := opts.Reference
	if !ref.Valid() || ref.F0Mean <= 0 {
		return nil, sotto.Invalid("bad_request", "voice", "the saved voice has no usable reference recording")
	}
	recipe := opts.Recipe
	if recipe == "" {
		recipe = RecipeControllable
	}
	s := engineSettings{speed: 1}
	switch recipe {
	case RecipeControllable:
		v, ok := FindVoice(c, opts.BaseVoice)
		if !ok {
			return nil, unknownVoice(opts.BaseVoice)
		}
		s.voice, s.variant = v, opts.Variant
	case RecipeUltimate:
		v, variant, err := c.nearest(ctx, ref, opts.Language)
		if err != nil {
			return nil, err
		}
		s.voice, s.variant = v, variant
	default:
		return nil, sotto.Invalid("bad_request", "clone_recipe", "clone_recipe must be controllable or ultimate, not %q", recipe)
	}
	base, err := c.profile(ctx, s, 1)
	if err != nil {
		return nil, err
	}
	alpha := vc.WarpFactor(base, ref)
	// Speaking rate: the engine's speed scales the base voice's syllable
	// rate toward the reference's, within a third either way — when the
	// reference is clean enough for its syllable peaks to be counted.
	reliable := ref.SNR >= vc.ReliableSNR
	if reliable && base.SyllableRate > 0 && ref.SyllableRate > 0 {
		s.speed = min(max(ref.SyllableRate/base.SyllableRate, 0.75), 1.33)
	}
	// F0: the warp multiplies it by α, so the engine aims at F0/α; one
	// correction step from the measured result absorbs the engine's own
	// mapping (espeak-ng's pitch scale, flite's model).
	ctl := c.f0Control(s.voice)
	setF0 := func(target float64) {
		target = min(max(target, 50), 400)
		s.f0 = target
		s.f0std = ref.F0Std / alpha
		if ctl == "semitones" && base.F0Mean > 0 {
			s.pitch = clampPitch(12 * math.Log2(target/base.F0Mean))
		}
	}
	if ctl != "" && base.F0Mean > 0 {
		setF0(ref.F0Mean / alpha)
		got, err := c.profile(ctx, s, alpha)
		if err != nil {
			return nil, err
		}
		if got.F0Mean > 0 && math.Abs(math.Log(got.F0Mean/ref.F0Mean)) > 0.03 {
			setF0(s.f0 * ref.F0Mean / got.F0Mean)
		}
	} else {
		s.f0, s.f0std = 0, 0
	}
	strength := 0.6
	if recipe == RecipeUltimate {
		strength = 1
	}
	if !reliable {
		strength /= 2 // a noisy reference's spectrum is partly its background
	}
	conv, err := c.profile(ctx, s, alpha)
	if err != nil {
		return nil, err
	}
	cv := &ClonedVoice{c: c, settings: s, alpha: alpha, retry: opts.RetryBadcase, recipe: recipe, strength: strength,
		gains: vc.EQGains(conv, ref, strength, 12), mild: vc.EQGains(conv, ref, strength/2, 6), ref: ref}
	cv.report = CloneReport{Recipe: recipe, BaseVoice: s.voice.ID, Alpha: round3(alpha), F0Target: round3(s.f0),
		F0Std: round3(s.f0std), Speed: round3(s.speed), EQStrength: strength, ReferenceSNR: math.Round(ref.SNR)}
	if s.variant != "" && !strings.Contains(s.voice.ID, "+") {
		cv.report.BaseVoice += "+" + s.variant
	}
	return cv, nil
}

// nearest picks, among the voices for lang that have pitch control, the one
// whose spectral shape after the best warp is closest to ref, with the
// warp and the F0 distance counted against it.
func (c *cloner) nearest(ctx context.Context, ref vc.Profile, lang string) (Voice, string, error) {
	type cand struct {
		v       Voice
		variant string
	}
	var cands []cand
	base := baseLanguage(lang)
	if base == "" {
		base = "en"
	}
	speaks := func(v Voice) bool { return slices.ContainsFunc(v.Languages, sameBase(base)) }
	if c.fl != nil {
		for _, v := range c.fl.Voices() {
			if speaks(v) && c.f0Control(v) != "" && c.fl.byID[v.ID].rate == 16000 {
				cands = append(cands, cand{v: v})
			}
		}
	}
	if c.es != nil {
		if v, err := PickVoice(c.es, base); err == nil {
			cands = append(cands, cand{v: v})
			if f := c.es.VariantFor("female"); f != "" {
				cands = append(cands, cand{v: v, variant: f})
			}
		}
	}
	if len(cands) == 0 {
		return Voice{}, "", sotto.Unsatisfiable("language_unsupported", "language", "no base voice of this model speaks %q", lang)
	}
	best, bestD := 0, math.Inf(1)
	for i, k := range cands {
		p, err := c.profile(ctx, engineSettings{voice: k.v, variant: k.variant, speed: 1}, 1)
		if err != nil {
			return Voice{}, "", err
		}
		if p.F0Mean <= 0 {
			continue
		}
		alpha := vc.WarpFactor(p, ref)
		d := 4*math.Abs(math.Log(alpha)) + math.Abs(math.Log(ref.F0Mean/p.F0Mean)) + ltasDistance(p, ref, alpha)/10
		if d < bestD {
			best, bestD = i, d
		}
	}
	return cands[best].v, cands[best].variant, nil
}

// ltasDistance is the RMS difference in dB of ref's LTAS and p's warped by
// alpha over 250–5000 Hz.
func ltasDistance(p, ref vc.Profile, alpha float64) float64 {
	p.LTAS = vc.WarpLTAS(p.LTAS, alpha)
	w := vc.EQGains(p, ref, 1, 100) // ref − warped p, smoothed
	var s float64
	lo, hi := 250/vc.BandHz, 5000/vc.BandHz
	for b := lo; b < hi; b++ {
		s += w[b] * w[b]
	}
	return math.Sqrt(s / float64(hi-lo))
}

// ClonedVoice is a voice moved toward a reference speaker: a [Backend]
// with one voice (its base voice's ID) whose every synthesis is converted.
// Options.Speed multiplies the rate matched to the reference; with the
// controllable recipe Options.Pitch (semitones) shifts its F0. It is safe
// for concurrent use by multiple goroutines.
type ClonedVoice struct {
	c           *cloner
	settings    engineSettings
	alpha       float64
	gains, mild []float64
	ref         vc.Profile
	retry       bool
	recipe      string
	strength    float64
	mu          sync.Mutex
	report      CloneReport
}

var _ Backend = (*ClonedVoice)(nil)
var _ Lister = (*ClonedVoice)(nil)

// Voice returns the base voice that speaks.
func (cv *ClonedVoice) Voice() Voice {
	v := cv.settings.voice
	v.Default = true
	return v
}

// Voices lists the one voice of cv.
func (cv *ClonedVoice) Voices() []Voice { return []Voice{cv.Voice()} }

// Report returns what cv does and the judge's rulings so far.
func (cv *ClonedVoice) Report() CloneReport {
	cv.mu.Lock()
	defer cv.mu.Unlock()
	r := cv.report
	r.Reasons = slices.Clone(r.Reasons)
	return r
}

// Close does nothing: the engines belong to the model.
func (cv *ClonedVoice) Close() error { return nil }

// Synthesize speaks text with the base voice and converts it.
func (cv *ClonedVoice) Synthesize(ctx context.Context, text string, opts Options, emit func(Chunk) error) error {
	s := cv.settings
	s.speed *= clampSpeed(opts.Speed)
	if cv.recipe == RecipeControllable && opts.Pitch != 0 {
		k := math.Pow(2, clampPitch(opts.Pitch)/12)
		if s.f0 > 0 {
			s.f0 *= k
		}
		s.pitch = clampPitch(s.pitch + opts.Pitch)
	}
	ch, err := cv.c.speak(ctx, text, s)
	if err != nil {
		return err
	}
	out := cv.convert(ch, cv.alpha, cv.gains)
	if cv.retry {
		reason := cv.judge(ch, out, s)
		cv.mu.Lock()
		cv.report.Judged++
		if reason != "" {
			cv.report.Retried++
			cv.report.Reasons = append(cv.report.Reasons, reason)
		}
		cv.mu.Unlock()
		if reason != "" {
			out = cv.convert(ch, 1+(cv.alpha-1)/2, cv.mild)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return emit(out)
}

// convert warps and equalizes a chunk and brings it back to its level.
func (cv *ClonedVoice) convert(ch Chunk, alpha float64, gains []float64) Chunk {
	y := vc.Equalize(vc.Warp(ch.Samples, ch.Rate, alpha), ch.Rate, gains)
	if a, b := vc.Level(ch.Samples), vc.Level(y); a > 0 && b > 0 {
		vc.Gain(y, a/b)
	}
	return Chunk{Samples: y, Rate: ch.Rate, Phones: ch.Phones}
}

// judge returns why a converted sentence failed, or "": clipping, a level
// collapse, lost voicing, or an F0 far from the reference's.
func (cv *ClonedVoice) judge(in, out Chunk, s engineSettings) string {
	y := vc.Equalize(vc.Warp(in.Samples, in.Rate, cv.alpha), in.Rate, cv.gains)
	if a, b := vc.Level(in.Samples), vc.Level(y); a > 0 && b > 0 {
		if f := vc.Clipped(scaled(y, a/b)); f > 0.001 {
			return fmt.Sprintf("clipping: %.2f %% of samples", 100*f)
		}
	}
	pin, pout := vc.Analyze(in.Samples, in.Rate), vc.Analyze(out.Samples, out.Rate)
	if pin.SpeechSeconds > 0.3 {
		if pout.SpeechSeconds < 0.5*pin.SpeechSeconds {
			return fmt.Sprintf("level: speech %.2f s of %.2f s", pout.SpeechSeconds, pin.SpeechSeconds)
		}
		if pout.Voiced < 0.6*pin.Voiced {
			return fmt.Sprintf("voicing: %.0f %% of frames voiced, base voice %.0f %%", 100*pout.Voiced, 100*pin.Voiced)
		}
		want := cv.ref.F0Mean
		if s.f0 > 0 && cv.settings.f0 > 0 {
			want *= s.f0 / cv.settings.f0 // a requested pitch shift moves the target
		}
		if pout.F0Mean > 0 && math.Abs(math.Log(pout.F0Mean/want)) > math.Log(1.35) && s.f0 > 0 {
			return fmt.Sprintf("pitch: F0 %.0f Hz, target %.0f Hz", pout.F0Mean, want)
		}
	}
	return ""
}

func scaled(x []float32, g float64) []float32 {
	y := make([]float32, len(x))
	for i, v := range x {
		y[i] = float32(float64(v) * g)
	}
	return y
}
