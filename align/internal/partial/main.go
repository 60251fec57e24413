// Command partial measures how the aligner places a transcript that covers
// only part of the audio: speech before the first word or after the last
// that nobody transcribed (an introduction, a question from the floor, the
// next speaker).
//
//	go run ./align/internal/partial                 # all English recordings
//	go run ./align/internal/partial -stride 3 -v    # a quick look, per case
//
// # What is measured
//
// The English recordings with transcripts in the shared speech data
// (en_*_16k.wav beside en_*.txt, up to 20 s each) are taken in name order;
// each recording A is joined with the next two, B and C, into one audio
// A + 0.2 s silence + B + 0.2 s silence + C. Three transcripts are
// aligned to it: A's alone (speech after the words), B's alone (speech on
// both sides) and C's alone (speech before the words). The reference for a
// part is the alignment of that recording alone with its whole transcript,
// shifted by its offset in the joined audio; every word's start and end is
// compared with it (within 50 and 100 ms). A fourth alignment of the whole
// transcript A B C to the joined audio checks that covered audio is
// aligned as before: its boundaries are compared with the alignment that
// has the garbage loop off (Options.StrictEnds).
//
// Each recording is dev or sealed by internal/holdout (a hash of its name;
// a case belongs to the part of B); figures are reported for both.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/holdout"
	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "partial:", err)
		stop()
		os.Exit(1)
	}
}

// recording is one English recording with its transcript.
type recording struct {
	name    string
	samples []float32
	text    string
	ref     []align.Word // its own whole-transcript alignment
}

// stats counts word boundaries within 50 and 100 ms of the reference and
// the alignments that failed.
type stats struct {
	bounds, in50, in100, cases, failed int
}

func (s *stats) add(o stats) {
	s.bounds += o.bounds
	s.in50 += o.in50
	s.in100 += o.in100
	s.cases += o.cases
	s.failed += o.failed
}

func (s stats) cells() string {
	if s.bounds == 0 {
		return fmt.Sprintf("%d | %d | — | —", s.cases, s.failed)
	}
	return fmt.Sprintf("%d | %d | %.1f %% | %.1f %%", s.cases, s.failed,
		100*float64(s.in50)/float64(s.bounds), 100*float64(s.in100)/float64(s.bounds))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("partial", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("data", "", "shared speech test data (default $SOTTO_TESTDATA/speech)")
	stride := fs.Int("stride", 1, "take every n-th recording as A")
	verbose := fs.Bool("v", false, "print every case")
	maxSec := fs.Float64("max-seconds", 20, "longest recording used")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		d, err := sharedtestdata.Lookup("speech")
		if err != nil {
			return err
		}
		*dir = d
	}
	b, err := align.Open(ctx, "", backend.Config{Model: "Sotto/Lattice-2"})
	if err != nil {
		return err
	}
	defer b.Close()
	recs, err := load(ctx, b, *dir, *maxSec, stderr)
	if err != nil {
		return err
	}
	if len(recs) < 3 {
		return fmt.Errorf("%d English recordings with transcripts in %s; need 3", len(recs), *dir)
	}
	// kinds: 0 head (A's words), 1 middle (B's), 2 tail (C's), 3 whole
	// transcript with the loop, against the loop off.
	kinds := []string{"A's words (speech after)", "B's words (speech on both sides)", "C's words (speech before)", "whole transcript, default vs StrictEnds"}
	var byPart [2][4]stats // dev, sealed
	var before [2][3]stats // the same partial cases with StrictEnds (the loop off)
	gap := make([]float32, sotto.SampleRate/5)
	for i := 0; i < len(recs); i += *stride {
		if err := ctx.Err(); err != nil {
			return err
		}
		trio := [3]*recording{recs[i], recs[(i+1)%len(recs)], recs[(i+2)%len(recs)]}
		var joined []float32
		var offsets [3]float64
		for k, r := range trio {
			if k > 0 {
				joined = append(joined, gap...)
			}
			offsets[k] = float64(len(joined)) / sotto.SampleRate
			joined = append(joined, r.samples...)
		}
		part := 0
		if holdout.Sealed(trio[1].name) {
			part = 1
		}
		a := sotto.Audio{Samples: joined, SampleRate: sotto.SampleRate}
		for k, r := range trio {
			for strict := range 2 {
				got, err := alignWords(ctx, b, a, r.text, strict == 1)
				s := stats{cases: 1}
				if err != nil {
					s.failed = 1
				} else {
					s = compare(r.ref, got, offsets[k])
				}
				if strict == 1 {
					before[part][k].add(s)
				} else {
					byPart[part][k].add(s)
				}
				if *verbose && err == nil && len(got) > 0 && len(r.ref) > 0 {
					fmt.Fprintf(stderr, "  first word %q got %.2f-%.2f ref %.2f-%.2f; last got %.2f ref %.2f\n", got[0].Word, got[0].Start, got[0].End,
						r.ref[0].Start+offsets[k], r.ref[0].End+offsets[k], got[len(got)-1].End, r.ref[len(r.ref)-1].End+offsets[k])
				}
				if *verbose {
					fmt.Fprintf(stderr, "%s+%s+%s %d strict=%v: %d/%d within 50 ms, failed %d %v\n",
						trio[0].name, trio[1].name, trio[2].name, k, strict == 1, s.in50, s.bounds, s.failed, err)
				}
			}
		}
		text := trio[0].text + "\n" + trio[1].text + "\n" + trio[2].text
		on, err1 := alignWords(ctx, b, a, text, false)
		off, err2 := alignWords(ctx, b, a, text, true)
		s := stats{cases: 1}
		switch {
		case err2 != nil:
			s.cases = 0 // no baseline to compare with
		case err1 != nil:
			s.failed = 1
		default:
			s = compare(off, on, 0)
		}
		byPart[part][3].add(s)
	}
	fmt.Fprintf(stdout, "| case | part | cases | failed | default ≤50 ms | default ≤100 ms | StrictEnds: failed | StrictEnds ≤50 ms | StrictEnds ≤100 ms |\n")
	fmt.Fprintf(stdout, "|---|---|---|---|---|---|---|---|---|\n")
	for k, kind := range kinds {
		for p, name := range []string{"dev", "sealed"} {
			row := byPart[p][k].cells()
			off := "— | — | —"
			if k < 3 {
				c := before[p][k].cells()
				off = c[strings.Index(c, "|")+2:]
			}
			fmt.Fprintf(stdout, "| %s | %s | %s | %s |\n", kind, name, row, off)
		}
	}
	return nil
}

// load reads the recordings and aligns each alone with its whole
// transcript (the loop off): the reference.
func load(ctx context.Context, b align.Backend, dir string, maxSec float64, log io.Writer) ([]*recording, error) {
	wavs, err := filepath.Glob(filepath.Join(dir, "en_*_16k.wav"))
	if err != nil {
		return nil, err
	}
	sort.Strings(wavs)
	var recs []*recording
	for _, w := range wavs {
		name := strings.TrimSuffix(filepath.Base(w), "_16k.wav")
		txt, err := os.ReadFile(filepath.Join(dir, name+".txt"))
		if err != nil {
			continue
		}
		a, _, err := audio.DecodeFile(ctx, w, audio.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", w, err)
		}
		if a.Seconds() > maxSec {
			continue
		}
		r := &recording{name: name, samples: a.Samples, text: strings.TrimSpace(string(txt))}
		r.ref, err = alignWords(ctx, b, a, r.text, true)
		if err != nil {
			fmt.Fprintf(log, "partial: %s: no reference (%v); left out\n", name, err)
			continue
		}
		recs = append(recs, r)
	}
	return recs, nil
}

// alignWords aligns text to a as the API's default does, and returns its
// words.
func alignWords(ctx context.Context, b align.Backend, a sotto.Audio, text string, strict bool) ([]align.Word, error) {
	out, err := b.Align(ctx, a, text, align.Options{Language: "en", TextNormalization: align.DefaultTextNormalization,
		SearchEffort: align.EffortAuto, StrictEnds: strict, Sentences: align.SentenceOptions{Disabled: true}})
	if err != nil {
		return nil, err
	}
	var words []align.Word
	for _, s := range out.Segments {
		words = append(words, s.Words...)
	}
	return words, nil
}

// compare counts the boundaries of got within 50 and 100 ms of ref shifted
// by offset seconds; the word lists come from the same transcript, so they
// correspond one to one (a different count is a failure).
func compare(ref, got []align.Word, offset float64) stats {
	s := stats{cases: 1}
	if len(ref) != len(got) {
		s.failed = 1
		return s
	}
	for i, w := range got {
		for _, d := range []float64{w.Start - (ref[i].Start + offset), w.End - (ref[i].End + offset)} {
			s.bounds++
			if math.Abs(d) <= 0.050+1e-9 {
				s.in50++
			}
			if math.Abs(d) <= 0.100+1e-9 {
				s.in100++
			}
		}
	}
	return s
}
