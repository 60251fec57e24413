package g2p

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mozillazg/go-pinyin"
	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
)

// warmEdgeWords are inputs whose espeak-ng output is unusual: nothing,
// several words, several clauses (and so several lines), other scripts.
var warmEdgeWords = []string{
	"", ".", ",", "...", "-", "—", "¿", "?!", "()", "3.5", "1,000", "2024", "U.S.A.", "Dr.", "e.g.", "z.B.",
	"Hallo, Welt", "a. b", "don't", "self-substantial", "ÄÖÜ", "naïve", "Привет", "東京", "カタカナ", "😀", "x",
	"ok?", "HTTP/2", "50%", "€5", "#1", "a;b", "«quote»", "'tis", "e-mail", "C++", "km/h", "\u00a0nbsp",
}

// warmWords gathers the inputs of each voice for the warm/one-shot
// comparison: the golden words, edge cases, every pinyin syllable and
// katakana mora, and, when the shared test data is present, the raw
// whitespace-separated fields (punctuation included) of the UD sentence
// files and speech transcripts, kana and pinyin readings for ja and zh.
func warmWords(t *testing.T) map[string][]string {
	t.Helper()
	words := map[string][]string{}
	add := func(voice string, ws ...string) {
		words[voice] = append(words[voice], ws...)
	}
	b, err := os.ReadFile("testdata/words.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, w, ok := strings.Cut(l, "\t"); ok && !strings.HasPrefix(l, "#") {
			add(v, w)
		}
	}
	for _, v := range []string{"en-us", "de", "es", "sv", "fr", "ja", "cmn-latn-pinyin"} {
		add(v, warmEdgeWords...)
	}
	seen := map[string]bool{}
	for r := range pinyin.PinyinDict {
		for _, s := range pinyin.SinglePinyin(rune(r), pinyin.Args{Style: pinyin.Tone3, Heteronym: true}) {
			if !seen[s] {
				seen[s] = true
				add("cmn-latn-pinyin", s)
			}
		}
	}
	for r := 'ァ'; r <= 'ヺ'; r++ {
		add("ja", string(r))
	}
	dir := sharedtestdata.Root()
	if _, err := os.Stat(dir); err != nil {
		t.Logf("no shared test data (%v): fixed word lists only", err)
		return words
	}
	fields := func(voice, path string, max int) {
		f, err := os.Open(path)
		if err != nil {
			t.Logf("skipping %s: %v", path, err)
			return
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		have := map[string]bool{}
		n := 0
		for sc.Scan() && n < max {
			for _, w := range strings.Fields(sc.Text()) {
				if !have[w] && n < max {
					have[w] = true
					add(voice, w)
					n++
				}
			}
		}
	}
	seg := filepath.Join(dir, "text", "segment")
	fields("en-us", filepath.Join(seg, "en", "ud_english-ewt", "en_ewt-ud-test.sentences.txt"), 250)
	fields("de", filepath.Join(seg, "de", "ud_german-pud", "de_pud-ud-test.sentences.txt"), 250)
	fields("es", filepath.Join(seg, "es", "ud_spanish-pud", "es_pud-ud-test.sentences.txt"), 250)
	fields("fr-fr", filepath.Join(seg, "fr", "ud_french-pud", "fr_pud-ud-test.sentences.txt"), 200)
	fields("ru", filepath.Join(seg, "ru", "ud_russian-pud", "ru_pud-ud-test.sentences.txt"), 150)
	sp := filepath.Join(dir, "speech")
	fields("sv", filepath.Join(sp, "sv_nst_u0016002.txt"), 200)
	fields("sv", filepath.Join(sp, "sv_nst_u0016003.txt"), 200)
	fields("de", filepath.Join(sp, "de_aeneas_simplicissimus.txt"), 200)
	fields("es", filepath.Join(sp, "es_mls_13697_11991_000000.txt"), 200)
	readings := func(voice, lang, path string, maxLines int) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Logf("skipping %s: %v", path, err)
			return
		}
		lines := strings.Split(string(b), "\n")
		text := strings.Join(lines[:min(maxLines, len(lines))], "\n")
		toks, err := Tokenize(context.Background(), &MeCab{Workers: -1}, text, lang)
		if err != nil {
			t.Fatalf("Tokenize(%s): %v", path, err)
		}
		for _, tk := range toks {
			add(voice, tk.Readings...)
		}
	}
	if _, err := exec.LookPath("mecab"); err == nil {
		readings("ja", "ja", filepath.Join(seg, "ja", "ud_japanese-gsd", "ja_gsd-ud-test.sentences.txt"), 40)
		readings("ja", "ja", filepath.Join(sp, "ja_cv_24511055.txt"), 10)
	}
	readings("cmn-latn-pinyin", "zh", filepath.Join(seg, "zh", "ud_chinese-pud", "zh_pud-ud-test.sentences.txt"), 20)
	readings("cmn-latn-pinyin", "zh", filepath.Join(sp, "zh_aishell_BAC009S0764W0121.txt"), 10)
	return words
}

// TestWarmMatchesOneShot phonemises the same inputs through warm processes
// and through a process per batch (the reference) and requires identical
// output, word for word. The warm side sends each voice's words in
// batches through one process, then again in a shuffled order through
// the same process, so that output depending on earlier requests shows.
func TestWarmMatchesOneShot(t *testing.T) {
	needEspeak(t)
	if testing.Short() {
		t.Skip("about 40 s of espeak-ng; FuzzWarmMatchesOneShot's seeds cover the edge cases")
	}
	ctx := context.Background()
	byVoice := warmWords(t)
	voices := slices.Sorted(func(yield func(string) bool) {
		for v := range byVoice {
			if !yield(v) {
				return
			}
		}
	})
	total := 0
	for _, voice := range voices {
		words := byVoice[voice]
		one := NewPhonemizer(PhonemizerConfig{CacheSize: -1, Workers: -1})
		want, err := one.IPA(ctx, voice, words)
		if err != nil {
			t.Fatalf("one-shot IPA(%s): %v", voice, err)
		}
		warm := NewPhonemizer(PhonemizerConfig{CacheSize: -1, Workers: 1})
		defer warm.Close()
		order := make([]int, len(words))
		for i := range order {
			order[i] = i
		}
		rng := rand.New(rand.NewPCG(1, uint64(len(words))))
		for pass := range 2 {
			if pass == 1 {
				rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			}
			for lo := 0; lo < len(order); lo += 97 {
				idx := order[lo:min(lo+97, len(order))]
				batch := make([]string, len(idx))
				for k, i := range idx {
					batch[k] = words[i]
				}
				got, err := warm.IPA(ctx, voice, batch)
				if err != nil {
					t.Fatalf("warm IPA(%s): %v", voice, err)
				}
				for k, i := range idx {
					if got[k] != want[i] {
						t.Errorf("%s %q (pass %d): warm %q, one-shot %q", voice, words[i], pass, got[k], want[i])
					}
				}
			}
		}
		_, _, starts := warm.pool.stats()
		t.Logf("%s: %d words ×2, %d warm process(es) started, %d batches fell back to a process of their own", voice, len(words), starts, warm.calls)
		if starts == 0 {
			t.Errorf("%s: no warm process was used", voice)
		}
		total += len(words)
	}
	t.Logf("%d inputs in %d voices", total, len(voices))
}

// TestWarmReuse checks that repeated uncached calls are served by one
// process and start none of their own.
func TestWarmReuse(t *testing.T) {
	needEspeak(t)
	p := NewPhonemizer(PhonemizerConfig{CacheSize: -1})
	defer p.Close()
	for range 3 {
		got, err := p.IPA(context.Background(), "de", []string{"Hans", "der"})
		if err != nil {
			t.Fatal(err)
		}
		if got[0] != "hˈɑːns" || got[1] != "dˈɛɾ" {
			t.Fatalf("IPA(de, Hans der) = %q", got)
		}
	}
	// A word of two clauses (two lines) is told apart by the sentinel
	// after every word, in the same process.
	got, err := p.IPA(context.Background(), "de", []string{"Hans", "Hallo, Welt", "der"})
	if err != nil || got[0] != "hˈɑːns" || got[1] != "hˈaloː vˈɛlt" || got[2] != "dˈɛɾ" {
		t.Errorf("IPA with a two-clause word = %q, %v; want hˈaloː vˈɛlt in place", got, err)
	}
	// A word containing the sentinel takes the one-shot path.
	if got, err := p.IPA(context.Background(), "de", []string{"der", "Q-X-Q-Z-J-Q"}); err != nil || got[0] != "dˈɛɾ" || got[1] == "" {
		t.Errorf("IPA with the sentinel = %q, %v", got, err)
	}
	live, idle, starts := p.pool.stats()
	if starts != 1 || p.calls != 1 || live != 1 || idle != 1 {
		t.Errorf("after 5 calls: %d started, %d one-shot, %d live, %d idle; want 1, 1, 1, 1", starts, p.calls, live, idle)
	}
}

// TestWarmBounded runs calls in several voices from many goroutines with
// at most two warm processes (run with -race): every result must be right,
// and no more than two processes may be up at once.
func TestWarmBounded(t *testing.T) {
	needEspeak(t)
	p := NewPhonemizer(PhonemizerConfig{CacheSize: -1, Workers: 2})
	defer p.Close()
	want := map[string][2]string{"de": {"Hans", "hˈɑːns"}, "en-us": {"hello", "həlˈoʊ"}, "es": {"hola", "ˈola"}}
	var wg sync.WaitGroup
	errs := make(chan error, 60)
	var maxLive int
	var mu sync.Mutex
	for i := range 60 {
		voice := []string{"de", "en-us", "es"}[i%3]
		wg.Go(func() {
			got, err := p.IPA(context.Background(), voice, []string{want[voice][0]})
			if err == nil && got[0] != want[voice][1] {
				err = fmt.Errorf("IPA(%s, %s) = %q; want %q", voice, want[voice][0], got[0], want[voice][1])
			}
			errs <- err
			live, _, _ := p.pool.stats()
			mu.Lock()
			maxLive = max(maxLive, live)
			mu.Unlock()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if maxLive > 2 {
		t.Errorf("%d warm processes up at once; want at most 2", maxLive)
	}
}

// TestWarmIdleExit checks that a warm process ends once unused for the
// idle timeout, and that Close ends the rest at once.
func TestWarmIdleExit(t *testing.T) {
	needEspeak(t)
	p := NewPhonemizer(PhonemizerConfig{CacheSize: -1, IdleTimeout: 100 * time.Millisecond})
	if _, err := p.IPA(context.Background(), "de", []string{"Hans"}); err != nil {
		t.Fatal(err)
	}
	waitIdleExit(t, p.pool)

	q := NewPhonemizer(PhonemizerConfig{CacheSize: -1})
	if _, err := q.IPA(context.Background(), "de", []string{"Hans"}); err != nil {
		t.Fatal(err)
	}
	q.pool.mu.Lock()
	w := q.pool.free[0]
	q.pool.mu.Unlock()
	q.Close()
	select {
	case <-w.exited:
	case <-time.After(5 * time.Second):
		t.Fatal("warm process still running 5 s after Close")
	}
	if got, err := q.IPA(context.Background(), "de", []string{"der"}); err != nil || got[0] != "dˈɛɾ" || q.calls != 1 {
		t.Errorf("IPA after Close = %q, %v, %d one-shot processes; want dˈɛɾ from one", got, err, q.calls)
	}
}

// TestPrewarm checks that Prewarm starts the processes the first call
// needs, so that the call starts none, and reports bad languages and
// missing programs.
func TestPrewarm(t *testing.T) {
	needEspeak(t)
	needMeCab(t)
	ctx := context.Background()
	g := &G2P{Phonemizer: NewPhonemizer(PhonemizerConfig{}), MeCab: &MeCab{}}
	defer g.Phonemizer.Close()
	defer g.MeCab.Close()
	if err := g.Prewarm(ctx, "de", "ja", "zh"); err != nil {
		t.Fatal(err)
	}
	if err := g.Prewarm(ctx, "de"); err != nil { // idle ones are reused
		t.Fatal(err)
	}
	_, idle, starts := g.Phonemizer.pool.stats()
	_, mIdle, mStarts := g.MeCab.pool.stats()
	if idle != 3 || starts != 3 || mIdle != 1 || mStarts != 1 {
		t.Fatalf("after Prewarm(de, ja, zh): espeak-ng %d idle of %d started, mecab %d of %d; want 3 of 3, 1 of 1", idle, starts, mIdle, mStarts)
	}
	for _, c := range []struct{ text, lang string }{{"Hans", "de"}, {"今日は", "ja"}, {"我爱", "zh"}} {
		if _, p, err := g.Words(ctx, c.text, c.lang); err != nil || len(p) == 0 || len(p[0].Variants) == 0 {
			t.Errorf("Words(%s, %s) = %+v, %v", c.text, c.lang, p, err)
		}
	}
	if _, _, starts := g.Phonemizer.pool.stats(); starts != 3 || g.Phonemizer.calls != 0 {
		t.Errorf("the calls after Prewarm started %d warm and %d one-shot espeak-ng processes; want none", starts-3, g.Phonemizer.calls)
	}
	if _, _, mStarts := g.MeCab.pool.stats(); mStarts != 1 {
		t.Errorf("the call after Prewarm started %d mecab processes; want none", mStarts-1)
	}
	if err := g.Prewarm(ctx, "tlh", "de"); err == nil || !strings.Contains(err.Error(), "tlh") {
		t.Errorf("Prewarm(tlh) err = %v; want one naming the language", err)
	}
	missing := &G2P{Phonemizer: NewPhonemizer(PhonemizerConfig{Path: filepath.Join(t.TempDir(), "espeak-ng")})}
	missing.Phonemizer.voices = testVoices(t)
	if err := missing.Prewarm(ctx, "de"); !errors.Is(err, ErrNoEspeak) {
		t.Errorf("Prewarm without espeak-ng: err = %v; want ErrNoEspeak", err)
	}
}

// waitIdleExit waits for the idle warm process of p to end after a short
// idle timeout (at most 5 s) and checks that the pool keeps none.
func waitIdleExit(t *testing.T, p *pool) {
	t.Helper()
	p.mu.Lock()
	w := p.free[0]
	p.mu.Unlock()
	select {
	case <-w.exited:
	case <-time.After(5 * time.Second):
		t.Fatal("warm process still running 5 s after a 100 ms idle timeout")
	}
	if live, idle, _ := p.stats(); live != 0 || idle != 0 {
		t.Errorf("after the idle timeout: %d live, %d idle; want none", live, idle)
	}
}
