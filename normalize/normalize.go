package normalize

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/language"

	"github.com/sottolabs/sotto"
)

// ModelID is the catalog ID of the built-in normalization model. It needs no
// download and no load.
const ModelID = "Sotto/Skylark"

// MaxTextBytes is the largest accepted input, in bytes of UTF-8 (256 KiB).
const MaxTextBytes = 256 << 10

// maxInternalBytes is the largest text Normalize itself accepts (token
// offsets are 32-bit); the HTTP limit MaxTextBytes is far below it.
const maxInternalBytes = 1 << 30

// DefaultTopK is the number of alternatives returned when Options.TopK is 0.
const DefaultTopK = 8

// MaxTopK is the largest accepted number of alternatives.
const MaxTopK = 16

// Mode is the direction of a conversion.
type Mode string

// The two modes.
const (
	// TN converts written text to its spoken form ("$5" → "five dollars").
	TN Mode = "tn"
	// ITN converts spoken text to its written form ("five dollars" → "$5").
	ITN Mode = "itn"
)

// The semiotic classes. A span's Class is one of these; Options.Classes
// restricts conversion to a subset.
const (
	Cardinal   = "cardinal"   // 123 ↔ one hundred twenty three
	Ordinal    = "ordinal"    // 21st ↔ twenty first
	Decimal    = "decimal"    // 2.5, 1.2 million
	Fraction   = "fraction"   // 1/2, 3 1/4
	Money      = "money"      // $5, £1.20
	Measure    = "measure"    // 12 kg, 50%
	Date       = "date"       // July 4 2024, 2024-07-04, 1980s
	Time       = "time"       // 10:30 pm
	Telephone  = "telephone"  // 123-456-7890, IP addresses
	Electronic = "electronic" // URLs and e-mail addresses
	Roman      = "roman"      // Chapter IV
	Letters    = "letters"    // abbreviations spelled as letters (U.S.A.)
	Whitelist  = "whitelist"  // fixed expansions (Dr., St., e.g.)
	Verbatim   = "verbatim"   // symbols read as words (&, §, +)
)

// AllClasses lists every class name, in a stable order. Callers must not
// modify it.
var AllClasses = []string{Cardinal, Ordinal, Decimal, Fraction, Money, Measure, Date, Time,
	Telephone, Electronic, Roman, Letters, Whitelist, Verbatim}

// Options selects how [Normalize] converts text. The zero value is not
// usable: Language is required.
type Options struct {
	// Language is a BCP 47 tag ("en", "de-AT", "zh-Hans"), or "und" to choose
	// the language segment by segment from script and wording.
	Language string
	// Mode is TN (the default when empty) or ITN.
	Mode Mode
	// TopK is the number of alternatives, 1 to MaxTopK; 0 means DefaultTopK.
	TopK int
	// Classes restricts conversion to these classes; nil means all classes
	// the language supports. An empty non-nil slice is invalid.
	Classes []string
	// Model is reported in the result; "" means ModelID.
	Model string
	// Spacing selects how a conversion is spaced against the punctuation
	// next to it in TN; the zero value, SpacingAuto, uses the language's
	// convention.
	Spacing Spacing
}

// Spacing selects how converted text is spaced against adjacent
// punctuation.
type Spacing uint8

const (
	// SpacingAuto, the zero value, follows the language's convention:
	// English TN sets conversions off from the punctuation around them
	// (SpacingSeparate: "born in 1990.He left" → "born in nineteen
	// ninety. He left"); every other language keeps the input's spacing
	// (SpacingKeep).
	SpacingAuto Spacing = iota
	// SpacingKeep keeps the input's spacing: a space is added only where a
	// reading would otherwise run into a letter, a digit or a symbol such
	// as + or & ("4.4x" → "four point four x", "1!hello" → "one!hello").
	SpacingKeep
	// SpacingSeparate sets each conversion off from the punctuation around
	// it, as NeMo's normalizer does without punct_post_process: "1!hello" →
	// "one! hello", "(1)Hello" → "(one) Hello", "'4" → "' four", "§-" →
	// "section -". Closing punctuation (. , ; : ! ? and closing brackets)
	// stays attached after a conversion and an opening bracket before it, and
	// a quote attaches when it pairs with another across the conversion
	// (`"12text"` → `"twelve text"`) or starts "'s" ("80's" →
	// "eighty's"). Only Latin-script text is affected.
	SpacingSeparate
)

// Span is one changed stretch of the input.
type Span struct {
	// StartByte and EndByte are the UTF-8 byte range [StartByte, EndByte) of
	// the original input. Both fall on rune boundaries.
	StartByte int `json:"start_byte"`
	EndByte   int `json:"end_byte"`
	// Class is the semiotic class of this reading, one of AllClasses.
	Class string `json:"class"`
	// Source is the original text, input[StartByte:EndByte], as sent
	// (not in NFC when the input was not).
	Source string `json:"source"`
	// Output is the converted text that replaces Source.
	Output string `json:"output"`
}

// Alternative is one complete reading of the input.
type Alternative struct {
	// Rank starts at 0 for the best reading.
	Rank int `json:"rank"`
	// Text is the converted input: the input with every span's Source
	// replaced by its Output, in Unicode NFC (see [Normalize]). For input
	// in NFC the text between the spans is the input byte for byte.
	Text string `json:"text"`
	// Spans are the changed spans, sorted by StartByte, non-overlapping.
	Spans []Span `json:"spans"`
}

// Result is the output of [Normalize], shaped as the spec's normalization
// result.
type Result struct {
	Task         string        `json:"task"` // always "normalize"
	Model        string        `json:"model"`
	Language     string        `json:"language"`
	Mode         Mode          `json:"mode"`
	Text         string        `json:"text"` // the whole input, unchanged
	Alternatives []Alternative `json:"alternatives"`
}

// Best returns the text of the best alternative (rank 0), or the input when
// there is none.
func (r *Result) Best() string {
	if len(r.Alternatives) == 0 {
		return r.Text
	}
	return r.Alternatives[0].Text
}

// Normalize converts text in the direction opts.Mode and returns the whole
// input with up to opts.TopK ranked alternatives. Each alternative is a
// distinct reading (for example "1/2" as "one half" or "January second"),
// not a copy. It is safe for concurrent use by multiple goroutines.
//
// The input is read as users send it. It is read in Unicode NFC, so
// decomposed (NFD) text, as macOS and some editors write it, gives the same
// alternatives as composed text, and the alternatives are NFC (but for a
// combining mark right after a converted span, which stays a mark of its
// own: "5\u0301" → "five\u0301"); a character NFC would replace by another (a composition exclusion such as Devanagari
// ढ़ U+095D, or a singleton such as the ångström sign U+212B) is read and
// kept as written, as the suites write those letters. Spans stay byte ranges
// of the input as sent, widened to whole characters where NFC composed or
// reordered them. Each line is read as if it were sent alone, without the
// white space around it, which is kept as it was: a line break (LF, CR,
// CRLF, VT, FF, NEL, U+2028, U+2029) is a hard boundary no reading runs
// across, so text wrapped at a fixed width should be unwrapped first, and
// white space around the text changes no reading ("IV\n" → "four\n").
//
// Invalid options return a [*sotto.Error]: kind [sotto.ErrInvalidRequest]
// with code "normalization_invalid_request" for a malformed language tag,
// mode, top_k or classes, and kind [sotto.ErrUnsatisfiable] with code
// "normalization_language_unsupported" or "normalization_class_unsupported".
// Normalize checks ctx between segments and returns an error wrapping
// ctx.Err() after cancellation. It does not enforce MaxTextBytes (the HTTP
// layer does, through [Request.Validate]) but rejects texts over 1 GiB.
func Normalize(ctx context.Context, text string, opts Options) (*Result, error) {
	plan, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	if len(text) > maxInternalBytes {
		return nil, invalid("text", "normalize: text is %d bytes; Normalize accepts at most %d", len(text), maxInternalBytes)
	}
	read, offsets := readForm(text)
	alts, err := run(ctx, read, plan)
	if err != nil {
		return nil, err
	}
	if offsets != nil {
		offsets.restore(alts, read, text)
	}
	model := opts.Model
	if model == "" {
		model = ModelID
	}
	return &Result{Task: "normalize", Model: model, Language: plan.tag, Mode: plan.mode,
		Text: text, Alternatives: alts}, nil
}

// plan is resolved, validated options.
type plan struct {
	tag   string // canonical tag reported in the result
	rules *rules // nil for und
	mode  Mode
	topK  int
	allow classSet
	und   bool
	// spacing is Options.Spacing.
	spacing Spacing
	// variant respells the text for the language tag (nil: as it is).
	variant *variant
}

// separate reports whether TN conversions in a segment of language r are
// set off from adjacent punctuation.
func (p *plan) separate(r *rules) bool {
	return p.spacing == SpacingSeparate || p.spacing == SpacingAuto && r != nil && r.tnSpacing == SpacingSeparate
}

func invalid(param, format string, args ...any) error {
	return sotto.Invalid("normalization_invalid_request", param, format, args...)
}

// Validate checks opts without normalizing anything. It returns the same
// errors as [Normalize].
func (o Options) Validate() error {
	_, err := o.resolve()
	return err
}

func (o Options) resolve() (*plan, error) {
	p := &plan{mode: o.Mode, topK: o.TopK, spacing: o.Spacing}
	if o.Spacing > SpacingSeparate {
		return nil, invalid("spacing", "normalize: spacing %d is not one of SpacingAuto, SpacingKeep, SpacingSeparate", o.Spacing)
	}
	switch o.Mode {
	case "":
		p.mode = TN
	case TN, ITN:
	default:
		return nil, invalid("mode", "normalize: mode %q is not one of tn, itn", o.Mode)
	}
	switch {
	case o.TopK == 0:
		p.topK = DefaultTopK
	case o.TopK < 1 || o.TopK > MaxTopK:
		return nil, invalid("top_k", "normalize: top_k %d is outside 1..%d", o.TopK, MaxTopK)
	}
	if strings.TrimSpace(o.Language) == "" {
		return nil, invalid("language", "normalize: language is required")
	}
	tag, err := language.Parse(o.Language)
	if err != nil {
		return nil, invalid("language", "normalize: language tag %q is not valid BCP 47: %v", o.Language, err)
	}
	var supported map[string]bool
	if tag == language.Und {
		p.und, p.tag = true, "und"
		supported = map[string]bool{}
		for _, r := range registry {
			for _, c := range r.classes(p.mode) {
				supported[c] = true
			}
			// Han runs use the Chinese rules, so they read as "zh" reads:
			// ITN reads traditional characters as well as simplified, and
			// a span written in them answers in them. The rewrite touches
			// only Han characters of the table, so the other runs read as
			// written.
			if r.script == "Hani" && r.variant != nil {
				p.variant = r.variant(language.Chinese, p.mode)
			}
		}
	} else {
		base, _ := tag.Base()
		r := registry[base.String()]
		if r == nil {
			return nil, sotto.Unsatisfiable("normalization_language_unsupported", "language",
				"normalize: no normalization rules for language %q (supported: %s)", o.Language, strings.Join(Languages(), ", "))
		}
		p.rules, p.tag = r, tag.String()
		if r.variant != nil {
			p.variant = r.variant(tag, p.mode)
		}
		supported = map[string]bool{}
		for _, c := range r.classes(p.mode) {
			supported[c] = true
		}
	}
	if o.Classes != nil {
		if len(o.Classes) == 0 {
			return nil, invalid("classes", "normalize: classes must not be empty when given")
		}
		for _, c := range o.Classes {
			if !slices.Contains(AllClasses, c) || !supported[c] {
				return nil, sotto.Unsatisfiable("normalization_class_unsupported", "classes",
					"normalize: class %q is not supported for language %q in mode %s", c, p.tag, p.mode)
			}
			p.allow = p.allow.with(c)
		}
	} else {
		p.allow = allClasses
	}
	return p, nil
}

// Request is the JSON body of POST /v1/text/normalizations. Decode it with
// DisallowUnknownFields and call [Request.Validate] before [Request.Options].
type Request struct {
	Text     *string `json:"text"`
	Language *string `json:"language"`
	Model    string  `json:"model,omitempty"`
	Mode     Mode    `json:"mode,omitempty"`
	// TopK is kept as the JSON literal so that 2.5, 1e1 or "3" are rejected
	// by Validate with param "top_k" instead of a decoder type error.
	TopK    *Literal `json:"top_k,omitempty"`
	Classes []string `json:"classes,omitempty"`
}

// Literal is a JSON value kept verbatim (for example `8`, `2.5` or `"8"`), so
// that [Request.Validate] can report a wrongly typed number with its param.
type Literal string

// UnmarshalJSON stores the literal without interpreting it. It never fails.
func (l *Literal) UnmarshalJSON(b []byte) error {
	*l = Literal(b)
	return nil
}

// MarshalJSON writes the literal back unchanged.
func (l Literal) MarshalJSON() ([]byte, error) {
	if l == "" {
		return []byte("null"), nil
	}
	return []byte(l), nil
}

// DecodeRequest decodes a JSON request body, rejecting unknown fields and
// trailing data, and validates it. Decoding problems are 400
// "normalization_invalid_request" errors whose Param names the field when it
// is known.
func DecodeRequest(body []byte) (*Request, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var r Request
	if err := dec.Decode(&r); err != nil {
		param := ""
		var te *json.UnmarshalTypeError
		if ok := asType(err, &te); ok {
			param = te.Field
		} else if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			param = strings.Trim(f, `"`)
		}
		return nil, invalid(param, "normalize: invalid JSON body: %v", err)
	}
	if dec.More() {
		return nil, invalid("", "normalize: trailing data after the JSON body")
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return &r, nil
}

func asType(err error, target **json.UnmarshalTypeError) bool {
	te, ok := err.(*json.UnmarshalTypeError)
	if ok {
		*target = te
	}
	return ok
}

// Validate checks every field against the spec's bounds. It returns a
// [*sotto.Error] with code "normalization_invalid_request" (400) and the
// field in Param for a missing, empty or over-long text (over MaxTextBytes
// bytes), a missing or malformed language tag, a top_k that is not an
// integer in 1..16, an unknown mode or an empty classes list; "model_not_found"
// (404, param "model") for a model other than ModelID;
// "normalization_language_unsupported" (422, param "language") for a
// well-formed tag without rules; and "normalization_class_unsupported" (422,
// param "classes").
func (r *Request) Validate() error {
	if r.Text == nil || *r.Text == "" {
		return invalid("text", "normalize: text is required and must not be empty")
	}
	if !utf8.ValidString(*r.Text) {
		return invalid("text", "normalize: text is not valid UTF-8")
	}
	if len(*r.Text) > MaxTextBytes {
		return invalid("text", "normalize: text is %d bytes; the limit is %d", len(*r.Text), MaxTextBytes)
	}
	if r.Language == nil || *r.Language == "" {
		return invalid("language", "normalize: language is required")
	}
	if r.Model != "" && r.Model != ModelID {
		return sotto.NotFound("model_not_found", "model", "normalize: model %q does not serve normalization (use %s)", r.Model, ModelID)
	}
	if r.TopK != nil {
		if _, err := r.topK(); err != nil {
			return err
		}
	}
	if r.Classes != nil && len(r.Classes) == 0 {
		return invalid("classes", "normalize: classes must not be empty when given")
	}
	return r.Options().Validate()
}

func (r *Request) topK() (int, error) {
	if r.TopK == nil {
		return 0, nil
	}
	n, err := strconv.Atoi(string(*r.TopK))
	if err != nil || n < 1 || n > MaxTopK {
		return 0, invalid("top_k", "normalize: top_k %s is not an integer in 1..%d", string(*r.TopK), MaxTopK)
	}
	return n, nil
}

// Options converts a validated request into [Options].
func (r *Request) Options() Options {
	o := Options{Mode: r.Mode, Classes: r.Classes, Model: r.Model}
	if r.Language != nil {
		o.Language = *r.Language
	}
	o.TopK, _ = r.topK()
	if o.TopK == 0 && r.TopK != nil {
		o.TopK = -1 // invalid; resolve reports it
	}
	return o
}

// LanguageCapability describes the rules for one language.
type LanguageCapability struct {
	// Language is the BCP 47 base tag, e.g. "en".
	Language string `json:"language"`
	// Name is the English name of the language.
	Name string `json:"name"`
	// Modes maps "tn" and "itn" to the classes that mode converts, in the
	// order of AllClasses.
	Modes map[Mode][]string `json:"modes"`
}

// CapabilityInfo is what the catalog entry of ModelID carries under
// x_sotto.normalization; see the package documentation for its JSON shape.
type CapabilityInfo struct {
	// Modes lists the supported modes.
	Modes []Mode `json:"modes"`
	// Classes lists every class name known to the package.
	Classes []string `json:"classes"`
	// Und reports whether "und" (per-segment language choice) is accepted.
	Und bool `json:"und"`
	// Languages has one entry per language with rules, sorted by tag.
	Languages []LanguageCapability `json:"languages"`
}

// Capabilities returns the languages and, for each, the classes per mode. The
// result is freshly allocated; callers may modify it.
func Capabilities() CapabilityInfo {
	info := CapabilityInfo{Modes: []Mode{TN, ITN}, Classes: slices.Clone(AllClasses), Und: true}
	for _, tag := range Languages() {
		r := registry[tag]
		info.Languages = append(info.Languages, LanguageCapability{
			Language: tag, Name: r.name,
			Modes: map[Mode][]string{TN: r.classes(TN), ITN: r.classes(ITN)},
		})
	}
	return info
}

// Languages returns the base tags of the languages with rules, sorted.
func Languages() []string {
	var tags []string
	for t := range registry {
		tags = append(tags, t)
	}
	slices.Sort(tags)
	return tags
}

// String implements fmt.Stringer.
func (m Mode) String() string { return string(m) }

var _ fmt.Stringer = TN
