package align

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
)

// refPart is one recording with MFA word references, its transcript being
// the reference words (spelled as CMUdict spells them).
type refPart struct {
	name  string
	audio sotto.Audio
	text  string
	ref   []Word
}

// mfaPart loads a recording with its .words.tsv reference.
func mfaPart(t testing.TB, name string) refPart {
	t.Helper()
	a, _ := speech(t, name)
	f, err := os.Open(sharedtestdata.Path(t, "speech", name+".words.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := refPart{name: name, audio: a}
	var toks []string
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
		w := fs[2]
		if w == "yknow" { // CMUdict spells it y'know
			w = "y'know"
		}
		toks = append(toks, w)
		p.ref = append(p.ref, Word{Word: w, Start: s, End: e})
	}
	p.text = strings.Join(toks, " ")
	return p
}

// boundaryShare returns the shares of the start and end boundaries of got
// within 20 and 50 ms of want (the same words, in order).
func boundaryShare(t testing.TB, got, want []Word) (in20, in50 float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d words; want %d", len(got), len(want))
	}
	var n20, n50 int
	for i := range got {
		for _, d := range []float64{got[i].Start - want[i].Start, got[i].End - want[i].End} {
			if math.Abs(d) <= 0.02+1e-9 {
				n20++
			}
			if math.Abs(d) <= 0.05+1e-9 {
				n50++
			}
		}
	}
	nb := float64(2 * len(got))
	return float64(n20) / nb, float64(n50) / nb
}

// TestConcatenatedChannels aligns recordings of different rooms and
// microphones joined into one file with the standard search. With one
// cepstral mean for the whole file the search found no path on any of
// these; normalised per recording, every part's words must land where they
// land when the part is aligned alone (90 % of the boundaries within 50 ms:
// a part after the first is framed up to 10 ms apart from its own framing
// unless the parts before it have a whole number of frames, which moves a
// few boundaries at fillers and breaths).
func TestConcatenatedChannels(t *testing.T) {
	l := openTestBackend(t)
	opts := Options{Language: "en", TextNormalization: DefaultTextNormalization, Sentences: SentenceOptions{Disabled: true}}
	for _, names := range [][]string{
		{"en_mfa_acoustic_corpus", "en_mfa_cold_corpus"},
		{"en_mfa_cold_corpus", "en_mfa_acoustic_corpus", "en_ps_sense0870"},
		{"en_ps_sense0890", "en_mfa_cold_corpus", "en_jfk", "en_mfa_acoustic_corpus"},
	} {
		t.Run(strings.Join(names, "+"), func(t *testing.T) {
			var parts []refPart
			var samples []float32
			var text []string
			for _, n := range names {
				var p refPart
				if n == "en_jfk" {
					a, tx := speech(t, n)
					p = refPart{name: n, audio: a, text: tx}
				} else {
					p = mfaPart(t, n)
				}
				parts = append(parts, p)
				samples = append(samples, p.audio.Samples...)
				text = append(text, p.text)
			}
			res, err := l.Align(context.Background(), sotto.Audio{Samples: samples}, strings.Join(text, " "), opts)
			if err != nil {
				t.Fatalf("standard search on the concatenation: %v", err)
			}
			all := words(res)
			off, k := 0.0, 0
			for _, p := range parts {
				alone, err := l.Align(context.Background(), p.audio, p.text, opts)
				if err != nil {
					t.Fatalf("%s alone: %v", p.name, err)
				}
				aw := words(alone)
				if k+len(aw) > len(all) {
					t.Fatalf("the concatenation has %d words; the parts more", len(all))
				}
				got := make([]Word, len(aw))
				for i, w := range all[k : k+len(aw)] {
					got[i] = Word{Word: w.Word, Start: w.Start - off, End: w.End - off}
				}
				k += len(aw)
				off += p.audio.Seconds()
				a20, a50 := boundaryShare(t, got, aw)
				msg := ""
				if p.ref != nil {
					r20, r50 := boundaryShare(t, got, p.ref)
					s20, s50 := boundaryShare(t, aw, p.ref)
					msg = fmt.Sprintf("; %.1f / %.1f%% of the reference (alone: %.1f / %.1f%%)", 100*r20, 100*r50, 100*s20, 100*s50)
				}
				t.Logf("%s: %d words, boundaries within 20 / 50 ms: %.1f / %.1f%% of the part alone%s", p.name, len(aw), 100*a20, 100*a50, msg)
				if a50 < 0.9 {
					t.Errorf("%s: %.1f%% of boundaries within 50 ms of the part aligned alone; want ≥ 90%%", p.name, 100*a50)
				}
			}
		})
	}
}

// TestConcatenatedChannelsStreaming aligns two recordings of different
// rooms joined into one file on the streaming path (20 s windows): the
// cepstral-mean regions found block by block must let the standard search
// through and land the words where the whole-audio search does.
func TestConcatenatedChannelsStreaming(t *testing.T) {
	l := openTestBackend(t)
	opts := Options{Language: "en", TextNormalization: DefaultTextNormalization, Sentences: SentenceOptions{Disabled: true}}
	p1, p2 := mfaPart(t, "en_mfa_acoustic_corpus"), mfaPart(t, "en_mfa_cold_corpus")
	a := sotto.Audio{Samples: append(append([]float32(nil), p1.audio.Samples...), p2.audio.Samples...)}
	text := p1.text + " " + p2.text
	whole, err := l.Align(context.Background(), a, text, opts)
	if err != nil {
		t.Fatalf("whole audio: %v", err)
	}
	l.knobs.streamSeconds, l.knobs.chunkSeconds = 20, 20
	var path string
	l.knobs.observe = func(p string, _ *searchOut) { path = p }
	stream, err := l.Align(context.Background(), a, text, opts)
	if err != nil {
		t.Fatalf("streaming: %v", err)
	}
	if path != PathStreaming {
		t.Fatalf("search path %q; want streaming", path)
	}
	s20, s50 := boundaryShare(t, words(stream), words(whole))
	t.Logf("streaming: %.1f / %.1f%% of boundaries within 20 / 50 ms of the whole-audio search", 100*s20, 100*s50)
	if s20 < 0.95 {
		t.Errorf("%.1f%% of boundaries within 20 ms of the whole-audio search; want ≥ 95%%", 100*s20)
	}
}
