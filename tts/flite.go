package tts

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/sottolabs/sotto/backend"
)

// The flite driver speaks English with the voices Debian's flite package
// ships, running /usr/bin/flite once per sentence (see docs/bench/tts.md for
// why a program and not cgo: the pure-Go default build cannot link C, and a
// process start costs about 3 ms against 30–40 ms of synthesis per sentence).

func init() {
	Register(Driver{Name: "flite", Priority: 20, Open: openFlite})
}

// fliteVoice is what Sotto knows of a flite voice beyond its name.
type fliteVoice struct {
	name, title, lang, gender string
	rate                      int
	f0                        float64 // int_f0_target_mean, Hz; 0: the voice predicts its own f0 (no pitch control)
}

// fliteVoices are the voices of Debian's flite 2.2 with their properties
// (from the voices' own definitions: kal is the 8 kHz diphone voice, kal16
// its 16 kHz version; awb, rms and slt are CMU ARCTIC clustergen voices).
// awb_time (a limited-domain talking clock) is left out.
var fliteVoices = []fliteVoice{
	{"rms", "RMS (US English, male)", "en-US", "male", 16000, 0},
	{"kal16", "Kal (US English, male, diphone, 16 kHz)", "en-US", "male", 16000, 95},
	{"slt", "SLT (US English, female)", "en-US", "female", 16000, 0},
	{"awb", "AWB (Scottish English, male)", "en-GB", "male", 16000, 0},
	{"kal", "Kal (US English, male, diphone, 8 kHz)", "en-US", "male", 8000, 95},
}

// fliteDefault is the default voice: the most intelligible by measurement
// (docs/bench/tts.md: the fewest recognition errors of every voice in a
// round trip through a recognizer), at its natural rate: duration_stretch
// 1.15 did worse through both recognizers.
const fliteDefault = "rms"

type flite struct {
	prog   string
	voices []Voice
	byID   map[string]fliteVoice
}

var _ Backend = (*flite)(nil)
var _ Lister = (*flite)(nil)

// openFlite finds the flite program (catalog option "program", else $PATH)
// and the voices it has.
func openFlite(ctx context.Context, cfg backend.Config) (Backend, error) {
	prog, err := findProgram(cfg.Options, "flite")
	if err != nil {
		return nil, err
	}
	out, err := exec.CommandContext(ctx, prog, "-lv").Output()
	if err != nil {
		return nil, fmt.Errorf("tts: flite -lv: %w", err)
	}
	have := strings.Fields(strings.TrimPrefix(strings.TrimSpace(string(out)), "Voices available:"))
	f := &flite{prog: prog, byID: map[string]fliteVoice{}}
	for _, v := range fliteVoices {
		if !slices.Contains(have, v.name) {
			continue
		}
		controls := []string{"speed"}
		if v.f0 > 0 {
			controls = append(controls, "pitch")
		}
		id := "builtin:" + v.name
		f.voices = append(f.voices, Voice{ID: id, Name: v.title, Languages: []string{v.lang, "en"},
			Gender: v.gender, SampleRate: v.rate, Controls: controls, Default: v.name == fliteDefault})
		f.byID[id] = v
	}
	if len(f.voices) == 0 {
		return nil, fmt.Errorf("tts: flite at %s has none of the voices %v", prog, have)
	}
	if !slices.ContainsFunc(f.voices, func(v Voice) bool { return v.Default }) {
		f.voices[0].Default = true
	}
	return f, nil
}

func (f *flite) Voices() []Voice { return slices.Clone(f.voices) }

func (f *flite) Close() error { return nil }

// Synthesize runs flite on text with the chosen voice, speed (the
// duration_stretch feature) and, for the diphone voices, pitch (their f0
// target mean).
func (f *flite) Synthesize(ctx context.Context, text string, opts Options, emit func(Chunk) error) error {
	v, ok := FindVoice(f, opts.Voice)
	if !ok {
		return unknownVoice(opts.Voice)
	}
	fv := f.byID[v.ID]
	args := []string{"-voice", fv.name}
	if s := clampSpeed(opts.Speed); s != 1 {
		args = append(args, "--setf", "duration_stretch="+strconv.FormatFloat(1/s, 'g', 6, 64))
	}
	if opts.Pitch != 0 && fv.f0 > 0 {
		hz := fv.f0 * math.Pow(2, clampPitch(opts.Pitch)/12)
		args = append(args, "--setf", "int_f0_target_mean="+strconv.FormatFloat(hz, 'f', 1, 64))
	}
	args = append(args, "-psdur", "-t", fliteText(argText(text)), "-o", wavFD)
	c, segs, err := runWAVSide(ctx, f.prog, args)
	if err != nil {
		return err
	}
	c.Phones = parseSegments(segs)
	return emit(c)
}

// fliteText works around the one upper-case word flite drops without a
// sound: "AM", which package normalize writes for the "am" of a time ("9:30
// am" is "nine thirty AM"). Of all 676 two-letter capital words, flite 2.2
// speaks every other one (as a word or letter by letter) but says nothing
// for "AM", so "at ten AM" came out as "at ten" (docs/bench/tts.md). Written
// as the letters "A M" it is spoken as the time's a.m.
func fliteText(s string) string {
	if !strings.Contains(s, "AM") {
		return s
	}
	f := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' })
	if !slices.Contains(f, "AM") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], "AM")
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		at := i + j
		b.WriteString(s[i:at])
		if !wordByte(s, at-1) && !wordByte(s, at+2) {
			b.WriteString("A M")
		} else {
			b.WriteString("AM")
		}
		i = at + 2
	}
	return b.String()
}

// wordByte reports whether s[i] exists and is part of a word (an ASCII
// letter or digit, an apostrophe, or any byte of a non-ASCII rune).
func wordByte(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i]
	return c >= 0x80 || c == '\'' || unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c))
}

// parseSegments reads flite's -psdur output, "pau:0.119 hh:0.212 ...":
// each phone with the time its segment ends. A malformed item ends the
// list there (the audio does not depend on it); times that go backwards
// are clamped.
func parseSegments(s string) []PhoneTime {
	var out []PhoneTime
	prev := 0.0
	for _, item := range strings.Fields(s) {
		ph, end, ok := strings.Cut(item, ":")
		t, err := strconv.ParseFloat(end, 64)
		if !ok || ph == "" || err != nil || math.IsNaN(t) || math.IsInf(t, 0) {
			break
		}
		t = max(t, prev)
		out = append(out, PhoneTime{Phone: ph, Start: prev, End: t})
		prev = t
	}
	return out
}

// clampSpeed maps 0 to 1 and keeps speed within 0.25–4.
func clampSpeed(s float64) float64 {
	if s == 0 || math.IsNaN(s) {
		return 1
	}
	return min(max(s, 0.25), 4)
}

// clampPitch keeps a pitch shift within ±12 semitones.
func clampPitch(p float64) float64 { return min(max(p, -12), 12) }
