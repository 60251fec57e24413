package segment

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sottolabs/sotto"
)

func TestSentences(t *testing.T) {
	tests := []struct {
		name, lang, in string
		want           []string
	}{
		{"simple", "en", "Hello World. My name is Jonas.", []string{"Hello World.", "My name is Jonas."}},
		{"title", "en", "Dr. Watson met Mrs. Hudson. They talked.", []string{"Dr. Watson met Mrs. Hudson.", "They talked."}},
		{"abbreviation then starter", "en", "They closed the deal with Pitt, Briggs & Co. It closed yesterday.", []string{"They closed the deal with Pitt, Briggs & Co.", "It closed yesterday."}},
		{"abbreviation mid", "en", "I work for the U.S. Government in Virginia.", []string{"I work for the U.S. Government in Virginia."}},
		{"e.g.", "en", "Bring fruit, e.g. apples or pears. Then leave.", []string{"Bring fruit, e.g. apples or pears.", "Then leave."}},
		{"initials", "en", "Did you see Albert I. Jones yesterday? No.", []string{"Did you see Albert I. Jones yesterday?", "No."}},
		{"decimal", "en", "She has $100.00 in her bag. It is safe.", []string{"She has $100.00 in her bag.", "It is safe."}},
		{"quote end", "en", `She said, "This is great." She left.`, []string{`She said, "This is great."`, "She left."}},
		{"quote mid", "en", `She said, "This is great." she said.`, []string{`She said, "This is great." she said.`}},
		{"exclamation name", "en", "She works at Yahoo! in the accounting department.", []string{"She works at Yahoo! in the accounting department."}},
		{"email", "en", "Write to jane.doe@example.com. I will read it.", []string{"Write to jane.doe@example.com.", "I will read it."}},
		{"url", "en", "See https://example.com/a.html. Then decide.", []string{"See https://example.com/a.html.", "Then decide."}},
		{"ellipsis mid", "en", "I wasn’t really ... well, what I mean...see . . . what I'm saying.", []string{"I wasn’t really ... well, what I mean...see . . . what I'm saying."}},
		{"list", "en", "1. The first item 2. The second item", []string{"1. The first item", "2. The second item"}},
		{"missing space", "en", "I was home.Then it rained.", []string{"I was home.", "Then it rained."}},
		{"missing space before title", "en", "Today is Tuesday.Mr. Smith went home.", []string{"Today is Tuesday.", "Mr. Smith went home."}},
		{"no split in domains", "en", "See www.Example.Com and Newsfeeds.Com, or mail Jane.Doe@example.com today.", []string{"See www.Example.Com and Newsfeeds.Com, or mail Jane.Doe@example.com today."}},
		{"footnote", "en", "He was a martyr.[1] The emperor ruled.", []string{"He was a martyr.[1]", "The emperor ruled."}},
		{"dialogue dash", "en", "Mix it and -- voila! -- you have cake.", []string{"Mix it and -- voila! -- you have cake."}},
		{"parenthetical", "en", "He teaches (He worked for 5 years as an engineer.) at the school.", []string{"He teaches (He worked for 5 years as an engineer.) at the school."}},
		{"lower-case start", "en", "bet? really, i have no idea.", []string{"bet?", "really, i have no idea."}},
		{"newline list", "en", "features\ncontact manager\nevents, activities\n", []string{"features", "contact manager", "events, activities"}},
		{"errant newline", "en", "It was a cold \nnight in the city.", []string{"It was a cold night in the city."}},
		{"blank line", "en", "A title\n\nThe body starts here", []string{"A title", "The body starts here"}},
		{"german ordinal", "de", "Was geschah am 12. Juni? Niemand weiß es.", []string{"Was geschah am 12. Juni?", "Niemand weiß es."}},
		{"german z. B.", "de", "Es gibt z. B. ist es gut. Ja.", []string{"Es gibt z. B. ist es gut.", "Ja."}},
		{"french spacing", "fr", "Il a dit : « Tiens, vous avez vu ça ? » dit Paul. Puis il partit.", []string{"Il a dit : « Tiens, vous avez vu ça ? » dit Paul.", "Puis il partit."}},
		{"spanish", "es", "¿Cómo está hoy? ¡Muy bien! Hola Srta. Ledesma.", []string{"¿Cómo está hoy?", "¡Muy bien!", "Hola Srta. Ledesma."}},
		{"italian", "it", "Salve Sig.ra Mengoni! Come sta oggi?", []string{"Salve Sig.ra Mengoni!", "Come sta oggi?"}},
		{"portuguese", "pt", "O Sr. Silva chegou. Ele trouxe o livro.", []string{"O Sr. Silva chegou.", "Ele trouxe o livro."}},
		{"russian", "ru", "Объем составляет 5 куб.м. Это много.", []string{"Объем составляет 5 куб.м.", "Это много."}},
		{"russian т.е.", "ru", "Он пришёл, т.е. вернулся домой. Все рады.", []string{"Он пришёл, т.е. вернулся домой.", "Все рады."}},
		{"chinese", "zh", "我喜欢猫。你呢？我也是！", []string{"我喜欢猫。", "你呢？", "我也是！"}},
		{"japanese quote", "ja", "彼は「行きます。」と言った。それから出た。", []string{"彼は「行きます。」と言った。", "それから出た。"}},
		{"japanese decimal", "ja", "引き下げ幅は３．２９％です。よろしく。", []string{"引き下げ幅は３．２９％です。", "よろしく。"}},
		{"guess language", "", "Mr. Smith went home. He slept.", []string{"Mr. Smith went home.", "He slept."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Sentences(context.Background(), tt.in, Options{Language: tt.lang})
			if err != nil {
				t.Fatalf("Sentences(%q) error: %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Sentences(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// squash removes all whitespace, to compare content.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if isSpace(r) { // the segmenter's own notion of white space (includes U+200B)
			return -1
		}
		return r
	}, s)
}

var monotonicTexts = []string{
	"At 5 a.m. Mr. Smith went to the bank. He left the bank at 6 P.M. Mr. Smith then went to the store.",
	"I live in the E.U. How about you? 1. First 2. Second. Yahoo! in the U.S. for 20 years... Then, nothing.",
	"features\ncontact manager\nevents\n\nIt was a cold \nnight. she left. 你好。再见！「はい。」と言った。",
	"„Ich habe keine Zeit“, sagte sie: „Und auch keine Lust.“ Wir haben 1.000.000 Euro. Am 3. Oktober, z. B. heute.",
	"Ann Lee 06/02/2001 10:53 AM Please call.\n\nThanks, Dawn\n\nLouise, There are two. see you -----= Posted via News =----- Next: http://a.example/ The end :) We won!!! next AB1 X 5 AB2 X 6 AB3 X 7 lol Fine from that They sell",
	"ذهبت إلى السوق، واشتريت التفاح، والموز، ثم عدت.",
}

func TestThresholdMonotonic(t *testing.T) {
	ctx := context.Background()
	for _, text := range monotonicTexts {
		bs, err := sentenceBoundaries(ctx, text, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bs {
			if !inUnit(b.score) {
				t.Errorf("boundary %+v of %q has a score outside [0, 1]", b, text)
			}
		}
		prev := -1
		for th := 1.0; th >= -1e-9; th -= 0.05 {
			got, err := Sentences(ctx, text, Options{Threshold: Float(max(0, th))})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) < prev {
				t.Errorf("Sentences(%q, threshold %.2f) = %d sentences; fewer than the %d at a higher threshold", text, th, len(got), prev)
			}
			prev = len(got)
			if squash(strings.Join(got, "")) != squash(text) {
				t.Errorf("Sentences(%q, threshold %.2f) lost content: %q", text, th, got)
			}
		}
		// Raising the threshold never adds a boundary: the kept sets nest.
		for _, lo := range []float64{0, 0.2, 0.35, 0.5, 0.8} {
			hi := lo + 0.15
			a, b := keep(bs, lo), keep(bs, hi)
			set := map[int]bool{}
			for _, x := range a {
				set[x.next] = true
			}
			for _, x := range b {
				if !set[x.next] {
					t.Errorf("boundary at %d kept at threshold %.2f but not at %.2f in %q", x.next, hi, lo, text)
				}
			}
		}
	}
}

func TestThresholdExtremes(t *testing.T) {
	ctx := context.Background()
	text := "The meeting starts at nine. Please bring your notes. We will review the budget together."
	one, err := Sentences(ctx, text, Options{Threshold: Float(1)})
	if err != nil {
		t.Fatal(err)
	}
	if len(one) != 1 {
		t.Errorf("Sentences(threshold 1) = %q; want one item (no certain boundary)", one)
	}
	zero, err := Sentences(ctx, "Dr. Smith came. He left.", Options{Threshold: Float(0)})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Dr.", "Smith came.", "He left."}; !cmp.Equal(zero, want) {
		t.Errorf("Sentences(threshold 0) = %q; want %q (every candidate)", zero, want)
	}
	blank, err := Sentences(ctx, "One\n\nTwo", Options{Threshold: Float(1)})
	if err != nil {
		t.Fatal(err)
	}
	if len(blank) != 2 {
		t.Errorf("Sentences(blank line, threshold 1) = %q; want 2 items", blank)
	}
}

func TestParagraphs(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"blank lines", "First para. Still first.\n\nSecond para.\n\n\nThird.", []string{"First para. Still first.", "Second para.", "Third."}},
		{"single newlines without blank lines", "Line one is here.\nLine two is here.", []string{"Line one is here.", "Line two is here."}},
		{"wrapped lines in blank-line text", "A sentence that\nwraps. Another one.\n\nNext para.", []string{"A sentence that\nwraps. Another one.", "Next para."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Text(ctx, tt.in, Options{ParagraphThreshold: Float(0.5)})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range r.Segments {
				got = append(got, s.Text)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Text(%q) paragraphs mismatch (-want +got):\n%s", tt.in, diff)
			}
			if r.Text != strings.Join(got, "\n\n") {
				t.Errorf("Text(%q).Text = %q; want paragraphs joined by a blank line", tt.in, r.Text)
			}
		})
	}
}

func TestParagraphCohesion(t *testing.T) {
	// Two topics with no line breaks: lexical cohesion should find the shift.
	a := "The cat sat on the mat. The cat likes the mat. A cat and a mat are friends. The mat is warm for the cat. "
	b := "Stock markets fell sharply today. Investors sold stock in every market. Market analysts expect stock prices to recover. The market closed lower."
	r, err := Text(context.Background(), a+b, Options{ParagraphThreshold: Float(0.35)})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{strings.TrimSpace(a), b}
	var got []string
	for _, s := range r.Segments {
		got = append(got, s.Text)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Text(two topics) paragraphs mismatch (-want +got):\n%s", diff)
	}
}

func TestLengthConstraints(t *testing.T) {
	ctx := context.Background()
	text := "We went to the park and then we had lunch by the lake and after that we walked home slowly in the rain and we sang a song on the way"
	for _, maxC := range []int{20, 30, 42} {
		r, err := Text(ctx, text, Options{Length: &Length{MinChars: 12, MaxChars: maxC}})
		if err != nil {
			t.Fatal(err)
		}
		var all []string
		for _, s := range r.Segments {
			if n := runeLen(s.Text); n > maxC {
				t.Errorf("Text(max %d) item %q has %d runes", maxC, s.Text, n)
			}
			all = append(all, s.Text)
		}
		if squash(strings.Join(all, "")) != squash(text) {
			t.Errorf("Text(max %d) lost content: %q", maxC, all)
		}
		for _, s := range all {
			if strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
				t.Errorf("Text(max %d) item %q is not trimmed", maxC, s)
			}
		}
	}
	// Never inside a word: a word longer than max stays whole.
	r, err := Text(ctx, "Supercalifragilisticexpialidocious is long.", Options{Length: &Length{MaxChars: 10}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Segments[0].Text != "Supercalifragilisticexpialidocious" {
		t.Errorf("Text(long word) first item = %q; want the whole word", r.Segments[0].Text)
	}
	// Prefers punctuation.
	r, err = Text(ctx, "When the sun rose over the hills, the birds began to sing loudly.", Options{Length: &Length{MinChars: 12, MaxChars: 42}})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Segments[0].Text; got != "When the sun rose over the hills," {
		t.Errorf("Text(comma) first cue = %q; want split at the comma", got)
	}
	// Short sentences merge.
	r, err = Text(ctx, "Yes. No. Maybe later today.", Options{Length: &Length{MinChars: 12, MaxChars: 42}})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Segments) != 1 {
		t.Errorf("Text(short sentences) = %v; want one merged cue", r.Segments)
	}
}

func TestTimedSentences(t *testing.T) {
	ctx := context.Background()
	in := []Cue{
		{Text: "Hello there, welcome to the show.", Start: 0, End: 2.1, Speaker: "A"},
		{Text: "Thanks for having me. It is great to be here.", Start: 2.3, End: 5.0, Speaker: "B"},
	}
	got, err := Cues(ctx, in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Cue{
		{Text: "Hello there, welcome to the show.", Start: 0, End: 2.1, Speaker: "A"},
		{Text: "Thanks for having me.", Start: 2.3, End: 2.3 + 2.7*21/45, Speaker: "B"},
		{Text: "It is great to be here.", Start: 2.3 + 2.7*22/45, End: 5, Speaker: "B"},
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(approx)); diff != "" {
		t.Errorf("Cues(without words) mismatch (-want +got):\n%s", diff)
	}
	// A change of speaker is a boundary even without punctuation.
	got, err = Cues(ctx, []Cue{{Text: "so I said", Start: 0, End: 1, Speaker: "A"}, {Text: "right", Start: 1, End: 1.5, Speaker: "B"}}, Options{Threshold: Float(1)})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Speaker != "A" || got[1].Speaker != "B" {
		t.Errorf("Cues(speaker change) = %+v; want two cues, A then B", got)
	}
}

func approx(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestTimedWords(t *testing.T) {
	ctx := context.Background()
	words := []Word{
		{Word: "So", Start: 0, End: 0.2}, {Word: "we", Start: 0.25, End: 0.4}, {Word: "went", Start: 0.45, End: 0.7},
		{Word: "home", Start: 0.75, End: 1.0}, {Word: "then", Start: 2.5, End: 2.7}, {Word: "it", Start: 2.75, End: 2.8},
		{Word: "rained", Start: 2.85, End: 3.2},
	}
	in := []Cue{{Text: "So we went home. Then it rained.", Start: 0, End: 3.2, Speaker: "A", Words: words}}
	got, err := Cues(ctx, in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Cue{
		{Text: "So we went home.", Start: 0, End: 1, Speaker: "A", Words: words[:4]},
		{Text: "Then it rained.", Start: 2.5, End: 3.2, Speaker: "A", Words: words[4:]},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Cues(with words) mismatch (-want +got):\n%s", diff)
	}
	// Unpunctuated words: the long pause alone makes the boundary.
	got, err = Words(ctx, words, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Text != "So we went home" || got[1].Start != 2.5 {
		t.Errorf("Words(pause) = %+v; want a split at the 1.5 s pause", got)
	}
	// Words that do not match the text: the words win.
	got, err = Cues(ctx, []Cue{{Text: "completely different", Start: 0, End: 3.2, Words: words}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || !strings.HasPrefix(got[0].Text, "So we went home") {
		t.Errorf("Cues(mismatched words) = %+v; want the words' text", got)
	}
}

// A pause before a word written with punctuation in front of its letters
// ("¿Qué", "(so", ";b") splits before the punctuation: the word's span starts
// at its letters, and the boundary used to be placed there, dropping the
// punctuation from every cue (found by TestUnicodeCues with timed words).
func TestPauseBeforePunctuation(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		text string
		l    *Length
		want []string
	}{
		{"Vale ¿Qué pasa ahora", nil, []string{"Vale", "¿Qué pasa ahora"}},
		{"we left (so it goes", nil, []string{"we left", "(so it goes"}},
		{"x ;b c d", &Length{MinChars: 1, MaxChars: 3}, []string{"x", ";b", "c d"}},
	} {
		fs := strings.Fields(tc.text)
		var words []Word
		at := 0.0
		for k, w := range fs {
			if k == len(fs)-3 {
				at += 1.5 // a long pause before the third word from the end
			}
			words = append(words, Word{Word: w, Start: at, End: at + 0.3})
			at += 0.4
		}
		got, err := Cues(ctx, []Cue{{Text: tc.text, Start: 0, End: at, Words: words}}, Options{Length: tc.l})
		if err != nil {
			t.Fatal(err)
		}
		if texts := cueTexts(got); strings.Join(texts, "|") != strings.Join(tc.want, "|") {
			t.Errorf("Cues(%q, pause before %q) = %q; want %q", tc.text, fs[len(fs)-3], texts, tc.want)
		}
	}
}

func TestTimedCuesAndMargins(t *testing.T) {
	ctx := context.Background()
	in := []Cue{
		{Text: "We went to the park and then we had lunch by the lake.", Start: 0, End: 4, Speaker: "A"},
		{Text: "After that we walked home slowly in the rain and sang.", Start: 4.1, End: 8, Speaker: "A"},
		{Text: "Nice.", Start: 8.05, End: 8.5, Speaker: "B"},
	}
	m := Margins{Start: 0.2, End: 0.2}
	got, err := Cues(ctx, in, Options{Length: &Length{MinChars: 12, MaxChars: 30}, Margins: &m})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range got {
		if runeLen(c.Text) > 30 {
			t.Errorf("cue %d %q longer than 30 runes", i, c.Text)
		}
		if c.Start < 0 || c.End > 8.5 || c.Start > c.End {
			t.Errorf("cue %d [%v, %v] outside [0, 8.5] or inverted", i, c.Start, c.End)
		}
		if i > 0 && got[i-1].End > c.Start+1e-9 {
			t.Errorf("cue %d [%v, %v] overlaps cue %d ending %v", i, c.Start, c.End, i-1, got[i-1].End)
		}
		if strings.Contains(c.Text, "Nice") && c.Speaker != "B" {
			t.Errorf("cue %q has speaker %q; want B (never across speakers)", c.Text, c.Speaker)
		}
		if c.Speaker == "B" && !strings.HasPrefix(c.Text, "Nice") {
			t.Errorf("cue %q of speaker B merged across speakers", c.Text)
		}
	}
	if got[0].Start != 0 {
		t.Errorf("first cue starts at %v; want 0 (margin clamped to the media)", got[0].Start)
	}
	if last := got[len(got)-1]; last.End != 8.5 {
		t.Errorf("last cue ends at %v; want 8.5 (margin clamped to the media end)", last.End)
	}
}

func TestPadNeverOverlaps(t *testing.T) {
	tests := []struct {
		name string
		in   []Cue
		m    Margins
		end  float64
	}{
		{"tight", []Cue{{Start: 0, End: 1}, {Start: 1.1, End: 2}, {Start: 2, End: 3}}, Margins{0.2, 0.2}, 3},
		{"wide", []Cue{{Start: 1, End: 2}, {Start: 5, End: 6}}, Margins{0.5, 1}, 10},
		{"asymmetric", []Cue{{Start: 1, End: 2}, {Start: 2.3, End: 3}}, Margins{0, 0.6}, 3.2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := append([]Cue(nil), tt.in...)
			pad(cs, tt.m, tt.end)
			for i, c := range cs {
				if c.Start > tt.in[i].Start || c.End < tt.in[i].End {
					t.Errorf("pad shrank cue %d to [%v, %v] from [%v, %v]", i, c.Start, c.End, tt.in[i].Start, tt.in[i].End)
				}
				if c.Start < 0 || c.End > tt.end {
					t.Errorf("pad moved cue %d to [%v, %v], outside [0, %v]", i, c.Start, c.End, tt.end)
				}
				if i > 0 && cs[i-1].End > c.Start {
					t.Errorf("pad made cue %d [%v, %v] overlap cue %d ending %v", i, c.Start, c.End, i-1, cs[i-1].End)
				}
			}
		})
	}
}

func TestCuesInvalid(t *testing.T) {
	tests := []struct {
		name  string
		in    []Cue
		opts  Options
		param string
	}{
		{"end before start", []Cue{{Text: "a", Start: 2, End: 1}}, Options{}, "segments[0].end"},
		{"negative", []Cue{{Text: "a", Start: -1, End: 1}}, Options{}, "segments[0].start"},
		{"NaN", []Cue{{Text: "a", Start: 0, End: math.NaN()}}, Options{}, "segments[0].end"},
		{"huge", []Cue{{Text: "a", Start: 1e308, End: 1e308}}, Options{}, "segments[0].start"},
		{"huge end", []Cue{{Text: "a", Start: 0, End: 2e7}}, Options{}, "segments[0].end"},
		{"huge word", []Cue{{Text: "a", Start: 0, End: 1, Words: []Word{{Word: "a", Start: 0, End: 1e300}}}}, Options{}, "segments[0].words[0]"},
		{"word", []Cue{{Text: "a", Start: 0, End: 1, Words: []Word{{Word: "a", Start: 1, End: 0}}}}, Options{}, "segments[0].words[0]"},
		{"paragraphs with length", []Cue{{Text: "a", Start: 0, End: 1}}, Options{ParagraphThreshold: Float(0.5), Length: &Length{MaxChars: 10}}, "max_chars"},
		{"threshold", []Cue{{Text: "a", Start: 0, End: 1}}, Options{Threshold: Float(2)}, "threshold"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Cues(context.Background(), tt.in, tt.opts)
			checkInvalid(t, err, tt.param)
		})
	}
}

func checkInvalid(t *testing.T, err error, param string) {
	t.Helper()
	se, ok := errors.AsType[*sotto.Error](err)
	if !ok {
		t.Fatalf("error = %v; want a *sotto.Error with param %q", err, param)
	}
	if !errors.Is(err, sotto.ErrInvalidRequest) || se.Code != "bad_request" || se.Param != param {
		t.Errorf("error = %v (kind %v, code %q, param %q); want bad_request with param %q", err, se.Kind, se.Code, se.Param, param)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	text := strings.Repeat("This is a sentence. ", 20000)
	if _, err := Text(ctx, text, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Text(cancelled) error = %v; want context.Canceled", err)
	}
}

func TestDetectLanguage(t *testing.T) {
	tests := []struct{ in, want string }{
		{"The cat is on the mat and it is not happy with the dog.", "en"},
		{"Der Hund ist nicht mit dem Futter zufrieden, und die Katze auch nicht.", "de"},
		{"Le chat est sur la table et il ne veut pas descendre pour les enfants.", "fr"},
		{"El perro no está contento con la comida y los niños se ríen por eso.", "es"},
		{"Il gatto è sul tavolo e non vuole scendere per giocare con la palla.", "it"},
		{"O gato não está na mesa e os meninos são muito felizes com isso.", "pt"},
		{"Кошка сидит на столе.", "ru"},
		{"これはペンです。", "ja"},
		{"我喜欢猫。", "zh"},
		{"ذهبت إلى السوق واشتريت الخبز.", "ar"},
		{"من به بازار رفتم و نان خریدم.", "fa"},
		{"میں بازار گیا اور روٹی خریدی۔", "ur"},
		{"De hond is niet blij met het eten, maar de kat ook niet.", "nl"},
		{"Hunden er ikke glad for maden, og jeg har ikke set katten.", "da"},
		{"Hunden är inte nöjd med maten och katten är det inte heller.", "sv"},
		{"Pies nie jest zadowolony z jedzenia, ale kot też.", "pl"},
		{"Pes není spokojený s jídlem, který dostal, a kočka také.", "cs"},
		{"Pes nie je spokojný s jedlom, ktoré dostal, a mačka tiež.", "sk"},
		{"¿Cómo está hoy? Espero que muy bien.", "es"},
		// "es" is a German pronoun as well as Spanish "is"; German
		// questions and pronouns decide.
		{"Guten Tag, wie geht es dir heute?", "de"},
		{"Es ist kalt, aber mir geht es gut.", "de"},
		{"Es un día bonito, pero hace frío.", "es"},
		{"C'est un chat très calme.", "fr"},
		{"Мысық үстелдің үстінде отыр.", "kk"},
		{"Котката седи на масата във всекидневната със съседа.", "bg"},
		{"Объем составляет 5 куб.м.", "ru"},
		{"मैं बाज़ार गया और रोटी खरीदी।", "hi"},
		{"मी बाजारात गेलो आणि भाकरी घेतली आहे.", "mr"},
		{"ወደ ገበያ ሄድኩ።", "am"},
		{"ကျွန်တော် ဈေးသွားတယ်။", "my"},
		{"Hello World.", "en"},
		{"Am 12. Juni kam er nach Hause.", "de"},
		{"(a) Hello world. (b) Hello world. (c) Hello world. (d) Hello world. (e) Hello world.", "en"},
		{"Who is the artist? http://www.example.com/es/en/la/search?hl=en", "en"},
		// Ukrainian і, ї, є, ґ (Kazakh writes і only beside its own letters).
		{"Він приїхав у місто ввечері.", "uk"},
		{"Мен кітап оқыдым.", "kk"},
		// Bulgarian without ъ, told from Russian by its own frequent words.
		{"Те се прибраха рано, защото са уморени.", "bg"},
		{"Он сказал, что это было давно.", "ru"},
		// å is Danish or Swedish; "er" (is) is Danish as well as German.
		{"Mötet hålls den 6 juni.", "sv"},
		{"Huset er gammelt, og det er koldt.", "da"},
		{"Ne vedem în oraș, pentru că este cald.", "ro"},
		{"Bu kitabı çok sevdim ve arkadaşıma verdim.", "tr"},
		{"Hän asuu nyt Tampereella, ja se on mukavaa.", "fi"},
		{"Suljettu tänään. Hyvää päivää!", "fi"},
		{"Die Straße ist schön, aber zu laut.", "de"},
		{"Välkommen till vår affär.", "sv"},
		{"Az ülés két óráig tartott, és utána ebédeltünk.", "hu"},
		{"Prišiel neskoro, ale nikto sa nehneval.", "sk"},
		{"Přišel pozdě, ale nikdo se nezlobil.", "cs"},
		{"El alcalde abrió la feria y la gente bailó.", "es"},
	}
	for _, tt := range tests {
		if got := detectLanguage(tt.in); got != tt.want {
			t.Errorf("detectLanguage(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestTimedParagraphs(t *testing.T) {
	in := []Cue{
		{Text: "Welcome back. Today we talk about bread.", Start: 0, End: 3, Speaker: "A"},
		{Text: "Bread needs flour. It needs water too.", Start: 3.2, End: 6, Speaker: "A"},
		{Text: "Now for the weather. It will rain.", Start: 9, End: 11, Speaker: "A"},
		{Text: "Thanks. Bye.", Start: 11.1, End: 12, Speaker: "B"},
	}
	got, err := Cues(context.Background(), in, Options{ParagraphThreshold: Float(0.5)})
	if err != nil {
		t.Fatal(err)
	}
	want := []Cue{
		{Text: "Welcome back. Today we talk about bread. Bread needs flour. It needs water too.", Start: 0, End: 6, Speaker: "A"},
		{Text: "Now for the weather. It will rain.", Start: 9, End: 11, Speaker: "A"},
		{Text: "Thanks. Bye.", Start: 11.1, End: 12, Speaker: "B"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Cues(paragraphs) mismatch (-want +got):\n%s", diff)
	}
}

func TestConcurrentUse(t *testing.T) {
	ctx := context.Background()
	want, err := Sentences(ctx, monotonicTexts[1], Options{})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			for range 20 {
				got, err := Sentences(ctx, monotonicTexts[1], Options{})
				if err == nil && !cmp.Equal(got, want) {
					err = errors.New("different result under concurrency")
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Errorf("Sentences concurrently: %v", err)
		}
	}
}
