package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sottolabs/sotto/audio"
)

// result is the evaluation of one recording.
type result struct {
	r *recording

	ours      *childResult // first run
	oursErr   string       // why ours did not align, if it did not
	alignS    []float64    // Align call, per run
	warmS     []float64    // the same Align repeated in the same process, per run
	wallS     []float64    // whole child process, per run
	peakKB    int64        // max over runs
	oursStats boundaryStats
	energy    *energyCheck

	peerRuns  []*peerRun
	peerErr   string
	peerStats boundaryStats
	peerEner  *energyCheck
}

// evaluate aligns every selected recording with both aligners.
func evaluate(ctx context.Context, c config, log io.Writer) ([]*result, error) {
	recs, err := discover(c.dataDir)
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("no recordings with references in %s", c.dataDir)
	}
	var dict cmudict
	if c.peer {
		if dict, err = loadCMUdict(peerDict); err != nil {
			return nil, fmt.Errorf("loading the peer's dictionary: %w", err)
		}
	}
	var out []*result
	for _, r := range recs {
		if !c.only.MatchString(r.Name) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fmt.Fprintf(log, "eval: %s\n", r.Name)
		res, err := evaluateOne(ctx, c, r, dict)
		if err != nil {
			return nil, err
		}
		out = append(out, res)
	}
	if c.long > 0 {
		tmp, err := os.MkdirTemp("", "align-eval-long-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		r, err := buildLong(ctx, recs, c.long, tmp)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(log, "eval: %s (%d words)\n", r.Name, len(r.Tokens))
		lc := c
		lc.runs = 1
		res, err := evaluateOne(ctx, lc, r, dict)
		if err != nil {
			return nil, err
		}
		out = append(out, res)
	}
	return out, nil
}

func evaluateOne(ctx context.Context, c config, r *recording, dict cmudict) (*result, error) {
	res := &result{r: r}
	tmp, err := os.MkdirTemp("", "align-eval-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	textFile := filepath.Join(tmp, "transcript.txt")
	if err := os.WriteFile(textFile, []byte(r.Text), 0o644); err != nil {
		return nil, err
	}
	a, _, err := audio.DecodeFile(ctx, r.Wav, audio.Options{})
	if err != nil {
		return nil, err
	}

	// Ours.
	for i := range c.runs {
		cr, wall, err := alignOurs(ctx, r, textFile)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			res.ours = cr
		}
		if cr.Err != "" {
			res.oursErr = cr.Err
			break
		}
		res.alignS = append(res.alignS, cr.AlignS)
		res.warmS = append(res.warmS, cr.WarmS)
		// The process time leaves out the repeated (warm) call.
		res.wallS = append(res.wallS, wall.Seconds()-cr.WarmS)
		res.peakKB = max(res.peakKB, cr.PeakKB)
	}
	if res.oursErr == "" {
		res.oursStats = score(r, res.ours.Words)
		e := checkEnergy(a.Samples, a.Rate(), res.ours.Words, lineEnds(r, res.ours.Words))
		res.energy = &e
	}

	// The peer (English only: it has the English dictionary).
	switch {
	case !c.peer:
		res.peerErr = "not run"
	case r.Lang != "en":
		res.peerErr = "English dictionary only"
	default:
		pctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
		defer cancel()
		if err := runPeer(pctx, c, r, dict, res); err != nil {
			return nil, err
		}
		if res.peerErr == "" {
			words := tokenSpans(res.peerRuns[0].Words, r.Tokens)
			res.peerStats = score(r, words)
			e := checkEnergy(a.Samples, a.Rate(), words, lineEnds(r, words))
			res.peerEner = &e
		}
	}
	return res, nil
}

func runPeer(ctx context.Context, c config, r *recording, dict cmudict, res *result) error {
	job, err := preparePeer(ctx, r, dict)
	if err != nil {
		return err
	}
	defer os.RemoveAll(job.dir)
	if len(job.missing) > 0 {
		slices.Sort(job.missing)
		res.peerErr = fmt.Sprintf("no pronunciation for %s (not in CMUdict, no phonemizer)", strings.Join(slices.Compact(job.missing), ", "))
		return nil
	}
	wide := false
	for i := range c.runs {
		pr, err := job.run(ctx, wide)
		if err != nil {
			res.peerErr = err.Error()
			return nil
		}
		if len(pr.Words) == 0 && i == 0 && !wide {
			wide = true // default beams found no path: the wide ones, as in the research note
			if pr, err = job.run(ctx, true); err != nil {
				res.peerErr = err.Error()
				return nil
			}
		}
		if len(pr.Words) == 0 {
			res.peerErr = "no path (empty CTM) even with wide beams"
			return nil
		}
		res.peerRuns = append(res.peerRuns, pr)
	}
	return nil
}

// score compares aligned words with the reference of r.
func score(r *recording, words []span) boundaryStats {
	switch r.Set {
	case setMFA, setPS, setLong:
		return wordBoundaries(r, words)
	case setAeneas:
		return lineBoundaries(r, words)
	}
	return boundaryStats{}
}

// lineEnds marks the aligned words that end a line of r.
func lineEnds(r *recording, words []span) []bool {
	idx := match(r.Tokens, words)
	out := make([]bool, len(words))
	for i, j := range idx {
		if j >= 0 && (i+1 == len(r.Tokens) || r.Line[i+1] != r.Line[i]) {
			out[j] = true
		}
	}
	return out
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (r *result) peerWall() []float64 {
	var out []float64
	for _, p := range r.peerRuns {
		out = append(out, p.Wall.Seconds())
	}
	return out
}

func (r *result) peerPeakKB() int64 {
	var m int64
	for _, p := range r.peerRuns {
		m = max(m, p.PeakKB)
	}
	return m
}
