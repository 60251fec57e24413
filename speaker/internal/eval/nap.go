package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/gob"
	"fmt"
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

// napNoisy stores a noisy copy of every recording's windows too.
var napNoisy bool

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
		if napNoisy {
			// A copy with white noise at 15 or 25 dB SNR (every other
			// recording; the trials' noise is 20 dB, seeded otherwise).
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
	if snr > 0 {
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
