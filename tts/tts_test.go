package tts

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
)

func openOrSkip(t testing.TB, driver, prog string) Backend {
	t.Helper()
	if _, err := exec.LookPath(prog); err != nil {
		t.Skipf("%s is not installed (make deps installs it)", prog)
	}
	b, err := Open(context.Background(), driver, backend.Config{})
	if err != nil {
		t.Fatalf("Open(%s): %v", driver, err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func collect(t testing.TB, b Backend, text string, opts Options) []Chunk {
	t.Helper()
	var cs []Chunk
	for c, err := range Stream(context.Background(), b, text, opts) {
		if err != nil {
			t.Fatalf("Stream(%q) error: %v", text, err)
		}
		cs = append(cs, c)
	}
	return cs
}

func seconds(cs []Chunk) float64 {
	n := 0.0
	for _, c := range cs {
		n += float64(len(c.Samples)) / float64(c.Rate)
	}
	return n
}

func TestParsePCMWAV(t *testing.T) {
	good := audio.EncodeWAV([]float32{0, 0.5, -0.5}, 16000)
	streaming := append(audio.WAVHeader(22050, -1), 0, 0x40, 0, 0xC0, 7) // odd trailing byte
	withList := append(append([]byte{}, good[:12]...), []byte("LIST\x03\x00\x00\x00abc\x00")...)
	withList = append(withList, good[12:]...)
	for _, tc := range []struct {
		name  string
		in    []byte
		rate  int
		n     int
		error bool
	}{
		{"complete", good, 16000, 3, false},
		{"streaming sizes", streaming, 22050, 2, false},
		{"odd chunk padded", withList, 16000, 3, false},
		{"empty", nil, 0, 0, true},
		{"not riff", []byte("RIFX\x00\x00\x00\x00WAVE"), 0, 0, true},
		{"no data", good[:36], 0, 0, true},
		{"stereo", func() []byte { b := slices.Clone(good); b[22] = 2; return b }(), 0, 0, true},
	} {
		s, rate, err := parsePCMWAV(tc.in)
		if (err != nil) != tc.error || rate != tc.rate || len(s) != tc.n {
			t.Errorf("%s: parsePCMWAV = %d samples, %d Hz, %v; want %d, %d Hz, error %v", tc.name, len(s), rate, err, tc.n, tc.rate, tc.error)
		}
	}
}

func FuzzParsePCMWAV(f *testing.F) {
	f.Add(audio.EncodeWAV([]float32{0, 0.25, -1}, 8000))
	f.Add(append(audio.WAVHeader(22050, -1), 1, 2, 3))
	f.Add([]byte("RIFF\x00\x00\x00\x00WAVEfmt \x10\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, rate, err := parsePCMWAV(b)
		if err != nil {
			return
		}
		if rate < 1000 || len(s)*2 > len(b) {
			t.Fatalf("parsePCMWAV accepted %d samples at %d Hz from %d bytes", len(s), rate, len(b))
		}
		for _, v := range s {
			if v < -1 || v >= 1 {
				t.Fatalf("sample %v out of [-1, 1)", v)
			}
		}
	})
}

func TestParseEspeakVoices(t *testing.T) {
	in := []byte(`Pty Language       Age/Gender VoiceName          File                 Other Languages
 5  af              --/M      Afrikaans          gmw/af
 2  en-gb           --/M      English_(Great_Britain) gmw/en               (en 2)
 5  cmn             --/F      Chinese_(Mandarin) sit/cmn              (zh-cmn 5)(zh 5)
 x  broken line
`)
	got := parseEspeakVoices(in)
	want := []espeakRow{
		{lang: "af", name: "Afrikaans", gender: "male", file: "gmw/af"},
		{lang: "en-gb", name: "English (Great Britain)", gender: "male", file: "gmw/en", other: []string{"en"}},
		{lang: "cmn", name: "Chinese (Mandarin)", gender: "female", file: "sit/cmn", other: []string{"zh-cmn", "zh"}},
	}
	if len(got) != len(want) {
		t.Fatalf("parseEspeakVoices = %+v; want %+v", got, want)
	}
	for i := range want {
		if got[i].lang != want[i].lang || got[i].name != want[i].name || got[i].gender != want[i].gender ||
			got[i].file != want[i].file || !slices.Equal(got[i].other, want[i].other) {
			t.Errorf("row %d = %+v; want %+v", i, got[i], want[i])
		}
	}
}

func TestFlite(t *testing.T) {
	b := openOrSkip(t, "flite", "flite")
	v, ok := FindVoice(b, "")
	if !ok || v.ID != "builtin:"+fliteDefault || v.SampleRate != 16000 {
		t.Fatalf("default voice = %+v, %v; want builtin:%s at 16000 Hz", v, ok, fliteDefault)
	}
	cs := collect(t, b, "The train leaves at 3:30 pm. It costs $12.50.", Options{})
	if len(cs) != 2 {
		t.Fatalf("two sentences gave %d chunks; want 2", len(cs))
	}
	normal := seconds(cs)
	if normal < 2 || normal > 10 {
		t.Fatalf("two sentences last %.2f s; want 2–10 s", normal)
	}
	fast := seconds(collect(t, b, "The train leaves at 3:30 pm. It costs $12.50.", Options{Speed: 2}))
	if fast > 0.7*normal {
		t.Errorf("speed 2 lasts %.2f s, normal %.2f s; want at most 70 %%", fast, normal)
	}
	// Deterministic: the same request gives the same samples.
	again := collect(t, b, "The train leaves at 3:30 pm. It costs $12.50.", Options{})
	if !slices.Equal(again[0].Samples, cs[0].Samples) {
		t.Error("the same request gave different audio")
	}
	if _, err := Open(context.Background(), "flite", backend.Config{Options: map[string]string{"program": "/nonexistent/flite"}}); !errors.Is(err, sotto.ErrInvalidRequest) {
		t.Errorf("Open with a missing program: %v; want a model_not_downloaded error", err)
	}
}

func TestEspeak(t *testing.T) {
	b := openOrSkip(t, "espeak-ng", "espeak-ng")
	vs := b.(Lister).Voices()
	if len(vs) < 50 {
		t.Fatalf("espeak-ng lists %d voices; want its 100+ languages", len(vs))
	}
	for _, id := range []string{"builtin:de", "builtin:en-us+klatt"} {
		if _, ok := FindVoice(b, id); !ok {
			t.Errorf("FindVoice(%q) not found", id)
		}
	}
	if _, ok := FindVoice(b, "builtin:en-us+nonesuch"); ok {
		t.Error("FindVoice found an uninstalled variant")
	}
	cs := collect(t, b, "-Guten Tag. Wie geht es?", Options{Voice: "builtin:de"})
	if len(cs) != 2 || cs[0].Rate != espeakRate || seconds(cs) < 0.5 {
		t.Fatalf("German: %d chunks, %.2f s; want 2 sentences of audio at %d Hz", len(cs), seconds(cs), espeakRate)
	}
	low := collect(t, b, "Hello.", Options{Voice: "builtin:en-us", Pitch: -12})
	high := collect(t, b, "Hello.", Options{Voice: "builtin:en-us", Pitch: 12})
	if slices.Equal(low[0].Samples, high[0].Samples) {
		t.Error("pitch had no effect")
	}
	err := Speak(context.Background(), b, "Hello.", Options{Voice: "builtin:xx-nonesuch"}, func(Chunk) error { return nil })
	var se *sotto.Error
	if !errors.As(err, &se) || se.Param != "voice" {
		t.Errorf("unknown voice: %v; want a 400 with param voice", err)
	}
}

func TestSpeakStopsOnEmitError(t *testing.T) {
	b := openOrSkip(t, "flite", "flite")
	stop := errors.New("enough")
	n := 0
	err := Speak(context.Background(), b, strings.Repeat("One more sentence. ", 6), Options{}, func(Chunk) error {
		n++
		return stop
	})
	if !errors.Is(err, stop) || n != 1 {
		t.Fatalf("Speak = %v after %d chunks; want the emit error after 1", err, n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Speak(ctx, b, "Hello there.", Options{}, func(Chunk) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("Speak with a cancelled context = %v; want context.Canceled", err)
	}
}

func TestSentencesNormalize(t *testing.T) {
	got, err := Sentences(context.Background(), "I paid $12.50 at 3:30 pm. Dr. Smith left.", "en-US")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || strings.ContainsAny(got[0], "$0123456789") || !strings.Contains(got[0], "twelve") {
		t.Fatalf("Sentences = %q; want two sentences with the numbers as words", got)
	}
	var buf bytes.Buffer
	buf.WriteString(got[1])
	if !strings.Contains(buf.String(), "Smith") {
		t.Errorf("second sentence %q lost its words", got[1])
	}
}

// TestControlCharacters: text reaches flite and espeak-ng as a command-line
// argument, which cannot hold a NUL byte; a NUL in the input made the
// program fail to start (a 500 from POST /v1/audio/speech). Control
// characters are spoken as the spaces they are replaced with.
func TestControlCharacters(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"hello", "hello"},
		{"hello\x00world", "hello world"},
		{"a\x01\x1f\x7fb\tc\nd\re", "a   b\tc\nd\re"},
		{"é\x00ü", "é ü"},
	} {
		if got := argText(tc.in); got != tc.want {
			t.Errorf("argText(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
	for _, e := range []struct{ driver, voice string }{{"flite", ""}, {"espeak-ng", "builtin:en-us"}} {
		t.Run(e.driver, func(t *testing.T) {
			b := openOrSkip(t, e.driver, e.driver)
			cs := collect(t, b, "Hello\x00there\x07 friend.", Options{Voice: e.voice})
			if s := seconds(cs); s < 0.3 {
				t.Errorf("%s spoke %.2f s for three words with control characters; want speech", e.driver, s)
			}
		})
	}
}
