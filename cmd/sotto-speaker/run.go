package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/cli"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/internal/progress"
	"github.com/sottolabs/sotto/speaker"
)

const usageText = `usage: sotto-speaker [flags] embed FILE
       sotto-speaker [flags] compare A B
       sotto-speaker [flags] timeline FILE

sotto-speaker describes voices with the pure-Go speaker model of
Sotto/Lattice-1 (method %[1]s): an MLLR transform of the
CMU Sphinx English acoustic model (Debian package pocketsphinx-en-us) fused
with Kaldi's x-vector network (Sotto/Kaldi-XVector-Callhome, 63.5 MB, which
sotto-cli serve downloads at start; --xvector-dir names another copy).
Timelines need only the Debian model; --without-network embeds with it alone,
in another space.

  embed FILE      prints the speaker embedding of FILE as JSON: %[2]d numbers of
                  unit length, and the seconds of speech they describe
  compare A B     prints the similarity of the voices in A and B (cosine of
                  their embeddings, -1..1) and whether it reaches the
                  threshold (--threshold, default %.2[3]f)
  timeline FILE   prints who spoke when, as RTTM lines (default) or JSON

FILE is WAV, MP3 or FLAC (other containers need ffmpeg on PATH), any sample
rate; stereo is mixed down unless --channel picks one. FILE "-" (one of A and
B at most) reads standard input.

What the numbers mean:
  * An embedding needs at least %.1[4]f s of speech (pauses do not count); shorter
    input is refused. Longer is better: on read speech (docs/bench/speaker.md),
    3 s clips give about 4-6 %% equal error rate, whole utterances (5-30 s)
    about 2-3 %%, and white noise at 20 dB on one side about 4-5 %%.
  * A similarity does not decide who someone is. At the default threshold,
    measured on whole utterances of read speech, about 1-2 %% of pairs of
    different speakers are accepted and 1-3 %% of pairs of the same speaker
    rejected; for 3 s clips use --threshold %.2[5]f (about 3 %% accepted,
    4-13 %% rejected). Noise, other microphones and sessions make all of it
    worse. Raise the threshold to accept fewer strangers, lower it to reject
    fewer true pairs.
  * Embeddings of different methods or models are not comparable.

Timelines: voice activity finds the speech; 0.5 s blocks of it, each seen
through a 2.5 s window, are embedded, clustered (into --speakers groups, or
into the number estimated from the eigengap of the windows' similarity graph
when it is not given) and refined. Speakers are named S1, S2, ... in order of appearance.
Overlapping speech is given to one speaker. A timeline takes about 4 s a
minute of audio on two cores; for a minute of audio or more it says so on
standard error first when that is a terminal.

Examples:
  sotto-speaker embed interview.wav > a.json
  sotto-speaker compare --start 0 --end 20 call.wav voicemail.mp3
  sotto-speaker timeline --speakers 2 meeting.flac > meeting.rttm
  sotto-speaker timeline -f json meeting.flac

Exit status: 0 success (for compare also when the voices differ), 1 the
audio could not be read or held too little speech, 2 usage error, 130
interrupted (Ctrl-C).

Flags:
`

// usageError marks an error in the command line (exit status 2).
type usageError = cli.UsageError

var usagef = cli.Usagef

func exitCode(err error) int {
	if errors.As(err, new(usageError)) {
		return 2
	}
	return 1
}

type config struct {
	cmd          string
	files        []string
	acousticDir  string
	format       string
	threshold    float64
	speakers     int
	maxSpeakers  int
	channel      string
	track        int
	start, end   float64
	startB       float64
	endB         float64
	onnxModel    string
	xvectorDir   string // --xvector-dir, else $SOTTO_XVECTOR_DIR, else the data directory's download
	xvectorSet   bool   // the directory was named (flag or environment), not the default
	v8Only       bool   // --without-network
	thresholdSet bool
}

func parseArgs(args []string, stdout io.Writer) (*config, error) {
	fs := pflag.NewFlagSet("sotto-speaker", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	c := &config{}
	fs.StringVarP(&c.format, "format", "f", "", "timeline output: rttm (default) or json")
	fs.IntVar(&c.speakers, "speakers", 0, "timeline: the number of speakers, when known (0 = estimate)")
	fs.IntVar(&c.maxSpeakers, "max-speakers", 0, fmt.Sprintf("timeline: at most this many speakers when estimating (0 = %d)", speaker.DefaultMaxSpeakers))
	fs.Float64Var(&c.threshold, "threshold", speaker.FusedVerifyThreshold, "compare: similarity at and above which the voices count as the same")
	fs.Float64Var(&c.start, "start", 0, "use the audio from this second (FILE, or A for compare)")
	fs.Float64Var(&c.end, "end", 0, "use the audio up to this second (0 = to the end)")
	fs.Float64Var(&c.startB, "start-b", 0, "compare: --start for B")
	fs.Float64Var(&c.endB, "end-b", 0, "compare: --end for B")
	fs.StringVar(&c.channel, "channel", "", "audio channel: mix (default) or a channel number from 0")
	fs.IntVar(&c.track, "track", 0, "audio track of a container with several (from 0)")
	fs.StringVar(&c.acousticDir, "acoustic-dir", "", "directory of the Sphinx acoustic model (default: the Debian en-us model)")
	fs.StringVar(&c.xvectorDir, "xvector-dir", os.Getenv("SOTTO_XVECTOR_DIR"), "embed, compare: directory of the speaker network (Sotto/Kaldi-XVector-Callhome: final.ext.raw, mean.vec,\ntransform.mat, mfcc.conf; env SOTTO_XVECTOR_DIR; default: where sotto-cli serve downloads it, under\n$SOTTO_DATA_DIR or ~/.local/share/sotto)")
	fs.BoolVar(&c.v8Only, "without-network", false, "embed, compare: embed with the Debian acoustic model alone (method "+speaker.Method+"; not comparable\nwith the service's Sotto/Lattice-1 embeddings; its threshold is "+fmt.Sprintf("%.2f", speaker.VerifyThreshold)+")")
	fs.StringVar(&c.onnxModel, "onnx-model", "", "use a WeSpeaker ONNX network from `FILE` instead of the pure-Go model (builds with -tags onnx; its threshold is not --threshold's default)")
	help := fs.BoolP("help", "h", false, "show this help")
	if err := fs.Parse(args); err != nil {
		return nil, usagef("%v", err)
	}
	c.thresholdSet = fs.Changed("threshold")
	c.xvectorSet = c.xvectorDir != ""
	if !c.xvectorSet {
		c.xvectorDir = defaultXVectorDir()
	}
	if *help {
		fmt.Fprintf(stdout, usageText, speaker.MethodFused, speaker.Dim, speaker.FusedVerifyThreshold, speaker.MinSpeech, speaker.FusedShortClipThreshold)
		fmt.Fprint(stdout, fs.FlagUsages())
		return nil, nil
	}
	rest := fs.Args()
	if len(rest) == 0 {
		return nil, usagef("a command is required: embed, compare or timeline")
	}
	c.cmd, c.files = rest[0], rest[1:]
	want := map[string]int{"embed": 1, "compare": 2, "timeline": 1}
	n, ok := want[c.cmd]
	switch {
	case !ok:
		return nil, usagef("unknown command %q: embed, compare or timeline", c.cmd)
	case len(c.files) != n:
		return nil, usagef("%s takes %d file(s), got %d", c.cmd, n, len(c.files))
	case n == 2 && c.files[0] == cli.StdinName && c.files[1] == cli.StdinName:
		return nil, usagef("compare reads standard input (\"-\") for one file at most")
	case c.format != "" && c.format != "rttm" && c.format != "json":
		return nil, usagef("--format must be rttm or json, not %q", c.format)
	case c.format != "" && c.cmd != "timeline":
		return nil, usagef("--format applies to timeline only")
	case c.start < 0 || c.end < 0 || (c.end > 0 && c.end <= c.start):
		return nil, usagef("--start and --end need 0 <= start < end")
	case c.startB < 0 || c.endB < 0 || (c.endB > 0 && c.endB <= c.startB):
		return nil, usagef("--start-b and --end-b need 0 <= start < end")
	case !(c.threshold >= -1 && c.threshold <= 1):
		// A cosine lies in -1..1: a threshold outside (or NaN) gives the
		// same verdict for every pair.
		return nil, usagef("--threshold %g is outside -1..1, the range of a similarity", c.threshold)
	}
	if err := (speaker.TimelineOptions{Speakers: c.speakers, MaxSpeakers: c.maxSpeakers}).Validate(); err != nil {
		return nil, usagef("%v", flagNames.Rename(err))
	}
	if _, err := audio.ParseChannel(c.channel); err != nil {
		return nil, usagef("%v", flagNames.Rename(err))
	}
	return c, nil
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	c, err := parseArgs(args, stdout)
	if err != nil || c == nil {
		return err
	}
	cfg := backend.Config{Model: "Sotto/Lattice-1", Options: map[string]string{}}
	driver := "go"
	if c.acousticDir != "" {
		cfg.Options[speaker.OptAcousticDir] = c.acousticDir
	}
	if c.cmd != "timeline" && !c.v8Only && c.onnxModel == "" {
		// Embeddings in the space of the service's Sotto/Lattice-1 need
		// its speaker network; timelines do not.
		if err := c.checkNetwork(); err != nil {
			return err
		}
		cfg.Options[speaker.OptXVectorDir] = c.xvectorDir
	} else if c.v8Only && !c.thresholdSet {
		c.threshold = speaker.VerifyThreshold
	}
	if c.onnxModel != "" {
		driver, cfg = "wespeaker", backend.Config{Model: "Sotto/WeSpeaker-ResNet34", Options: map[string]string{speaker.OptModelFile: c.onnxModel}}
	}
	b, err := speaker.Open(ctx, driver, cfg)
	if err != nil {
		return err
	}
	defer b.Close()
	// load decodes file p and cuts the window start..end out of it;
	// startFlag and endFlag are the flags that gave them, for the errors.
	load := func(p string, start, end float64, startFlag, endFlag string) (sotto.Audio, error) {
		a, info, err := cli.DecodeAudio(ctx, p, stdin, audio.Options{Track: c.track, Channel: c.channel})
		if err != nil {
			return a, cli.InFile(p, flagNames.Rename(err))
		}
		if info.Truncated {
			fmt.Fprintf(stderr, "sotto-speaker: warning: %s is cut off %s; using the %v that are there\n", p, info.TruncationNote(), info.Duration.Round(time.Millisecond))
		}
		if start > 0 && start >= a.Seconds() {
			return a, fmt.Errorf("%s: %s %g is at or after the end of the audio (%.2f s)", p, startFlag, start, a.Seconds())
		}
		i := min(len(a.Samples), int(start*float64(a.Rate())))
		j := len(a.Samples)
		if end > 0 {
			if end > a.Seconds()+1e-6 {
				return a, fmt.Errorf("%s: %s %g is after the end of the audio (%.2f s)", p, endFlag, end, a.Seconds())
			}
			j = min(j, int(end*float64(a.Rate())))
		}
		a.Samples = a.Samples[i:j]
		return a, nil
	}
	embed := func(p string, start, end float64, startFlag, endFlag string) (*speaker.Embedding, error) {
		a, err := load(p, start, end, startFlag, endFlag)
		if err != nil {
			return nil, err
		}
		e, err := speaker.EmbedDetail(ctx, b, a)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		return e, nil
	}
	switch c.cmd {
	case "embed":
		e, err := embed(c.files[0], c.start, c.end, "--start", "--end")
		if err != nil {
			return err
		}
		return writeJSON(stdout, map[string]any{"file": c.files[0], "method": e.Method, "speech_seconds": e.SpeechSeconds, "embedding": e.Vector})
	case "compare":
		ea, err := embed(c.files[0], c.start, c.end, "--start", "--end")
		if err != nil {
			return err
		}
		eb, err := embed(c.files[1], c.startB, c.endB, "--start-b", "--end-b")
		if err != nil {
			return err
		}
		sim, err := speaker.Similarity(f64(ea.Vector), f64(eb.Vector))
		if err != nil {
			return err
		}
		verdict := "below the threshold: probably different speakers"
		if sim >= c.threshold {
			verdict = "at or above the threshold: possibly the same speaker"
		}
		_, err = fmt.Fprintf(stdout, "similarity %.4f (threshold %.2f, %s; speech %.1f s and %.1f s)\n",
			sim, c.threshold, verdict, ea.SpeechSeconds, eb.SpeechSeconds)
		return err
	}
	a, err := load(c.files[0], c.start, c.end, "--start", "--end")
	if err != nil {
		return err
	}
	if n := timelineNotice(a.Seconds()); n != "" && progress.IsTerminal(stderr) {
		// The timeline reports no progress of its own; on a terminal the
		// user learns that the silence is work (about 4 s a minute of
		// audio on two cores), never in a redirected log.
		fmt.Fprintln(stderr, n)
	}
	tl, err := speaker.MakeTimeline(ctx, b, a, speaker.TimelineOptions{Speakers: c.speakers, MaxSpeakers: c.maxSpeakers})
	if err != nil {
		return flagNames.Rename(err)
	}
	for i := range tl.Turns {
		tl.Turns[i].Start += c.start
		tl.Turns[i].End += c.start
	}
	if c.format == "json" {
		return writeJSON(stdout, tl)
	}
	name := strings.TrimSuffix(filepath.Base(c.files[0]), filepath.Ext(c.files[0]))
	if c.files[0] == cli.StdinName {
		name = "stdin"
	}
	name = strings.Join(strings.Fields(name), "_")
	if name == "" {
		name = "audio"
	}
	return speaker.WriteRTTM(stdout, name, tl)
}

// speakerNetwork is the catalog model holding the speaker network of
// Sotto/Lattice-1's embeddings.
const speakerNetwork = "Sotto/Kaldi-XVector-Callhome"

// defaultXVectorDir is where sotto-cli serve downloads the speaker network:
// the directory the catalog entry's option "model" names, in the model
// store of $SOTTO_DATA_DIR, else of the default data directory.
func defaultXVectorDir() string {
	data := os.Getenv("SOTTO_DATA_DIR")
	if data == "" {
		data = models.DefaultDataDir(os.Getenv)
	}
	e, err := models.DefaultCatalog().Lookup(speakerNetwork)
	if err != nil {
		panic(err) // the built-in catalog has it (TestNetworkMissing)
	}
	return filepath.Join(models.NewStore(data).Dir(speakerNetwork), filepath.FromSlash(e.Options["model"]))
}

// checkNetwork fails, saying what to do, when the speaker network is not
// in c.xvectorDir.
func (c *config) checkNetwork() error {
	if _, err := os.Stat(filepath.Join(c.xvectorDir, speaker.XVectorNetFile)); err == nil {
		return nil
	}
	where := "in --xvector-dir " + c.xvectorDir
	if !c.xvectorSet {
		where = "where sotto-cli serve downloads it (" + c.xvectorDir + ")"
	}
	return fmt.Errorf("the speaker network %s is not %s: start sotto-cli serve, which downloads it, or run sotto-cli models download %s; "+
		"--xvector-dir names another copy, and --without-network embeds with the Debian model alone (method %s, not comparable with the service's embeddings)",
		speakerNetwork, where, speakerNetwork, speaker.Method)
}

// flagNames spells the request fields that the audio decoder's and the
// speaker package's errors name as this command's flags.
var flagNames = cli.Flags{
	audio.ParamTrack:   "--track",
	audio.ParamChannel: "--channel",
	"speakers":         "--speakers",
	"max_speakers":     "--max-speakers",
	"threshold":        "--threshold",
}

func f64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// timelineNotice is the line sotto-speaker timeline shows on a terminal
// before working on audio long enough to take a while (a minute or more),
// or "".
func timelineNotice(seconds float64) string {
	if seconds < 60 {
		return ""
	}
	return fmt.Sprintf("sotto-speaker: finding who spoke when in %s of audio (Ctrl-C stops)...",
		time.Duration(seconds*float64(time.Second)).Round(time.Second))
}
