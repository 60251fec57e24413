package align

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestResolveLanguage(t *testing.T) {
	tests := []struct {
		lang, text string
		want       string
		cands      []string
	}{
		{"und", "Hallo Welt", "und", nil},
		{"de-at", "Servus", "de-AT", []string{"de-AT"}},
		{"", "Der Hund und die Katze sind nicht hier, aber ich bin es.", "de", nil},
		{"", "今日は良い天気です", "ja", nil},
		{"", "ask not what your country can do for you", "en", []string{"en"}},
		{"", "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.", "en", []string{"en"}},
		{"", "Guten Tag, wie geht es dir heute?", "de", []string{"de", "es"}},
		{"", "El perro come en la casa.", "es", []string{"es", "fr", "it"}},
	}
	for _, tt := range tests {
		got, cands := resolveLanguage(tt.lang, tt.text)
		if got != tt.want || (tt.cands != nil && !cmp.Equal(cands, tt.cands)) {
			t.Errorf("resolveLanguage(%q, %q) = %q, %v; want %q, %v", tt.lang, tt.text, got, cands, tt.want, tt.cands)
		}
		if tt.lang == "" && (len(cands) == 0 || cands[0] != got) {
			t.Errorf("resolveLanguage(\"\", %q) candidates %v; want the chosen language first", tt.text, cands)
		}
		if tt.lang == "und" && cands != nil {
			t.Errorf("und gave candidates %v; want none", cands)
		}
	}
}
