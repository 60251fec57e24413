package tts

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sottolabs/sotto/internal/g2p"
)

func TestParseSegments(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []PhoneTime
	}{
		{"pau:0.119 hh:0.212 ax:0.261 \n", []PhoneTime{{"pau", 0, 0.119}, {"hh", 0.119, 0.212}, {"ax", 0.212, 0.261}}},
		{"", nil},
		{"pau:0.1 bad t:0.3", []PhoneTime{{"pau", 0, 0.1}}},              // stops at a malformed item
		{"pau:0.2 t:0.1", []PhoneTime{{"pau", 0, 0.2}, {"t", 0.2, 0.2}}}, // no time travel
		{"pau:NaN", nil},
		{":0.5", nil},
	} {
		if diff := cmp.Diff(tc.want, parseSegments(tc.in)); diff != "" {
			t.Errorf("parseSegments(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func FuzzParseSegments(f *testing.F) {
	f.Add("pau:0.119 hh:0.212 ax:0.261")
	f.Add("a:1e309 b:-1")
	f.Fuzz(func(t *testing.T, in string) {
		prev := 0.0
		for _, p := range parseSegments(in) {
			if p.Phone == "" || p.Start != prev || p.End < p.Start {
				t.Fatalf("parseSegments(%q): %+v after %v", in, p, prev)
			}
			prev = p.End
		}
	})
}

// wordSpans gives each word the engine phones aligned with its
// pronunciation, whatever the engine changed: reduced vowels, a dropped or
// an extra phone, pauses between words.
func TestWordSpans(t *testing.T) {
	pron := func(s string) g2p.Pronunciation { return g2p.Pronunciation{Variants: [][]string{strings.Fields(s)}} }
	phones := func(s string) []PhoneTime {
		var out []PhoneTime
		for i, p := range strings.Fields(s) {
			out = append(out, PhoneTime{Phone: p, Start: float64(i), End: float64(i + 1)})
		}
		return out
	}
	for _, tc := range []struct {
		name, engine string
		words        []string
		want         []span
	}{
		{"exact with pauses", "pau hh ax l ow pau w er l d pau", []string{"HH AH L OW", "W ER L D"}, []span{{1, 4}, {6, 9}}},
		{"engine drops a phone", "pau hh ax l ow w er d pau", []string{"HH AH L OW", "W ER L D"}, []span{{1, 4}, {5, 7}}},
		{"engine changes a vowel", "pau t ax m aa t ow z pau", []string{"T AH M EY T OW Z"}, []span{{1, 7}}},
		{"engine adds a phone", "pau hh ax l ow ow pau k ae t pau", []string{"HH AH L OW", "K AE T"}, []span{{1, 5}, {7, 9}}},
		{"silent word", "pau ay pau", []string{"AY", ""}, []span{{1, 1}, {-1, -1}}},
		{"leading insertion joins the first word", "pau h# s iy pau", []string{"S IY"}, []span{{2, 3}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var prons []g2p.Pronunciation
			for _, w := range tc.words {
				if w == "" {
					prons = append(prons, g2p.Pronunciation{})
				} else {
					prons = append(prons, pron(w))
				}
			}
			got, err := wordSpans(phones(tc.engine), prons)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(span{})); diff != "" {
				t.Errorf("spans (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := wordSpans(phones("pau pau"), []g2p.Pronunciation{pron("AY")}); err == nil {
		t.Error("no engine speech phones: want an error")
	}
}

// BenchmarkEngineMarks times deriving one sentence's word marks from
// flite's phone timings (the dictionary already read).
func BenchmarkEngineMarks(b *testing.B) {
	if _, err := engineLexicon(); err != nil {
		b.Skipf("no dictionary: %v", err)
	}
	ctx := b.Context()
	ss, err := prepare(ctx, "The birch canoe slid on the smooth planks.", "en")
	if err != nil {
		b.Fatal(err)
	}
	phones := parseSegments("pau:0.168 dh:0.214 ax:0.262 b:0.337 er:0.470 ch:0.602 k:0.677 ax:0.719 n:0.800 uw:0.951 " +
		"s:1.071 l:1.140 ih:1.216 d:1.296 aa:1.400 n:1.456 dh:1.495 ax:1.541 s:1.649 m:1.714 uw:1.829 dh:1.888 " +
		"p:1.962 l:2.024 ae:2.150 ng:2.223 k:2.295 s:2.438 pau:2.600")
	for b.Loop() {
		if _, ok := ss[0].engineMarks(ctx, phones, 0); !ok {
			b.Fatal("no marks")
		}
	}
}
