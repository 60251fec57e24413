package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/gob"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/speaker"
	"github.com/sottolabs/sotto/speaker/internal/parts"
)

// Content-variability compensation, label-free (-napdump, -napscore):
// overlapping 3 s windows of one recording share its speaker and session,
// so their scatter around the recording's mean is what was said. -napdump
// stores the transforms of every such window of every usable recording
// (the trial files of speakers.tsv and the non-trial cohort); -napscore
// estimates the scatter's main directions speaker-disjointly and scores
// projections of them against v8 on the stored dev trial parts.

// napWindow is one window's transforms.
type napWindow struct {
	Static, DeltaProj []float64
	Frames            int
	SNR               float64
}

// napDump is what -napdump writes: each recording's windows, and the
// speaker of each trial recording (the cohort's are absent).
type napDump struct {
	Win     map[string][]napWindow
	Speaker map[string]string
	Clip    float64
	Hop     float64
}

// napNoise, when "white" or "pink", stores the windows of a noisy copy
// of every recording too.
var napNoise string

const (
	napClip = 3.0 // window length, seconds
	napHop  = 1.0 // hop between windows, seconds
)

// readSpeakers returns file -> speaker id of speakers.tsv.
func readSpeakers(dir string) (map[string]string, error) {
	f, err := os.Open(filepath.Join(dir, "speakers.tsv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for first := true; sc.Scan(); first = false {
		fl := strings.Fields(sc.Text())
		if first || len(fl) < 2 {
			continue
		}
		out[fl[0]] = fl[1]
	}
	return out, sc.Err()
}

// napRecordings are the recordings whose windows are stored, in order:
// the trial files, then the non-trial cohort.
func napRecordings(spk map[string]string) []string {
	var files []string
	for f := range spk {
		files = append(files, f)
	}
	slices.Sort(files)
	return append(files, realCohort...)
}

// dumpNap stores the transforms of every window of every usable recording.
func dumpNap(ctx context.Context, e *evaluator, path string) error {
	dir, err := testdata.Lookup("speech")
	if err != nil {
		return err
	}
	spk, err := readSpeakers(dir)
	if err != nil {
		return err
	}
	d := napDump{Win: map[string][]napWindow{}, Speaker: spk, Clip: napClip, Hop: napHop}
	for i, f := range napRecordings(spk) {
		ws, err := napWindows(ctx, e, f, napClip, napHop, 0)
		if err != nil {
			return err
		}
		d.Win[f] = ws
		if napNoise != "" {
			// A copy with noise at 15 or 25 dB SNR (every other
			// recording; the trials' noise is white at 20 dB, seeded
			// otherwise).
			snr := 15.0 + 10*float64(i%2)
			if ws, err = napWindows(ctx, e, f, napClip, napHop, snr); err != nil {
				return err
			}
			d.Win[f+"|noisy"] = ws
		}
		if i%20 == 0 {
			fmt.Fprintf(os.Stderr, "%d recordings, %s: %d windows\n", i+1, f, len(ws))
		}
	}
	return writeGob(path, &d)
}

// napWindows returns the transforms of the clip-second windows of file f
// every hop seconds (windows with too little speech left out).
// With snr > 0, white noise at that SNR is added first (seeded by the
// file name and "nap").
func napWindows(ctx context.Context, e *evaluator, f string, clip, hop, snr float64) ([]napWindow, error) {
	a, _, err := audio.DecodeFile(ctx, filepath.Join(e.dir, f), audio.Options{Channel: "mix"})
	if err != nil {
		return nil, err
	}
	s := a.Samples
	if a.Rate() != sotto.SampleRate {
		if s, err = audio.Resample(nil, s, a.Rate(), sotto.SampleRate); err != nil {
			return nil, err
		}
	}
	switch {
	case snr > 0 && napNoise == "pink":
		s = addPinkNoise(s, f+"|nap", snr)
	case snr > 0:
		s = addNoise(s, f+"|nap", snr)
	}
	n, h := int(clip*sotto.SampleRate), int(hop*sotto.SampleRate)
	var out []napWindow
	for i := 0; i+n <= len(s); i += h {
		p, err := parts.Of(ctx, e.b, sotto.Audio{Samples: s[i : i+n], SampleRate: sotto.SampleRate}, parts.Options{})
		if err != nil {
			if se, ok := err.(*sotto.Error); ok && se.Code == speaker.CodeTooLittleSpeech {
				continue
			}
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, napWindow{Static: p.Static, DeltaProj: p.DeltaProj, Frames: p.Frames, SNR: p.SNR})
	}
	return out, nil
}

func writeGob(path string, v any) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	z := gzip.NewWriter(f)
	if err := gob.NewEncoder(z).Encode(v); err != nil {
		f.Close()
		return err
	}
	if err := z.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func readGob(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	return gob.NewDecoder(z).Decode(v)
}

// addPinkNoise returns s with pink (1/f) Gaussian noise at snr dB below
// its mean power: white noise through three first-order low-passes
// (Kellet's economy filter, within about 0.5 dB of 1/f over the speech
// band), from a generator seeded by name.
func addPinkNoise(s []float32, name string, snr float64) []float32 {
	var p float64
	for _, v := range s {
		p += float64(v) * float64(v)
	}
	p /= float64(len(s))
	h := fnv.New64a()
	h.Write([]byte(name))
	r := rand.New(rand.NewPCG(h.Sum64(), 21))
	n := make([]float64, len(s))
	var b0, b1, b2, pn float64
	for i := range n {
		w := r.NormFloat64()
		b0 = 0.99765*b0 + w*0.0990460
		b1 = 0.96300*b1 + w*0.2965164
		b2 = 0.57000*b2 + w*1.0526913
		n[i] = b0 + b1 + b2 + w*0.1848
		pn += n[i] * n[i]
	}
	pn /= float64(len(n))
	g := math.Sqrt(p / math.Pow(10, snr/10) / pn)
	out := make([]float32, len(s))
	for i, v := range s {
		out[i] = v + float32(g*n[i])
	}
	return out
}
