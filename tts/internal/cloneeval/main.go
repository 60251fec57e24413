// Command cloneeval measures the voice-cloning model (tts driver "clone",
// catalog Sotto/Clone): for several speakers' recordings from the shared
// test data it clones the voice with each recipe, speaks fixed sentences,
// and reports the speaker similarity (Lattice-1 embeddings, the speaker
// package's "go" driver) of the base voice and of the converted voice to
// the reference recording, and the word error rate of both through
// pocketsphinx_batch.
//
//	go run ./tts/internal/cloneeval > /tmp/clone.md
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/holdout"
	"github.com/sottolabs/sotto/internal/wer"
	"github.com/sottolabs/sotto/speaker"
	"github.com/sottolabs/sotto/tts"
)

// speakers are reference recordings of different speakers (LibriSpeech,
// LJ Speech, CMU ARCTIC, JFK), each with at least 3 s of speech. Each
// belongs to the dev or the sealed part by internal/holdout on its name.
var speakers = []string{
	"en_lj_LJ001-0004", "en_arctic_aew_a0002", "en_jfk",
	"en_ls_1088-129236-0000", "en_ls_1089-134686-0000", "en_ls_118-121721-0000",
	"en_ls_1183-124566-0000", "en_ls_1355-39947-0000", "en_ls_2007-132570-0000", "en_ls_201-122255-0000",
	"en_ls_1363-135842-0000", "en_ls_1455-134435-0000", "en_ls_1624-142933-0000", "en_ls_1995-1837-0001",
	"en_ls_233-134440-0000", "en_ls_2391-145015-0000", "en_ls_2412-153948-0000",
}

// sentences are Harvard sentences (list 2), not the clone driver's
// calibration text.
var sentences = []string{
	"The boy was there when the sun rose.",
	"A rod is used to catch pink salmon.",
	"The source of the huge river is the clear spring.",
	"Kick the ball straight and follow through.",
}

func main() {
	data := flag.String("testdata", envOr("SOTTO_TESTDATA", "../shared/testdata"), "the shared test data")
	acoustic := flag.String("acoustic", "/usr/share/pocketsphinx/model/en-us/en-us", "Lattice-1's acoustic model directory")
	base := flag.String("base", "builtin:kal16", "base voice of the controllable recipe")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, *data, *acoustic, *base); err != nil {
		fmt.Fprintln(os.Stderr, "cloneeval:", err)
		os.Exit(1)
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

type row struct {
	name                string
	recipe, voice       string
	before, after       float64
	report              tts.CloneReport
	baseWords, convWord []string
}

func run(ctx context.Context, w io.Writer, data, acoustic, baseVoice string) error {
	b, err := tts.Open(ctx, "clone", backend.Config{})
	if err != nil {
		return err
	}
	cl := b.(tts.Cloner)
	emb, err := speaker.Open(ctx, "go", backend.Config{Options: map[string]string{speaker.OptAcousticDir: acoustic}})
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "cloneeval")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	text := strings.Join(sentences, " ")
	var rows []row
	var ids []string
	refText := map[string]string{}
	var skipped []string // references too short to clone
	cpu0 := time.Now()
	for _, name := range speakers {
		ref, _, err := audio.DecodeFile(ctx, filepath.Join(data, "speech", name+"_16k.wav"), audio.Options{})
		if err != nil {
			return err
		}
		prof, err := tts.AnalyzeVoice(ctx, ref.Samples, ref.Rate(), "file")
		if errors.Is(err, sotto.ErrUnsatisfiable) {
			skipped = append(skipped, fmt.Sprintf("%s (%v)", name, err))
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		refVec, err := emb.Embed(ctx, ref)
		if err != nil {
			return err
		}
		for _, recipe := range []string{tts.RecipeControllable, tts.RecipeUltimate} {
			cv, err := cl.Clone(ctx, tts.CloneOptions{Reference: prof, Recipe: recipe, BaseVoice: baseVoice, Language: "en"})
			if err != nil {
				return err
			}
			r := row{name: name, recipe: recipe, report: cv.Report()}
			r.voice = r.report.BaseVoice
			for k, bk := range []tts.Backend{b, cv} {
				voice := r.voice
				if k == 1 {
					voice = cv.Voice().ID
				}
				x, err := speak(ctx, bk, text, voice)
				if err != nil {
					return err
				}
				v, err := emb.Embed(ctx, sotto.Audio{Samples: x, SampleRate: 16000})
				if err != nil {
					return err
				}
				sim, err := speaker.Similarity(f64(refVec), f64(v))
				if err != nil {
					return err
				}
				if k == 0 {
					r.before = sim
				} else {
					r.after = sim
				}
				// Per-sentence audio for the recognizer.
				for i, s := range sentences {
					y, err := speak(ctx, bk, s, voice)
					if err != nil {
						return err
					}
					id := fmt.Sprintf("%s_%s_%d_%d", name, recipe, k, i)
					if err := os.WriteFile(filepath.Join(work, id+".raw"), audio.AppendPCM16(nil, y), 0o644); err != nil {
						return err
					}
					ids = append(ids, id)
					refText[id] = s
				}
			}
			rows = append(rows, r)
		}
	}
	elapsed := time.Since(cpu0)
	hyp, err := decode(ctx, work, ids)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Speaker similarity to the reference recording (cosine of Lattice-1 embeddings) of the base voice and of the cloned voice, speaking 4 Harvard sentences; controllable with base voice %s.\n\n", baseVoice)
	fmt.Fprintln(w, "| reference | part | recipe | base voice | α | F0 target Hz | speed | similarity before | after |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	med := map[string][2][]float64{} // recipe + " " + part
	for _, r := range rows {
		part := holdout.Part(r.name)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %.3f | %.0f | %.2f | %.3f | %.3f |\n", r.name, part, r.recipe, r.voice, r.report.Alpha, r.report.F0Target, r.report.Speed, r.before, r.after)
		for _, k := range []string{r.recipe + " all", r.recipe + " " + part} {
			m := med[k]
			m[0], m[1] = append(m[0], r.before), append(m[1], r.after)
			med[k] = m
		}
	}
	fmt.Fprintln(w, "\n| recipe | part | median similarity before | median after | speakers improved |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- |")
	for _, recipe := range []string{tts.RecipeControllable, tts.RecipeUltimate} {
		for _, part := range []string{"dev", "sealed", "all"} {
			m := med[recipe+" "+part]
			if len(m[0]) == 0 {
				continue
			}
			up := 0
			for i := range m[0] {
				if m[1][i] > m[0][i] {
					up++
				}
			}
			fmt.Fprintf(w, "| %s | %s | %.3f | %.3f | %d of %d |\n", recipe, part, median(m[0]), median(m[1]), up, len(m[0]))
		}
	}
	fmt.Fprintln(w, "\nWord error rate through `pocketsphinx_batch` (Debian's en-us model and LM) over the same sentences, every speaker:")
	fmt.Fprintln(w, "\n| recipe | base voice WER | cloned WER |")
	fmt.Fprintln(w, "| --- | --- | --- |")
	for _, recipe := range []string{tts.RecipeControllable, tts.RecipeUltimate} {
		var errs, words [2]int
		for _, id := range ids {
			if !strings.Contains(id, "_"+recipe+"_") {
				continue
			}
			k := 0
			if strings.Contains(id, "_"+recipe+"_1_") {
				k = 1
			}
			r, h := tokens(refText[id]), tokens(hyp[id])
			errs[k] += wer.Errors(r, h)
			words[k] += len(r)
		}
		fmt.Fprintf(w, "| %s | %.1f %% (%d/%d) | %.1f %% (%d/%d) |\n", recipe, 100*float64(errs[0])/float64(words[0]), errs[0], words[0],
			100*float64(errs[1])/float64(words[1]), errs[1], words[1])
	}
	fmt.Fprintf(w, "\n(%d references, %s wall time on a shared machine.)\n", len(speakers)-len(skipped), elapsed.Round(time.Second))
	for _, s := range skipped {
		fmt.Fprintf(w, "Skipped: %s.\n", s)
	}
	return nil
}

func speak(ctx context.Context, b tts.Backend, text, voice string) ([]float32, error) {
	var x []float32
	rate := 0
	err := tts.Speak(ctx, b, text, tts.Options{Voice: voice, Language: "en"}, func(c tts.Chunk) error {
		x = append(x, c.Samples...)
		rate = c.Rate
		return nil
	})
	if err != nil || rate == 16000 {
		return x, err
	}
	return audio.Resample(nil, x, rate, 16000)
}

func f64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

func decode(ctx context.Context, dir string, ids []string) (map[string]string, error) {
	ctl := filepath.Join(dir, "all.ctl")
	hyp := filepath.Join(dir, "all.hyp")
	if err := os.WriteFile(ctl, []byte(strings.Join(ids, "\n")+"\n"), 0o644); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, "pocketsphinx_batch", "-ctl", ctl, "-cepdir", dir, "-cepext", ".raw",
		"-adcin", "yes", "-adchdr", "0", "-hyp", hyp, "-logfn", filepath.Join(dir, "ps.log"))
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pocketsphinx_batch: %v: %s", err, b)
	}
	b, err := os.ReadFile(hyp)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		i := strings.LastIndex(line, " (")
		if i < 0 {
			continue
		}
		id := strings.Fields(line[i+2:])[0]
		out[id] = line[:i]
	}
	return out, nil
}

func tokens(s string) []string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r == '\'' || r == ' ' {
			return r
		}
		return ' '
	}, s)
	return strings.Fields(s)
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
