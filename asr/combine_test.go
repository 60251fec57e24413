package asr

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/decoder"
)

// slot builds a network slot: the pivot word over frames [start, end)
// and arcs given as spelling, posterior pairs (times of the pivot's).
func slot(text string, start, end int, arcs ...any) decoder.Slot {
	sl := decoder.Slot{Pivot: decoder.Word{Text: text, Start: start, End: end, Filler: strings.HasPrefix(text, "<")}}
	for i := 0; i < len(arcs); i += 2 {
		sl.Arcs = append(sl.Arcs, decoder.Arc{Text: arcs[i].(string), P: arcs[i+1].(float64), Start: start, End: end})
	}
	return sl
}

func texts(ws []decoder.Word) string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Text)
	}
	return strings.Join(out, " ")
}

// TestCombineIdentical checks that a network combined with copies of
// itself is that network, and gives the words of its own consensus.
func TestCombineIdentical(t *testing.T) {
	net := []decoder.Slot{
		slot("<sil>", 0, 10, "a", 0.3),
		slot("cat", 10, 40, "cat", 0.55, "hat", 0.4),
		slot("sat", 40, 70, "sat", 0.45),
		slot("</s>", 70, 80),
	}
	for _, k := range []int{1, 2, 3} {
		nets := make([][]decoder.Slot, k)
		for i := range nets {
			nets[i] = net
		}
		got := combineNetworks(nets)
		if len(got) != len(net) {
			t.Fatalf("%d copies: %d slots; want %d", k, len(got), len(net))
		}
		for i := range net {
			if got[i].Pivot != net[i].Pivot || len(got[i].Arcs) != len(net[i].Arcs) {
				t.Fatalf("%d copies: slot %d = %+v; want %+v", k, i, got[i], net[i])
			}
			for j, a := range net[i].Arcs {
				g := got[i].Arcs[j]
				if g.Text != a.Text || g.Start != a.Start || g.End != a.End || math.Abs(g.P-a.P) > 1e-12 {
					t.Errorf("%d copies: slot %d arc %d = %+v; want %+v", k, i, j, g, a)
				}
			}
		}
		if w, g := decoder.ConsensusWords(net), decoder.ConsensusWords(got); !reflect.DeepEqual(texts(w), texts(g)) {
			t.Errorf("%d copies: words %q; want %q", k, texts(g), texts(w))
		}
	}
	// "sat" at 0.45 is less likely than no word: dropped; the filler
	// stays.
	if got := texts(decoder.ConsensusWords(net)); got != "<sil> cat </s>" {
		t.Errorf("ConsensusWords = %q; want %q", got, "<sil> cat </s>")
	}
}

// TestCombineVotes checks the averaging: a word both systems give wins
// over each system's own best, a word one system is sure of survives
// another's doubt, and slots of the other system join the default
// system's by time overlap.
func TestCombineVotes(t *testing.T) {
	a := []decoder.Slot{
		slot("x", 0, 30, "x", 0.45, "y", 0.4),
		slot("on", 30, 50, "on", 0.9),
		slot("<sil>", 50, 60),
		slot("end", 60, 90, "end", 0.3, "and", 0.3),
	}
	b := []decoder.Slot{
		// Another segmentation: two slots over a's first, one of them
		// mostly inside it.
		slot("y", 0, 28, "y", 0.6, "z", 0.3),
		slot("<sil>", 28, 31),
		slot("on", 31, 49, "on", 0.5, "in", 0.4),
		slot("end", 58, 92, "end", 0.9),
	}
	got := decoder.ConsensusWords(combineNetworks([][]decoder.Slot{a, b}))
	if g := texts(got); g != "y on <sil> end" {
		t.Fatalf("combined words %q; want %q", g, "y on <sil> end")
	}
	for i, want := range []float64{0.5, 0.7, 0, 0.6} {
		if math.Abs(got[i].Confidence-want) > 1e-9 {
			t.Errorf("word %d %q confidence %v; want %v", i, got[i].Text, got[i].Confidence, want)
		}
	}
	// Alone, a gives x, and drops its doubtful last word.
	if g := texts(decoder.ConsensusWords(a)); g != "x on <sil>" {
		t.Errorf("a alone: %q; want %q", g, "x on <sil>")
	}
	// The replacement word takes the times of the system surest of it.
	if got[0].Start != 0 || got[0].End != 28 {
		t.Errorf("y at [%d, %d); want [0, 28) (b's arc)", got[0].Start, got[0].End)
	}
}

// TestCombineEmpty checks the degenerate networks: an empty default
// system aligns on the next and votes for no word, and a result without
// a network stands in with its words at posterior 1.
func TestCombineEmpty(t *testing.T) {
	b := []decoder.Slot{slot("go", 0, 20, "go", 0.8)}
	if got := decoder.ConsensusWords(combineNetworks([][]decoder.Slot{nil, b})); len(got) != 0 {
		t.Errorf("combined with an empty network: %+v; want no word (0.4 < 0.6)", got)
	}
	got := decoder.ConsensusWords(combineNetworks([][]decoder.Slot{nil, b, b}))
	if g := texts(got); g != "go" || math.Abs(got[0].Confidence-1.6/3) > 1e-9 {
		t.Errorf("combined with an empty network and b twice: %+v; want go at 0.533", got)
	}
	if got := combineNetworks([][]decoder.Slot{nil, nil}); len(got) != 0 {
		t.Errorf("two empty networks: %+v; want none", got)
	}
	res := &decoder.Result{Words: []decoder.Word{{Text: "<sil>", End: 5, Filler: true}, {Text: "yes", Start: 5, End: 30, Confidence: 0.3}}}
	net := networkOf(res)
	if len(net) != 2 || len(net[0].Arcs) != 0 || len(net[1].Arcs) != 1 || net[1].Arcs[0].P != 1 {
		t.Errorf("networkOf(best path) = %+v; want a filler slot and yes at 1", net)
	}
	if got := decoder.ConsensusWords(net); !reflect.DeepEqual(got[:1], res.Words[:1]) || texts(got) != "<sil> yes" {
		t.Errorf("its words %+v; want %+v", got, res.Words)
	}
}

// TestCombineOptions checks the parsing of OptCombine and that Open
// refuses it without consensus decoding, naming the option.
func TestCombineOptions(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []variant
	}{
		{"", nil},
		{"vtln", []variant{{vtln: true}}},
		{"vtln+means+lw8", []variant{{vtln: true}, {means: true}, {flatLW: 8}}},
		{"plain+lw6.5", []variant{{plain: true}, {flatLW: 6.5}}},
	} {
		got, err := parseCombine(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseCombine(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"vtln+vtln", "lw", "lw-1", "lwx", "fast", "vtln,means", "vtln+"} {
		if got, err := parseCombine(in); err == nil {
			t.Errorf("parseCombine(%q) = %+v; want an error", in, got)
		}
	}
	for _, o := range []map[string]string{
		{OptCombine: "vtln", OptPasses: "2"},
		{OptCombine: "vtln", OptConsensus: "off"},
		{OptCombine: "means", OptAdapt: "off"},
		{OptCombine: "lw0"},
	} {
		_, err := openSphinx(context.Background(), backend.Config{Options: o})
		if err == nil || !strings.Contains(err.Error(), OptCombine) {
			t.Errorf("openSphinx(%v) = %v; want an error naming %s", o, err, OptCombine)
		}
	}
}

// TestGoCombineJFK decodes jfk combined with a copy of the default
// system (the flat pass at the default language weight): the words and
// times equal the default's. Combined with VTLN and MLLR of the means,
// the words every decent pass finds are there.
func TestGoCombineJFK(t *testing.T) {
	base := goBackend(t).(*sphinxASR)
	a := jfk(t)
	ref, err := Transcribe(context.Background(), base, a, Options{Words: true})
	if err != nil {
		t.Fatal(err)
	}
	s := *base
	s.combine = []variant{{flatLW: defaultFlatLW}}
	got, err := Transcribe(context.Background(), &s, a, Options{Words: true})
	if err != nil {
		t.Fatal(err)
	}
	if got.Text != ref.Text || len(got.Segments) != len(ref.Segments) {
		t.Fatalf("combined with itself: %q; want %q", got.Text, ref.Text)
	}
	for i := range ref.Segments {
		if !reflect.DeepEqual(got.Segments[i].Words, ref.Segments[i].Words) {
			t.Errorf("segment %d words %+v; want %+v", i, got.Segments[i].Words, ref.Segments[i].Words)
		}
	}
	s.combine = []variant{{vtln: true}, {means: true}}
	got, err = Transcribe(context.Background(), &s, a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("vtln+means: %q (default %q)", got.Text, ref.Text)
	checkJFKWords(t, "Transcribe(jfk, vtln+means)", got.Text)
}
