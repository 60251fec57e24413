// Command eval measures the speech voices: intelligibility (each English
// voice speaks a fixed list of sentences, a recognizer transcribes them,
// WER per voice) and speed (real-time factor and time to first audio for a
// 200-word paragraph, beside the engine's own command line on the same
// text, in the same run). It writes docs/bench/tts.md:
//
//	go run ./tts/internal/eval -out docs/bench/tts.md
//
// The recognizer is pocketsphinx_batch on Debian's en-us model (the peer),
// until Sotto's own recognizer is the default.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/normalize"
	"github.com/sottolabs/sotto/tts"
)

// sentences are the first two lists of the Harvard sentences (IEEE
// Recommended Practice for Speech Quality Measurements, 1969; public
// domain), the usual intelligibility material, plus five everyday sentences
// with numbers, money and times that exercise text normalization.
var sentences = []string{
	"The birch canoe slid on the smooth planks.",
	"Glue the sheet to the dark blue background.",
	"It's easy to tell the depth of a well.",
	"These days a chicken leg is a rare dish.",
	"Rice is often served in round bowls.",
	"The juice of lemons makes fine punch.",
	"The box was thrown beside the parked truck.",
	"The hogs were fed chopped corn and garbage.",
	"Four hours of steady work faced us.",
	"A large size in stockings is hard to sell.",
	"The boy was there when the sun rose.",
	"A rod is used to catch pink salmon.",
	"The source of the huge river is the clear spring.",
	"Kick the ball straight and follow through.",
	"Help the woman get back to her feet.",
	"A pot of tea helps to pass the evening.",
	"Smoky fires lack flame and heat.",
	"The soft cushion broke the man's fall.",
	"The salt breeze came across from the sea.",
	"The girl at the booth sold fifty bonds.",
	"The meeting starts at 9:30 am on Monday.",
	"The ticket costs $12.50 at the door.",
	"Please call me back as soon as you get this message.",
	"Turn off the lights in the kitchen and lock the front door.",
	"We drove 25 miles to see the 3 little ducks.",
	// Everyday sentences (the peer study's list in ../shared/research).
	"The quick brown fox jumps over the lazy dog.",
	"The weather will be sunny tomorrow with a high of seventy degrees.",
	"I would like to book a table for two people at eight o'clock.",
}

// groups splits sentences for the report: the Harvard lists, then the
// everyday ones.
var groups = []struct {
	name     string
	from, to int
}{{"Harvard 1–2", 0, 20}, {"everyday", 20, 28}, {"all", 0, 28}}

// paragraph is about 200 words of ordinary prose for the speed figures.
var paragraph = strings.Repeat("The old lighthouse stood at the end of the harbor, where the road gave way to sand and stone. "+
	"Every evening the keeper climbed the narrow stairs, lit the lamp, and watched the boats come home. "+
	"Some nights the fog rolled in so thick that the beam seemed to stop a few yards from the glass. "+
	"On those nights he rang the bell by hand, once every minute, until the last boat was tied up safely. ", 2)

var showErrors bool

type voiceRun struct {
	driver, voice string
}

var voices = []voiceRun{
	{"flite", "builtin:kal16"}, {"flite", "builtin:rms"}, {"flite", "builtin:slt"}, {"flite", "builtin:awb"}, {"flite", "builtin:kal"},
	{"espeak-ng", "builtin:en-us"}, {"espeak-ng", "builtin:en-us+klatt"}, {"espeak-ng", "builtin:en-gb"},
}

func main() {
	out := flag.String("out", "", "write the markdown report to `FILE` (default: standard output)")
	runs := flag.Int("runs", 5, "timing repeats (medians are reported)")
	only := flag.String("voices", "", "comma-separated voice IDs to evaluate (default: all)")
	flag.BoolVar(&showErrors, "show", false, "print each misrecognized sentence to standard error")
	flag.Parse()
	if *only != "" {
		voices = slices.DeleteFunc(voices, func(v voiceRun) bool { return !slices.Contains(strings.Split(*only, ","), v.voice) })
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
	if err := run(context.Background(), w, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "eval:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer, runs int) error {
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
	backends := map[string]tts.Backend{}
	for _, d := range []string{"flite", "espeak-ng"} {
		b, err := tts.Open(ctx, d, backend.Config{})
		if err != nil {
			return err
		}
		defer b.Close()
		backends[d] = b
	}
	fmt.Fprintf(w, "## Speech synthesis (tts: Sotto/Flite, Sotto/eSpeak)\n\nReproduce: `go run ./tts/internal/eval -out docs/bench/tts.md` (%s, %s/%s, %d CPUs, %s).\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), time.Now().UTC().Format("2006-01-02"))
	if err := intelligibility(ctx, w, dir, backends); err != nil {
		return err
	}
	if err := speed(ctx, w, dir, backends, runs); err != nil {
		return err
	}
	if err := timings(ctx, w, backends["flite"]); err != nil {
		return err
	}
	return processCost(ctx, w, runs)
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

// intelligibility synthesizes every sentence with every voice, decodes all
// of them in one pocketsphinx_batch run and reports WER per voice.
func intelligibility(ctx context.Context, w io.Writer, dir string, backends map[string]tts.Backend) error {
	utt := filepath.Join(dir, "utt")
	if err := os.MkdirAll(utt, 0o755); err != nil {
		return err
	}
	var ids []string
	for vi, v := range voices {
		for si, s := range sentences {
			var samples []float32
			rate := 0
			err := tts.Speak(ctx, backends[v.driver], s, tts.Options{Voice: v.voice, Language: "en"}, func(c tts.Chunk) error {
				samples, rate = append(samples, c.Samples...), c.Rate
				return nil
			})
			if err != nil {
				return fmt.Errorf("%s %s: %w", v.driver, v.voice, err)
			}
			if rate != 16000 {
				if samples, err = audio.Resample(nil, samples, rate, 16000); err != nil {
					return err
				}
			}
			id := fmt.Sprintf("v%02d_s%02d", vi, si)
			raw := audio.AppendPCM16(nil, samples)
			if err := os.WriteFile(filepath.Join(utt, id+".raw"), raw, 0o644); err != nil {
				return err
			}
			ids = append(ids, id)
		}
	}
	ctl := filepath.Join(dir, "all.ctl")
	hyp := filepath.Join(dir, "all.hyp")
	if err := os.WriteFile(ctl, []byte(strings.Join(ids, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "pocketsphinx_batch", "-ctl", ctl, "-cepdir", utt, "-cepext", ".raw",
		"-adcin", "yes", "-adchdr", "0", "-hyp", hyp, "-logfn", filepath.Join(dir, "ps.log"))
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pocketsphinx_batch: %v: %s", err, out)
	}
	hyps, err := readHyp(hyp)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "### Intelligibility")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Each voice speaks %d sentences (Harvard lists 1–2 and five everyday sentences with numbers, money and times, "+
		"spoken through Sotto's text normalization), resampled to 16 kHz and transcribed by `pocketsphinx_batch` "+
		"(Debian en-us model, LM and dictionary) in one run. WER = (substitutions + deletions + insertions) / reference words, "+
		"both sides lower-cased, punctuation removed and numbers written as words with `normalize` (TN). The recognizer's own "+
		"errors are part of every figure: this is a round-trip regression number, not a listening test.\n\n", len(sentences))
	fmt.Fprint(w, "| engine | voice |")
	for _, g := range groups {
		fmt.Fprintf(w, " WER %s (words) |", g.name)
	}
	fmt.Fprint(w, "\n| --- | --- |")
	for range groups {
		fmt.Fprint(w, " ---: |")
	}
	fmt.Fprintln(w)
	for vi, v := range voices {
		fmt.Fprintf(w, "| %s | %s |", v.driver, v.voice)
		for _, g := range groups {
			words, errs := wer(ctx, vi, v, sentences[g.from:g.to], g.from, hyps, g.name == "all")
			fmt.Fprintf(w, " %.1f %% (%d) |", 100*float64(errs)/float64(words), words)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	return nil
}

// wer counts reference words and errors of voice vi over sents (whose
// first index in sentences is first).
func wer(ctx context.Context, vi int, v voiceRun, sents []string, first int, hyps map[string]string, show bool) (words, errs int) {
	for k, s := range sents {
		ref := canon(ctx, s)
		h := canon(ctx, hyps[fmt.Sprintf("v%02d_s%02d", vi, first+k)])
		e := editDistance(ref, h)
		words, errs = words+len(ref), errs+e
		if show && showErrors && e > 0 {
			fmt.Fprintf(os.Stderr, "%s %d errors\n  ref %s\n  hyp %s\n", v.voice, e, strings.Join(ref, " "), strings.Join(h, " "))
		}
	}
	return words, errs
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

// canon lower-cases s, writes numbers as words and drops punctuation.
func canon(ctx context.Context, s string) []string {
	if r, err := normalize.Normalize(ctx, s, normalize.Options{Language: "en", TopK: 1}); err == nil {
		s = r.Best()
	}
	s = strings.ReplaceAll(strings.ToLower(s), "-", " ")
	return strings.Fields(nonWord.ReplaceAllString(s, " "))
}

func editDistance(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// speed times the paragraph: Sotto's first audio (tts.Speak's first chunk)
// and whole synthesis, beside the engine's command line on the whole text
// and on the first sentence alone.
func speed(ctx context.Context, w io.Writer, dir string, backends map[string]tts.Backend, runs int) error {
	fmt.Fprintln(w, "### Speed")
	fmt.Fprintln(w)
	fmt.Fprintf(w, "A %d-word paragraph (8 sentences), default voice of each engine, median of %d runs in one process on the shared "+
		"machine. *First audio* is when `tts.Speak` delivers its first chunk (the SSE stream sends it at once); the engine's own "+
		"first-sentence time is its command line on the first sentence alone. RTF = synthesis time / audio duration.\n\n",
		len(strings.Fields(paragraph)), runs)
	fmt.Fprintln(w, "| engine | Sotto first audio | engine CLI, first sentence | Sotto whole text | engine CLI, whole text | audio | Sotto RTF | CLI RTF |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	first := strings.SplitAfter(paragraph, ". ")[0]
	for _, e := range []struct{ driver, voice string }{{"flite", "builtin:rms"}, {"espeak-ng", "builtin:en-us"}} {
		var tFirst, tAll, cFirst, cAll []float64
		var secs float64
		for range runs {
			start := time.Now()
			var got bool
			n, rate := 0, 1
			err := tts.Speak(ctx, backends[e.driver], paragraph, tts.Options{Voice: e.voice}, func(c tts.Chunk) error {
				if !got {
					tFirst, got = append(tFirst, ms(time.Since(start))), true
				}
				n, rate = n+len(c.Samples), c.Rate
				return nil
			})
			if err != nil {
				return err
			}
			tAll = append(tAll, ms(time.Since(start)))
			secs = float64(n) / float64(rate)
			for i, text := range []string{first, paragraph} {
				d, err := cli(ctx, dir, e.driver, text)
				if err != nil {
					return err
				}
				if i == 0 {
					cFirst = append(cFirst, d)
				} else {
					cAll = append(cAll, d)
				}
			}
		}
		fmt.Fprintf(w, "| %s (%s) | %.0f ms | %.0f ms | %.0f ms | %.0f ms | %.1f s | %.3f | %.3f |\n", e.driver, e.voice,
			median(tFirst), median(cFirst), median(tAll), median(cAll), secs, median(tAll)/1000/secs, median(cAll)/1000/secs)
	}
	fmt.Fprintln(w)
	return nil
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
		"(`go test -bench EngineMarks ./tts`).\n\n", len(sentences))
	fmt.Fprintln(w, "| voice | words | engine marks | starts within 50 ms | median abs. difference | alignment time |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: |")
	for _, v := range voices {
		if v.driver != "flite" {
			continue
		}
		var words, engine, near int
		var diffs, tAli []float64
		for _, s := range sentences {
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

// cli times the engine's own command line writing a WAV file.
func cli(ctx context.Context, dir, driver, text string) (float64, error) {
	out := filepath.Join(dir, "cli.wav")
	var cmd *exec.Cmd
	if driver == "flite" {
		cmd = exec.CommandContext(ctx, "flite", "-voice", "rms", "-t", text, "-o", out)
	} else {
		cmd = exec.CommandContext(ctx, "espeak-ng", "-v", "en-us", "-w", out, text)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, errors.New(driver + ": " + err.Error() + ": " + stderr.String())
	}
	return ms(time.Since(start)), nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
