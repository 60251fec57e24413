package asr

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/asr/internal/debtext"
	"github.com/sottolabs/sotto/asr/internal/evalset"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/decoder"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/internal/wer"
	"github.com/sottolabs/sotto/normalize"
)

// sweepPoint is one setting of the lattice rescoring: language weight,
// word insertion probability, the second model's weight λ and the
// posterior scale.
type sweepPoint struct{ lw, wip, lambda, ps float64 }

func (p sweepPoint) String() string {
	return fmt.Sprintf("lw %g wip %g λ %g ps %g", p.lw, p.wip, p.lambda, p.ps)
}

// parseSweep reads "lw=6.5,7.5;wip=0.1,0.2;lm2=0.4,0.5;ps=0.5,1" (a key
// left out keeps the default) and returns every combination, and the
// part and stride ("part=dev;stride=3"; dev and 1 by default).
func parseSweep(spec string) (grid []sweepPoint, part string, stride int, err error) {
	vals := map[string][]float64{"lw": {defaultBestPathLW}, "wip": {defaultBestPathWIP}, "lm2": {defaultLM2Weight}, "ps": {1}}
	part, stride = "dev", 1
	for _, f := range strings.Split(spec, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(f), "=")
		if !ok {
			return nil, "", 0, fmt.Errorf("%q: want key=values", f)
		}
		switch k {
		case "part":
			if v != "dev" && v != "sealed" {
				return nil, "", 0, fmt.Errorf("part %q: want dev or sealed", v)
			}
			part = v
			continue
		case "stride":
			if stride, err = strconv.Atoi(v); err != nil || stride < 1 {
				return nil, "", 0, fmt.Errorf("stride %q", v)
			}
			continue
		case "lw", "wip", "lm2", "ps":
		default:
			return nil, "", 0, fmt.Errorf("unknown key %q", k)
		}
		vals[k] = nil
		for _, s := range strings.Split(v, ",") {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, "", 0, fmt.Errorf("%s %q: %v", k, s, err)
			}
			vals[k] = append(vals[k], x)
		}
	}
	for _, lw := range vals["lw"] {
		for _, wip := range vals["wip"] {
			for _, l := range vals["lm2"] {
				for _, ps := range vals["ps"] {
					grid = append(grid, sweepPoint{lw, wip, l, ps})
				}
			}
		}
	}
	return grid, part, stride, nil
}

func TestParseSweep(t *testing.T) {
	g, part, stride, err := parseSweep("lw=6.5,8.5;lm2=0.3,0.5,0.7;part=sealed;stride=3")
	if err != nil {
		t.Fatal(err)
	}
	if len(g) != 6 || part != "sealed" || stride != 3 {
		t.Fatalf("%v %q %d", g, part, stride)
	}
	if g[0] != (sweepPoint{6.5, defaultBestPathWIP, 0.3, 1}) || g[5] != (sweepPoint{8.5, defaultBestPathWIP, 0.7, 1}) {
		t.Errorf("grid %v", g)
	}
	for _, bad := range []string{"lw", "lw=x", "foo=1", "stride=0", "part=", "part=all"} {
		if _, _, _, err := parseSweep(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// sweepNorm is the eval's text normalization (asr/internal/eval): package
// normalize, then debtext's spelling of the recognizer's words.
func sweepNorm(ctx context.Context, s string) []string {
	if r, err := normalize.Normalize(ctx, s, normalize.Options{Language: "en"}); err == nil {
		s = r.Best()
	}
	return debtext.Words(s)
}

// regionWords returns the non-filler words of a result's words.
func regionWords(ws []decoder.Word) []string {
	var out []string
	for _, w := range ws {
		if !w.Filler {
			out = append(out, w.Text)
		}
	}
	return out
}

// TestLatticeSweep decodes the English recordings of the eval (the shared
// speech test data, one part, every stride-th) once with the default
// options, keeping each region's lattice, and rescores the lattices at
// every setting of SOTTO_SWEEP (see parseSweep), so that a sweep of the
// rescoring's weights costs one decoding; it logs the errors of each
// setting (WER as the eval measures it). It checks that the lattices
// rescored at the defaults give the words the driver emitted. Run:
//
//	SOTTO_SWEEP='lw=6.5,7.5;wip=0.1,0.2;lm2=0.4,0.5;ps=1' go test ./asr -run TestLatticeSweep -v -timeout 0
func TestLatticeSweep(t *testing.T) {
	spec := os.Getenv("SOTTO_SWEEP")
	if spec == "" {
		t.Skip("SOTTO_SWEEP not set")
	}
	grid, part, stride, err := parseSweep(spec)
	if err != nil {
		t.Fatal(err)
	}
	def := sweepPoint{defaultBestPathLW, defaultBestPathWIP, defaultLM2Weight, 1}
	ctx := context.Background()
	recs, err := evalset.List(testdata.Path(t, "speech"), stride, part)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var results []*decoder.Result
	s, err := openSphinxWith(ctx, backend.Config{Options: map[string]string{OptPasses: "3"}}, func(c *decoder.Config) { c.KeepLattice = true })
	if err != nil {
		t.Fatal(err)
	}
	s.onRegion = func(_ int, r *decoder.Result) {
		mu.Lock()
		results = append(results, r)
		mu.Unlock()
	}
	errs := make([]int, len(grid))
	var words, files, regions, noLattice int
	var decodeTime, rescoreTime time.Duration
	for _, rec := range recs {
		base := rec.Name
		a, _, err := audio.DecodeFile(ctx, rec.Wav, audio.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ref := sweepNorm(ctx, rec.Text)
		results = results[:0]
		var emitted []string
		t0 := time.Now()
		err = s.Transcribe(ctx, sotto.Audio{Samples: a.Samples, SampleRate: sotto.SampleRate}, Options{Language: "en"}, func(seg Segment) error {
			emitted = append(emitted, seg.Text)
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		decodeTime += time.Since(t0)
		t0 = time.Now()
		// hyps[i][j]: the words of grid point i in region j.
		hyps := make([][][]string, len(grid))
		var check []string
		for j, r := range results {
			regions++
			var d *decoder.Result
			if r.Lattice != nil {
				d = r.Lattice.Rescore(def.lw, def.wip)
			}
			if d == nil || len(d.Words) == 0 {
				// The decoder fell back to the search's own best path
				// (no lattice, or its rescoring found no path): every
				// setting keeps the region's words.
				noLattice++
				for i := range grid {
					hyps[i] = append(hyps[i], regionWords(r.Words))
				}
				check = append(check, regionWords(r.Words)...)
				continue
			}
			check = append(check, regionWords(d.Words)...)
			var wg sync.WaitGroup
			sem := make(chan struct{}, 2)
			out := make([][]string, len(grid))
			fail := make([]error, len(grid))
			for i, p := range grid {
				wg.Add(1)
				sem <- struct{}{}
				go func() {
					defer wg.Done()
					defer func() { <-sem }()
					rr, err := r.Lattice.RescoreWith(decoder.RescoreSettings{LanguageWeight: p.lw, WordInsertion: p.wip, LM2Weight: p.lambda, PosteriorScale: p.ps})
					if err != nil {
						fail[i] = err
						return
					}
					if len(rr.Words) == 0 {
						rr = r // the decoder's fallback: the search's path
					}
					out[i] = regionWords(rr.Words)
				}()
			}
			wg.Wait()
			for i := range grid {
				if fail[i] != nil {
					t.Fatalf("%s region %d, %v: %v", base, j, grid[i], fail[i])
				}
				hyps[i] = append(hyps[i], out[i])
			}
		}
		rescoreTime += time.Since(t0)
		if got, want := strings.Join(check, " "), strings.Join(emitted, " "); got != want {
			t.Errorf("%s: the lattices rescored at the defaults give %q; the driver emitted %q", base, got, want)
		}
		for i := range grid {
			errs[i] += wer.Errors(ref, sweepNorm(ctx, strings.Join(slices.Concat(hyps[i]...), " ")))
		}
		words += len(ref)
		files++
		t.Logf("%s: %d words, %d regions so far", base, len(ref), regions)
	}
	t.Logf("%s part, stride %d: %d files, %d reference words, %d regions (%d without a lattice); decoding %.0f s, rescoring %.0f s (wall)",
		part, stride, files, words, regions, noLattice, decodeTime.Seconds(), rescoreTime.Seconds())
	for i, p := range grid {
		mark := ""
		if p == def {
			mark = " (default)"
		}
		t.Logf("%v: %d errors, WER %.4f%s", p, errs[i], float64(errs[i])/float64(max(words, 1)), mark)
	}
}
