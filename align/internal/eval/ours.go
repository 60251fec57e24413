package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
)

// childEnv, when set, makes the program (or the test binary) run one
// alignment as a child process and print a [childResult].
const childEnv = "SOTTO_ALIGN_EVAL_CHILD"

// childResult is what one child process reports.
type childResult struct {
	Words     []span         `json:"words"`
	Err       string         `json:"err,omitempty"`
	Code      string         `json:"code,omitempty"`
	Failure   *align.Failure `json:"failure,omitempty"`
	Effort    string         `json:"effort,omitempty"`
	Retried   bool           `json:"retried,omitempty"`
	Phonemize bool           `json:"phonemize"`
	LoadS     float64        `json:"load_s"`
	AlignS    float64        `json:"align_s"`
	WarmS     float64        `json:"warm_s"` // a second Align of the same request in the same process
	AudioS    float64        `json:"audio_s"`
	PeakKB    int64          `json:"peak_kb"`  // VmHWM of the whole process
	ModelKB   int64          `json:"model_kb"` // VmRSS before the alignment (model and audio loaded)
}

// runChild is the child process: align one file through the public API,
// timing the Align call and reading the peak memory.
func runChild(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("child", flag.ContinueOnError)
	wav := fs.String("audio", "", "audio file")
	textFile := fs.String("text-file", "", "transcript file")
	lang := fs.String("lang", "en", "language")
	if err := fs.Parse(args); err != nil {
		return err
	}
	text, err := os.ReadFile(*textFile)
	if err != nil {
		return err
	}
	var res childResult
	res.Phonemize = align.Phonemize != nil
	t0 := time.Now()
	b, err := align.Open(ctx, "", backend.Config{Model: "Sotto/Lattice-2"})
	if err != nil {
		return err
	}
	defer b.Close()
	a, _, err := audio.DecodeFile(ctx, *wav, audio.Options{})
	if err != nil {
		return err
	}
	res.LoadS = time.Since(t0).Seconds()
	res.AudioS = a.Seconds()
	res.ModelKB = procStatus("VmRSS:")
	t1 := time.Now()
	out, err := b.Align(ctx, a, string(text), align.Options{Language: *lang, TextNormalization: align.DefaultTextNormalization,
		SearchEffort: align.EffortAuto})
	res.AlignS = time.Since(t1).Seconds()
	res.PeakKB = procStatus("VmHWM:")
	if err == nil {
		// The steady state of a server: the model, the g2p processes and
		// (for a repeated transcript) the word cache are warm.
		t2 := time.Now()
		if _, werr := b.Align(ctx, a, string(text), align.Options{Language: *lang, TextNormalization: align.DefaultTextNormalization,
			SearchEffort: align.EffortAuto}); werr == nil {
			res.WarmS = time.Since(t2).Seconds()
		}
	}
	if err != nil {
		res.Err = err.Error()
		var se *sotto.Error
		if errors.As(err, &se) {
			res.Code = se.Code
			switch d := se.Detail.(type) {
			case align.Failure:
				res.Failure = &d
			case *align.Failure:
				res.Failure = d
			}
		}
	} else {
		res.Effort, res.Retried = out.SearchEffortUsed, out.SearchRetried
		for _, s := range out.Segments {
			for _, w := range s.Words {
				res.Words = append(res.Words, span{Start: w.Start, End: w.End, Label: w.Word})
			}
		}
	}
	return json.NewEncoder(stdout).Encode(res)
}

// procStatus reads a "VmXXX:" line of /proc/self/status in KiB, or 0.
func procStatus(key string) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(l, key); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n
			}
		}
	}
	return 0
}

// alignOurs runs the child process for r once and returns its report and
// the wall time of the whole process.
func alignOurs(ctx context.Context, r *recording, textFile string) (*childResult, time.Duration, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, 0, err
	}
	cmd := exec.CommandContext(ctx, exe, "-audio", r.Wav, "-text-file", textFile, "-lang", r.Lang)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err = cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		return nil, wall, fmt.Errorf("aligner child for %s: %v: %s", r.Name, err, strings.TrimSpace(errb.String()))
	}
	var res childResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return nil, wall, fmt.Errorf("aligner child for %s: %v", r.Name, err)
	}
	return &res, wall, nil
}
