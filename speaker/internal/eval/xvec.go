package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/speaker"
)

// The x-vector experiment (-xvecfuse FILE): every dev clip of the five
// conditions is embedded by the driver (sphinx-mllr-v8) and by the Kaldi
// x-vector (speaker.XVector); a clip either refuses is left out of both.
// Both embeddings are stored in FILE (gzip'd gob, reused when present), and
// the EER of each condition is printed for the x-vector alone, the driver
// alone and the fused score w·cos(v8) + (1−w)·cos(x-vector). The sealed
// part is neither embedded nor stored.

var xvecFuse string

func init() {
	flag.StringVar(&xvecFuse, "xvecfuse", "", "experiment: embed every dev clip of the five conditions with the driver and the Kaldi x-vector ($SOTTO_XVECTOR_DIR), store both in this file (gzip'd gob; reused when present), print the EERs of the x-vector, the driver and their fused cosines, and stop")
}

// xvClip is one clip's two embeddings.
type xvClip struct {
	V8, XV []float32
	// XVC is the x-vector averaged over chunks of xvChunk speech frames
	// (speaker.XVector.WithChunks): the same as XV for clips of less
	// speech.
	XVC []float32
}

// xvChunk is the chunk of -xvecfuse's averaged x-vector: the network's
// pooling window and its TDNN context, 4.08 s of speech.
const xvChunk = 408

// xvDump is what -xvecfuse stores.
type xvDump struct {
	Emb    map[string][]xvClip // condKey → the clips both embedded
	Trials map[string][]trial2 // dev trials by list
	// XVSeconds of audio took XVCPU of process CPU time in the x-vector.
	XVSeconds float64
	XVCPU     time.Duration
}

// xvectorDir is $SOTTO_XVECTOR_DIR, else where the catalog's download of
// Sotto/Kaldi-XVector-Callhome puts the model in the default data directory.
func xvectorDir() string {
	if d := os.Getenv("SOTTO_XVECTOR_DIR"); d != "" {
		return d
	}
	return filepath.Join(models.DefaultDataDir(os.Getenv), "models",
		models.SanitizeID("Sotto/Kaldi-XVector-Callhome"), "vosk-model-spk-0.4")
}

// xvectorPresent reports whether dir holds the x-vector network.
func xvectorPresent(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, speaker.XVectorNetFile))
	return err == nil
}

func xvecFusion(ctx context.Context, e *evaluator, path string) error {
	d, err := readXVDump(path)
	if errors.Is(err, os.ErrNotExist) {
		d, err = embedXV(ctx, e)
		if err == nil {
			err = writeXVDump(path, d)
		}
	}
	if err != nil {
		return err
	}
	scoreXV(d)
	return nil
}

func embedXV(ctx context.Context, e *evaluator) (*xvDump, error) {
	x, err := speaker.LoadXVector(xvectorDir())
	if err != nil {
		return nil, err
	}
	xc := x.WithChunks(xvChunk)
	dir, err := testdata.Lookup("speech")
	if err != nil {
		return nil, err
	}
	d := &xvDump{Emb: map[string][]xvClip{}}
	refused := func(err error) bool {
		var se *sotto.Error
		return errors.As(err, &se) && se.Code == speaker.CodeTooLittleSpeech
	}
	d.Trials, err = devSides(dir, func(name string, c condition) error {
		s, err := e.load(name)
		if err != nil {
			return err
		}
		if c.noise {
			s = addNoise(s, name, 20)
		}
		clips := []xvClip{}
		for _, cl := range clipsOf(s, c) {
			a := sotto.Audio{Samples: cl, SampleRate: sotto.SampleRate}
			v8, err := e.b.Embed(ctx, a)
			if refused(err) {
				continue
			}
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			c0 := processCPU()
			xv, err := x.Embed(ctx, a)
			d.XVCPU += processCPU() - c0
			d.XVSeconds += a.Seconds()
			if refused(err) {
				continue
			}
			if err != nil {
				return fmt.Errorf("%s: x-vector: %w", name, err)
			}
			xvc, err := xc.Embed(ctx, a)
			if err != nil {
				return fmt.Errorf("%s: chunked x-vector: %w", name, err)
			}
			clips = append(clips, xvClip{V8: v8, XV: xv, XVC: xvc})
		}
		d.Emb[condKey(name, c)] = clips
		return nil
	}, func(set string) { fmt.Fprintf(os.Stderr, "%s: %d embeddings so far\n", set, len(d.Emb)) })
	if err != nil {
		return nil, err
	}
	return d, nil
}

func readXVDump(path string) (*xvDump, error) {
	var d xvDump
	if err := readGob(path, &d); err != nil {
		return nil, err
	}
	return &d, nil
}

func writeXVDump(path string, d *xvDump) error { return writeGob(path, d) }

func cos32(a, b []float32) float64 {
	var s, na, nb float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return s / math.Sqrt(na*nb)
}

// scoreXV prints, for each weight of the driver's cosine, the dev EER of
// the five conditions (both lists together).
func scoreXV(d *xvDump) {
	sets := make([]string, 0, len(d.Trials))
	for s := range d.Trials {
		sets = append(sets, s)
	}
	sort.Strings(sets)
	fmt.Printf("x-vector: %.1f s of audio in %.2f s of process CPU: real-time factor %.4f\n",
		d.XVSeconds, d.XVCPU.Seconds(), d.XVCPU.Seconds()/max(d.XVSeconds, 1e-9))
	fmt.Printf("%-24s %s\n", "dev EER %", "whole / 6 s / 3 s / B noisy / 3 s B noisy")
	var pairs []string // targets / pairs of each condition
	defer func() { fmt.Printf("%-24s %s\n", "targets / pairs", strings.Join(pairs, ", ")) }()
	type fv struct {
		w     float64
		chunk bool
	}
	var fvs []fv
	for _, w := range []float64{0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1} {
		fvs = append(fvs, fv{w, false})
	}
	if hasChunks(d) {
		for _, w := range []float64{0, 0.4, 0.5, 0.6} {
			fvs = append(fvs, fv{w, true})
		}
	}
	for _, f := range fvs {
		w := f.w
		name := fmt.Sprintf("w %.1f", w)
		switch w {
		case 0:
			name = "x-vector alone"
		case 1:
			name = "v8 alone"
		}
		if f.chunk {
			name += ", chunked"
		}
		var out []string
		for _, c := range evalConditions {
			ca := c
			ca.noise = false
			var sc []score
			for _, set := range sets {
				for _, t := range d.Trials[set] {
					for _, x := range d.Emb[condKey(t.A, ca)] {
						for _, y := range d.Emb[condKey(t.B, c)] {
							xa, xb := x.XV, y.XV
							if f.chunk {
								xa, xb = x.XVC, y.XVC
							}
							s := w*cos32(x.V8, y.V8) + (1-w)*cos32(xa, xb)
							sc = append(sc, score{s, t.Same})
						}
					}
				}
			}
			rate, _ := eer(sc)
			out = append(out, fmt.Sprintf("%.1f", 100*rate))
			if w == 1 && !f.chunk {
				tg := 0
				for _, x := range sc {
					if x.same {
						tg++
					}
				}
				pairs = append(pairs, fmt.Sprintf("%d / %d", tg, len(sc)))
			}
		}
		fmt.Printf("%-24s %s\n", name, strings.Join(out, " / "))
	}
}

// hasChunks reports whether d holds the chunked x-vectors (dumps written
// before they were added do not).
func hasChunks(d *xvDump) bool {
	for _, cl := range d.Emb {
		for _, c := range cl {
			return len(c.XVC) > 0
		}
	}
	return false
}
