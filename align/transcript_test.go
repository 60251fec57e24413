package align

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sottolabs/sotto"
)

func tokenTexts(t *transcript) []string {
	var out []string
	for _, tk := range t.Tokens {
		out = append(out, tk.Text)
	}
	return out
}

func TestPrepareWithoutNormalization(t *testing.T) {
	text := "And so, my fellow Americans: ask not—what your country can do for you."
	tr, err := prepare(context.Background(), text, "en", TextNormalization{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"and", "so", "my", "fellow", "americans", "ask", "not", "what", "your", "country", "can", "do", "for", "you"}
	if got := tokenTexts(tr); !cmp.Equal(got, want) {
		t.Errorf("tokens = %v; want %v", got, want)
	}
	for _, tk := range tr.Tokens {
		if src := strings.ToLower(text[tk.Start:tk.End]); src != tk.Text {
			t.Errorf("token %q maps to source %q", tk.Text, src)
		}
	}
	if len(tr.Units) != 13 || tr.Units[1].Text != "so," || tr.Units[6].Text != "not—what" {
		t.Errorf("units = %+v; want 13 whitespace words", tr.Units)
	}
}

func TestPrepareNormalizesWithProvenance(t *testing.T) {
	text := "I paid $5 for 2 apples."
	tr, err := prepare(context.Background(), text, "en", DefaultTextNormalization, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(tokenTexts(tr), " ")
	if !strings.Contains(got, "five dollars") || !strings.Contains(got, "two apples") {
		t.Fatalf("spoken tokens %q; want five dollars … two apples", got)
	}
	var money *Region
	for i := range tr.Regions {
		if tr.Regions[i].Source == "$5" {
			money = &tr.Regions[i]
		}
	}
	if money == nil || text[money.SourceStartByte:money.SourceEndByte] != "$5" || len(money.Normalizations) == 0 {
		t.Fatalf("regions %+v; want one for $5 with readings", tr.Regions)
	}
	for _, tk := range tr.Tokens {
		if tk.Text == "dollars" && (tk.Start != money.SourceStartByte || tk.End != money.SourceEndByte || tr.Regions[tk.Region].Source != "$5") {
			t.Errorf("token dollars has source %d..%d region %d; want the $5 region", tk.Start, tk.End, tk.Region)
		}
	}
}

func TestPreparePinKeepsSource(t *testing.T) {
	text := "Call me at 5."
	tr, err := prepare(context.Background(), text, "en", DefaultTextNormalization, nil)
	if err != nil {
		t.Fatal(err)
	}
	var r *Region
	for i := range tr.Regions {
		if tr.Regions[i].Source == "5" {
			r = &tr.Regions[i]
		}
	}
	if r == nil {
		t.Fatalf("no region for 5: %+v", tr.Regions)
	}
	tn := DefaultTextNormalization
	tn.Pins = []Pin{{SourceStartByte: r.SourceStartByte, SourceEndByte: r.SourceEndByte, Rank: nil}}
	tr, err = prepare(context.Background(), text, "en", tn, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := tokenTexts(tr); got[len(got)-1] != "5" {
		t.Errorf("pinned to source: tokens %v; want the last one 5", got)
	}
	tn.Pins = []Pin{{SourceStartByte: 0, SourceEndByte: 2}}
	_, err = prepare(context.Background(), text, "en", tn, nil)
	var se *sotto.Error
	if !errors.As(err, &se) || se.Param != "text_normalization.pins" {
		t.Errorf("pin on no region = %v; want 400 param text_normalization.pins", err)
	}
}

func TestPrepareProtectedTerms(t *testing.T) {
	text := "We met in New York and new yorkers laughed."
	tr, err := prepare(context.Background(), text, "en", DefaultTextNormalization, []string{"new york"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"we", "met", "in", "new york", "and", "new", "yorkers", "laughed"}
	if got := tokenTexts(tr); !cmp.Equal(got, want) {
		t.Errorf("tokens = %v; want %v (only the whole-word match is protected)", got, want)
	}
	if p := tr.Tokens[3]; !cmp.Equal(p.Parts, []string{"new", "york"}) || text[p.Start:p.End] != "New York" {
		t.Errorf("protected token = %+v", p)
	}
}

func TestPrepareNoWords(t *testing.T) {
	_, err := prepare(context.Background(), " ... — !", "en", TextNormalization{}, nil)
	var se *sotto.Error
	if !errors.As(err, &se) || se.Code != "alignment_failed" {
		t.Fatalf("prepare(punctuation) = %v; want alignment_failed", err)
	}
	if f, ok := se.Detail.(Failure); !ok || f.Reason != ReasonNoWords {
		t.Errorf("detail = %+v; want reason no_words", se.Detail)
	}
}

func TestPrepareNoSpaceScripts(t *testing.T) {
	text := "今天天气很好。hello 世界"
	tr, err := prepare(context.Background(), text, "zh", TextNormalization{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"今", "天", "天", "气", "很", "好", "hello", "世", "界"}; !cmp.Equal(tokenTexts(tr), want) {
		t.Errorf("tokens = %v; want %v", tokenTexts(tr), want)
	}
	var units []string
	for _, u := range tr.Units {
		units = append(units, u.Text)
	}
	if want := []string{"今", "天", "天", "气", "很", "好。", "hello", "世", "界"}; !cmp.Equal(units, want) {
		t.Errorf("units = %v; want %v (each Han character is a word; punctuation stays with the one before)", units, want)
	}
	if r := tr.Tokens[0].Readings; len(r) != 1 || len(r[0]) == 0 || r[0][0] != "jin1" {
		t.Errorf("readings of 今 = %v; want pinyin jin1", r)
	}
}

func FuzzPrepare(f *testing.F) {
	f.Add("I paid $12.50 at 3:30 pm for 21 crêpes.", "New York")
	f.Add("Dr. Smith lives on St. James St.", "")
	f.Add("今天天气很好", "")
	// Characters NFC treats specially beside numbers and terms, marks
	// after a space, joiners, U+FEFF, RTL marks, compatibility ideographs.
	f.Add("5\u212b 3\u2126 \u0344 4\u0f73 \u095d 7 \uac00\u11a8 8 \u0301\u0323x", "\u212bA")
	f.Add("\ufeffI paid $5 \u200d4 \u200f6\u200e \uf900\u4e00 \uff11\uff12", "\uf900")
	f.Fuzz(checkPrepare)
}

// checkPrepare checks FuzzPrepare's invariants on text with the protected
// term: an error is a 400- or 422-kind one; tokens lie within the text and
// name a unit; every region's Source is the text's bytes it names.
func checkPrepare(t *testing.T, text, term string) {
	t.Helper()
	tr, err := prepare(context.Background(), text, "en", DefaultTextNormalization, []string{term})
	if err != nil {
		if !errors.Is(err, sotto.ErrUnsatisfiable) && !errors.Is(err, sotto.ErrInvalidRequest) {
			t.Fatalf("prepare(%q) = %v; want a 400/422-kind error", text, err)
		}
		return
	}
	for _, tk := range tr.Tokens {
		if tk.Start < 0 || tk.End > len(text) || tk.Start > tk.End || tk.Unit < 0 || tk.Unit >= len(tr.Units) {
			t.Fatalf("token %+v out of range for %q", tk, text)
		}
	}
	for _, r := range tr.Regions {
		if text[r.SourceStartByte:r.SourceEndByte] != r.Source {
			t.Fatalf("region %+v does not match the source", r)
		}
	}
}

// TestPrepareLongTranscript: a long transcript mixing spans (numbers that
// normalize, a protected term) and a script written without spaces keeps
// each token in the unit that holds its source bytes. The lookups of unit,
// span and cut were scans of every one for every token or byte: quadratic,
// so the 16 MiB transcript the endpoint accepts ran for many minutes.
func TestPrepareLongTranscript(t *testing.T) {
	var b strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&b, "Item %d costs $%d at Acme Corp, 我们今天去学校。 ", i, i%97)
	}
	text := b.String()
	tr, err := prepare(context.Background(), text, "und", DefaultTextNormalization, []string{"Acme Corp"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Tokens) < 4000*8 {
		t.Fatalf("%d tokens; want at least 8 a line", len(tr.Tokens))
	}
	for i := 1; i < len(tr.Units); i++ {
		if tr.Units[i].Start < tr.Units[i-1].End {
			t.Fatalf("units %d and %d overlap: %+v %+v", i-1, i, tr.Units[i-1], tr.Units[i])
		}
	}
	for _, tk := range tr.Tokens {
		u := tr.Units[tk.Unit]
		if tk.Start < u.Start || tk.Start >= u.End {
			t.Fatalf("token %q at byte %d is in unit %d %q (%d..%d), which does not hold it", tk.Text, tk.Start, tk.Unit, u.Text, u.Start, u.End)
		}
	}
}

// TestTooManyWords: a transcript with more written words than the audio
// can hold fails as the search would (alignment_failed, no_path), before
// megabytes of it are prepared; a no-space script and punctuation count
// for less, never for more.
func TestTooManyWords(t *testing.T) {
	for _, tt := range []struct {
		text    string
		seconds float64
		fail    bool
	}{
		{strings.Repeat("a ", 100), 1, false},
		{strings.Repeat("a ", 101), 1, true},
		{strings.Repeat("word ", 4000), 30, true},
		{strings.Repeat("— … !! ", 1000), 1, false},  // no letters: not words
		{strings.Repeat("我们今天去学校。", 1000), 1, false}, // one run without spaces
		{"", 0, false},
	} {
		err := tooManyWords(tt.text, tt.seconds, "", 900)
		if !tt.fail {
			if err != nil {
				t.Errorf("%d bytes over %g s: %v; want no error", len(tt.text), tt.seconds, err)
			}
			continue
		}
		e, ok := errors.AsType[*sotto.Error](err)
		if !ok {
			t.Errorf("%d bytes over %g s: %v; want an alignment failure", len(tt.text), tt.seconds, err)
			continue
		}
		f, _ := e.Detail.(Failure)
		if e.Code != "alignment_failed" || f.Reason != ReasonNoPath || f.SearchEffortUsed != EffortStandard ||
			!strings.Contains(e.Message, "cannot hold") {
			t.Errorf("%d bytes over %g s: %v (%+v); want alignment_failed no_path", len(tt.text), tt.seconds, err, f)
		}
	}
}
