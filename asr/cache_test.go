package asr

import (
	"maps"
	"testing"

	"github.com/sottolabs/sotto/internal/decoder"
)

// TestCaches checks the cache LM's per-region caches: the confident,
// non-filler words of the other regions' tree passes, counted.
func TestCaches(t *testing.T) {
	fp := func(words ...decoder.Word) *decoder.FirstPass {
		return &decoder.FirstPass{Result: &decoder.Result{Words: words}}
	}
	w := func(text string, conf float64) decoder.Word { return decoder.Word{Text: text, Confidence: conf} }
	first := []*decoder.FirstPass{
		fp(w("ship", 0.9), w("the", 0.6), decoder.Word{Text: "<sil>", Filler: true, Confidence: 1}),
		fp(w("ship", 0.7), w("sails", 0.2)),
		fp(w("the", 0.95), w("ship", 0.5), w("the", 0.8)),
	}
	s := &sphinxASR{cacheLM: 0.1}
	got := s.caches(first)
	want := []map[string]float64{
		{"ship": 2, "the": 2},
		{"ship": 2, "the": 3},
		{"ship": 2, "the": 1},
	}
	if len(got) != len(want) {
		t.Fatalf("caches: %d regions; want %d", len(got), len(want))
	}
	for i := range want {
		if !maps.Equal(got[i], want[i]) {
			t.Errorf("cache of region %d = %v; want %v", i, got[i], want[i])
		}
	}
	if got := (&sphinxASR{}).caches(first); got != nil {
		t.Errorf("caches with the option off = %v; want nil", got)
	}
}
