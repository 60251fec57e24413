package align

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/audio"
)

// TestAlignNonEnglish aligns the shared non-English recordings under
// Lattice-2: each must align without failure, with every word inside the
// audio and in order.
func TestAlignNonEnglish(t *testing.T) {
	dir := testdata(t)
	l := openTestBackend(t)
	for _, tc := range []struct{ lang, wav, txt string }{
		{"de", "de_aeneas_simplicissimus_16k.wav", "de_aeneas_simplicissimus.lines.txt"},
		{"es", "es_mls_13697_11991_000000_16k.wav", "es_mls_13697_11991_000000.txt"},
		{"ja", "ja_cv_24511055_16k.wav", "ja_cv_24511055.txt"},
		{"zh", "zh_aishell_BAC009S0764W0121_16k.wav", "zh_aishell_BAC009S0764W0121.txt"},
		{"sv", "sv_nst_u0016003_16k.wav", "sv_nst_u0016003.txt"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			txt, err := os.ReadFile(filepath.Join(dir, "speech", tc.txt))
			if err != nil {
				t.Skip(err)
			}
			a, _, err := audio.DecodeFile(context.Background(), filepath.Join(dir, "speech", tc.wav), audio.Options{})
			if err != nil {
				t.Skip(err)
			}
			res, err := l.Align(context.Background(), a, strings.TrimSpace(string(txt)), Options{Language: tc.lang})
			if err != nil {
				t.Fatalf("Align(%s) = %v", tc.lang, err)
			}
			n, last := 0, 0.0
			for _, s := range res.Segments {
				for _, w := range s.Words {
					if w.Start < last-1e-9 || w.End < w.Start || w.End > res.Duration+1e-6 {
						t.Errorf("word %+v out of order or outside the audio", w)
					}
					last = w.End
					n++
				}
			}
			t.Logf("%s: %d words over %.1f s", tc.lang, n, res.Duration)
			if n == 0 {
				t.Errorf("no words aligned")
			}
		})
	}
}
