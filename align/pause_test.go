package align

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sottolabs/sotto"
)

// TestShortPauseBecomesSilence splices a pause of faint noise into the
// junction of two words the speaker runs together, and checks that the
// standard search gives it to an inserted silence: the gap between the two
// words covers most of the pause, and neither word stretches over it. The
// 40 ms pause is the one the search's silence penalty decides: with the
// engine's default (-34.4 nats) "fellow" absorbs it.
func TestShortPauseBecomesSilence(t *testing.T) {
	l := openTestBackend(t)
	a, text := speech(t, "en_jfk")
	ctx := context.Background()
	opts := Options{Language: "en", TextNormalization: DefaultTextNormalization, SearchEffort: EffortStandard}
	res, err := l.Align(ctx, a, text, opts)
	if err != nil {
		t.Fatal(err)
	}
	ws := words(res)
	// The first junction after the first second without a gap, between
	// two words of at least 150 ms.
	k := -1
	for i := 1; i < len(ws); i++ {
		if ws[i-1].Start > 1 && ws[i].Start-ws[i-1].End < 0.005 && ws[i-1].End-ws[i-1].Start >= 0.15 && ws[i].End-ws[i].Start >= 0.15 {
			k = i
			break
		}
	}
	if k < 0 {
		t.Fatalf("no junction without a pause in %v", ws)
	}
	for _, ms := range []int{40, 80, 200} {
		pause := float64(ms) / 1000
		at := int(ws[k].Start * sotto.SampleRate)
		n := int(pause * sotto.SampleRate)
		r := rand.New(rand.NewPCG(1, uint64(ms)))
		noise := make([]float32, n)
		for i := range noise {
			noise[i] = float32(r.NormFloat64() * 1e-3) // about -60 dBFS
		}
		b := a
		b.Samples = slices.Concat(a.Samples[:at], noise, a.Samples[at:])
		got, err := l.Align(ctx, b, text, opts)
		if err != nil {
			t.Fatal(err)
		}
		gs := words(got)
		if len(gs) != len(ws) {
			t.Fatalf("%d ms: %d words; want %d", ms, len(gs), len(ws))
		}
		prev, next := gs[k-1], gs[k]
		gap := next.Start - prev.End
		t.Logf("%d ms pause after %q: gap %.3f s (%q %.3f-%.3f, %q %.3f-%.3f)", ms, prev.Word, gap, prev.Word, prev.Start, prev.End, next.Word, next.Start, next.End)
		if gap < 0.7*pause {
			t.Errorf("%d ms pause between %q and %q: the words are %.0f ms apart; want at least %.0f ms", ms, prev.Word, next.Word, gap*1000, 0.7*pause*1000)
		}
		if d := (prev.End - prev.Start) - (ws[k-1].End - ws[k-1].Start); d > 0.04 {
			t.Errorf("%d ms pause: %q grew by %.0f ms", ms, prev.Word, d*1000)
		}
		if d := (next.End - next.Start) - (ws[k].End - ws[k].Start); d > 0.04 {
			t.Errorf("%d ms pause: %q grew by %.0f ms", ms, next.Word, d*1000)
		}
	}
}
