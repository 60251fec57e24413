package g2p

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sottolabs/sotto"
)

// tok is the comparable part of a Token.
type tok struct {
	Text     string
	Start    int
	Lang     string
	Readings []string
}

func simplify(t *testing.T, src string, toks []Token) []tok {
	t.Helper()
	var out []tok
	for _, x := range toks {
		if x.Start < 0 || x.End > len(src) || x.Start >= x.End || src[x.Start:x.End] != x.Text {
			t.Errorf("token %q has offsets [%d,%d) that do not index it in %q", x.Text, x.Start, x.End, src)
		}
		out = append(out, tok{x.Text, x.Start, x.Lang, x.Readings})
	}
	return out
}

func TestTokenizeWhitespace(t *testing.T) {
	tests := []struct {
		text, lang string
		want       []tok
	}{
		{"Das ist: Ausführliche, Merk- und", "de", []tok{{"Das", 0, "de", nil}, {"ist", 4, "de", nil}, {"Ausführliche", 9, "de", nil}, {"Merk", 24, "de", nil}, {"und", 30, "de", nil}}},
		{"Feed'st thy self-substantial fuel, 1,000 U.S.A. (ok)", "en", []tok{{"Feed'st", 0, "en", nil}, {"thy", 8, "en", nil}, {"self-substantial", 12, "en", nil}, {"fuel", 29, "en", nil}, {"1,000", 35, "en", nil}, {"U.S.A", 41, "en", nil}, {"ok", 49, "en", nil}}},
		{"«Hola», dijo — ¿qué?", "es", []tok{{"Hola", 2, "es", nil}, {"dijo", 10, "es", nil}, {"qué", 21, "es", nil}}},
		{"Har du sett våra rara barnbarn som leker", "und", []tok{{"Har", 0, "sv", nil}, {"du", 4, "sv", nil}, {"sett", 7, "sv", nil}, {"våra", 12, "sv", nil}, {"rara", 18, "sv", nil}, {"barnbarn", 23, "sv", nil}, {"som", 32, "sv", nil}, {"leker", 36, "sv", nil}}},
		{"Er sagte: Привет мир!", "de", []tok{{"Er", 0, "de", nil}, {"sagte", 3, "de", nil}, {"Привет", 10, "ru", nil}, {"мир", 23, "ru", nil}}},
		{"naïve café", "fr", []tok{{"naïve", 0, "fr", nil}, {"café", 7, "fr", nil}}},
		{"  ... !!! ", "en", nil},
		{"", "en", nil},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			toks, err := Tokenize(context.Background(), nil, tc.text, tc.lang)
			if err != nil {
				t.Fatal(err)
			}
			if got := simplify(t, tc.text, toks); !cmp.Equal(got, tc.want) {
				t.Errorf("Tokenize(%q, %q) = %v; want %v", tc.text, tc.lang, got, tc.want)
			}
		})
	}
}

func TestTokenizeBadTag(t *testing.T) {
	_, err := Tokenize(context.Background(), nil, "Hallo Welt", "not a tag")
	if se, ok := errors.AsType[*sotto.Error](err); !ok || se.Code != "bad_request" || se.Param != "language" {
		t.Errorf("Tokenize(lang %q) err = %v; want 400 bad_request on language", "not a tag", err)
	}
}

func TestTokenizeChinese(t *testing.T) {
	text := "甚至出现交易，我爱Go语言2024年"
	toks, err := Tokenize(context.Background(), nil, text, "zh")
	if err != nil {
		t.Fatal(err)
	}
	got := simplify(t, text, toks)
	want := []tok{
		{"甚", 0, "zh", []string{"shen4", "shen2"}}, {"至", 3, "zh", []string{"zhi4", "die2"}},
		{"出", 6, "zh", []string{"chu1"}}, {"现", 9, "zh", []string{"xian4"}},
		{"交", 12, "zh", []string{"jiao1"}}, {"易", 15, "zh", []string{"yi4"}},
		{"我", 21, "zh", []string{"wo3"}}, {"爱", 24, "zh", []string{"ai4"}},
		{"Go", 27, "en", nil},
		{"语", 29, "zh", []string{"yu3", "yu4"}}, {"言", 32, "zh", []string{"yan2", "yan4"}},
		{"2024", 35, "zh", nil}, {"年", 39, "zh", []string{"nian2", "ning4"}},
	}
	if !cmp.Equal(got, want) {
		t.Errorf("Tokenize(%q, zh) = %v; want %v", text, got, want)
	}
}

func TestTokenizeJapanese(t *testing.T) {
	needMeCab(t)
	text := "真っ昼間なのに、キャンプの外れの電柱に電球がともっていた。今日はOKです"
	toks, err := Tokenize(context.Background(), nil, text, "ja")
	if err != nil {
		t.Fatal(err)
	}
	got := simplify(t, text, toks)
	want := []tok{
		{"真っ昼間", 0, "ja", []string{"マッピルマ"}}, {"な", 12, "ja", []string{"ナ"}}, {"のに", 15, "ja", []string{"ノニ"}},
		{"キャンプ", 24, "ja", nil}, {"の", 36, "ja", []string{"ノ"}}, {"外れ", 39, "ja", []string{"ハズレ"}},
		{"の", 45, "ja", []string{"ノ"}}, {"電柱", 48, "ja", []string{"デンチュー"}}, {"に", 54, "ja", []string{"ニ"}},
		{"電球", 57, "ja", []string{"デンキュー"}}, {"が", 63, "ja", []string{"ガ"}}, {"ともっ", 66, "ja", []string{"トモッ"}},
		{"て", 75, "ja", []string{"テ"}}, {"い", 78, "ja", []string{"イ"}}, {"た", 81, "ja", []string{"タ"}},
		{"今日", 87, "ja", []string{"キョー"}}, {"は", 93, "ja", []string{"ワ"}}, {"OK", 96, "en", nil},
		{"です", 98, "ja", []string{"デス"}},
	}
	if !cmp.Equal(got, want) {
		t.Errorf("Tokenize(%q, ja) =\n%v\nwant\n%v", text, got, want)
	}
	// Kana makes Han Japanese even without a language.
	toks, err = Tokenize(context.Background(), nil, "東京へ行く", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(toks) == 0 || toks[0].Lang != "ja" || toks[0].Text != "東京" {
		t.Errorf("Tokenize(東京へ行く, \"\") = %v; want Japanese morphemes", toks)
	}
	// Several Japanese runs, line breaks, full-width space and Latin: one
	// MeCab call, offsets still index the text.
	mixed := "東京\r\nへ行く。Tokyo　タワー！ＡＢＣと\n\n二〇二四年に"
	toks, err = Tokenize(context.Background(), nil, mixed, "ja")
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, x := range simplify(t, mixed, toks) {
		texts = append(texts, x.Text+"/"+x.Lang)
	}
	wantTexts := []string{"東京/ja", "へ/ja", "行く/ja", "Tokyo/en", "タワー/ja", "ＡＢＣ/en", "と/ja", "二/ja", "〇/ja", "二/ja", "四/ja", "年/ja", "に/ja"}
	if !cmp.Equal(texts, wantTexts) {
		t.Errorf("Tokenize(%q, ja) = %v; want %v", mixed, texts, wantTexts)
	}
	missing := &MeCab{Path: filepath.Join(t.TempDir(), "mecab")}
	if _, err := Tokenize(context.Background(), missing, text, "ja"); !errors.Is(err, ErrNoMeCab) {
		t.Errorf("Tokenize with no mecab: err = %v; want ErrNoMeCab", err)
	}
}

func TestParseMeCab(t *testing.T) {
	text := "今日 は"
	out := "今日\t名詞,副詞可能,*,*,*,*,今日,キョウ,キョー\nは\t助詞,係助詞,*,*,*,*,は,ハ,ワ\nEOS\n"
	got, err := ParseMeCab(text, out)
	if err != nil {
		t.Fatal(err)
	}
	want := []Morpheme{{"今日", 0, 6, "名詞", "キョー"}, {"は", 7, 10, "助詞", "ワ"}}
	if !cmp.Equal(got, want) {
		t.Errorf("ParseMeCab = %v; want %v", got, want)
	}
	for _, bad := range []string{"明日\t名詞\n", "今日\n", "は\t助詞\n今日\t名詞\n"} {
		if _, err := ParseMeCab(text, bad); err == nil {
			t.Errorf("ParseMeCab(%q) succeeded; want an error", bad)
		}
	}
}
