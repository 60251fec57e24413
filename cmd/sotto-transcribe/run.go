package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/text/language"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/asr"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/cli"
	"github.com/sottolabs/sotto/internal/loaders"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/internal/progress"
	"github.com/sottolabs/sotto/internal/transcript"
	"github.com/sottolabs/sotto/speaker"
)

const pathTranscriptions = "/v1/audio/transcriptions"

const usageHead = `usage: sotto-transcribe [flags] FILE...

sotto-transcribe writes down what is said in each FILE (speech recognition).
FILE is WAV, MP3 or FLAC; video and other containers need ffmpeg on PATH.
FILE "-" reads standard input (once). Everything runs on this computer;
nothing is sent anywhere.

Examples:
  sotto-transcribe interview.wav
  sotto-transcribe -f srt -o talk.srt talk.mp4
  sotto-transcribe -f vtt --out-dir subs/ *.flac
  sotto-transcribe -f verbose_json --granularity word,segment meeting.wav
  sotto-transcribe --prompt "Kubernetes, etcd, kubelet" standup.wav
  sotto-transcribe --lm domain.arpa lecture.wav
  sotto-transcribe --model Sotto/Whisper-base.en talk.wav
  ffmpeg -i lecture.webm -f wav - | sotto-transcribe -f srt - > lecture.srt

Formats (--format), the response formats of POST /v1/audio/transcriptions:
  text          the transcript as plain text (default)
  json          {"text", "duration", "usage"}
  verbose_json  task, language, duration, text, segments with start and end
                times, and with --granularity word the words with times and
                confidences (0 to 1)
  diarized_json verbose_json with who spoke: "speakers" (S1, S2…) and a
                speaker on every segment and word, from the speaker timeline
                of package speaker (slower: a second pass over the audio)
  srt, vtt      subtitles (SubRip, WebVTT): cues of at most two lines of 42
                characters and 7 seconds, cut at pauses and sentence ends

With several files, text and json go to standard output one after another
(json as one object a line); srt and vtt need --out-dir, which writes
NAME.srt (or .vtt, .txt, .json) for each input ("-" is named stdin).

Models other than the default (Whisper's, for example) are read from the
data directory where sotto-cli serve keeps them: download them first with
"sotto-cli models download MODEL" (--data-dir, --catalog as for serve).

Better results: bring a language model of your domain as an ARPA file (--lm,
e.g. built with KenLM or SRILM from text like what is said); name rare words
in --prompt (the default recognizer makes each of its words ten times more
likely; a Whisper model reads the prompt as the text before the speech).

Exit status: 0 success, 1 a transcription or I/O failed (the reason is
printed), 2 usage error, 130 interrupted (Ctrl-C: the file being transcribed
gets no output file; those finished before keep theirs).

Flags:
`

// usageError marks an error in the command line (exit status 2).
type usageError = cli.UsageError

var usagef = cli.Usagef

// exitCode maps an error returned by run to the exit status.
func exitCode(err error) int {
	switch {
	case err == nil:
		return 0
	case errors.As(err, new(usageError)):
		return 2
	}
	return 1
}

// config holds the parsed command line.
type config struct {
	files             []string
	format            transcript.Format
	gran              transcript.Granularities
	out, outDir       string
	model             string
	entry             *models.Entry // catalog entry of model, when it has one
	dataDir, catalog  string        // where downloaded models live; the user catalog
	opts              asr.Options
	audioOpts         audio.Options
	acousticDir, dict string
	lm                string
	progress, quiet   bool
	diarizer          speaker.Backend // open for diarized_json
}

// parseArgs parses the command line. It returns (nil, nil) after printing
// the help to stdout.
func parseArgs(args []string, stdout io.Writer) (*config, error) {
	fs := pflag.NewFlagSet("sotto-transcribe", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	c := &config{}
	var (
		format, lang, channel string
		gran                  []string
		track                 int
	)
	def := ""
	if e, ok := models.DefaultCatalog().DefaultFor(pathTranscriptions); ok {
		def = e.ID
	}
	fs.StringVarP(&format, "format", "f", "text", "output format: text, json, verbose_json, diarized_json, srt or vtt")
	fs.StringVarP(&c.out, "out", "o", "", "write the output to this file instead of standard output (one input only)")
	fs.StringVar(&c.outDir, "out-dir", "", "write one output file per input into this directory (created if missing), named after the input")
	fs.StringVarP(&lang, "language", "l", "", "language of the speech, BCP 47 (\"en\"); empty detects it")
	fs.StringVar(&c.opts.Prompt, "prompt", "", "words or a sentence the speech is likely to contain (names, terms); the recognizer favours its words")
	fs.StringSliceVar(&gran, "granularity", nil, "with verbose_json or diarized_json: word and/or segment timestamps (default segment)")
	fs.StringVar(&c.model, "model", def, "transcription model (a catalog ID; sotto-cli models list shows them)")
	fs.StringVar(&c.dataDir, "data-dir", envOr("SOTTO_DATA_DIR", models.DefaultDataDir(os.Getenv)),
		"where downloaded models are (sotto-cli serve's data directory; env SOTTO_DATA_DIR)")
	fs.StringVar(&c.catalog, "catalog", os.Getenv("SOTTO_CATALOG"),
		"JSON file of extra catalog entries merged over the built-in catalog (env SOTTO_CATALOG)")
	fs.StringVar(&c.lm, "lm", "", "language model as an ARPA text file, used instead of the model's own")
	fs.StringVar(&c.acousticDir, "acoustic-dir", "", "acoustic model directory (default: the model's, e.g. the Debian pocketsphinx-en-us)")
	fs.StringVar(&c.dict, "dict", "", "pronouncing dictionary (default: the model's, e.g. the Debian CMUdict)")
	fs.IntVar(&track, "audio-track", 0, "zero-based audio track of a container with several")
	fs.StringVar(&channel, "audio-channel", "mix", "\"mix\" averages the channels, or a zero-based channel index")
	fs.BoolVar(&c.progress, "progress", false, "show a progress bar on standard error even when it is not a terminal")
	fs.BoolVarP(&c.quiet, "quiet", "q", false, "never show a progress bar")
	help := fs.BoolP("help", "h", false, "show this help")

	if err := fs.Parse(args); err != nil {
		return nil, usageError{Err: err}
	}
	if *help {
		io.WriteString(stdout, usageHead)
		io.WriteString(stdout, fs.FlagUsages())
		return nil, nil
	}
	c.files = fs.Args()
	if len(c.files) == 0 {
		return nil, usagef("missing the audio or video file")
	}
	if n := countStdin(c.files); n > 1 {
		return nil, usagef("standard input (\"-\") is given %d times; it can be read once", n)
	}
	f, err := transcript.ParseFormat(strings.ToLower(format))
	if err != nil {
		return nil, usagef("--format %q: want text, json, verbose_json, diarized_json, srt or vtt", format)
	}
	c.format = f
	for _, g := range gran {
		switch strings.TrimSpace(g) {
		case "word":
			c.gran.Words = true
		case "segment":
			c.gran.Segments = true
		default:
			return nil, usagef("--granularity %q: want word or segment", g)
		}
	}
	if len(gran) > 0 && !c.format.Structured() {
		return nil, usagef("--granularity needs --format verbose_json or diarized_json")
	}
	switch {
	case c.out != "" && c.outDir != "":
		return nil, usagef("give --out or --out-dir, not both")
	case c.out != "" && len(c.files) > 1:
		return nil, usagef("--out takes one input; use --out-dir for %d files", len(c.files))
	case c.outDir == "" && len(c.files) > 1 && (c.format == transcript.SRT || c.format == transcript.VTT):
		return nil, usagef("subtitles of %d files need --out-dir (one %s file each)", len(c.files), c.format)
	}
	// As serve: the user catalog of the data directory, where sotto-cli
	// models import writes, unless --catalog names another.
	c.catalog = models.UserCatalog(c.dataDir, c.catalog)
	if c.model != "" {
		cat, err := models.LoadCatalog(c.catalog)
		if err != nil {
			return nil, usagef("--catalog: %v", err)
		}
		e, err := cat.Lookup(c.model)
		if err != nil {
			return nil, usagef("--model %q is not in the catalog%s (sotto-cli models list shows the models)", c.model, didYouMean(cat.Suggest(c.model)))
		}
		if !e.Supports(pathTranscriptions) {
			return nil, usagef("--model %s does not transcribe (it serves %s)", c.model, strings.Join(e.SupportedEndpoints, ", "))
		}
		c.entry = &e
		if !c.sphinx() && (c.lm != "" || c.acousticDir != "" || c.dict != "") {
			return nil, usagef("--lm, --acoustic-dir and --dict apply to the Sphinx recognizer, not to %s (backend %s)", c.model, e.Backend)
		}
	}
	if lang != "" && lang != "auto" {
		tag, err := language.Parse(lang)
		if err != nil {
			return nil, usagef("--language %q is not a language tag", lang)
		}
		c.opts.Language = tag.String()
		if c.entry != nil && !c.entry.CoversLanguage(c.opts.Language) {
			return nil, usagef("--language %s: %s transcribes %s", lang, c.model, strings.Join(c.entry.Languages, ", "))
		}
	}
	if c.lm != "" {
		if st, err := os.Stat(c.lm); err != nil || !st.Mode().IsRegular() {
			return nil, usagef("--lm %q is not a readable file", c.lm)
		}
	}
	if track < 0 {
		return nil, usagef("--audio-track %d: want 0 or more", track)
	}
	if _, err := audio.ParseChannel(channel); err != nil {
		return nil, usagef("--audio-channel %q: want mix or a channel index", channel)
	}
	c.audioOpts = audio.Options{Track: track, Channel: channel}
	c.opts.Words = c.gran.Words || c.format == transcript.SRT || c.format == transcript.VTT
	return c, nil
}

// backendConfig is the recognizer's configuration from the flags.
func (c *config) backendConfig() backend.Config {
	cfg := backend.Config{Model: c.model, Options: map[string]string{}}
	for k, v := range map[string]string{asr.OptAcousticDir: c.acousticDir, asr.OptDict: c.dict, asr.OptLM: c.lm} {
		if v != "" {
			cfg.Options[k] = v
		}
	}
	return cfg
}

// envOr returns the environment variable name, or def when it is unset.
func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// sphinx reports whether the model is the Sphinx recognizer (or none is
// named), which opens from the flags; other models open through the model
// store and their catalog backend's loader.
func (c *config) sphinx() bool { return c.entry == nil || c.entry.Backend == "lattice-asr" }

// openRecognizer opens the recognizer: the Sphinx one from the flags, or
// the model's catalog backend on its files in the data directory (a model
// that is not downloaded is an error that says so). close releases it.
func (c *config) openRecognizer(ctx context.Context) (b asr.Backend, close func(), err error) {
	if c.sphinx() {
		if b, err = asr.Open(ctx, "", c.backendConfig()); err != nil {
			return nil, nil, err
		}
		return b, func() { b.Close() }, nil
	}
	loaded, release, err := loaders.Open(ctx, models.Config{DataDir: c.dataDir, CatalogFile: c.catalog}, c.model)
	if err != nil {
		if se, ok := errors.AsType[*sotto.Error](err); ok && se.Code == "model_not_downloaded" {
			// The message names the HTTP call; say the command too.
			err = fmt.Errorf("%w; from the command line: sotto-cli models download %s (with sotto-cli serve running on the data directory %s)",
				err, c.model, c.dataDir)
		}
		return nil, nil, err
	}
	b, ok := loaded.(asr.Backend)
	if !ok {
		release()
		return nil, nil, fmt.Errorf("%s does not load as a recognizer", c.model)
	}
	return b, release, nil
}

// run is the whole command, with its environment passed in for tests.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	c, err := parseArgs(args, stdout)
	if err != nil || c == nil {
		return err
	}
	if c.outDir != "" {
		if err := os.MkdirAll(c.outDir, 0o755); err != nil {
			return err
		}
	}
	if err := cli.CheckOutput(c.out, "--out"); err != nil {
		return err
	}
	b, closeB, err := c.openRecognizer(ctx)
	if err != nil {
		return err
	}
	defer closeB()
	if c.format == transcript.DiarizedJSON {
		cfg := backend.Config{Options: map[string]string{}}
		if c.acousticDir != "" {
			cfg.Options[speaker.OptAcousticDir] = c.acousticDir
		}
		if c.diarizer, err = speaker.Open(ctx, "", cfg); err != nil {
			return err
		}
		defer c.diarizer.Close()
	}
	showBar := !c.quiet && (c.progress || progress.IsTerminal(stderr))
	var failed []string
	for _, file := range c.files {
		if err := c.transcribeFile(ctx, b, file, stdin, stdout, stderr, showBar); err != nil {
			err = flagNames.Rename(err)
			if ctx.Err() != nil || len(c.files) == 1 {
				return err
			}
			fmt.Fprintf(stderr, "sotto-transcribe: %v\n", cli.InFile(file, err))
			failed = append(failed, file)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d files failed: %s", len(failed), len(c.files), strings.Join(failed, ", "))
	}
	return nil
}

// flagNames spells the request fields that the audio decoder's and the
// recognizers' errors name as this command's flags.
var flagNames = cli.Flags{
	audio.ParamTrack:   "--audio-track",
	audio.ParamChannel: "--audio-channel",
	"language":         "--language",
	"prompt":           "--prompt",
}

// transcribeFile transcribes one input and writes its output.
func (c *config) transcribeFile(ctx context.Context, b asr.Backend, file string, stdin io.Reader, stdout, stderr io.Writer, showBar bool) error {
	a, info, err := cli.DecodeAudio(ctx, file, stdin, c.audioOpts)
	if err != nil {
		return cli.InFile(file, err) // "audio: the file is empty" says which
	}
	if info.Truncated {
		fmt.Fprintf(stderr, "sotto-transcribe: warning: %s is cut off %s; transcribing the %v that are there\n", file, info.TruncationNote(), info.Duration.Round(time.Millisecond))
	}
	dur := a.Seconds()
	var bar *progress.Bar
	if showBar {
		bar = progress.New(stderr, "transcribing", dur)
		bar.Update(0, 0)
	}
	var segs []asr.Segment
	err = b.Transcribe(ctx, a, c.opts, func(s asr.Segment) error {
		segs = append(segs, s)
		if dur > 0 {
			bar.Update(s.End/dur, s.End)
		}
		return nil
	})
	if err == nil {
		bar.Update(1, dur)
	}
	bar.Finish()
	if err != nil {
		return err
	}
	res := &transcript.Result{Segments: segs, Language: c.resultLanguage(), Duration: dur}
	if c.diarizer != nil {
		// The speaker pass reports no progress; where the bar was shown,
		// say what the wait after its 100 % is.
		bar.Note("finding who spoke when (a second pass over the audio)...")
		tl, err := speaker.MakeTimeline(ctx, c.diarizer, a, speaker.TimelineOptions{})
		if err != nil {
			return err
		}
		res.Turns = make([]transcript.Turn, len(tl.Turns))
		for i, t := range tl.Turns {
			res.Turns[i] = transcript.Turn{Start: t.Start, End: t.End, Speaker: t.Speaker}
		}
	}
	var w io.Writer = stdout
	var out *os.File
	if path := c.outPath(file); path != "" {
		if out, err = os.Create(path); err != nil {
			return err
		}
		w = out
	}
	err = transcript.Write(ctx, w, c.format, res, c.gran)
	if out != nil {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// outPath is the file the output of input goes to, or "" for stdout.
func (c *config) outPath(input string) string {
	switch {
	case c.out != "" && c.out != "-":
		return c.out
	case c.outDir != "":
		ext := map[transcript.Format]string{transcript.Text: ".txt", transcript.SRT: ".srt", transcript.VTT: ".vtt"}[c.format]
		if ext == "" {
			ext = ".json"
		}
		base := filepath.Base(input)
		if input == cli.StdinName {
			base = "stdin"
		}
		return filepath.Join(c.outDir, strings.TrimSuffix(base, filepath.Ext(base))+ext)
	}
	return ""
}

// resultLanguage is the language a result reports: the requested one, or
// the model's only language.
func (c *config) resultLanguage() string {
	if c.opts.Language != "" {
		return c.opts.Language
	}
	if c.entry != nil && len(c.entry.Languages) == 1 && !slices.Contains(c.entry.Languages, models.AnyLanguage) {
		return c.entry.Languages[0]
	}
	return ""
}

// countStdin counts the "-" (standard input) among files.
func countStdin(files []string) int {
	n := 0
	for _, f := range files {
		if f == cli.StdinName {
			n++
		}
	}
	return n
}

// didYouMean is "; did you mean ID?" for a suggested model ID, or "".
func didYouMean(id string) string {
	if id == "" {
		return ""
	}
	return "; did you mean " + id + "?"
}
