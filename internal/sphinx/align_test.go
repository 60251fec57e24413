package sphinx

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
)

func TestAlignErrors(t *testing.T) {
	m := loadTestModel(t)
	x := readWAVFloat(t, speechFile(t, "en_ps_sense0880_16k.wav"))
	tests := []struct {
		name      string
		samples   []float32
		words     []string
		kind      error
		code      string
		param     string
		reasonKey string
	}{
		{"unknown word", x, []string{"he", "qzxqzxqzx"}, sotto.ErrInvalidRequest, "bad_request", "text", ""},
		{"no words", x, nil, sotto.ErrUnsatisfiable, "alignment_failed", "", "no_words"},
		{"audio too short", x[:1600], []string{"he", "was", "not", "an", "ill", "disposed", "young", "man"}, sotto.ErrUnsatisfiable, "alignment_failed", "", "no_path"},
		{"no audio", nil, []string{"he"}, sotto.ErrUnsatisfiable, "alignment_failed", "", "no_path"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := m.Align(context.Background(), tc.samples, tc.words, AlignOptions{})
			var se *sotto.Error
			if !errors.As(err, &se) || !errors.Is(err, tc.kind) {
				t.Fatalf("Align(%q) = %v; want a *sotto.Error of kind %v", tc.words, err, tc.kind)
			}
			if se.Code != tc.code || se.Param != tc.param {
				t.Errorf("Align(%q) code, param = %q, %q; want %q, %q", tc.words, se.Code, se.Param, tc.code, tc.param)
			}
			if tc.reasonKey != "" {
				d, _ := se.Detail.(map[string]any)
				if d["reason"] != tc.reasonKey {
					t.Errorf("Align(%q) detail reason = %v; want %q", tc.words, d["reason"], tc.reasonKey)
				}
			}
		})
	}
}

func TestAlignCancel(t *testing.T) {
	m := loadTestModel(t)
	x := readWAVFloat(t, speechFile(t, "en_ps_sense0880_16k.wav"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Align(ctx, x, []string{"he", "was", "not", "an", "ill", "disposed", "young", "man"}, AlignOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Align(cancelled ctx) = %v; want context.Canceled", err)
	}
	feats, n, err := m.Features(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.AlignFeatures(ctx, feats, n, []string{"he"}, AlignOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("AlignFeatures(cancelled ctx) = %v; want context.Canceled", err)
	}
}

// TestAlignStructure checks the invariants of an alignment: contiguous
// segments covering every frame, three states per phone in order, the
// input words in order, and scores that add up.
func TestAlignStructure(t *testing.T) {
	m := loadTestModel(t)
	a := alignFile(t, m, "en_ps_sense0870", AlignOptions{})
	check := func(level string, segs []Segment) {
		if len(segs) == 0 || segs[0].Start != 0 || segs[len(segs)-1].End != a.Frames {
			t.Fatalf("%s segments do not cover frames 0..%d", level, a.Frames)
		}
		for i, s := range segs {
			if s.End <= s.Start || (i > 0 && segs[i-1].End != s.Start) {
				t.Fatalf("%s segment %d = %+v is empty or not contiguous", level, i, s)
			}
		}
	}
	check("word", a.Words)
	check("phone", a.Phones)
	check("state", a.States)
	next := 0
	total := 0.0
	for _, w := range a.Words {
		total += w.Score
		if w.Parent < 0 {
			if w.Label != SilenceWord {
				t.Errorf("silence segment labelled %q", w.Label)
			}
			continue
		}
		if w.Parent != next {
			t.Errorf("word %q has input index %d; want %d", w.Label, w.Parent, next)
		}
		next++
	}
	if next != 22 {
		t.Errorf("aligned %d input words; want 22", next)
	}
	if math.Abs(total-a.Score) > 1e-3*math.Abs(a.Score) {
		t.Errorf("sum of word scores = %v; want the path score %v", total, a.Score)
	}
	for pi := range a.Phones {
		var states []Segment
		for _, s := range a.States {
			if s.Parent == pi {
				states = append(states, s)
			}
		}
		// A 3-state left-to-right HMM may skip one state.
		if len(states) < 2 || len(states) > 3 || states[0].Label[len(states[0].Label)-1] != '0' {
			t.Errorf("phone %d (%s) has states %v", pi, a.Phones[pi].Label, states)
		}
	}
}

// TestAlignSparseBackpointers checks that the trellis stays proportional to
// the active states, not frames × states, on a minute of speech.
func TestAlignSparseBackpointers(t *testing.T) {
	m := loadTestModel(t)
	var feats []float32
	var words []string
	n := 0
	for range 5 {
		for _, base := range []string{"en_ps_sense0870", "en_ps_sense0880", "en_ps_sense0890"} {
			f, k := featuresOf(t, m, base+"_16k.wav")
			feats = append(feats, f...)
			n += k
			txt := readText(t, base)
			words = append(words, txt...)
		}
	}
	_, st, err := m.alignFeatures(context.Background(), feats, n, words, AlignOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d frames, %d states: active max %d mean %.0f, peak back-pointers %d (dense would be %d)",
		n, st.States, st.MaxActive, st.MeanActive, st.PeakBackpointers, n*st.States)
	if limit := 4*n + 3*4096; st.PeakBackpointers > limit {
		t.Errorf("peak back-pointers = %d; want ≤ %d (sparse)", st.PeakBackpointers, limit)
	}
}

func readText(t testing.TB, base string) []string {
	t.Helper()
	b, err := readFileBytes(speechFile(t, base+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return normalizeWords(string(b))
}

// TestAlignFillersAndSilence aligns with an explicit "<sil>" and a noise
// word in the transcript and without optional silences.
func TestAlignFillersAndSilence(t *testing.T) {
	m := loadTestModel(t)
	x := readWAVFloat(t, speechFile(t, "en_ps_sense0880_16k.wav"))
	words := []string{"<sil>", "he", "was", "not", "[NOISE]", "an", "ill", "disposed", "young", "man", "<sil>"}
	a, err := m.Align(context.Background(), x, words, AlignOptions{NoSilence: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range a.Words {
		got = append(got, w.Label)
	}
	if len(got) != len(words) || got[0] != "<sil>" || got[4] != "[NOISE]" || got[len(got)-1] != "<sil>" {
		t.Errorf("Align words = %q; want %q (variants may carry (n))", got, words)
	}
	for _, p := range a.Phones {
		if a.Words[p.Parent].Label == "[NOISE]" && p.Label != "+NSN+" {
			t.Errorf("[NOISE] aligned to phone %q; want +NSN+", p.Label)
		}
	}
}

// TestAlignGarbage checks the garbage model of AlignOptions.Garbage: a
// transcript of the middle of the JFK recording ("ask not what your
// country can do for you", said from 3.3 s to about 7.3 s) is placed where
// it was said, with the speech before and after labelled GarbageWord;
// without the garbage model the same words are stretched from the start.
// The whole transcript aligns as it does without garbage, and the path
// stays one of contiguous segments whose scores add up.
func TestAlignGarbage(t *testing.T) {
	m := loadTestModel(t)
	x := readWAVFloat(t, speechFile(t, "en_jfk_16k.wav"))
	part := strings.Fields("ask not what your country can do for you")
	ctx := context.Background()
	firstWord := func(a *Alignment) Segment {
		for _, w := range a.Words {
			if w.Parent == 0 {
				return w
			}
		}
		t.Fatal("no first word")
		return Segment{}
	}
	off, err := m.Align(ctx, x, part, AlignOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s := off.Seconds(firstWord(off).Start); s > 1 {
		t.Fatalf("without garbage the first word starts at %.2f s; the test expects it stretched from the start", s)
	}
	on, err := m.Align(ctx, x, part, AlignOptions{Garbage: -4})
	if err != nil {
		t.Fatal(err)
	}
	if s := on.Seconds(firstWord(on).Start); s < 3.1 || s > 3.4 {
		t.Errorf("with garbage %q starts at %.2f s; want 3.1-3.4 s", part[0], s)
	}
	if on.Words[0].Label != GarbageWord || on.Words[len(on.Words)-1].Label != GarbageWord {
		t.Errorf("alignment begins with %q and ends with %q; want %q at both ends",
			on.Words[0].Label, on.Words[len(on.Words)-1].Label, GarbageWord)
	}
	total := 0.0
	for i, w := range on.Words {
		total += w.Score
		if i > 0 && on.Words[i-1].End != w.Start {
			t.Fatalf("word segments not contiguous at %d", i)
		}
	}
	if math.Abs(total-on.Score) > 1e-3*math.Abs(on.Score) {
		t.Errorf("sum of word scores = %v; want the path score %v", total, on.Score)
	}
	// Precomputed garbage scores give the same path.
	dim := 0
	feats, n, err := m.Features(ctx, x)
	if err != nil {
		t.Fatal(err)
	}
	dim = len(feats) / n
	best := make([]float32, n)
	if err := m.BestCI(ctx, func(t int) []float32 { return feats[t*dim : (t+1)*dim] }, 0, n, nil, best); err != nil {
		t.Fatal(err)
	}
	pre, err := m.AlignFeatures(ctx, feats, n, part, AlignOptions{Garbage: -4, GarbageScores: best})
	if err != nil {
		t.Fatal(err)
	}
	if firstWord(pre) != firstWord(on) || pre.Score != on.Score {
		t.Errorf("with precomputed garbage scores: first word %+v, score %v; want %+v, %v", firstWord(pre), pre.Score, firstWord(on), on.Score)
	}
	// The whole transcript: words where they are without garbage.
	whole := readText(t, "en_jfk")
	a0, err := m.Align(ctx, x, whole, AlignOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a1, err := m.Align(ctx, x, whole, AlignOptions{Garbage: -4})
	if err != nil {
		t.Fatal(err)
	}
	var w0, w1 []Segment
	for _, w := range a0.Words {
		if w.Parent >= 0 {
			w0 = append(w0, w)
		}
	}
	for _, w := range a1.Words {
		if w.Parent >= 0 {
			w1 = append(w1, w)
		}
	}
	if len(w0) != len(w1) {
		t.Fatalf("%d words with garbage, %d without", len(w1), len(w0))
	}
	for i := range w0 {
		if abs(w0[i].Start-w1[i].Start) > 2 || abs(w0[i].End-w1[i].End) > 2 {
			t.Errorf("word %d %q: frames %d-%d with garbage, %d-%d without", i, w0[i].Label, w1[i].Start, w1[i].End, w0[i].Start, w0[i].End)
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
