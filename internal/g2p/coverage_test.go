package g2p

import (
	"context"
	"slices"
	"testing"

	"github.com/mozillazg/go-pinyin"
)

// TestPhonemizeCoverage phonemises every numbered-pinyin syllable go-pinyin
// knows and every katakana mora, and checks that the table maps all of
// espeak-ng's output without the feature fallback.
func TestPhonemizeCoverage(t *testing.T) {
	needEspeak(t)
	seen := map[string]bool{}
	for r := range pinyin.PinyinDict {
		for _, s := range pinyin.SinglePinyin(rune(r), pinyin.Args{Style: pinyin.Tone3, Heteronym: true}) {
			seen[s] = true
		}
	}
	syllables := slices.Sorted(func(yield func(string) bool) {
		for s := range seen {
			if !yield(s) {
				return
			}
		}
	})
	var kana []string
	for r := 'ァ'; r <= 'ヺ'; r++ {
		kana = append(kana, string(r))
	}
	for _, base := range []string{"キ", "シ", "チ", "ニ", "ヒ", "ミ", "リ", "ギ", "ジ", "ビ", "ピ"} {
		for _, y := range []string{"ャ", "ュ", "ョ"} {
			kana = append(kana, base+y)
		}
	}
	kana = append(kana, "ファ", "フィ", "フェ", "フォ", "ティ", "ディ", "トゥ", "ドゥ", "ヴァ", "ウィ", "ウェ", "ウォ", "ツァ", "シェ", "チェ", "ジェ",
		"ザッシ", "キッテ", "ラーメン", "コーヒー", "サンポ", "センエン", "ホンヤ")
	for _, c := range []struct {
		voice string
		words []string
	}{{"cmn-latn-pinyin", syllables}, {"ja", kana}} {
		ipa, err := NewPhonemizer(PhonemizerConfig{}).IPA(context.Background(), c.voice, c.words)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range ipa {
			if s == "ʔ" { // ッ alone: a glottal stop, no English phone
				continue
			}
			m := MapIPA(c.voice, s)
			if len(m.Phones) == 0 || len(m.Fallback) > 0 || len(m.Dropped) > 0 {
				t.Errorf("%s %q: IPA %q → %v, fallback %v, dropped %v", c.voice, c.words[i], s, m.Phones, m.Fallback, m.Dropped)
			}
		}
		t.Logf("%s: %d words", c.voice, len(c.words))
	}
}
