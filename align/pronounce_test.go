package align

import (
	"context"
	"os/exec"
	"testing"
)

func TestPronounceTokensAcrossLanguages(t *testing.T) {
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Skip("espeak-ng is not installed (apt-get install espeak-ng)")
	}
	l := openTestBackend(t)
	g := g2pFor(l.model)
	for _, tc := range []struct {
		lang, text string
	}{
		{"en", "ask not what your country can do"},
		{"en", "Montreal forced aligner"}, // montreal is not in CMUdict
		{"de", "Der schnelle braune Fuchs"},
		{"zh", "今天天气很好"},
		{"ja", "今日は良い天気です"},
		{"sv", "och så gick vi hem"},
	} {
		tr, err := prepare(context.Background(), tc.text, tc.lang, TextNormalization{}, []string{})
		if err != nil {
			t.Fatalf("%s: prepare: %v", tc.lang, err)
		}
		if err := pronounceTokens(context.Background(), g, tr.Tokens); err != nil {
			t.Fatalf("%s %q: %v", tc.lang, tc.text, err)
		}
		for _, tk := range tr.Tokens {
			if len(tk.Prons) == 0 || len(tk.Prons) > maxVariants {
				t.Errorf("%s: token %q has %d pronunciations", tc.lang, tk.Text, len(tk.Prons))
			}
			for _, p := range tk.Prons {
				for _, ph := range p {
					if _, ok := l.model.Mdef.CIPhone(ph); !ok {
						t.Errorf("%s: token %q uses phone %q the model lacks", tc.lang, tk.Text, ph)
					}
				}
			}
		}
		dict, labels := lexiconText(tr.Tokens)
		if len(labels) != len(tr.Tokens) || labels[0] != "w0000" || dict == "" {
			t.Errorf("%s: lexicon %q labels %v", tc.lang, dict, labels)
		}
	}
}
