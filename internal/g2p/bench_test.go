package g2p

import (
	"context"
	"os"
	"strings"
	"testing"

	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
)

// benchWords returns the distinct words of the German speech transcript
// (108 tokens), repeated with suffixes to n distinct words.
func benchWords(b *testing.B, n int) []string {
	b.Helper()
	data, err := os.ReadFile(sharedtestdata.Path(b, "speech", "de_aeneas_simplicissimus.txt"))
	if err != nil {
		b.Fatal(err)
	}
	base := strings.Fields(string(data))
	words := make([]string, 0, n)
	for i := 0; len(words) < n; i++ {
		w := strings.Trim(base[i%len(base)], ",.:;!?")
		if i >= len(base) { // make later rounds distinct words
			w += strings.Repeat("e", 1+i/len(base)%5) + string(rune('a'+i/len(base)/5%26))
		}
		words = append(words, w)
	}
	return words
}

// BenchmarkPhonemizeUncached measures espeak-ng throughput: every iteration
// phonemises 1,000 words with the cache disabled (one process call).
func BenchmarkPhonemizeUncached(b *testing.B) {
	needEspeak(b)
	words := benchWords(b, 1000)
	p := NewPhonemizer(PhonemizerConfig{CacheSize: -1})
	ctx := context.Background()
	var n int64
	for _, w := range words {
		n += int64(len(w) + 1)
	}
	b.SetBytes(n)
	for b.Loop() {
		if _, err := p.IPA(ctx, "de", words); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(words)*b.N)/b.Elapsed().Seconds(), "words/s")
}

// BenchmarkPhonemizeCached measures the same 1,000 words served from the
// cache, mapped to ARPAbet.
func BenchmarkPhonemizeCached(b *testing.B) {
	needEspeak(b)
	words := benchWords(b, 1000)
	p := NewPhonemizer(PhonemizerConfig{})
	ctx := context.Background()
	if _, err := p.IPA(ctx, "de", words); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		ipa, err := p.IPA(ctx, "de", words)
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range ipa {
			MapIPA("de", s)
		}
	}
	b.ReportMetric(float64(len(words)*b.N)/b.Elapsed().Seconds(), "words/s")
}

// BenchmarkMapIPA measures the IPA → ARPAbet mapping alone.
func BenchmarkMapIPA(b *testing.B) {
	ipa := []string{"lˈeːbənsbɛʃrˌaɪbʊŋ", "kʲäˈũpɯᵝ", "ts.hˈu5", "ɡrˈantrɛːdɡˌoːrdən", "bɔ̃ʒˈuʁ"}
	for b.Loop() {
		for _, s := range ipa {
			MapIPA("de", s)
		}
	}
	b.ReportMetric(float64(len(ipa)*b.N)/b.Elapsed().Seconds(), "words/s")
}

// BenchmarkPhonemizePerWordProcess is the unbatched baseline: 108 words,
// one espeak-ng process each (BatchSize 1, cache off).
func BenchmarkPhonemizePerWordProcess(b *testing.B) {
	needEspeak(b)
	words := benchWords(b, 108)
	p := NewPhonemizer(PhonemizerConfig{CacheSize: -1, BatchSize: 1})
	ctx := context.Background()
	for b.Loop() {
		if _, err := p.IPA(ctx, "de", words); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(words)*b.N)/b.Elapsed().Seconds(), "words/s")
}

// benchCall phonemises 10 new words per iteration (cache off), as one
// short request of a long-running server does.
func benchCall(b *testing.B, cfg PhonemizerConfig) {
	needEspeak(b)
	words := benchWords(b, 100)
	cfg.CacheSize = -1
	p := NewPhonemizer(cfg)
	defer p.Close()
	ctx := context.Background()
	i := 0
	for b.Loop() {
		if _, err := p.IPA(ctx, "de", words[i%10*10:i%10*10+10]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkPhonemizeCallWarm is a 10-word call served by a warm espeak-ng
// process (the first iteration, b.Loop's probe, starts it).
func BenchmarkPhonemizeCallWarm(b *testing.B) { benchCall(b, PhonemizerConfig{}) }

// BenchmarkPhonemizeCallOneShot is the same call with a process of its
// own (Workers: -1), the behaviour before warm processes.
func BenchmarkPhonemizeCallOneShot(b *testing.B) { benchCall(b, PhonemizerConfig{Workers: -1}) }

// benchMeCab parses the Japanese speech transcript once per iteration.
func benchMeCab(b *testing.B, m *MeCab) {
	needMeCab(b)
	data, err := os.ReadFile(sharedtestdata.Path(b, "speech", "ja_cv_24511055.txt"))
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	ctx := context.Background()
	for b.Loop() {
		if _, err := m.Parse(ctx, string(data)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMeCabWarm parses with a warm mecab process.
func BenchmarkMeCabWarm(b *testing.B) { benchMeCab(b, &MeCab{}) }

// BenchmarkMeCabOneShot parses with a mecab process per call.
func BenchmarkMeCabOneShot(b *testing.B) { benchMeCab(b, &MeCab{Workers: -1}) }
