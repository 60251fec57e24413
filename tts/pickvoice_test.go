package tts

import (
	"context"
	"testing"
)

// voiceList is a Backend that only lists voices.
type voiceList []Voice

func (l voiceList) Synthesize(context.Context, string, Options, func(Chunk) error) error { return nil }
func (l voiceList) Close() error                                                         { return nil }
func (l voiceList) Voices() []Voice                                                      { return l }

func TestPickVoice(t *testing.T) {
	v := func(id string, langs ...string) Voice { return Voice{ID: "builtin:" + id, Languages: langs} }
	def := v("en-us", "en-us", "en")
	def.Default = true
	// espeak-ng's order: regional variants before the home country's.
	b := voiceList{v("en-029", "en-029", "en"), v("en-gb", "en-gb", "en"), def,
		v("es", "es"), v("es-419", "es-419", "es-mx", "es"), v("fr-be", "fr-be", "fr"), v("fr-ch", "fr-ch", "fr"),
		v("fr-fr", "fr-fr", "fr"), v("pt", "pt", "pt-pt"), v("pt-br", "pt-br", "pt"), v("sw", "sw")}
	for _, tc := range []struct{ lang, want string }{
		{"", "builtin:en-us"},
		{"en", "builtin:en-us"},
		{"en-GB", "builtin:en-gb"},
		{"fr", "builtin:fr-fr"}, // was fr-be, the first French voice
		{"fr-CA", "builtin:fr-fr"},
		{"fr-CH", "builtin:fr-ch"},
		{"es", "builtin:es"},
		{"es-MX", "builtin:es-419"}, // was es: es-419 lists es-mx
		{"pt", "builtin:pt"},
		{"pt-PT", "builtin:pt"},
		{"pt-BR", "builtin:pt-br"},
		{"sw-KE", "builtin:sw"},
	} {
		got, err := PickVoice(b, tc.lang)
		if err != nil || got.ID != tc.want {
			t.Errorf("PickVoice(%q) = %s, %v; want %s", tc.lang, got.ID, err, tc.want)
		}
	}
	if _, err := PickVoice(b, "ja"); err == nil {
		t.Error("PickVoice(ja) found a voice; want language_unsupported")
	}
}
