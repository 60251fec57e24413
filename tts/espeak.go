package tts

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/sottolabs/sotto/backend"
)

// The espeak-ng driver speaks every language and variant the installed
// espeak-ng has. espeak-ng is GPL-3: it runs as a separate program and is
// never linked into Sotto.

func init() {
	Register(Driver{Name: "espeak-ng", Priority: 10, Open: openEspeak})
}

const (
	espeakRate    = 22050 // Hz, espeak-ng's output rate
	espeakWPM     = 175   // words per minute at speed 1 (espeak-ng's default)
	espeakPitch   = 50    // espeak-ng's default pitch, 0–99
	espeakDefault = "en-us"
)

type espeak struct {
	prog     string
	voices   []Voice
	byID     map[string]Voice
	variants []string
	female   []string // variants espeak-ng marks female, in its order
}

var _ Backend = (*espeak)(nil)
var _ Lister = (*espeak)(nil)
var _ Resolver = (*espeak)(nil)

// openEspeak finds espeak-ng (catalog option "program", else $PATH) and
// lists its languages and variants.
func openEspeak(ctx context.Context, cfg backend.Config) (Backend, error) {
	prog, err := findProgram(cfg.Options, "espeak-ng")
	if err != nil {
		return nil, err
	}
	list, err := exec.CommandContext(ctx, prog, "--voices").Output()
	if err != nil {
		return nil, fmt.Errorf("tts: espeak-ng --voices: %w", err)
	}
	vars, err := exec.CommandContext(ctx, prog, "--voices=variant").Output()
	if err != nil {
		return nil, fmt.Errorf("tts: espeak-ng --voices=variant: %w", err)
	}
	e := &espeak{prog: prog, byID: map[string]Voice{}}
	for _, r := range parseEspeakVoices(list) {
		v := Voice{ID: "builtin:" + r.lang, Name: r.name, Languages: []string{r.lang}, Gender: r.gender,
			SampleRate: espeakRate, Controls: []string{"speed", "pitch", "variant"}, Default: r.lang == espeakDefault}
		v.Languages = append(v.Languages, r.other...)
		if _, dup := e.byID[v.ID]; dup {
			continue
		}
		e.voices = append(e.voices, v)
		e.byID[v.ID] = v
	}
	for _, r := range parseEspeakVoices(vars) {
		name := strings.TrimPrefix(r.file, "!v/")
		e.variants = append(e.variants, name)
		if r.gender == "female" {
			e.female = append(e.female, name)
		}
	}
	if len(e.voices) == 0 {
		return nil, fmt.Errorf("tts: espeak-ng at %s lists no voices", prog)
	}
	return e, nil
}

// espeakRow is one line of espeak-ng --voices.
type espeakRow struct {
	lang, name, gender, file string
	other                    []string
}

// otherLang matches one "(language priority)" pair of espeak-ng --voices.
var otherLang = regexp.MustCompile(`\(([^ ()]+) \d+\)`)

// parseEspeakVoices reads the table espeak-ng --voices prints: priority,
// language, age/gender, name, file, then "(lang priority)" pairs of other
// languages. Malformed lines are skipped.
func parseEspeakVoices(b []byte) []espeakRow {
	var rows []espeakRow
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 5 || f[0] == "Pty" {
			continue
		}
		if _, err := strconv.Atoi(f[0]); err != nil {
			continue
		}
		r := espeakRow{lang: strings.ToLower(f[1]), name: strings.ReplaceAll(f[3], "_", " "), file: f[4]}
		switch {
		case strings.HasSuffix(f[2], "/M"):
			r.gender = "male"
		case strings.HasSuffix(f[2], "/F"):
			r.gender = "female"
		}
		for _, m := range otherLang.FindAllStringSubmatch(strings.Join(f[5:], " "), -1) {
			if o := strings.ToLower(m[1]); o != r.lang && !slices.Contains(r.other, o) {
				r.other = append(r.other, o)
			}
		}
		rows = append(rows, r)
	}
	return rows
}

func (e *espeak) Voices() []Voice { return slices.Clone(e.voices) }

// ResolveVoice accepts a listed voice or "builtin:<language>+<variant>",
// espeak-ng's own way of naming a variant of a language's voice.
func (e *espeak) ResolveVoice(id string) (Voice, bool) {
	if v, ok := e.byID[id]; ok {
		return v, true
	}
	base, variant, ok := strings.Cut(id, "+")
	if !ok || !slices.Contains(e.variants, variant) {
		return Voice{}, false
	}
	v, ok := e.byID[base]
	if !ok {
		return Voice{}, false
	}
	v.ID = id
	v.Name += " (" + variant + ")"
	return v, true
}

// Variants lists the installed voice variants (espeak-ng's "!v/" files).
func (e *espeak) Variants() []string { return slices.Clone(e.variants) }

// VariantFor returns a variant giving a voice of the gender ("female" or
// "male"), or "" when none is needed or installed: espeak-ng's language
// voices are male, so only "female" needs one (f3 when installed, the
// clearest of its female variants, else the first).
func (e *espeak) VariantFor(gender string) string {
	if gender != "female" || len(e.female) == 0 {
		return ""
	}
	if slices.Contains(e.female, "f3") {
		return "f3"
	}
	return e.female[0]
}

func (e *espeak) Close() error { return nil }

// Synthesize runs espeak-ng on text: voice, variant, rate in words per
// minute (175 × speed) and pitch (50 ± 4 per semitone, 0–99).
func (e *espeak) Synthesize(ctx context.Context, text string, opts Options, emit func(Chunk) error) error {
	v, ok := FindVoice(e, opts.Voice)
	if !ok {
		return unknownVoice(opts.Voice)
	}
	name := strings.TrimPrefix(v.ID, "builtin:")
	if opts.Variant != "" && !strings.Contains(name, "+") {
		if !slices.Contains(e.variants, opts.Variant) {
			return unknownVariant(opts.Variant)
		}
		name += "+" + opts.Variant
	}
	wpm := int(math.Round(espeakWPM * clampSpeed(opts.Speed)))
	pitch := int(math.Round(espeakPitch + 4*clampPitch(opts.Pitch)))
	args := []string{"-v", name, "-s", strconv.Itoa(min(max(wpm, 80), 450)), "-p", strconv.Itoa(min(max(pitch, 0), 99)),
		"--stdout", "--", argText(text)}
	c, err := runWAV(ctx, e.prog, args)
	if err != nil {
		return err
	}
	return emit(c)
}
