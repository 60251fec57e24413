package normalize_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/sottolabs/sotto/normalize"
	"github.com/sottolabs/sotto/normalize/normalizetest"
)

// cpuSeconds is the user and system CPU time this process has used.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// langModes are the languages and modes BenchmarkNormalizeLang measures:
// every hand-written language in both modes, then a sample of the languages
// served by the CLDR RBNF rules alone.
var langModes = []struct{ lang, mode string }{
	{"en", "tn"}, {"en", "itn"}, {"de", "tn"}, {"de", "itn"}, {"es", "tn"}, {"es", "itn"},
	{"fr", "tn"}, {"fr", "itn"}, {"pt", "tn"}, {"pt", "itn"}, {"zh", "tn"}, {"zh", "itn"},
	{"ru", "tn"}, {"ru", "itn"}, {"it", "tn"}, {"sv", "tn"}, {"sv", "itn"}, {"hi", "tn"},
	{"ja", "tn"}, {"vi", "itn"},
}

// BenchmarkNormalizeLang measures TN and ITN of each language on its
// suites' inputs (suiteText: about 64 KB, one case a line, top_k 1). Besides
// the wall-clock MB/s it reports MB per CPU-second of the whole process
// (user + system, garbage collection included), the figure that stays
// meaningful on a machine shared with other work; issue 10 asks for ≥ 2.
func BenchmarkNormalizeLang(b *testing.B) {
	for _, c := range langModes {
		b.Run(c.lang+"/"+c.mode, func(b *testing.B) {
			text := suiteText(b, c.lang, c.mode)
			ctx := context.Background()
			opts := normalize.Options{Language: c.lang, Mode: normalize.Mode(c.mode), TopK: 1}
			b.SetBytes(int64(len(text)))
			n, cpu0 := 0, cpuSeconds()
			for b.Loop() {
				if _, err := normalize.Normalize(ctx, text, opts); err != nil {
					b.Fatal(err)
				}
				n++
			}
			if cpu := cpuSeconds() - cpu0; cpu > 0 {
				b.ReportMetric(float64(n*len(text))/1e6/cpu, "MB/cpu-s")
			}
		})
	}
}

// TestDumpOutputs writes the full result (every alternative and span, or
// the error) of every visible input to the file named by
// SOTTO_NORMALIZE_DUMP, one JSON line each: the shared suites of every
// language (with the suite's own options, with the strict ones, and as
// "und"), the generalization rounds, the prose paragraph and the
// benchmarks' suite texts. Performance work dumps before and after a change
// and compares the files byte for byte; without the variable the test is
// skipped.
func TestDumpOutputs(t *testing.T) {
	path := os.Getenv("SOTTO_NORMALIZE_DUMP")
	if path == "" {
		t.Skip("SOTTO_NORMALIZE_DUMP not set")
	}
	shared, err := normalizetest.Load(filepath.Join(testdata(t), "text", "normalize"))
	if err != nil {
		t.Fatal(err)
	}
	own, err := normalizetest.Load(filepath.Join("testdata", "generalize"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	ctx := context.Background()
	n := 0
	dump := func(text string, o normalize.Options) {
		res, err := normalize.Normalize(ctx, text, o)
		line := struct {
			Opts normalize.Options
			In   string
			Res  *normalize.Result `json:",omitempty"`
			Err  string            `json:",omitempty"`
		}{Opts: o, In: text, Res: res}
		if err != nil {
			line.Err = err.Error()
		}
		if err := enc.Encode(line); err != nil {
			t.Fatal(err)
		}
		n++
	}
	for _, c := range append(shared, own...) {
		dump(c.Input, c.NormalizeOptions())
		dump(c.Input, c.StrictOptions())
		und := c.NormalizeOptions()
		und.Language = "und"
		dump(c.Input, und)
	}
	for _, m := range []normalize.Mode{normalize.TN, normalize.ITN} {
		dump(normalizetest.Prose, normalize.Options{Language: "en", Mode: m})
	}
	for _, c := range langModes {
		dump(suiteOnce(t, c.lang, c.mode), normalize.Options{Language: c.lang, Mode: normalize.Mode(c.mode), TopK: 1})
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d results (%d shared and %d own cases) written to %s", n, len(shared), len(own), path)
}
