package g2p

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sottolabs/sotto"
)

func TestPhonemizerBatchAndCache(t *testing.T) {
	needEspeak(t)
	ctx := context.Background()
	p := NewPhonemizer(PhonemizerConfig{BatchSize: 3, Workers: -1}) // one process per batch
	words := []string{"Hans", "", "Jakob", "Hans", "von\nGrimmelshausen", "  ", "der", "Ganz", "..."}
	got, err := p.IPA(ctx, "de", words)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(words) {
		t.Fatalf("IPA returned %d results for %d words", len(got), len(words))
	}
	if got[0] != "hˈɑːns" || got[3] != got[0] {
		t.Errorf("IPA(de, Hans) = %q, %q; want %q twice", got[0], got[3], "hˈɑːns")
	}
	if got[1] != "" || got[5] != "" {
		t.Errorf("IPA of blank words = %q, %q; want empty", got[1], got[5])
	}
	// A line break inside a word must not shift the lines of the others.
	if !strings.Contains(got[4], " ") || got[6] != "dˈɛɾ" {
		t.Errorf("IPA(von\\nGrimmelshausen) = %q and IPA(der) = %q; want two words and %q", got[4], got[6], "dˈɛɾ")
	}
	if got[8] != "" {
		t.Errorf("IPA(...) = %q; want empty", got[8])
	}
	// 6 distinct words in batches of 3: two processes (no word-by-word retry).
	if p.calls != 2 {
		t.Errorf("espeak-ng ran %d times; want 2", p.calls)
	}
	again, err := p.IPA(ctx, "de", []string{"Ganz", "Jakob"})
	if err != nil {
		t.Fatal(err)
	}
	if p.calls != 2 || again[0] != got[7] || again[1] != got[2] {
		t.Errorf("cached IPA = %q after %d calls; want %q, %q from the cache", again, p.calls, got[7], got[2])
	}
	// The cache is per voice.
	if _, err := p.IPA(ctx, "en-us", []string{"Hans"}); err != nil || p.calls != 3 {
		t.Errorf("IPA(en-us, Hans) after de: err %v, %d calls; want a new call", err, p.calls)
	}
}

// TestPhonemizerLongWord checks that a word too long for -l 1000 neither
// shifts the other words' lines nor costs more than one extra process.
func TestPhonemizerLongWord(t *testing.T) {
	needEspeak(t)
	p := NewPhonemizer(PhonemizerConfig{})
	defer p.Close()
	long := strings.Repeat("a", 1200)
	got, err := p.IPA(context.Background(), "de", []string{"Hans", long, "der"})
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != "hˈɑːns" || got[2] != "dˈɛɾ" || got[1] == "" || strings.Contains(got[1], "\n") {
		t.Errorf("IPA(Hans, a×1200, der) = %q; want hˈɑːns, one line, dˈɛɾ", got)
	}
	// The long word in a process of its own, the others in a warm one.
	if _, _, starts := p.pool.stats(); p.calls != 1 || starts != 1 {
		t.Errorf("espeak-ng ran %d times one-shot and %d warm; want 1 and 1", p.calls, starts)
	}
}

func TestPhonemizerCacheBound(t *testing.T) {
	c := newLRU(2)
	c.put("a", "1")
	c.put("b", "2")
	c.get("a")
	c.put("c", "3")
	if _, ok := c.get("b"); ok {
		t.Errorf("lru kept the least recently used key")
	}
	if v, ok := c.get("a"); !ok || v != "1" {
		t.Errorf("lru get(a) = %q, %v; want 1, true", v, ok)
	}
	if c.len() != 2 {
		t.Errorf("lru len = %d; want 2", c.len())
	}
}

func TestPhonemizerErrors(t *testing.T) {
	ctx := context.Background()
	missing := NewPhonemizer(PhonemizerConfig{Path: filepath.Join(t.TempDir(), "espeak-ng")})
	if _, err := missing.IPA(ctx, "de", []string{"Hans"}); !errors.Is(err, ErrNoEspeak) || !strings.Contains(err.Error(), "apt-get install espeak-ng") {
		t.Errorf("IPA with no program: err = %v; want ErrNoEspeak naming apt-get", err)
	}
	if _, err := missing.Voices(ctx); !errors.Is(err, ErrNoEspeak) {
		t.Errorf("Voices with no program: err = %v; want ErrNoEspeak", err)
	}
	notInPath := NewPhonemizer(PhonemizerConfig{Path: "espeak-ng-not-installed"})
	if _, err := notInPath.IPA(ctx, "de", []string{"Hans"}); !errors.Is(err, ErrNoEspeak) {
		t.Errorf("IPA with no program in PATH: err = %v; want ErrNoEspeak", err)
	}
	for _, v := range []string{"", "-h", "de en"} {
		if _, err := missing.IPA(ctx, v, []string{"x"}); err == nil || errors.Is(err, ErrNoEspeak) {
			t.Errorf("IPA(voice %q) err = %v; want an invalid-voice error", v, err)
		}
	}
	needEspeak(t)
	p := NewPhonemizer(PhonemizerConfig{})
	if _, err := p.IPA(ctx, "zzz", []string{"x"}); err == nil || !strings.Contains(err.Error(), "zzz") {
		t.Errorf("IPA(zzz) err = %v; want one naming the voice", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := p.IPA(cctx, "de", []string{"Hans"}); !errors.Is(err, context.Canceled) {
		t.Errorf("IPA after cancel: err = %v; want context.Canceled", err)
	}
}

func testVoices(t *testing.T) []Voice {
	t.Helper()
	f, err := os.Open("testdata/voices.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := ParseVoices(f)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestParseVoices parses testdata/voices.txt, the `espeak-ng --voices`
// listing of espeak-ng 1.51 (Debian 12); -update rewrites it from the
// installed program.
func TestParseVoices(t *testing.T) {
	if *update {
		needEspeak(t)
		out, err := exec.Command("espeak-ng", "--voices").Output()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("testdata/voices.txt", out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v := testVoices(t)
	if len(v) < 100 {
		t.Fatalf("ParseVoices(voices.txt) = %d voices; want > 100", len(v))
	}
	byLang := map[string]Voice{}
	for _, x := range v {
		byLang[x.Language] = x
	}
	want := Voice{Priority: 5, Language: "cmn-latn-pinyin", Gender: "--/M", Name: "Chinese_(Mandarin,_latin_as_Pinyin)",
		File: "sit/cmn-Latn-pinyin", Also: []VoiceLanguage{{"zh-cmn", 5}, {"zh", 5}}}
	if diff := cmp.Diff(want, byLang["cmn-latn-pinyin"]); diff != "" {
		t.Errorf("ParseVoices: cmn-latn-pinyin differs (-want +got):\n%s", diff)
	}
	if got := byLang["eu"]; got.File != "eu" || got.Name != "Basque" {
		t.Errorf("ParseVoices: eu = %+v; want Name Basque, File eu", got)
	}
	for _, bad := range []string{"", "5 de --/M German gmw/de\n", "Pty Language\n x de --/M German\n", "Pty Language\n 5 de\n"} {
		if _, err := ParseVoices(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseVoices(%q) succeeded; want an error", bad)
		}
	}
}

func TestRoute(t *testing.T) {
	p := NewPhonemizer(PhonemizerConfig{})
	p.voices = testVoices(t) // no espeak-ng needed
	tests := []struct {
		tag  string
		want Route
	}{
		{"en", Route{"en", "en-us", InputText}},
		{"en-US", Route{"en", "en-us", InputText}},
		{"en-GB", Route{"en", "en-gb", InputText}},
		{"en-AU", Route{"en", "en-us", InputText}},
		{"de-CH", Route{"de", "de", InputText}},
		{"zh", Route{"zh", "cmn-latn-pinyin", InputPinyin}},
		{"zh-Hant-TW", Route{"zh", "cmn-latn-pinyin", InputPinyin}},
		{"cmn", Route{"zh", "cmn-latn-pinyin", InputPinyin}},
		{"ja-JP", Route{"ja", "ja", InputKana}},
		{"pt-BR", Route{"pt", "pt-br", InputText}},
		{"pt", Route{"pt", "pt", InputText}},
		{"no", Route{"no", "nb", InputText}},
		{"nb", Route{"no", "nb", InputText}},
		{"sv", Route{"sv", "sv", InputText}},
		{"fr", Route{"fr", "fr-fr", InputText}},
		{"es-419", Route{"es", "es-419", InputText}},
	}
	for _, tc := range tests {
		got, err := p.Route(context.Background(), tc.tag)
		if err != nil || got != tc.want {
			t.Errorf("Route(%q) = %+v, %v; want %+v", tc.tag, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ tag, code string }{{"", "bad_request"}, {"und", "bad_request"}, {"not a tag", "bad_request"}, {"tlh", "language_unsupported"}, {"zu", "language_unsupported"}} {
		_, err := p.Route(context.Background(), tc.tag)
		se, ok := errors.AsType[*sotto.Error](err)
		if !ok || se.Code != tc.code || se.Param != "language" {
			t.Errorf("Route(%q) err = %v; want *sotto.Error code %s param language", tc.tag, err, tc.code)
		}
	}
}

// TestPhonemizerConcurrent shares one Phonemizer between goroutines (run
// with -race); every caller must get its own words' results.
func TestPhonemizerConcurrent(t *testing.T) {
	needEspeak(t)
	p := NewPhonemizer(PhonemizerConfig{CacheSize: 3})
	words := [][]string{{"Hans", "der"}, {"der", "Hans"}, {"Hans"}, {"der"}}
	want := map[string]string{"Hans": "hˈɑːns", "der": "dˈɛɾ"}
	errs := make(chan error, len(words)*3)
	for range 3 {
		for _, ws := range words {
			go func() {
				got, err := p.IPA(context.Background(), "de", ws)
				if err == nil {
					for i, w := range ws {
						if got[i] != want[w] {
							err = fmt.Errorf("IPA(%q)[%d] = %q; want %q", ws, i, got[i], want[w])
						}
					}
				}
				errs <- err
			}()
		}
	}
	for range len(words) * 3 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
