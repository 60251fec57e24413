package tts

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/sottolabs/sotto"
)

// PickVoice chooses the voice of b for lang (builtin:auto): for "" the
// default voice; else, in order, a voice whose own language is exactly
// lang, a voice that lists a regional lang among its languages, the default
// voice if it speaks lang's base language, a voice whose own language is
// the base language or its home country's variant ("fr-fr" for "fr"), then
// the first voice whose own language, or any of its languages, has that
// base. A language no voice speaks is a 422 language_unsupported error.
func PickVoice(b Backend, lang string) (Voice, error) {
	def, ok := FindVoice(b, "")
	if lang == "" || lang == "auto" {
		if !ok {
			return Voice{}, sotto.Invalid("bad_request", "voice", "this model has no default voice; name one")
		}
		return def, nil
	}
	l, _ := b.(Lister)
	var vs []Voice
	if l != nil {
		vs = l.Voices()
	}
	base := baseLanguage(lang)
	own := func(v Voice) string { return v.Languages[0] }
	for _, match := range []func(Voice) bool{
		func(v Voice) bool { return strings.EqualFold(own(v), lang) },
		// A regional tag another voice lists as its own (es-MX: es-419).
		func(v Voice) bool {
			return !strings.EqualFold(lang, base) && slices.ContainsFunc(v.Languages, func(t string) bool { return strings.EqualFold(t, lang) })
		},
		func(v Voice) bool { return v.Default && slices.ContainsFunc(v.Languages, sameBase(base)) },
		// The language's own voice, or that of its home country (fr:
		// fr-fr rather than fr-be, the first in list order).
		func(v Voice) bool { return strings.EqualFold(own(v), base) || strings.EqualFold(own(v), base+"-"+base) },
		func(v Voice) bool { return sameBase(base)(own(v)) },
		func(v Voice) bool { return slices.ContainsFunc(v.Languages, sameBase(base)) },
	} {
		if i := slices.IndexFunc(vs, match); i >= 0 {
			return vs[i], nil
		}
	}
	return Voice{}, sotto.Unsatisfiable("language_unsupported", "language", "no voice of this model speaks %q; choose another speech model", lang)
}

func sameBase(base string) func(string) bool {
	return func(tag string) bool { return base != "" && baseLanguage(tag) == base }
}

// Design is what [DesignVoice] made of a natural-language description: the
// voice and settings it applied, and the words it understood.
type Design struct {
	Voice   Voice   `json:"-"`
	VoiceID string  `json:"voice"`
	Gender  string  `json:"gender,omitempty"`
	Accent  string  `json:"accent,omitempty"` // a BCP 47 tag
	Pitch   float64 `json:"pitch,omitempty"`  // semitones
	Speed   float64 `json:"speed,omitempty"`  // 0: natural
	Variant string  `json:"variant,omitempty"`
	// Applied lists the descriptions that changed a setting, e.g.
	// ["deep: pitch -4", "british: accent en-GB"].
	Applied []string `json:"applied"`
}

// designWords maps description words to settings. The tables are general
// English descriptors of voices, not tuned to any test.
var (
	femaleWords = regexp.MustCompile(`\b(female|woman|women|feminine|girl|lady|she|her)\b`)
	maleWords   = regexp.MustCompile(`\b(male|man|men|masculine|boy|gentleman|guy|he|his)\b`)
	pitchWords  = []struct {
		re *regexp.Regexp
		st float64
	}{
		{regexp.MustCompile(`\bvery (deep|low)\b`), -7},
		{regexp.MustCompile(`\b(deep|low|low-pitched|bass|baritone)\b`), -4},
		{regexp.MustCompile(`\bvery (high|high-pitched)\b`), 7},
		{regexp.MustCompile(`\b(high|high-pitched|squeaky|shrill|soprano)\b`), 4},
	}
	speedWords = []struct {
		re *regexp.Regexp
		x  float64
	}{
		{regexp.MustCompile(`\bvery (slow|slowly)\b`), 0.65},
		{regexp.MustCompile(`\b(slow|slowly|unhurried|leisurely)\b`), 0.8},
		{regexp.MustCompile(`\bvery (fast|quick|quickly)\b`), 1.5},
		{regexp.MustCompile(`\b(fast|quick|quickly|rapid|brisk)\b`), 1.25},
	}
	accentWords = []struct {
		re  *regexp.Regexp
		tag string
	}{
		{regexp.MustCompile(`\b(scottish|scots)\b`), "en-GB-scotland"},
		{regexp.MustCompile(`\b(british|english accent|uk|received pronunciation|rp)\b`), "en-GB"},
		{regexp.MustCompile(`\b(american|us)\b`), "en-US"},
		{regexp.MustCompile(`\bcaribbean\b`), "en-029"},
	}
	variantWords = []struct {
		re      *regexp.Regexp
		variant string
	}{
		{regexp.MustCompile(`\b(whisper|whispering|whispered)\b`), "whisper"},
		{regexp.MustCompile(`\b(croaky|croaking|hoarse)\b`), "croak"},
	}
)

// DesignVoice turns a description ("a slow, deep male voice with a British
// accent") into a voice of b and engine settings: gender and accent choose
// the voice (a female variant where the engine has variants but no female
// voice), pitch and speed words set the controls the voice has. Words it
// does not know are ignored; [Design].Applied says what was used.
func DesignVoice(b Backend, description, lang string) (Design, error) {
	d := Design{Applied: []string{}}
	text := strings.ToLower(description)
	switch {
	case femaleWords.MatchString(text):
		d.Gender = "female"
	case maleWords.MatchString(text):
		d.Gender = "male"
	}
	for _, a := range accentWords {
		if a.re.MatchString(text) {
			d.Accent = a.tag
			d.Applied = append(d.Applied, a.re.FindString(text)+": accent "+a.tag)
			break
		}
	}
	want := lang
	if d.Accent != "" && (lang == "" || baseLanguage(lang) == "en") {
		want = d.Accent
	}
	l, _ := b.(Lister)
	var vs []Voice
	if l != nil {
		vs = l.Voices()
	}
	// Among the voices of the wanted language (or the default's), prefer
	// the exact accent, then the gender.
	v, err := PickVoice(b, want)
	if err != nil && d.Accent != "" && want != lang {
		v, err = PickVoice(b, lang)
	}
	if err != nil {
		return d, err
	}
	if d.Gender != "" && v.Gender != d.Gender {
		// Another voice of the gender: same accent first, then same language.
		for _, same := range []func(Voice) bool{
			func(c Voice) bool { return strings.EqualFold(c.Languages[0], v.Languages[0]) },
			func(c Voice) bool { return baseLanguage(c.Languages[0]) == baseLanguage(v.Languages[0]) },
		} {
			if i := slices.IndexFunc(vs, func(c Voice) bool { return c.Gender == d.Gender && same(c) }); i >= 0 {
				v = vs[i]
				break
			}
		}
	}
	if d.Gender != "" {
		if v.Gender == d.Gender {
			d.Applied = append(d.Applied, d.Gender+": voice "+v.ID)
		} else if vf, ok := b.(interface{ VariantFor(string) string }); ok && slices.Contains(v.Controls, "variant") {
			if d.Variant = vf.VariantFor(d.Gender); d.Variant != "" {
				d.Applied = append(d.Applied, d.Gender+": variant "+d.Variant)
			}
		}
	}
	for _, w := range variantWords {
		if w.re.MatchString(text) && slices.Contains(v.Controls, "variant") {
			if vl, ok := b.(interface{ Variants() []string }); ok && slices.Contains(vl.Variants(), w.variant) {
				d.Variant = w.variant
				d.Applied = append(d.Applied, w.re.FindString(text)+": variant "+w.variant)
				break
			}
		}
	}
	if slices.Contains(v.Controls, "pitch") {
		for _, p := range pitchWords {
			if m := p.re.FindString(text); m != "" {
				d.Pitch = p.st
				d.Applied = append(d.Applied, m+": pitch "+signed(p.st))
				break
			}
		}
	}
	if slices.Contains(v.Controls, "speed") {
		for _, s := range speedWords {
			if m := s.re.FindString(text); m != "" {
				d.Speed = s.x
				d.Applied = append(d.Applied, m+": speed "+trimFloat(s.x))
				break
			}
		}
	}
	d.Voice, d.VoiceID = v, v.ID
	return d, nil
}

func signed(x float64) string {
	if x > 0 {
		return "+" + trimFloat(x)
	}
	return trimFloat(x)
}

func trimFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
