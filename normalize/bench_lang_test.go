package normalize_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	shared "github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/normalize"
)

// suiteText joins the inputs of a language's suites in one mode (every
// JSONL file under text/normalize/<lang>/*/<mode>), one case a line,
// repeated to about 64 KB: number-dense text of the language.
func suiteText(b testing.TB, lang, mode string) string {
	one := suiteOnce(b, lang, mode)
	return strings.Repeat(one, max(1, 64<<10/len(one)))
}

// suiteOnce is the inputs of a language's suites in one mode, one case a
// line, each once.
func suiteOnce(b testing.TB, lang, mode string) string {
	dir := shared.Path(b, "text", "normalize", lang)
	files, _ := filepath.Glob(filepath.Join(dir, "*", mode, "*.jsonl"))
	var lines []string
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			b.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var c struct{ Input string }
			if json.Unmarshal(sc.Bytes(), &c) == nil && c.Input != "" {
				lines = append(lines, c.Input)
			}
		}
		fh.Close()
	}
	if len(lines) == 0 {
		b.Skipf("no %s %s cases in %s", lang, mode, dir)
	}
	return strings.Join(lines, "\n") + "\n"
}

// BenchmarkNormalizeSuiteText measures TN and ITN on the suites' own
// inputs, the number-densest text there is for each language.
func BenchmarkNormalizeSuiteText(b *testing.B) {
	for _, c := range []struct{ lang, mode string }{
		{"es", "tn"}, {"zh", "itn"}, {"de", "tn"}, {"fr", "tn"}, {"zh", "tn"}, {"es", "itn"}, {"en", "tn"},
	} {
		b.Run(c.lang+"/"+c.mode, func(b *testing.B) {
			text := suiteText(b, c.lang, c.mode)
			ctx := context.Background()
			opts := normalize.Options{Language: c.lang, Mode: normalize.Mode(c.mode), TopK: 1}
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := normalize.Normalize(ctx, text, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
