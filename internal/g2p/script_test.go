package g2p

import "testing"

// TestKanaOneDefinition checks that ScriptOf and hasKana agree on what is
// Kana (isKana), character by character: the prolonged sound marks ー and ｰ
// (script Common in Unicode) are Kana for both, as are kana letters,
// iteration marks, halfwidth, circled and squared katakana and the kana
// supplement; the Han iteration marks, the katakana middle dot, the wave
// dash and the combining voiced sound mark are not.
func TestKanaOneDefinition(t *testing.T) {
	for _, c := range []struct {
		r    rune
		kana bool
	}{
		{'ー', true},          // U+30FC, script Common
		{'ｰ', true},          // U+FF70, script Common
		{'あ', true},          // hiragana
		{'ア', true},          // katakana
		{'ｱ', true},          // halfwidth katakana
		{'ゝ', true},          // hiragana iteration mark
		{'ヾ', true},          // katakana voiced iteration mark
		{'ゟ', true},          // hiragana digraph yori
		{'ㇰ', true},          // katakana phonetic extension
		{'㋐', true},          // circled katakana (a symbol)
		{'㌀', true},          // squared katakana word (a symbol)
		{'\U0001B001', true}, // hiragana letter archaic ye (kana supplement)
		{'々', false},         // Han iteration mark: Han
		{'〆', false},
		{'〇', false},
		{'・', false},      // katakana middle dot: Common punctuation
		{'〜', false},      // wave dash
		{'\u3099', false}, // combining voiced sound mark: joins the run it follows
		{'゛', false},      // spacing voiced sound mark, script Common
		{'漢', false}, {'a', false}, {'한', false}, {' ', false}, {'0', false},
	} {
		if got := isKana(c.r); got != c.kana {
			t.Errorf("isKana(%q U+%04X) = %v; want %v", c.r, c.r, got, c.kana)
		}
		if got := ScriptOf(c.r) == Kana; got != c.kana {
			t.Errorf("ScriptOf(%q U+%04X) = %s; Kana is %v, want %v", c.r, c.r, ScriptOf(c.r), got, c.kana)
		}
		if got := hasKana("x" + string(c.r) + "y"); got != c.kana {
			t.Errorf("hasKana(%q) = %v; want %v", "x"+string(c.r)+"y", got, c.kana)
		}
	}
}
