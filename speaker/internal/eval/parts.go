package main

import (
	"compress/gzip"
	"context"
	"encoding/gob"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/speaker"
	"github.com/sottolabs/sotto/speaker/internal/parts"
)

// Experiments from stored parts (-partsdump, -partsscore): one run embeds
// the dev part of every condition and stores each embedding's parts
// (speaker/internal/parts); variants of the fusion are then scored from
// the stored parts in seconds. The sealed part is never stored.

// partsDump is what -partsdump writes.
type partsDump struct {
	// Emb maps file|clip|noise to the parts of its clips (a nil entry: a
	// clip refused for too little speech).
	Emb map[string][]*parts.Parts
	// Trials are the dev trials of both lists, by list.
	Trials map[string][]trial2
	// Taus names the extra prior weights of Parts.Extra.
	Taus []string
}

// trial2 is a trial in a form gob stores.
type trial2 struct {
	A, B string
	Same bool
}

// extraTaus are the other prior weights stored with each embedding's
// parts: the driver's weight tau (0.5 per speech frame, more in noise)
// grown as if every clip had n0 more frames of speech, so that short
// clips shrink more towards the background model than long ones.
var extraTaus = []struct {
	name string
	f    func(frames int, snr, tau float64) float64
}{
	{"tau·(1+100/n)", func(n int, _, t float64) float64 { return t * (1 + 100/float64(n)) }},
	{"tau·(1+300/n)", func(n int, _, t float64) float64 { return t * (1 + 300/float64(n)) }},
	{"tau·(1+1000/n)", func(n int, _, t float64) float64 { return t * (1 + 1000/float64(n)) }},
	{"tau·0.7", func(_ int, _, t float64) float64 { return t * 0.7 }},
}

func condKey(name string, c condition) string { return fmt.Sprintf("%s|%v|%v", name, c.clip, c.noise) }

// dumpParts embeds the dev part of every condition and writes the parts.
func dumpParts(ctx context.Context, e *evaluator, path string) error {
	dir, err := testdata.Lookup("speech")
	if err != nil {
		return err
	}
	var opt parts.Options
	d := partsDump{Emb: map[string][]*parts.Parts{}}
	for _, x := range extraTaus {
		opt.Taus = append(opt.Taus, x.f)
		d.Taus = append(d.Taus, x.name)
	}
	d.Trials, err = devSides(dir, func(name string, c condition) error {
		ps, err := e.parts(name, c, opt)
		if err != nil {
			return err
		}
		d.Emb[condKey(name, c)] = ps
		return nil
	}, func(set string) { fmt.Fprintf(os.Stderr, "%s: %d embeddings so far\n", set, len(d.Emb)) })
	if err != nil {
		return err
	}
	return writeGob(path, &d)
}

// devSides calls side once for each side of each dev trial of both lists
// under each of evalConditions (file A clean, file B as the condition says),
// skipping a side it has already been called for, and after with each list's
// name once its trials are done. It returns the dev trials of each list.
func devSides(dir string, side func(name string, c condition) error, after func(set string)) (map[string][]trial2, error) {
	out := map[string][]trial2{}
	seen := map[string]bool{}
	for _, set := range []string{"trials.txt", "trials-more.txt"} {
		trials, err := readTrials(filepath.Join(dir, set))
		if err != nil {
			return nil, err
		}
		for _, t := range trials {
			if t.sealed {
				continue
			}
			out[set] = append(out[set], trial2{t.a, t.b, t.same})
			for _, c := range evalConditions {
				ca := c
				ca.noise = false
				for _, x := range []struct {
					name string
					c    condition
				}{{t.a, ca}, {t.b, c}} {
					k := condKey(x.name, x.c)
					if seen[k] {
						continue
					}
					seen[k] = true
					if err := side(x.name, x.c); err != nil {
						return nil, err
					}
				}
			}
		}
		if after != nil {
			after(set)
		}
	}
	return out, nil
}

// evalConditions are the five conditions of the report.
var evalConditions = []condition{{}, {clip: 6}, {clip: 3}, {noise: true}, {clip: 3, noise: true}}

// parts returns the parts of the embeddings of name's clips under c
// (nil for a clip with too little speech), clips cut as embeddings cuts
// them.
func (e *evaluator) parts(name string, c condition, o parts.Options) ([]*parts.Parts, error) {
	s, err := e.load(name)
	if err != nil {
		return nil, err
	}
	if c.noise {
		s = addNoise(s, name, 20)
	}
	var out []*parts.Parts
	for _, cl := range clipsOf(s, c) {
		p, err := parts.Of(e.ctx, e.b, sotto.Audio{Samples: cl, SampleRate: sotto.SampleRate}, o)
		if err != nil {
			if se, ok := err.(*sotto.Error); ok && se.Code == speaker.CodeTooLittleSpeech {
				continue
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// clipsOf cuts s into the clips of condition c (the whole of s, or
// non-overlapping clips from the start).
func clipsOf(s []float32, c condition) [][]float32 {
	if c.clip == 0 {
		return [][]float32{s}
	}
	var clips [][]float32
	n := int(c.clip * sotto.SampleRate)
	for i := 0; i+n <= len(s); i += n {
		clips = append(clips, s[i:i+n])
	}
	return clips
}

// side is one embedding as a variant sees it: unit-length (or zero)
// parts and their weights in the cosine.
type side struct {
	u [][]float64
	w []float64
}

// fusedScore is the cosine of two embeddings fused from weighted parts:
// each embedding is Σ_p sqrt(w_p)·u_p scaled to unit length.
func fusedScore(a, b side) float64 {
	var num, na, nb float64
	for p := range a.u {
		num += math.Sqrt(a.w[p]*b.w[p]) * dot(a.u[p], b.u[p])
		na += a.w[p] * dot(a.u[p], a.u[p])
		nb += b.w[p] * dot(b.u[p], b.u[p])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return num / math.Sqrt(na*nb)
}

func dot(x, y []float64) float64 {
	var s float64
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}

func unit(x []float64) []float64 {
	out := append([]float64(nil), x...)
	n := math.Sqrt(dot(out, out))
	if n > 0 {
		for i := range out {
			out[i] /= n
		}
	}
	return out
}

// Shares of sphinx-mllr-v7's fusion (speaker/pitch.go fuse): static,
// delta, pitch, formant.
const (
	v7Pitch   = 0.1
	v7Formant = 0.08
	v7Delta   = 0.1
)

// v7Side is the embedding of p as the driver fuses it.
func v7Side(p *parts.Parts) side {
	s := 1 - v7Pitch - v7Formant
	return side{
		u: [][]float64{unit(p.Static), unit(p.DeltaProj), p.PitchEnc, p.FormantEnc},
		w: []float64{s * (1 - v7Delta), s * v7Delta, v7Pitch, v7Formant},
	}
}

// v8Side is the embedding of p as sphinx-mllr-v8 fuses it
// (speaker/shares.go): v7's shares moved by the amount of speech, T = 200
// frames, faded out in noise (SNR from 30 down to 20 dB) except the
// pitch's.
func v8Side(p *parts.Parts) side {
	s := bySpeechSNR(50, 200, 20)(p)
	s.w[2] *= 1 + 200/(float64(p.Frames)+200)
	return s
}

// variant maps stored parts to a side; nil means v7.
type variant struct {
	name string
	f    func(p *parts.Parts) side
}

// scorePartsFile scores every variant of partsVariants on the stored dev
// parts and prints the EER of each condition, both lists together.
func scorePartsFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	var d partsDump
	if err := gob.NewDecoder(z).Decode(&d); err != nil {
		return err
	}
	names := []string{"whole", "6 s", "3 s", "B noisy", "3 s B noisy"}
	for _, v := range partsVariants(d.Taus) {
		if only != "" && !strings.Contains(v.name, only) {
			continue
		}
		cache := map[*parts.Parts]side{}
		get := func(p *parts.Parts) side {
			s, ok := cache[p]
			if !ok {
				s = v.f(p)
				cache[p] = s
			}
			return s
		}
		var out []string
		for _, c := range evalConditions {
			var sc []score
			ca := c
			ca.noise = false
			sets := make([]string, 0, len(d.Trials))
			for s := range d.Trials {
				sets = append(sets, s)
			}
			sort.Strings(sets)
			for _, set := range sets {
				for _, t := range d.Trials[set] {
					for _, x := range d.Emb[condKey(t.A, ca)] {
						for _, y := range d.Emb[condKey(t.B, c)] {
							sc = append(sc, score{fusedScore(get(x), get(y)), t.Same})
						}
					}
				}
			}
			rate, thr := eer(sc)
			out = append(out, fmt.Sprintf("%.1f", 100*rate))
			if c.clip == 0 && !c.noise || c.clip == 3 && !c.noise {
				out[len(out)-1] += fmt.Sprintf(" (thr %.3f)", thr)
			}
		}
		fmt.Printf("%-50s %s\n", v.name, strings.Join(out, " / "))
	}
	_ = names
	return nil
}
