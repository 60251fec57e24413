package normalize_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/sottolabs/sotto"
	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/normalize"
)

func TestNormalizeBest(t *testing.T) {
	tests := []struct {
		lang string
		mode normalize.Mode
		in   string
		want string
	}{
		{"en", normalize.TN, "It costs $5.", "It costs five dollars."},
		{"en", normalize.TN, "Call 123-456-7890 at 3:30 pm.", "Call one two three, four five six, seven eight nine zero at three thirty PM."},
		{"en", normalize.TN, "On July 4 2024 we ran 12km.", "On july fourth twenty twenty four we ran twelve kilometers."},
		{"en", normalize.TN, "Dr. Smith lives on Elm St.", "doctor Smith lives on Elm Street"},
		{"en", normalize.TN, "the 21st time", "the twenty first time"},
		{"en", normalize.ITN, "I paid twenty nine dollars fifty cents", "I paid $29.50"},
		{"en", normalize.ITN, "it weighs two hundred kilograms", "it weighs 200 kg"},
		{"en", normalize.ITN, "the twenty fifth of july twenty twelve", "25 july 2012"},
		{"en-US", normalize.ITN, "one", "one"},
		{"de", normalize.TN, "Am 24. Juli 2013 kostete es 12,50 €.", "Am vier und zwanzigster juli zwei tausend dreizehn kostete es zwölf euro fünfzig cent."},
		{"de", normalize.ITN, "zwei hundert meter und viertel nach zwölf", "200 m und 12:15 Uhr"},
		{"es", normalize.TN, "El 10 de mayo de 1990 pagué 5,50 €.", "El diez de mayo de mil novecientos noventa pagué cinco euros cincuenta céntimos."},
		{"es", normalize.ITN, "doce dólares y cinco centavos", "$12,05"},
		{"fr", normalize.TN, "Le 21e jour, 94 personnes", "Le vingt et unième jour, quatre-vingt-quatorze personnes"},
		{"fr", normalize.ITN, "quatre-vingt-dix-sept virgule trois", "97,3"},
		{"pt", normalize.TN, "R$ 75,63 em 15/03/2024", "setenta e cinco reais e sessenta e três centavos em quinze de março de dois mil e vinte e quatro"},
		{"zh", normalize.TN, "2024年3月5日花了$500，温度是-3°C", "二零二四年三月五日花了五百美元，温度是负三摄氏度"},
		{"zh", normalize.ITN, "六百三和三万五和一千一百万", "630和35,000和1,100万"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			res, err := normalize.Normalize(context.Background(), tt.in, normalize.Options{Language: tt.lang, Mode: tt.mode})
			if err != nil {
				t.Fatalf("Normalize(%q) error %v", tt.in, err)
			}
			if got := res.Best(); got != tt.want {
				t.Errorf("Normalize(%q) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestAlternatives checks that ambiguous tokens yield distinct, real readings.
func TestAlternatives(t *testing.T) {
	tests := []struct {
		in   string
		want []string // must all appear among the alternatives, in this order
	}{
		{"1/2", []string{"one half", "january second"}},
		{"St. Louis", []string{"saint Louis", "Street Louis"}},
		{"2024", []string{"twenty twenty four", "two thousand and twenty four", "two thousand twenty four"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			res, err := normalize.Normalize(context.Background(), tt.in, normalize.Options{Language: "en"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, a := range res.Alternatives {
				got = append(got, a.Text)
			}
			k := 0
			for _, g := range got {
				if k < len(tt.want) && g == tt.want[k] {
					k++
				}
			}
			if k != len(tt.want) {
				t.Errorf("Normalize(%q) alternatives = %q; want %q in order", tt.in, got, tt.want)
			}
		})
	}
}

func TestTopKOne(t *testing.T) {
	res, err := normalize.Normalize(context.Background(), "1/2 of $5 on St. Mark 2024", normalize.Options{Language: "en", TopK: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Alternatives) != 1 {
		t.Errorf("Normalize(top_k=1) returned %d alternatives; want 1", len(res.Alternatives))
	}
	res, err = normalize.Normalize(context.Background(), "1/2 of $5 on St. Mark 2024", normalize.Options{Language: "en", TopK: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Alternatives) != 4 {
		t.Errorf("Normalize(top_k=4) returned %d alternatives; want 4", len(res.Alternatives))
	}
}

func TestClassesRestrict(t *testing.T) {
	res, err := normalize.Normalize(context.Background(), "$5 on 3 days", normalize.Options{Language: "en", Classes: []string{"cardinal"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Best(), "$ five on three days"; got != want {
		t.Errorf("Normalize(classes=cardinal) = %q; want %q", got, want)
	}
	for _, sp := range res.Alternatives[0].Spans {
		if sp.Class != "cardinal" {
			t.Errorf("span %+v has class %q; want cardinal only", sp, sp.Class)
		}
	}
}

// checkInvariants verifies the structural promises of a result.
func checkInvariants(t *testing.T, in string, opts normalize.Options, res *normalize.Result) {
	t.Helper()
	if res.Text != in {
		t.Fatalf("Result.Text = %q; want the input %q", res.Text, in)
	}
	if len(res.Alternatives) == 0 {
		t.Fatalf("Normalize(%q) returned no alternatives", in)
	}
	k := opts.TopK
	if k == 0 {
		k = normalize.DefaultTopK
	}
	if len(res.Alternatives) > k {
		t.Errorf("Normalize(%q) returned %d alternatives; top_k %d", in, len(res.Alternatives), k)
	}
	seen := map[string]bool{}
	for r, a := range res.Alternatives {
		if a.Rank != r {
			t.Errorf("alternative %d has rank %d", r, a.Rank)
		}
		if seen[a.Text] && r > 0 {
			t.Errorf("Normalize(%q): alternative %d duplicates %q", in, r, a.Text)
		}
		seen[a.Text] = true
		var b strings.Builder
		prev := 0
		for _, sp := range a.Spans {
			if sp.StartByte < prev || sp.EndByte <= sp.StartByte || sp.EndByte > len(in) {
				t.Fatalf("Normalize(%q): bad span %+v after %d", in, sp, prev)
			}
			// Invalid UTF-8 decodes byte by byte, so only valid input has
			// rune starts to check.
			if utf8.ValidString(in) && (!utf8.RuneStart(in[sp.StartByte]) || sp.EndByte < len(in) && !utf8.RuneStart(in[sp.EndByte])) {
				t.Fatalf("Normalize(%q): span %+v not on rune boundaries", in, sp)
			}
			if in[sp.StartByte:sp.EndByte] != sp.Source {
				t.Fatalf("Normalize(%q): span source %q; input has %q", in, sp.Source, in[sp.StartByte:sp.EndByte])
			}
			if sp.Class == "" {
				t.Errorf("Normalize(%q): span %+v without class", in, sp)
			}
			if sp.Output == sp.Source {
				t.Errorf("Normalize(%q): span %+v changes nothing", in, sp)
			}
			// Outside the spans the text is the input as the rules read
			// it (in NFC), the input itself when that is NFC.
			b.WriteString(normalize.ReadForm(in[prev:sp.StartByte]))
			b.WriteString(sp.Output)
			prev = sp.EndByte
		}
		b.WriteString(normalize.ReadForm(in[prev:]))
		if b.String() != a.Text {
			t.Fatalf("Normalize(%q): splicing spans gives %q; alternative %d text is %q", in, b.String(), r, a.Text)
		}
	}
	if res.Best() != res.Alternatives[0].Text {
		t.Errorf("Best() = %q; rank 0 = %q", res.Best(), res.Alternatives[0].Text)
	}
}

var invariantInputs = []string{
	"", " ", "They bought 23 books for $123.02 on 1/2/2024 at 10:30 a.m.",
	"Call +1 (123) 456-7890 or mail a.b@example.com, see https://www.example.org/x-1.",
	"St. Louis is 1,234.5 km away; it was 25% off in the 1980s, Chapter IV.",
	"twenty nine dollars and fifty cents at half past three on the twenty fifth of july",
	"十二月三十一日 我有 3 个苹果 and 2 pears", "ß 1\u00a0000 ½ ¾ 3 ½ €5 £1.20 ¥30b",
	"-5 test -", "\xff\xfe 12", "1.2.3.4.5", "$", "1/0", "99999999999999999999999999999999",
}

func TestInvariants(t *testing.T) {
	for _, lang := range append([]string{"und"}, normalize.Languages()...) {
		for _, mode := range []normalize.Mode{normalize.TN, normalize.ITN} {
			for _, in := range invariantInputs {
				for _, k := range []int{1, 8, 16} {
					for _, sp := range []normalize.Spacing{normalize.SpacingKeep, normalize.SpacingSeparate} {
						opts := normalize.Options{Language: lang, Mode: mode, TopK: k, Spacing: sp}
						res, err := normalize.Normalize(context.Background(), in, opts)
						if err != nil {
							t.Fatalf("Normalize(%q, %+v) error %v", in, opts, err)
						}
						checkInvariants(t, in, opts, res)
					}
				}
			}
		}
	}
}

func FuzzNormalize(f *testing.F) {
	for _, in := range invariantInputs {
		f.Add(in, "en", false)
	}
	f.Add("twenty one hundred and eleven", "en", true)
	f.Add("二零二四年", "zh", false)
	f.Add("二零二四年三月五日我花了五百美元", "zh", true)
	f.Add("Am 24. Juli 2013 um 14:30 Uhr kostete es 12,50 €.", "de", false)
	f.Add("vierundzwanziguhrzweiundzwanzig e s t", "de", true)
	f.Add("El 10 de mayo de 1990 pagué 5,50 € por 2 kg.", "es", false)
	f.Add("tres coma ciento cuarenta y uno cincuenta y nueve", "es", true)
	f.Add("Le 17 juin 2025, j'ai payé 12,50 € pour 3 kg.", "fr", false)
	f.Add("quatre-vingt-dix-sept virgule trois", "fr", true)
	f.Add("R$ 75,63 em 15/03/2024", "pt", false)
	f.Add("um bilhão e mil cento e uma", "pt", true)
	f.Add("It costs $5. Es kostet 5 €. 我有3个苹果", "und", false)
	f.Add("请拨打010-12345678或+86 138 0013 8000，12/25/2023买了2本书，版本2.0.1", "zh", false)
	f.Add("只要九毛九，三块五", "zh", true)
	f.Add("appelez le +33 6 12 34 56 78 le 2023-12-25, Louis XIV", "fr", false)
	f.Add("Version 2.0.1 kostet 3,50 Euro. Er kam 2021.", "de", false)
	f.Add("escribe a juan punto perez arroba ejemplo punto es", "es", true)
	f.Add("a 10-km race 2.5x faster on Baker St., Mon., Feb. 3", "en", false)
	// Input shapes: lines, white space around the text, decomposed letters.
	f.Add("IV\n1.\r\n $5 \n\n", "en", false)
	f.Add("acht uhr\nvier und zwanzig uhr\u2028zwo\u0085", "de", true)
	f.Add("Am 3. Ma\u0308rz zahlte Jo\u0308rg 5 \u20ac.\n", "de", false)
	f.Add("le 3 de\u0301cembre a\u0300 14 h\fvingt", "fr", false)
	f.Add("5\u0301\u0323 kg \u212b \u095b\n", "hi", false)
	// Each class of character NFC treats specially, next to a number
	// so that a span may start or end beside it: composition exclusions,
	// singletons, non-starter decompositions, Hangul syllables and jamo,
	// marks with no base or after a space, ZWJ/ZWNJ, variation selectors,
	// emoji sequences, full and half width digits, CJK compatibility
	// ideographs, U+FEFF, RTL marks.
	f.Add("\u0958 5 \u09dc12\u0a33 3\ufb1d 4 \u095d", "hi", false)
	f.Add("5\u212b 3\u2126 2\u037e 7 a\u0340 1 \u212bX", "en", false)
	f.Add("3\u0344 4 \u0f733 x\u0344\u0323 5", "en", false)
	f.Add("\u1100\u1161\u11a8 5 \uac00\u11a8 3번째 \u110b\u1175\u11af", "ko", true)
	f.Add("\u0301\u0323 5 \u0323\u0301 3. 5 \u0301\u0323kg", "en", false)
	f.Add("5\u200d3 \u200c4\u200d \u0915\u094d\u200d\u0937 12", "hi", false)
	f.Add("5\ufe0f 3\ufe0e \u845b\U000e0100 2 #\ufe0f\u20e3 1\ufe0f\u20e3", "en", false)
	f.Add("\U0001f468\u200d\U0001f469 3 \U0001f44d\U0001f3fd 4 \U0001f1e9\U0001f1ea 5", "en", false)
	f.Add("\uff11\uff12\uff13 \uff04\uff15 \uff76\uff9e 7\uff05", "ja", false)
	f.Add("\uf900 3 \uf9f1\u4e00 \U0002f800 5个", "zh", false)
	f.Add("\ufeff5 kg \ufeff 3\ufeff4", "en", false)
	f.Add("\u200f5 \u200e\u202b3\u202c \u2067\u0665\u2069 \u061c12", "ar", false)
	f.Fuzz(func(t *testing.T, in, lang string, itn bool) {
		if len(in) > 4096 {
			return
		}
		checkNormalize(t, in, lang, itn)
	})
}

// checkNormalize normalizes in (TopK 3, spacing separate for an odd
// length) and checks checkInvariants on the result; an error must be a
// *sotto.Error (a bad language tag).
func checkNormalize(t *testing.T, in, lang string, itn bool) {
	t.Helper()
	mode := normalize.TN
	if itn {
		mode = normalize.ITN
	}
	opts := normalize.Options{Language: lang, Mode: mode, TopK: 3}
	if len(in)%2 == 1 {
		opts.Spacing = normalize.SpacingSeparate
	}
	res, err := normalize.Normalize(context.Background(), in, opts)
	if err != nil {
		var se *sotto.Error
		if !errors.As(err, &se) {
			t.Fatalf("Normalize(%q, %q) error %v is not a *sotto.Error", in, lang, err)
		}
		return
	}
	checkInvariants(t, in, opts, res)
}

func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := normalize.Normalize(ctx, strings.Repeat("12 kg and $5. ", 2000), normalize.Options{Language: "en"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Normalize(canceled ctx) error = %v; want context.Canceled", err)
	}
}

func TestValidate(t *testing.T) {
	type want struct {
		Kind  error
		Code  string
		Param string
	}
	bad := func(p string) want { return want{sotto.ErrInvalidRequest, "normalization_invalid_request", p} }
	tests := []struct {
		name string
		body string
		want *want
	}{
		{"ok", `{"text":"$5","language":"en"}`, nil},
		{"ok full", `{"text":"$5","language":"en-GB","model":"Sotto/Skylark","mode":"itn","top_k":16,"classes":["money"]}`, nil},
		{"ok und", `{"text":"$5","language":"und"}`, nil},
		{"unknown field", `{"text":"a","language":"en","foo":1}`, &want{sotto.ErrInvalidRequest, "normalization_invalid_request", "foo"}},
		{"missing text", `{"language":"en"}`, &[]want{bad("text")}[0]},
		{"empty text", `{"text":"","language":"en"}`, &[]want{bad("text")}[0]},
		{"text too long", `{"text":"` + strings.Repeat("a", normalize.MaxTextBytes+1) + `","language":"en"}`, &[]want{bad("text")}[0]},
		{"text invalid utf8", `{"text":"a\udc00b","language":"en"}`, nil},
		{"text wrong type", `{"text":5,"language":"en"}`, &[]want{bad("text")}[0]},
		{"missing language", `{"text":"a"}`, &[]want{bad("language")}[0]},
		{"bad language", `{"text":"a","language":"en-!!"}`, &[]want{bad("language")}[0]},
		{"unsupported language", `{"text":"a","language":"tlh"}`, &want{sotto.ErrUnsatisfiable, "normalization_language_unsupported", "language"}},
		{"top_k fraction", `{"text":"a","language":"en","top_k":2.5}`, &[]want{bad("top_k")}[0]},
		{"top_k string", `{"text":"a","language":"en","top_k":"3"}`, &[]want{bad("top_k")}[0]},
		{"top_k exponent", `{"text":"a","language":"en","top_k":1e1}`, &[]want{bad("top_k")}[0]},
		{"top_k null", `{"text":"a","language":"en","top_k":null}`, nil},
		{"top_k zero", `{"text":"a","language":"en","top_k":0}`, &[]want{bad("top_k")}[0]},
		{"top_k 17", `{"text":"a","language":"en","top_k":17}`, &[]want{bad("top_k")}[0]},
		{"bad mode", `{"text":"a","language":"en","mode":"xx"}`, &[]want{bad("mode")}[0]},
		{"empty classes", `{"text":"a","language":"en","classes":[]}`, &[]want{bad("classes")}[0]},
		{"unknown class", `{"text":"a","language":"en","classes":["klingon"]}`, &want{sotto.ErrUnsatisfiable, "normalization_class_unsupported", "classes"}},
		{"unsupported class for mode", `{"text":"a","language":"en","mode":"itn","classes":["roman"]}`, &want{sotto.ErrUnsatisfiable, "normalization_class_unsupported", "classes"}},
		{"other model", `{"text":"a","language":"en","model":"Sotto/Lattice-2"}`, &want{sotto.ErrNotFound, "model_not_found", "model"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := normalize.DecodeRequest([]byte(tt.body))
			if tt.want == nil {
				if err != nil {
					t.Fatalf("DecodeRequest(%s) = %v; want nil", tt.name, err)
				}
				return
			}
			var se *sotto.Error
			if !errors.As(err, &se) {
				t.Fatalf("DecodeRequest(%s) = %v; want *sotto.Error", tt.name, err)
			}
			got := want{se.Kind, se.Code, se.Param}
			if diff := cmp.Diff(*tt.want, got, cmp.Comparer(func(a, b error) bool { return a == b })); diff != "" {
				t.Errorf("DecodeRequest(%s) mismatch (-want +got):\n%s", tt.name, diff)
			}
		})
	}
}

func TestResultJSON(t *testing.T) {
	res, err := normalize.Normalize(context.Background(), "$5", normalize.Options{Language: "en", TopK: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"task":"normalize","model":"Sotto/Skylark","language":"en","mode":"tn","text":"$5","alternatives":[{"rank":0,"text":"five dollars","spans":[{"start_byte":0,"end_byte":2,"class":"money","source":"$5","output":"five dollars"}]}]}`
	if string(b) != want {
		t.Errorf("json.Marshal(result) = %s; want %s", b, want)
	}
}

func TestCapabilities(t *testing.T) {
	c := normalize.Capabilities()
	if len(c.Languages) == 0 || c.Languages[0].Language == "" {
		t.Fatalf("Capabilities() = %+v; want languages", c)
	}
	for _, l := range c.Languages {
		for _, m := range []normalize.Mode{normalize.TN, normalize.ITN} {
			if len(l.Modes[m]) == 0 {
				t.Errorf("Capabilities(): %s has no classes for %s", l.Language, m)
			}
			for _, cl := range l.Modes[m] {
				_, err := normalize.Normalize(context.Background(), "x", normalize.Options{Language: l.Language, Mode: m, Classes: []string{cl}})
				if err != nil {
					t.Errorf("advertised class %s/%s/%s rejected: %v", l.Language, m, cl, err)
				}
			}
		}
	}
}

// testdata returns the shared test data folder or skips.
func testdata(t testing.TB) string {
	t.Helper()
	return sharedtestdata.Dir(t, "text", "normalize")
}

// TestPathologicalInputs runs long repetitive inputs that once made matching
// quadratic (every matcher scanning to the end of a space-free run) through
// every language and mode, and checks the result invariants.
func TestPathologicalInputs(t *testing.T) {
	inputs := []string{
		strings.Repeat("a.", 2<<10), strings.Repeat("1-", 2<<10), "1" + strings.Repeat(".000", 1<<10),
		"1" + strings.Repeat(",000", 1<<10), strings.Repeat("一二", 1<<10), strings.Repeat("零", 2<<10),
		strings.Repeat("one ", 1<<10), strings.Repeat("a ", 2<<10), strings.Repeat("a@", 2<<10),
		strings.Repeat("1/", 2<<10), strings.Repeat("1:", 2<<10), strings.Repeat("(1)", 1<<10),
		strings.Repeat("uno punto ", 512), strings.Repeat("primero ", 512),
		// many lines, decomposed letters, one letter with many marks
		strings.Repeat("1\n", 2<<10), strings.Repeat(" \r\n", 2<<10), strings.Repeat("fu\u0308nf ", 1<<10),
		"e" + strings.Repeat("\u0323\u0301", 2<<10), strings.Repeat("\u095d\u093c", 1<<10),
	}
	for _, in := range inputs {
		for _, lang := range []string{"en", "de", "es", "fr", "zh", "und"} {
			for _, mode := range []normalize.Mode{normalize.TN, normalize.ITN} {
				opts := normalize.Options{Language: lang, Mode: mode, TopK: 2}
				res, err := normalize.Normalize(context.Background(), in, opts)
				if err != nil {
					t.Fatalf("Normalize(%q…, %s, %s) error %v", in[:16], lang, mode, err)
				}
				checkInvariants(t, in, opts, res)
			}
		}
	}
}

// TestConcurrent calls Normalize from several goroutines; run it with -race.
func TestConcurrent(t *testing.T) {
	in := "On July 4 2024 it cost $5.50, about 12 km from St. Louis; 我有3个苹果."
	want, err := normalize.Normalize(context.Background(), in, normalize.Options{Language: "und"})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			for range 20 {
				got, err := normalize.Normalize(context.Background(), in, normalize.Options{Language: "und"})
				if err == nil && !cmp.Equal(got, want) {
					err = errors.New("concurrent result differs: " + cmp.Diff(want, got))
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
			t.Error(err)
		}
	}
}

func TestUnd(t *testing.T) {
	tests := []struct{ in, want string }{
		{"It costs $5.", "It costs five dollars."},
		{"Es kostet 5 € und ist nicht teuer.", "Es kostet fünf euro und ist nicht teuer."},
		{"Ça coûte 5 €.", "Ça coûte cinq euros."},
		{"El precio es de 5 € por día.", "El precio es de cinco euros por día."},
		{"O preço não é de 5 €.", "O preço não é de cinco euros."},
		{"我有3个苹果", "我有三个苹果"},
		{"It costs $5. 我有3个苹果", "It costs five dollars. 我有三个苹果"},
	}
	for _, tt := range tests {
		res, err := normalize.Normalize(context.Background(), tt.in, normalize.Options{Language: "und", TopK: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Best(); got != tt.want || res.Language != "und" {
			t.Errorf("Normalize(%q, und) = %q (language %q); want %q (language und)", tt.in, got, res.Language, tt.want)
		}
	}
}
