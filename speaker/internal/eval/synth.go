package main

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/speaker"
)

// synthConversations builds the development set of the timelines:
// conversations made by joining pieces (2–8 s) of the files of two or three
// speakers of speakers.tsv in turns, with short pauses between turns. The
// reference speaker of each piece is its file's speaker. The set is seeded,
// so it is the same on every run. It is easier than a real meeting (each
// speaker's pieces come from other recordings, so the channel helps) but
// it is the only data with speaker turns that may be tuned on: the one
// real meeting with a reference RTTM (AMI) is in the sealed part.
func synthConversations(e *evaluator) ([]synthConv, error) {
	bySpk, err := filesBySpeaker(e.dir)
	if err != nil {
		return nil, err
	}
	var spk []string
	for s, files := range bySpk {
		if len(files) >= 3 {
			spk = append(spk, s)
		}
	}
	slices.Sort(spk)
	r := rand.New(rand.NewPCG(7, 11))
	var out []synthConv
	for c := range 8 {
		n := 2 + c%2
		perm := r.Perm(len(spk))[:n]
		var conv synthConv
		conv.name = fmt.Sprintf("synth%d", c)
		gap := make([]float32, sotto.SampleRate/4)
		for turn := range 12 {
			s := spk[perm[turn%n]]
			if turn >= n && r.IntN(4) == 0 { // sometimes not strictly alternating
				s = spk[perm[r.IntN(n)]]
			}
			files := bySpk[s]
			samples, err := e.load(files[r.IntN(len(files))])
			if err != nil {
				return nil, err
			}
			dur := (2 + 6*r.Float64()) * sotto.SampleRate
			i := 0
			if len(samples) > int(dur) {
				i = r.IntN(len(samples) - int(dur))
			}
			piece := samples[i:min(len(samples), i+int(dur))]
			start := float64(len(conv.samples)) / sotto.SampleRate
			conv.samples = append(conv.samples, piece...)
			conv.ref = append(conv.ref, speaker.Turn{Start: start, End: float64(len(conv.samples)) / sotto.SampleRate, Speaker: s})
			conv.samples = append(conv.samples, gap...)
		}
		conv.speakers = n
		out = append(out, conv)
	}
	return out, nil
}

// clusterThr overrides the clustering threshold (experiments).
var clusterThr, _ = strconv.ParseFloat(os.Getenv("SOTTO_SPK_CT"), 64)

type synthConv struct {
	name     string
	samples  []float32
	ref      []speaker.Turn
	speakers int
}

// synthDER scores timelines on the synthetic conversations.
func synthDER(ctx context.Context, e *evaluator, d speaker.Diarizer, known bool) (derResult, int, error) {
	convs, err := synthConversations(e)
	if err != nil {
		return derResult{}, 0, err
	}
	var tot derResult
	right := 0
	for _, c := range convs {
		o := speaker.TimelineOptions{Threshold: clusterThr}
		if known {
			o.Speakers = c.speakers
		}
		tl, err := d.Timeline(ctx, sotto.Audio{Samples: c.samples, SampleRate: sotto.SampleRate}, o)
		if err != nil {
			return tot, 0, err
		}
		if len(tl.Speakers) == c.speakers {
			right++
		}
		fmt.Fprintf(os.Stderr, "%d/%d ", len(tl.Speakers), c.speakers)
		r := der(c.ref, tl.Turns, 0.25)
		tot.ref += r.ref
		tot.miss += r.miss
		tot.fa += r.fa
		tot.conf += r.conf
	}
	return tot, right, nil
}

// filesBySpeaker reads dir's speakers.tsv (file, speaker per line, after a
// header) into the files of each speaker.
func filesBySpeaker(dir string) (map[string][]string, error) {
	f, err := os.Open(filepath.Join(dir, "speakers.tsv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	bySpk := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fl := strings.Split(sc.Text(), "\t")
		if len(fl) < 2 || fl[0] == "file" {
			continue
		}
		bySpk[fl[1]] = append(bySpk[fl[1]], fl[0])
	}
	return bySpk, sc.Err()
}
