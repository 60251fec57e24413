package decoder

import (
	"math"
	"testing"
)

// TestCacheBoosts checks the cache LM's bonus: each known cached word's
// probability is scaled by 1-λ+λ·(c/N)/P(w) (here P(w) = 10^-1.5 for
// every word), unknown words are left out of N, and the bonus adds to a
// prompt's.
func TestCacheBoosts(t *testing.T) {
	am := acoustic(t)
	d := sentenceDecoder(t, am, Config{})
	id := func(w string) int32 {
		i, ok := d.lang.ID(w)
		if !ok {
			t.Fatalf("%q not in the LM", w)
		}
		return i
	}
	uni := math.Pow(10, -1.5)
	bonus := func(lambda, share float64) float32 {
		return d.lw * float32(math.Log(1-lambda+lambda*share/uni))
	}
	cache := map[string]float64{"country": 3, "ask": 1, "zzyzx": 4, "not": 0}
	for _, tc := range []struct {
		name string
		opts Options
		want map[int32]float32
	}{
		{"off", Options{Cache: cache}, nil},
		{"λ 0.2", Options{Cache: cache, CacheWeight: 0.2},
			map[int32]float32{id("country"): bonus(0.2, 0.75), id("ask"): bonus(0.2, 0.25)}},
		{"λ 0.05 with a prompt", Options{Cache: cache, CacheWeight: 0.05, Bias: []string{"ask", "fellow"}, BiasFactor: 4},
			map[int32]float32{
				id("country"): bonus(0.05, 0.75),
				id("ask"):     bonus(0.05, 0.25) + d.lw*float32(math.Log(4)),
				id("fellow"):  d.lw * float32(math.Log(4)),
			}},
		{"λ 1 refused", Options{Cache: cache, CacheWeight: 1}, nil},
	} {
		got := d.boosts(tc.opts)
		if len(got) != len(tc.want) {
			t.Errorf("%s: boosts = %v; want %v", tc.name, got, tc.want)
			continue
		}
		for k, v := range tc.want {
			if g, ok := got[k]; !ok || math.Abs(float64(g-v)) > 1e-4 {
				t.Errorf("%s: boost of %d = %v; want %v", tc.name, k, g, v)
			}
		}
	}
}
