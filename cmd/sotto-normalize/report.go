package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/sottolabs/sotto/normalize"
	eval "github.com/sottolabs/sotto/normalize/normalizetest"
)

// runReport writes docs/bench/normalize.md: accuracy per language, mode and
// class on the shared suites, then throughput on mixed English prose.
func runReport(ctx context.Context, dir string, w io.Writer) error {
	cases, err := eval.Load(dir)
	if err != nil {
		return err
	}
	rep, err := eval.Run(ctx, cases)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "## Text normalization (normalize, Sotto/Skylark)")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Reproduce: `go run ./cmd/sotto-normalize --report ../shared/testdata/text/normalize > docs/bench/normalize.md` "+
		"(%s, %s/%s, %d CPUs, %s).\n\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), time.Now().UTC().Format("2006-01-02"))
	fmt.Fprintln(w, "### Accuracy")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Exact match of the best alternative (rank 0) through the public `normalize.Normalize` API, "+
		"after collapsing white space on both sides (NeMo's own normalizer does the same); a case passes when it "+
		"equals the expected output or any `accepted` one. \"Any of top 8\" counts a case when one of the eight "+
		"ranked alternatives matches (the n-best view NeMo's audio-based suites use); cases marked "+
		"`nondeterministic` (NeMo's `normalize_with_audio` file, asserted upstream against an n-best list) "+
		"count as exact when any of the eight alternatives matches. NeMo TN cases run with "+
		"`Spacing: SpacingSeparate` (NeMo's default spacing around punctuation) unless the case records "+
		"`punct_post_process`, which restores the input's spacing like the default `SpacingKeep`. Unit-test files of "+
		"NeMo-text-processing (`nemo/`) and WeTextProcessing (`wetext/`) per language and mode; the rules follow "+
		"NeMo's conventions where the two suites disagree (e.g. WeTextProcessing's zh ITN keeps `1亿2300`, reads "+
		"`110` as `幺幺零` and depends on normalizer options; its en TN says \"negative\" and \"thousand\"):")
	fmt.Fprintln(w)
	rep.Markdown(w)
	fmt.Fprintln(w)
	strict, err := eval.RunStrict(ctx, cases)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "### Strict scoring, dev and sealed parts")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Scored as a user of `POST /v1/text/normalizations` sees it, the way the project is judged on unseen cases: "+
		"each input through `normalize.Normalize` with only its language and mode (the API's defaults, top_k 1, no spacing "+
		"option), the one answer white-space-collapsed against `expected` or any `accepted` (an input the API refuses, "+
		"an empty one, counts wrong); cases that record upstream "+
		"`options` and the sentence-level sets are left out. A fixed 30 % of every suite is *sealed* (FNV-1a of the input "+
		"mod 100 < 30, `internal/holdout`): rules are developed on the *dev* part only, and sealed failures are never listed "+
		"(`sotto-normalize --strict DIR --failures N` lists dev failures). The sealed part was sealed at the start of issue 10; "+
		"earlier rules had seen it, so its figure became an estimate for unseen text only from then on. Figures before issue "+
		"10's changes: [normalize-split-before.md](normalize-split-before.md); languages served by CLDR's rules: "+
		"[normalize-rbnf.md](normalize-rbnf.md).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Where the suites contradict each other the rules keep one convention, the one most users write, and the "+
		"dev misses it leaves are not rules to add: English money has no \"and\" before the cents and ranges of bare "+
		"numbers keep their dash (NeMo's deterministic files; its audio file, asserted upstream against an n-best list, "+
		"also says \"and one cent\", \"two to five\" and \"two minus eight\"); \"Sam II\" reads \"Sam the second\" as "+
		"NeMo's \"Henry the third\" does; acronyms are spelled and \"April 1\" is \"april first\" (NeMo), not kept or "+
		"\"the first of april\" (WeTextProcessing's normalizer file); Chinese clock minutes below ten have no 零 "+
		"(\"十点四分\", WeTextProcessing) where NeMo's one case says \"两点零二分\" (2 o'clock is 两点 in both); erhua "+
		"removal (\"儿\" → \"\") is a WeTextProcessing option, not a default; German \"0/0\" stays as written.")
	fmt.Fprintln(w)
	strict.Markdown(w, false)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "<details><summary>Per class</summary>")
	fmt.Fprintln(w)
	strict.Markdown(w, true)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "</details>")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "NeMo's published figure for comparison: 81% sentence accuracy (97.4% token accuracy) of its "+
		"deterministic English TN on output-00001-of-00100 of the Google text normalization data "+
		"(NeMo 1.0.0rc1 documentation, docs.nvidia.com/deeplearning/nemo/archives/nemo-100rc1/user-guide/docs/tools/text_normalization.html). "+
		"`GoogleTN` above is NeMo's evaluation file drawn from that data, so the figures are comparable but not "+
		"identical in sample. No published NeMo figure for LibriTTS or EngConf was found.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "### Throughput")
	fmt.Fprintln(w)
	text := strings.Repeat(eval.Prose+"\n", 64)
	opts := normalize.Options{Language: "en", TopK: 1}
	var wallMBs, cpuMBs []float64
	for range 5 {
		n := 0
		w0, c0 := time.Now(), cpuTime()
		for time.Since(w0) < time.Second {
			if _, err := normalize.Normalize(ctx, text, opts); err != nil {
				return err
			}
			n++
		}
		wall, cpu := time.Since(w0), cpuTime()-c0
		mb := float64(n*len(text)) / 1e6
		wallMBs = append(wallMBs, mb/wall.Seconds())
		if cpu > 0 {
			cpuMBs = append(cpuMBs, mb/cpu.Seconds())
		}
	}
	var lat, latCPU []float64
	for _, k := range []int{1, 8} {
		lat, latCPU = lat[:0], latCPU[:0]
		for range 5 {
			n := 0
			w0, c0 := time.Now(), cpuTime()
			for time.Since(w0) < 300*time.Millisecond {
				if _, err := normalize.Normalize(ctx, eval.Prose, normalize.Options{Language: "en", TopK: k}); err != nil {
					return err
				}
				n++
			}
			lat = append(lat, float64(time.Since(w0).Microseconds())/float64(n))
			latCPU = append(latCPU, float64((cpuTime()-c0).Microseconds())/float64(n))
		}
		if k == 1 {
			fmt.Fprintf(w, "- Mixed English prose (%d KB: numbers, dates, money, times, measures), TN, top_k 1, one goroutine: "+
				"**%.2f MB/s per CPU-second** (median of 5 × 1 s; wall-clock %.2f MB/s on the shared machine).\n",
				len(text)/1024, median(cpuMBs), median(wallMBs))
		}
		fmt.Fprintf(w, "- 1 KB paragraph (%d bytes), top_k %d: **%.0f µs CPU** per call (median of 5; wall %.0f µs).\n",
			len(eval.Prose), k, median(latCPU), median(lat))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "CPU-second figures divide the bytes by the process's user+system CPU time (getrusage), so they "+
		"stay meaningful when other jobs share the cores; `go test -bench . ./normalize` gives the wall-clock view.")
	return nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
