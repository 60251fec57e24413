package normalize_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/sottolabs/sotto/normalize"
	"github.com/sottolabs/sotto/normalize/normalizetest"
)

// shapeCase is an input as a user sends it and the best reading expected.
type shapeCase struct {
	name, lang string
	mode       normalize.Mode
	in, want   string
}

func runShapeCases(t *testing.T, cases []shapeCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			opts := normalize.Options{Language: c.lang, Mode: c.mode, TopK: 4}
			res, err := normalize.Normalize(context.Background(), c.in, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Best(); got != c.want {
				t.Errorf("Normalize(%q, %s %s) = %q; want %q", c.in, c.lang, c.mode, got, c.want)
			}
			checkInvariants(t, c.in, opts, res)
		})
	}
}

// TestSurroundingWhitespace: white space around the text, or around a
// line, changes no reading and stays as it was.
func TestSurroundingWhitespace(t *testing.T) {
	tn, itn := normalize.TN, normalize.ITN
	runShapeCases(t, []shapeCase{
		{"roman alone", "en", tn, "IV", "four"},
		{"roman trailing newline", "en", tn, "IV\n", "four\n"},
		{"roman leading space", "en", tn, " IV", " four"},
		{"roman both", "en", tn, "\t IV \r\n", "\t four \r\n"},
		{"roman no-break space", "en", tn, "\u00a0IV\u00a0", "\u00a0four\u00a0"},
		{"de ordinal alone", "de", tn, "1.", "erster"},
		{"de ordinal trailing newline", "de", tn, "1.\n", "erster\n"},
		{"de ordinal indented", "de", tn, "   1.", "   erster"},
		{"en itn", "en", itn, "  twenty one\n", "  21\n"},
		{"zh tn", "zh", tn, "\n2021年\n", "\n二零二一年\n"},
		{"only white space", "en", tn, " \n\t\r\n ", " \n\t\r\n "},
		{"und", "und", tn, " IV\n", " four\n"},
	})
}

// TestLineBreaks: a line break is a hard boundary for every grammar; each
// line reads as if it were sent alone. That includes soft-wrapped running
// text (a date wrapped after its month reads as two lines: callers that
// wrap text unwrap it first) and Latin-script ITN money, which round 7
// already stopped at a line break ("cinco reais⏎dois" is no R$ 5,02).
func TestLineBreaks(t *testing.T) {
	tn, itn := normalize.TN, normalize.ITN
	runShapeCases(t, []shapeCase{
		{"de itn times", "de", itn, "acht uhr\nvier und zwanzig uhr", "8 Uhr\n24 Uhr"},
		{"de tn unit on the next line", "de", tn, "1000000\nt-0t25d12-f", "eine million\nt-0t25d12-f"},
		{"en itn number across", "en", itn, "twenty\nfive dollars", "20\n$5"},
		{"crlf", "en", tn, "IV\r\nIV", "four\r\nfour"},
		{"cr", "en", tn, "IV\rIV", "four\rfour"},
		{"line separator", "en", tn, "IV\u2028IV", "four\u2028four"},
		{"paragraph separator", "en", tn, "IV\u2029IV", "four\u2029four"},
		{"next line", "en", tn, "IV\u0085IV", "four\u0085four"},
		{"form feed", "en", tn, "IV\fIV", "four\ffour"},
		{"empty lines kept", "en", tn, "IV\n\n \nIV", "four\n\n \nfour"},
		{"pt money not across (round 7)", "pt", itn, "cinco reais\ndois", "R$ 5\ndois"},
		{"es money not across (round 7)", "es", itn, "cinco euros\ndos", "€5\ndos"},
		{"soft-wrapped date", "en", tn, "born on July\n4, 1990 in Ohio", "born on July\nfour, nineteen ninety in Ohio"},
		{"unwrapped date", "en", tn, "born on July 4, 1990 in Ohio", "born on july fourth nineteen ninety in Ohio"},
		{"und per line", "und", tn, "It costs $5.\nEs kostet 5 €.", "It costs five dollars.\nEs kostet fünf euro."},
	})
}

// TestDecomposed: decomposed (NFD) input reads as composed (NFC) input, the
// alternatives are NFC and the spans are ranges of the input as sent.
func TestDecomposed(t *testing.T) {
	tn, itn := normalize.TN, normalize.ITN
	nfd := norm.NFD.String
	runShapeCases(t, []shapeCase{
		{"de itn", "de", itn, nfd("fünf Äpfel für zwölf euro"), "fünf Äpfel für €12"},
		{"de tn", "de", tn, nfd("Am 3. März zahlte Jörg 5 €."), "Am dritter märz zahlte Jörg fünf euro."},
		{"fr tn", "fr", tn, nfd("le 3 décembre à 14 h"), "le trois décembre à quatorze heures"},
		{"es itn", "es", itn, nfd("veintiún años después"), "21 años después"},
		{"pt tn", "pt", tn, nfd("São Paulo, 1º de março"), "São Paulo, primeiro de março"},
		{"vi itn", "vi", itn, nfd("ba mươi mốt"), "31"},
		// A letter NFC would take apart is read and kept as written.
		{"hi precomposed nukta kept", "hi", tn, "५ चॉकलेट्स ९ टॉफ़िज़", "पाँच चॉकलेट्स नौ टॉफ़िज़"},
		{"hi decomposed nukta", "hi", tn, nfd("५ चॉकलेट्स ९ टॉफ़िज़"), "पाँच चॉकलेट्स नौ " + nfd("टॉफ़िज़")},
		{"angstrom sign kept", "en", tn, "5 \u212b", "five \u212b"},
	})

	// The spans of the NFD input cover its own bytes; the readings are
	// those of the NFC input.
	in := nfd("Jörg zahlte zwölf euro für Äpfel")
	res, err := normalize.Normalize(context.Background(), in, normalize.Options{Language: "de", Mode: itn, TopK: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != in {
		t.Errorf("Result.Text = %q; want the input as sent", res.Text)
	}
	sp := res.Alternatives[0].Spans
	if len(sp) != 1 || sp[0].Source != nfd("zwölf euro") || in[sp[0].StartByte:sp[0].EndByte] != sp[0].Source || sp[0].Output != "€12" {
		t.Errorf("spans = %+v; want one over %q at its input bytes, output €12", sp, nfd("zwölf euro"))
	}
	if got := res.Best(); !norm.NFC.IsNormalString(got) {
		t.Errorf("best %q is not NFC", got)
	}
}

// TestReadFormSpans: a span that ends or starts inside a run NFC changes
// (a reordered sequence of marks) is widened to the run.
func TestReadFormSpans(t *testing.T) {
	// "5" + dot below + acute, the marks out of canonical order: NFC
	// reorders the run "5\u0301\u0323" it forms with the digit.
	in := "5\u0301\u0323 kg"
	res, err := normalize.Normalize(context.Background(), in, normalize.Options{Language: "en", TopK: 3})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, in, normalize.Options{Language: "en", TopK: 3}, res)
	for _, a := range res.Alternatives {
		for _, sp := range a.Spans {
			if sp.StartByte == 0 && sp.EndByte < len("5\u0301\u0323") {
				t.Errorf("span %+v cuts the reordered run", sp)
			}
		}
	}
}

// TestInputShapesSuites sends every shared-suite case as a user may write
// it and requires the answer of the case as written: with white space
// around it, decomposed, and twenty cases of a file in one text, a line
// each (the variants scripts/text-api-check.py --variants sends).
func TestInputShapesSuites(t *testing.T) {
	cases, err := normalizetest.Load(filepath.Join(testdata(t), "text", "normalize"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Skip("no normalization suites")
	}
	ctx := context.Background()
	best := func(in string, o normalize.Options) string {
		res, err := normalize.Normalize(ctx, in, o)
		if err != nil {
			t.Fatalf("Normalize(%q, %+v): %v", in, o, err)
		}
		return res.Best()
	}
	type group struct{ file, lang, mode string }
	batches := map[group][]normalizetest.Case{}
	var order []group
	n, diffs := 0, 0
	report := func(format string, args ...any) {
		if diffs++; diffs <= 20 {
			t.Errorf(format, args...)
		}
	}
	for i, c := range cases {
		if testing.Short() && i%10 != 0 {
			continue
		}
		if c.Input == "" || !slices.Contains(normalize.Languages(), c.Lang) {
			continue
		}
		o := c.StrictOptions()
		plain := best(c.Input, o)
		n++
		if got := best(" "+c.Input+"\n", o); got != " "+plain+"\n" {
			report("%s %s %q with white space around: %q; alone %q", c.Lang, c.Mode, c.Input, got, plain)
		}
		if d := norm.NFD.String(c.Input); d != c.Input {
			want := plain
			if !norm.NFC.IsNormalString(c.Input) {
				want = best(norm.NFC.String(c.Input), o)
			}
			if got := best(d, o); got != want {
				report("%s %s %q in NFD: %q; want %q", c.Lang, c.Mode, c.Input, got, want)
			}
		}
		if strings.TrimSpace(c.Input) == c.Input && !strings.ContainsFunc(c.Input, isBreak) {
			g := group{c.File, c.Lang, c.Mode}
			if batches[g] == nil {
				order = append(order, g)
			}
			batches[g] = append(batches[g], c)
		}
	}
	nb := 0
	for _, g := range order {
		cs := batches[g]
		for i := 0; i < len(cs); i += 20 {
			part := cs[i:min(i+20, len(cs))]
			var ins, want []string
			for _, c := range part {
				ins = append(ins, c.Input)
				want = append(want, best(c.Input, c.StrictOptions()))
			}
			got := best(strings.Join(ins, "\n"), part[0].StrictOptions())
			nb++
			if got != strings.Join(want, "\n") {
				gl := strings.Split(got, "\n")
				for k := range want {
					if k >= len(gl) || gl[k] != want[k] {
						report("%s %s batched line %q: %q; alone %q", g.lang, g.mode, ins[k], gl[min(k, len(gl)-1)], want[k])
						break
					}
				}
			}
		}
	}
	t.Logf("%d cases, %d batches; %d differences", n, nb, diffs)
}

func isBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029':
		return true
	}
	return false
}

// marksAfterReplaced reports whether core opens with a mark (no boundary
// before it) right after a character of lead that NFC replaces by another,
// such as the en quad U+2000 (NFC U+2002).
func marksAfterReplaced(lead, core string) bool {
	r, _ := utf8.DecodeLastRuneInString(lead)
	return lead != "" && norm.NFC.String(string(r)) != string(r) && !norm.NFC.PropertiesString(core).BoundaryBefore()
}

// FuzzInputShape checks the input-shape rules on any text: NFD and NFC
// input give the same alternatives; the best reading of a text is that of
// each of its lines sent alone, and a line's reading is that of the line
// without the white space around it, the white space kept.
func FuzzInputShape(f *testing.F) {
	f.Add("IV\n1.\n", "en", false)
	f.Add(" Am 3. März\r\nzahlte Jörg 5 €.\n", "de", false)
	f.Add("acht uhr\nvier und zwanzig uhr", "de", true)
	f.Add("1000000\nt-0t25d12-f", "de", false)
	f.Add(norm.NFD.String("le 3 décembre à 14 h\u2028vingt-et-un"), "fr", false)
	f.Add(norm.NFD.String("veintiún años\n\ncinco euros\ndos"), "es", true)
	f.Add("५ चॉकलेट्स ९ टॉफ़िज़\n5 \u212b", "hi", false)
	f.Add("5\u0301\u0323 kg\u0085$5\u0301", "en", false)
	f.Add("\t二零二一年三月\n\u00a05个", "zh", true)
	f.Add(" It costs $5.\nEs kostet 5 €.\f我有3个苹果", "und", false)
	// Characters NFC replaces, Hangul, marks after a space or a line
	// break, U+FEFF and RTL marks around numbers.
	f.Add("\u095d 5 \u212b 3\u2126 \u0344 4\u0f73 \uf900 2\n \u0301\u0323 5", "hi", false)
	f.Add("\ufeff\u1100\u1161\u11a8 5\n\u0301 3 \u200f4\u200e", "ko", true)
	// Marks out of canonical order after an en quad (U+2000, an NFC
	// singleton) keep their order in the line; the core alone reorders
	// them.
	f.Add("\u2000\u0323\u3099u 5", "ko", true)
	f.Fuzz(func(t *testing.T, in, lang string, itn bool) {
		checkInputShape(t, in, lang, itn)
	})
}

// checkInputShape checks FuzzInputShape's rules on in (TopK 3, then 1):
// the NFD and NFC forms of in give the same alternatives (and the NFD
// result keeps checkInvariants); the best reading of in is that of each of
// its lines sent alone; a line's reading is that of the line without the
// white space around it, the white space kept. Input over 2 KiB or not
// UTF-8 is skipped.
func checkInputShape(t *testing.T, in, lang string, itn bool) {
	t.Helper()
	if len(in) > 2048 || !utf8.ValidString(in) {
		return
	}
	mode := normalize.TN
	if itn {
		mode = normalize.ITN
	}
	ctx := context.Background()
	opts := normalize.Options{Language: lang, Mode: mode, TopK: 3}
	nfc, err := normalize.Normalize(ctx, norm.NFC.String(in), opts)
	if err != nil {
		return // a bad language tag
	}
	nfd, err := normalize.Normalize(ctx, norm.NFD.String(in), opts)
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, norm.NFD.String(in), opts, nfd)
	if len(nfc.Alternatives) != len(nfd.Alternatives) {
		t.Fatalf("%q: %d alternatives in NFC, %d in NFD", in, len(nfc.Alternatives), len(nfd.Alternatives))
	}
	for k := range nfc.Alternatives {
		if a, b := nfc.Alternatives[k].Text, nfd.Alternatives[k].Text; a != b {
			t.Fatalf("%q alternative %d: NFC input %q, NFD input %q", in, k, a, b)
		}
	}

	opts.TopK = 1
	whole, err := normalize.Normalize(ctx, in, opts)
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for len(in) > 0 {
		i := strings.IndexFunc(in, isBreak)
		if i < 0 {
			i = len(in)
		}
		line := in[:i]
		core := strings.TrimFunc(line, unicode.IsSpace)
		if core != "" {
			lead := line[:strings.Index(line, core)]
			res, err := normalize.Normalize(ctx, core, opts)
			if err != nil {
				t.Fatal(err)
			}
			alone, err := normalize.Normalize(ctx, line, opts)
			if err != nil {
				t.Fatal(err)
			}
			w := lead + res.Best() + line[len(lead)+len(core):]
			// Marks that open the core belong to the run of the white
			// space before them (internal/nfc), and a run holding a
			// character NFC replaces is read as written: after U+2000
			// or U+2001 (singletons) the marks keep their order in the
			// line, while the core read alone puts them in canonical
			// order. The two readings are then the same up to that
			// order (canonically equivalent).
			if marksAfterReplaced(lead, core) {
				if norm.NFC.String(alone.Best()) != norm.NFC.String(w) {
					t.Fatalf("line %q: %q; without the white space around it %q", line, alone.Best(), res.Best())
				}
			} else if alone.Best() != w {
				t.Fatalf("line %q: %q; without the white space around it %q", line, alone.Best(), res.Best())
			}
			want.WriteString(alone.Best())
		} else {
			want.WriteString(normalize.ReadForm(line))
		}
		if i < len(in) {
			_, n := utf8.DecodeRuneInString(in[i:])
			want.WriteString(in[i : i+n])
			i += n
		}
		in = in[i:]
	}
	if whole.Best() != want.String() {
		t.Fatalf("%q: %q; line by line %q", whole.Text, whole.Best(), want.String())
	}
}
