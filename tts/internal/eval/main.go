// Command eval measures the speech voices: intelligibility (each English
// voice, at a few speaking rates, speaks a fixed list of sentences split
// into a dev and a sealed part by internal/holdout; two recognizers
// transcribe them, WER per voice; and the same recognizers on human
// recordings of the same kind, to tell the voice's errors from the
// recognizer's), speed (real-time factor and time to first audio for a
// 200-word paragraph, beside the engine's own command line on the same
// text, in the same run), word timings and the cost of a process per
// sentence. It writes docs/bench/tts.md:
//
//	go run ./tts/internal/eval -out docs/bench/tts.md
//
// The recognizers are pocketsphinx_batch (the peer) and Sotto's own asr
// driver "go", both on Debian's en-us model, LM and dictionary. -work keeps
// the audio and the transcripts in a directory, so that a second run
// decodes only what changed.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/normalize"
	"github.com/sottolabs/sotto/tts"
)

var showErrors bool

// fliteVoiceIDs are the flite voices the word-timing table measures.
var fliteVoiceIDs = []string{"builtin:kal16", "builtin:rms", "builtin:slt", "builtin:awb", "builtin:kal"}

func main() {
	out := flag.String("out", "", "write the markdown report to `FILE` (default: standard output)")
	runs := flag.Int("runs", 5, "timing repeats (medians are reported)")
	work := flag.String("work", "", "keep audio and transcripts in `DIR` and reuse them (default: a temporary directory)")
	parts := flag.String("parts", "intel,human,speed,timings,cost", "comma-separated sections to run")
	gridFlag := flag.String("grid", defaultGrid, "comma-separated `driver:voice:stretch` configurations the intelligibility tables measure")
	peerGrid := flag.String("peer-grid", "", "the configurations pocketsphinx_batch transcribes (default: all of -grid)")
	goGrid := flag.String("go-grid", defaultGoGrid, "the configurations package asr transcribes (a subset of -grid: it costs as much CPU as the peer)")
	recs := flag.String("asr", "peer,go", "comma-separated recognizers: peer (pocketsphinx_batch), go (package asr)")
	flag.BoolVar(&showErrors, "show", false, "print the default voice's misrecognized dev sentences to standard error")
	flag.Parse()
	configs, err := parseGrid(*gridFlag)
	if err == nil {
		recognizers[1].only, err = parseGrid(*goGrid)
	}
	if err == nil && *peerGrid != "" {
		recognizers[0].only, err = parseGrid(*peerGrid)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "eval:", err)
		os.Exit(2)
	}
	var chosen []recognizer
	for _, r := range recognizers {
		if slices.Contains(strings.Split(*recs, ","), r.name) {
			chosen = append(chosen, r)
		}
	}
	var w io.Writer = os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	if err := run(context.Background(), w, *runs, *work, strings.Split(*parts, ","), configs, chosen); err != nil {
		fmt.Fprintln(os.Stderr, "eval:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer, runs int, work string, parts []string, configs []config, recs []recognizer) error {
	for _, p := range []string{"flite", "espeak-ng", "pocketsphinx_batch"} {
		if _, err := exec.LookPath(p); err != nil {
			fmt.Fprintf(w, "tts eval skipped: %s is not installed (make deps installs it)\n", p)
			return nil
		}
	}
	dir, err := os.MkdirTemp("", "sotto-tts-eval")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if work == "" {
		work = dir
	} else if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	d, err := loadCMUDict(cmudictPath)
	if err != nil {
		return err
	}
	backends := map[string]tts.Backend{}
	for _, d := range []string{"flite", "espeak-ng"} {
		b, err := tts.Open(ctx, d, backend.Config{})
		if err != nil {
			return err
		}
		defer b.Close()
		backends[d] = b
	}
	var args []string // the flags of this run, without -work and -out
	for i := 1; i < len(os.Args); i++ {
		a := os.Args[i]
		if name := strings.TrimLeft(strings.SplitN(a, "=", 2)[0], "-"); name == "work" || name == "out" {
			if !strings.Contains(a, "=") {
				i++
			}
			continue
		}
		args = append(args, a)
	}
	fmt.Fprintf(w, "## Speech synthesis (tts: Sotto/Flite, Sotto/eSpeak)\n\nReproduce: `go run ./tts/internal/eval -out docs/bench/tts.md %s` (%s, %s/%s, %d CPUs, %s).\n\n",
		strings.Join(args, " "), runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), time.Now().UTC().Format("2006-01-02"))
	if slices.Contains(parts, "intel") {
		if err := intelligibility(ctx, w, work, backends, configs, recs, &d); err != nil {
			return err
		}
	}
	if slices.Contains(parts, "human") {
		if speech, err := testdata.Lookup("speech"); err != nil {
			fmt.Fprintf(w, "(human-recording comparison skipped: %v)\n\n", err)
		} else {
			var hc []config
			for _, c := range configs {
				if c.stretch == 1 && c.driver == "flite" && c.voice == "builtin:"+fliteDefaultName {
					hc = append(hc, c)
				}
			}
			if err := human(ctx, w, work, speech, backends, hc, recs, &d); err != nil {
				return err
			}
		}
	}
	if slices.Contains(parts, "speed") {
		if err := speed(ctx, w, dir, backends, runs); err != nil {
			return err
		}
	}
	if slices.Contains(parts, "timings") {
		if err := timings(ctx, w, backends["flite"]); err != nil {
			return err
		}
	}
	if slices.Contains(parts, "cost") {
		return processCost(ctx, w, runs)
	}
	return nil
}

var benchLine = regexp.MustCompile(`synthesized in ([0-9.]+)`)

// processCost compares a flite process per sentence (what the driver does)
// with flite's own in-process synthesis time for the same sentence (its
// -b benchmark mode times synthesis inside one process, which is what a cgo
// binding would cost), per voice.
func processCost(ctx context.Context, w io.Writer, runs int) error {
	sentence := strings.SplitAfter(paragraph, ". ")[0]
	fmt.Fprintln(w, "### A process per sentence, or cgo?")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "The flite driver runs `flite` once per sentence. The cost of that choice is the process start and voice load, "+
		"measured as the difference between a whole `flite` run on one sentence (%d words) and flite's own in-process synthesis time "+
		"for it (`flite -b`, the time a cgo binding would spend), medians of %d:\n\n", len(strings.Fields(sentence)), 3*runs)
	fmt.Fprintln(w, "| voice | process per sentence | in-process synthesis | start + voice load |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: |")
	for _, v := range []string{"rms", "kal16", "slt", "awb"} {
		var whole, inproc []float64
		for range 3 * runs {
			start := time.Now()
			if err := exec.CommandContext(ctx, "flite", "-voice", v, "-t", sentence, "-o", "none").Run(); err != nil {
				return err
			}
			whole = append(whole, ms(time.Since(start)))
			out, err := exec.CommandContext(ctx, "flite", "-voice", v, "-b", "-t", sentence, "-o", "none").Output()
			if err != nil {
				return err
			}
			ms := benchLine.FindAllStringSubmatch(string(out), -1)
			if len(ms) == 0 {
				return fmt.Errorf("flite -b printed no timing: %s", out)
			}
			var secs float64
			fmt.Sscan(ms[len(ms)-1][1], &secs)
			inproc = append(inproc, secs*1000)
		}
		fmt.Fprintf(w, "| %s | %.0f ms | %.0f ms | %.0f ms |\n", v, median(whole), median(inproc), median(whole)-median(inproc))
	}
	fmt.Fprintln(w)
	return nil
}

var hypLine = regexp.MustCompile(`^(.*?) \((\S+)(?: -?\d+)?\)$`)

func readHyp(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if g := hypLine.FindStringSubmatch(strings.TrimSpace(l)); g != nil {
			m[g[2]] = g[1]
		}
	}
	return m, nil
}

var nonWord = regexp.MustCompile(`[^\p{L}\p{N}' ]+`)

// capsWord is a word in capitals, which normalize writes for letters read
// one by one ("9:30 am" is "nine thirty AM").
var capsWord = regexp.MustCompile(`\b[A-Z]{2,}\b`)

// canon writes numbers as words (normalize, TN), words in capitals as their
// letters, lower-cases and drops punctuation (so "a.m." is "a m" too).
func canon(ctx context.Context, s string) []string {
	if r, err := normalize.Normalize(ctx, s, normalize.Options{Language: "en", TopK: 1}); err == nil {
		s = r.Best()
	}
	s = capsWord.ReplaceAllStringFunc(s, func(w string) string { return strings.Join(strings.Split(w, ""), " ") })
	s = strings.ReplaceAll(strings.ToLower(s), "-", " ")
	return strings.Fields(nonWord.ReplaceAllString(s, " "))
}

// timings compares the word marks of each flite voice (from flite's own
// phone timings) with a forced alignment of the same audio, sentence by
// sentence over the intelligibility list.
func timings(ctx context.Context, w io.Writer, b tts.Backend) error {
	fmt.Fprintln(w, "### Word timings: flite's own phones against forced alignment")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Each flite voice speaks the %d sentences above with word marks on (`tts.Options.Marks`): flite's segment "+
		"timings (`-psdur`) matched with the words' CMU-dictionary pronunciations. The same audio is then aligned with the same "+
		"words by package `align` (Lattice-2, the Sphinx en-us model), and each word's start is compared. *Alignment time* is "+
		"what the alignment costs per sentence (median); deriving the marks from the phones costs far less "+
		"(`go test -bench EngineMarks ./tts`).\n\n", len(items()))
	fmt.Fprintln(w, "| voice | words | engine marks | starts within 50 ms | median abs. difference | alignment time |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: |")
	for _, id := range fliteVoiceIDs {
		v := config{"flite", id, 1}
		var words, engine, near int
		var diffs, tAli []float64
		for _, it := range items() {
			s := it.text
			var marked []tts.Chunk
			err := tts.Speak(ctx, b, s, tts.Options{Voice: v.voice, Marks: true}, func(c tts.Chunk) error { marked = append(marked, c); return nil })
			if err != nil {
				return err
			}
			offset := 0.0
			for _, c := range marked {
				words += len(c.Marks)
				if c.MarksSource != tts.MarksEngine {
					offset += float64(len(c.Samples)) / float64(c.Rate)
					continue
				}
				engine += len(c.Marks)
				t0 := time.Now()
				var text []string
				for _, m := range c.Marks {
					text = append(text, m.Word)
				}
				samples, err := audio.Resample(nil, c.Samples, c.Rate, 16000)
				if err != nil {
					return err
				}
				res, err := align.Align(ctx, sotto.Audio{Samples: samples, SampleRate: 16000}, strings.Join(text, " "),
					align.Options{Language: "en", Sentences: align.SentenceOptions{Disabled: true}})
				tAli = append(tAli, ms(time.Since(t0)))
				if err != nil {
					offset += float64(len(c.Samples)) / float64(c.Rate)
					continue
				}
				var got []float64
				for _, seg := range res.Segments {
					for _, aw := range seg.Words {
						got = append(got, aw.Start+offset)
					}
				}
				if len(got) == len(c.Marks) {
					for i, m := range c.Marks {
						d := math.Abs(m.Start - got[i])
						diffs = append(diffs, d*1000)
						if d <= 0.05 {
							near++
						}
					}
				}
				offset += float64(len(c.Samples)) / float64(c.Rate)
			}
		}
		fmt.Fprintf(w, "| %s | %d | %d | %.1f %% (%d of %d) | %.0f ms | %.0f ms |\n", v.voice, words, engine,
			100*float64(near)/float64(max(len(diffs), 1)), near, len(diffs), median(diffs), median(tAli))
	}
	fmt.Fprintln(w)
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
