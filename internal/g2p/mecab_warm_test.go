package g2p

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
)

// TestWarmMeCabMatchesOneShot parses the same texts with a warm mecab and
// with a process per call and requires the same morphemes; a line too long
// for the warm path and lines with control characters included.
func TestWarmMeCabMatchesOneShot(t *testing.T) {
	needMeCab(t)
	texts := []string{
		"今日は", "", "\n\n", "EOS", "テスト\r\nです", "a\x00b\tc", "真っ昼間なのにキャンプの外れの電柱に電球がともっていた",
		"東京タワーへ行った。\n大阪城も見た！", "ＯＫ、２０２４年ｶﾀｶﾅ", strings.Repeat("あいうえお。", 1000), "EOS\nEOS\n",
	}
	root := sharedtestdata.Root()
	if b, err := os.ReadFile(filepath.Join(root, "text", "segment", "ja", "ud_japanese-gsd", "ja_gsd-ud-test.sentences.txt")); err == nil {
		lines := strings.Split(string(b), "\n")
		texts = append(texts, lines[:min(len(lines), 300)]...)
		texts = append(texts, strings.Join(lines[:min(len(lines), 50)], "\n"))
	} else {
		t.Logf("no UD Japanese sentences (%v): fixed texts only", err)
	}
	one := &MeCab{Workers: -1}
	warm := &MeCab{Workers: 1}
	defer warm.Close()
	ctx := context.Background()
	for _, text := range texts {
		want, err1 := one.Parse(ctx, text)
		got, err2 := warm.Parse(ctx, text)
		if (err1 == nil) != (err2 == nil) {
			t.Errorf("Parse(%.40q): one-shot err %v, warm err %v", text, err1, err2)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Parse(%.40q): warm differs from one-shot (-one-shot +warm):\n%s", text, diff)
		}
	}
	if live, _, starts := warm.pool.stats(); starts != 1 || live != 1 {
		t.Errorf("%d texts: %d warm processes started, %d live; want 1, 1", len(texts), starts, live)
	}
}

// TestWarmMeCabIdleExit checks that a warm mecab ends once unused for the
// idle timeout.
func TestWarmMeCabIdleExit(t *testing.T) {
	needMeCab(t)
	m := &MeCab{IdleTimeout: 100 * time.Millisecond}
	if _, err := m.Parse(context.Background(), "今日は"); err != nil {
		t.Fatal(err)
	}
	waitIdleExit(t, m.pool)
	if ms, err := m.Parse(context.Background(), "今日は"); err != nil || len(ms) != 2 {
		t.Errorf("Parse after the idle exit = %+v, %v", ms, err)
	}
}
