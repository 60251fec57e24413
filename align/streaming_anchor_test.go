package align

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/sottolabs/sotto"
)

// anchorParts are the recordings the evaluation's long file repeats in
// turn (align/internal/eval/long.go): two MFA recordings of about 26 s
// (the second by a speaker with a cold, in another room, which the
// standard beam only just follows) and three short ones.
var anchorParts = []string{"en_mfa_acoustic_corpus", "en_mfa_cold_corpus", "en_ps_sense0870", "en_ps_sense0880", "en_ps_sense0890"}

// TestStreamingAnchorsHold aligns the recordings of the evaluation's long
// file, repeated in turn to about six minutes, on the streaming path with
// the standard search and production windows. The file repeats the same
// words every 68 s, so an anchor that slips lets the next chunks fit a
// later copy of their words: every word must lie within its own part of
// the concatenation (±1 s). Before chunks were checked for confidence,
// the chunk starting at 233 s slipped by 8 s and a later chunk found no
// path. SOTTO_ALIGN_ANCHOR_MINUTES sets another length.
func TestStreamingAnchorsHold(t *testing.T) {
	minutes := 6.0
	if v, err := strconv.ParseFloat(os.Getenv("SOTTO_ALIGN_ANCHOR_MINUTES"), 64); err == nil && v > 0 {
		minutes = v
	}
	l := openTestBackend(t)
	ctx := context.Background()
	opts := Options{Language: "en", TextNormalization: DefaultTextNormalization, Sentences: SentenceOptions{Disabled: true}}
	type part struct {
		samples []float32
		text    string
		words   int
	}
	var parts []part
	for _, n := range anchorParts {
		a, tx := speech(t, n)
		res, err := l.Align(ctx, a, tx, opts)
		if err != nil {
			t.Fatalf("%s alone: %v", n, err)
		}
		parts = append(parts, part{a.Samples, tx, len(words(res))})
	}
	// The concatenation, with each part's span and first word.
	type span struct {
		start, end float64
		first, n   int
		name       string
	}
	var spans []span
	var samples []float32
	var text []byte
	nw := 0
	for i := 0; float64(len(samples)) < minutes*60*sotto.SampleRate; i++ {
		p := parts[i%len(parts)]
		s := span{start: float64(len(samples)) / sotto.SampleRate, first: nw, n: p.words, name: anchorParts[i%len(parts)]}
		samples = append(samples, p.samples...)
		s.end = float64(len(samples)) / sotto.SampleRate
		text = append(append(text, p.text...), ' ')
		spans = append(spans, s)
		nw += p.words
	}
	l.knobs.streamSeconds = 1
	var path string
	var out *searchOut
	l.knobs.observe = func(p string, o *searchOut) { path, out = p, o }
	// A standard request keeps the standard beam everywhere: on this audio
	// it loses its anchors and fails, recommending the extended search.
	opts.SearchEffort = EffortStandard
	out = nil
	if _, err := l.Align(ctx, sotto.Audio{Samples: samples}, string(text), opts); err == nil {
		if out == nil || out.widened != 0 {
			t.Errorf("standard search widened %v chunks; want none", out)
		}
	} else if f := failure(t, err, "alignment_failed"); !f.RetryRecommended || f.SearchEffortUsed != EffortStandard {
		t.Errorf("standard search failure %+v; want effort standard, retry recommended", f)
	}
	opts.SearchEffort = EffortAuto
	var stages []string
	opts.Progress = func(p Progress) {
		if p.Stage != "" {
			stages = append(stages, p.Stage)
		}
	}
	res, err := l.Align(ctx, sotto.Audio{Samples: samples}, string(text), opts)
	if err != nil {
		t.Fatalf("auto search on the streaming path: %v", err)
	}
	if path != PathStreaming {
		t.Fatalf("search path %q; want streaming", path)
	}
	// The slipping chunk is searched again with the extended beam, in
	// place: no whole-file retry, but the result says the extended search
	// was used, after one extended_search stage.
	if out.widened == 0 || res.SearchEffortUsed != EffortExtended || !res.SearchRetried || len(stages) != 1 || stages[0] != "extended_search" {
		t.Errorf("widened %d chunks, effort used %q, retried %v, stages %q; want ≥ 1 chunk, extended, true, [extended_search]",
			out.widened, res.SearchEffortUsed, res.SearchRetried, stages)
	}
	w := words(res)
	if len(w) != nw {
		t.Fatalf("%d words; want %d", len(w), nw)
	}
	bad, first := 0, -1
	for _, s := range spans {
		for k := s.first; k < s.first+s.n; k++ {
			if w[k].Start < s.start-1 || w[k].End > s.end+1 {
				if first < 0 {
					first = k
					t.Errorf("word %d %q at %.2f–%.2f s lies outside its part (%s, %.2f–%.2f s)", k, w[k].Word, w[k].Start, w[k].End, s.name, s.start, s.end)
				}
				bad++
			}
		}
	}
	t.Logf("%.1f s, %d words, %d chunks, %d retries; %d words outside their part", float64(len(samples))/sotto.SampleRate, nw, out.chunks, out.retries, bad)
	if bad > 0 {
		t.Errorf("%d of %d words lie outside their part of the concatenation", bad, nw)
	}
}
