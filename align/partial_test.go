package align

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/sottolabs/sotto"
)

// TestPartialTranscript aligns transcripts of part of the audio: two
// shared recordings joined with a pause, and the words of only the first,
// only the second, or of the middle of JFK's sentence. By default
// (StrictEnds false) every word lands within 100 ms of where it lands when
// its recording is aligned alone with its whole transcript (the joined
// audio's cepstral mean differs a little); with StrictEnds the words are
// stretched over the audio nobody transcribed before them (the test checks
// that too, so it cannot pass without the garbage model). Speech after
// the words was mostly taken by the trailing silence even before.
func TestPartialTranscript(t *testing.T) {
	l := openTestBackend(t)
	ctx := context.Background()
	opts := Options{Language: "en", TextNormalization: DefaultTextNormalization, Sentences: SentenceOptions{Disabled: true}}
	words := func(a sotto.Audio, text string, strict bool) []Word {
		t.Helper()
		o := opts
		o.StrictEnds = strict
		out, err := l.Align(ctx, a, text, o)
		if err != nil {
			t.Fatal(err)
		}
		var ws []Word
		for _, s := range out.Segments {
			ws = append(ws, s.Words...)
		}
		return ws
	}
	a1, t1 := speech(t, "en_ls_1089-134686-0000")
	a2, t2 := speech(t, "en_lj_LJ001-0004")
	gap := make([]float32, sotto.SampleRate/2)
	joined := sotto.Audio{Samples: slices.Concat(a1.Samples, gap, a2.Samples)}
	off2 := float64(len(a1.Samples)+len(gap)) / sotto.SampleRate
	jfk, _ := speech(t, "en_jfk")
	jfkWords := words(jfk, jfkText, true)
	cases := []struct {
		name   string
		audio  sotto.Audio
		text   string
		ref    []Word
		offset float64
		before bool // untranscribed speech before the words
	}{
		{"first of two recordings", joined, t1, words(a1, t1, true), 0, false},
		{"second of two recordings", joined, t2, words(a2, t2, true), off2, true},
		{"middle of a sentence", jfk, "ask not what your country can do for you", jfkWords[5:14], 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := words(c.audio, c.text, false)
			if len(got) != len(c.ref) {
				t.Fatalf("%d words; want %d", len(got), len(c.ref))
			}
			for i, w := range got {
				ds, de := w.Start-(c.ref[i].Start+c.offset), w.End-(c.ref[i].End+c.offset)
				if math.Abs(ds) > 0.1 || math.Abs(de) > 0.1 {
					t.Errorf("word %d %q at %.2f-%.2f s; alone it is at %.2f-%.2f s", i, w.Word, w.Start, w.End,
						c.ref[i].Start+c.offset, c.ref[i].End+c.offset)
				}
			}
			if !c.before {
				return
			}
			// The same without the garbage model: the words are stretched.
			strict := words(c.audio, c.text, true)
			moved := 0
			for i, w := range strict {
				if math.Abs(w.Start-(c.ref[i].Start+c.offset)) > 0.1 {
					moved++
				}
			}
			if 2*moved < len(strict) {
				t.Errorf("with StrictEnds only %d of %d words moved; the case does not test the garbage model", moved, len(strict))
			}
		})
	}
}
