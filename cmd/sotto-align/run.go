package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/pflag"
	"golang.org/x/text/language"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/cli"
	"github.com/sottolabs/sotto/internal/loaders"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/segment"
)

// maxTranscriptBytes bounds the transcript read from a file or stdin.
const maxTranscriptBytes = 16 << 20

// pathAlignments is the endpoint an alignment model of the catalog serves.
const pathAlignments = "/v1/audio/alignments"

const usageHead = `usage: sotto-align [flags] AUDIO [TRANSCRIPT]

sotto-align finds when each word of a known transcript is spoken in AUDIO
(forced alignment). Every word gets a start and end time, in seconds from the
start of the file, and a confidence score between 0 and 1; words are grouped
into sentence segments.

The transcript is read from --text, --text-file, the TRANSCRIPT argument, or
standard input (in that order; "-" means standard input). AUDIO is WAV, MP3
or FLAC (other containers need ffmpeg on PATH); AUDIO "-" reads it from
standard input, and the transcript must then come from --text or a file.

Examples:
  sotto-align speech.wav --text "Ask not what your country can do for you."
  sotto-align -f srt -o speech.srt speech.wav speech.txt
  sotto-align -f textgrid --start 30 --end 60 lecture.flac < lecture.txt
  sotto-align -f vtt --max-chars 42 --protected-term "New York" talk.mp3 talk.txt

Formats (--format):
  json      the alignment result of POST /v1/audio/alignments: segments with
            words, normalization regions, search effort used, usage
  srt, vtt  subtitles (SubRip, WebVTT): each segment wrapped into lines of
            at most --max-line-chars columns (42), split into cues of at
            most --max-lines lines (2) and --max-cue-seconds (7) at clause
            boundaries, with times from the aligned words; 0 turns a limit
            off
  textgrid  Praat TextGrid, long text format, with an interval tier "words"
            and an interval tier "segments"; gaps are empty intervals

Numbers, dates and money are normalized to their spoken form before aligning
("$5" aligns as "five dollars"; the JSON maps it back to its source bytes);
--no-normalize aligns the text as written. --search-effort auto (default)
retries once with a wider search when the standard one fails and a wider one
may help; extended always uses the wider, slower search.

The transcript may cover only part of the audio: speech, music or noise
before its first word and after its last is left unaligned, so the words
land where they were said. --strict-ends says the transcript covers the
audio (or the --start/--end window) from start to end, and saves about a
quarter of the time.

Exit status: 0 success, 1 the alignment or I/O failed (the reason is
printed), 2 usage error, 130 interrupted (Ctrl-C; no output is written).

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
	audioPath, transcriptArg string
	text, textFile           string
	hasText                  bool
	format, out              string
	model, acousticDir, dict string
	dataDir, catalog         string // the model store Sotto/Lattice-1's language packs come from
	opts                     align.Options
	audioOpts                audio.Options
	progress, quiet          bool
	subtitles                segment.SubtitleOptions // srt and vtt layout
}

// parseArgs parses the command line. It returns (nil, nil) after printing
// the help to stdout.
func parseArgs(args []string, stdout io.Writer) (*config, error) {
	fs := pflag.NewFlagSet("sotto-align", pflag.ContinueOnError)
	// --language, as sotto-transcribe, sotto-speak and sotto-segment spell
	// it (and the API's field), is accepted for --lang.
	fs.SetNormalizeFunc(func(_ *pflag.FlagSet, n string) pflag.NormalizedName {
		if n == "language" {
			n = "lang"
		}
		return pflag.NormalizedName(n)
	})
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	c := &config{}
	var (
		noNorm       bool
		noSentences  bool
		minC, maxC   int
		sM, eM       float64
		start, end   float64
		protected    []string
		track        int
		channel      string
		searchEffort string
	)
	fs.StringVar(&c.text, "text", "", "the transcript itself")
	fs.StringVar(&c.textFile, "text-file", "", "read the transcript from this file (\"-\" = standard input)")
	fs.StringVarP(&c.format, "format", "f", "json", "output format: json, srt, vtt or textgrid")
	fs.StringVarP(&c.out, "out", "o", "", "write the output to this file instead of standard output")
	fs.StringVarP(&c.opts.Language, "lang", "l", "", "language of the transcript, BCP 47 (\"en\", \"de\"…); \"und\" skips detection; empty detects")
	fs.StringVar(&searchEffort, "search-effort", align.EffortAuto, "standard, extended (wider, slower) or auto (extended only when standard fails)")
	fs.Float64Var(&start, "start", 0, "align only the audio from this second on (times stay relative to the whole file)")
	fs.Float64Var(&end, "end", 0, "align only the audio up to this second (0 = end of the file)")
	fs.StringArrayVar(&protected, "protected-term", nil, "align this phrase as one word and never normalize it (repeatable)")
	fs.BoolVar(&c.opts.StrictEnds, "strict-ends", false, "the transcript covers the whole audio (or window): no untranscribed audio at either end")
	fs.BoolVar(&noNorm, "no-normalize", false, "align the transcript as written, without text normalization")
	fs.IntVar(&minC, "min-chars", segment.DefaultMinChars, "merge segments shorter than this many characters (turns on length constraints)")
	fs.IntVar(&maxC, "max-chars", segment.DefaultMaxChars, "split segments longer than this many characters (turns on length constraints)")
	fs.Float64Var(&sM, "start-margin", segment.DefaultStartMargin, "seconds of padding before each segment, with length constraints")
	fs.Float64Var(&eM, "end-margin", segment.DefaultEndMargin, "seconds of padding after each segment, with length constraints")
	fs.BoolVar(&noSentences, "no-sentences", false, "one segment for the whole transcript instead of sentences")
	fs.IntVar(&c.subtitles.MaxLineChars, "max-line-chars", segment.DefaultMaxLineChars, "srt/vtt: wrap lines at this many columns (CJK characters count 2); 0 = no wrapping")
	fs.IntVar(&c.subtitles.MaxLines, "max-lines", segment.DefaultMaxLines, "srt/vtt: split cues that need more lines than this; 0 = no limit")
	fs.Float64Var(&c.subtitles.MaxCueSeconds, "max-cue-seconds", segment.DefaultMaxCueSeconds, "srt/vtt: split cues longer than this many seconds; 0 = no limit")
	fs.StringVar(&c.model, "model", "Sotto/Lattice-2", "alignment model: Sotto/Lattice-2 (every language) or Sotto/Lattice-1 (English; Chinese and German with its language packs)")
	fs.StringVar(&c.dataDir, "data-dir", envOr("SOTTO_DATA_DIR", models.DefaultDataDir(os.Getenv)),
		"where sotto-cli serve keeps downloaded models: Sotto/Lattice-1's language packs (env SOTTO_DATA_DIR)")
	fs.StringVar(&c.catalog, "catalog", os.Getenv("SOTTO_CATALOG"),
		"JSON file of extra catalog entries merged over the built-in catalog (env SOTTO_CATALOG)")
	fs.StringVar(&c.acousticDir, "acoustic-dir", "", "acoustic model directory (default: the Debian pocketsphinx-en-us model)")
	fs.StringVar(&c.dict, "dict", "", "pronouncing dictionary (default: the Debian CMUdict)")
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
	switch fs.NArg() {
	case 0:
		return nil, usagef("missing the audio file")
	case 1:
	case 2:
		c.transcriptArg = fs.Arg(1)
	default:
		return nil, usagef("too many arguments %q: want AUDIO [TRANSCRIPT]", fs.Args())
	}
	c.audioPath = fs.Arg(0)
	c.hasText = fs.Changed("text")
	sources := 0
	for _, set := range []bool{c.hasText, c.textFile != "", c.transcriptArg != ""} {
		if set {
			sources++
		}
	}
	if sources > 1 {
		return nil, usagef("give the transcript once: --text, --text-file or a TRANSCRIPT argument")
	}
	if c.audioPath == cli.StdinName && !c.hasText && (c.textFile == "" || c.textFile == cli.StdinName) &&
		(c.transcriptArg == "" || c.transcriptArg == cli.StdinName) {
		return nil, usagef("the audio is read from standard input (\"-\"), so the transcript cannot be: give --text or a transcript file")
	}
	switch c.format = strings.ToLower(c.format); c.format {
	case "json", "srt", "vtt", "textgrid":
	default:
		return nil, usagef("--format %q: want json, srt, vtt or textgrid", c.format)
	}
	switch searchEffort {
	case align.EffortStandard, align.EffortExtended, align.EffortAuto:
	default:
		return nil, usagef("--search-effort %q: want standard, extended or auto", searchEffort)
	}
	c.opts.SearchEffort = searchEffort
	if start < 0 || end < 0 || (end > 0 && end <= start) {
		return nil, usagef("--start %g --end %g: want 0 <= start < end", start, end)
	}
	c.opts.Start, c.opts.End = start, end
	if l := c.opts.Language; l != "" && l != "und" {
		if _, err := language.Parse(l); err != nil {
			return nil, usagef("--lang %q is not a language tag (BCP 47: en, de, pt-BR …; und skips detection)", l)
		}
	}
	c.opts.ProtectedTerms = protected
	// --model names a catalog model that aligns (as the endpoint checks
	// it): a misspelt or unrelated ID would otherwise be aligned with
	// Sotto/Lattice-2 and reported under the name given.
	cat, err := models.LoadCatalog(models.UserCatalog(c.dataDir, c.catalog))
	if err != nil {
		return nil, usagef("--catalog: %v", err)
	}
	e, err := cat.Lookup(c.model)
	if err != nil {
		return nil, usagef("--model %q is not in the catalog%s (sotto-cli models list shows the models)", c.model, didYouMean(cat.Suggest(c.model)))
	}
	if !e.Supports(pathAlignments) {
		return nil, usagef("--model %s does not align (it serves %s)", c.model, strings.Join(e.SupportedEndpoints, ", "))
	}
	c.opts.Model = c.model
	if !noNorm {
		c.opts.TextNormalization = align.DefaultTextNormalization
	}
	if fs.Changed("min-chars") || fs.Changed("max-chars") {
		if maxC <= 0 || minC < 0 || minC > maxC {
			return nil, usagef("--min-chars %d --max-chars %d: want 0 <= min <= max and max > 0", minC, maxC)
		}
		c.opts.Sentences = align.SentenceOptions{Lengths: true, MinChars: minC, MaxChars: maxC, StartMargin: sM, EndMargin: eM}
	}
	if sM < 0 || eM < 0 {
		return nil, usagef("margins must not be negative")
	}
	c.opts.Sentences.Disabled = noSentences
	if track < 0 {
		return nil, usagef("--audio-track %d: want 0 or more", track)
	}
	if _, err := audio.ParseChannel(channel); err != nil {
		return nil, usagef("--audio-channel %q: want mix or a channel index", channel)
	}
	c.audioOpts = audio.Options{Track: track, Channel: channel}
	if err := c.subtitles.Validate(); err != nil {
		return nil, usagef("--max-line-chars %d --max-lines %d --max-cue-seconds %g: want 0 (off) or more",
			c.subtitles.MaxLineChars, c.subtitles.MaxLines, c.subtitles.MaxCueSeconds)
	}
	c.subtitles.Language = c.opts.Language
	return c, nil
}

// run is the whole command, with its environment passed in for tests.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	c, err := parseArgs(args, stdout)
	if err != nil || c == nil {
		return err
	}
	if err := cli.CheckOutput(c.out, "--out"); err != nil {
		return err
	}
	transcript, err := c.readTranscript(stdin)
	if err != nil {
		return err
	}
	a, info, err := cli.DecodeAudio(ctx, c.audioPath, stdin, c.audioOpts)
	if err != nil {
		return cli.InFile(c.audioPath, flagNames.Rename(err)) // "audio: the file is empty" says which
	}
	if info.Truncated {
		fmt.Fprintf(stderr, "sotto-align: warning: %s is cut off %s; aligning the %v that are there\n", c.audioPath, info.TruncationNote(), info.Duration.Round(time.Millisecond))
	}
	if d := a.Seconds(); c.opts.Start > 0 && c.opts.Start >= d {
		return fmt.Errorf("--start %g is at or after the end of the audio (%.3f s)", c.opts.Start, d)
	} else if c.opts.End > d+1e-6 {
		return fmt.Errorf("--end %g is after the end of the audio (%.3f s)", c.opts.End, d)
	}
	if c.opts.Start > 0 && c.opts.End == 0 {
		c.opts.End = a.Seconds() // the aligner takes a window only with an end
	}
	cfg := backend.Config{Model: c.model, Options: map[string]string{}}
	if c.acousticDir != "" {
		cfg.Options[align.OptAcousticDir] = c.acousticDir
	}
	if c.dict != "" {
		cfg.Options[align.OptDict] = c.dict
	}
	b, closeAligner, err := c.openAligner(ctx, cfg)
	if err != nil {
		return err
	}
	defer closeAligner()

	var bar *progressBar
	if !c.quiet && (c.progress || isTerminal(stderr)) {
		bar = newProgressBar(stderr, windowSeconds(c.opts, a.Seconds()))
		c.opts.Progress = bar.update
	}
	res, err := b.Align(ctx, a, transcript, c.opts)
	bar.finish()
	if se, ok := errors.AsType[*sotto.Error](err); ok && se.Code == "model_not_downloaded" {
		// A language pack: the message names the HTTP call; say the command too.
		err = fmt.Errorf("%w; from the command line: sotto-cli models download %s (with sotto-cli serve running on the data directory %s)",
			err, c.model, c.dataDir)
	}
	if err != nil {
		return flagNames.Rename(describe(err))
	}

	var w io.Writer = stdout
	var f *os.File
	if c.out != "" && c.out != "-" {
		if f, err = os.Create(c.out); err != nil {
			return err
		}
		w = f
	}
	err = write(ctx, w, c.format, res, c.subtitles)
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// readTranscript returns the transcript from the flag, file or stdin.
func (c *config) readTranscript(stdin io.Reader) (string, error) {
	if c.hasText {
		return c.text, nil
	}
	path := c.textFile
	if path == "" {
		path = c.transcriptArg
	}
	var r io.Reader = stdin
	if path == "" && isTerminal(stdin) {
		return "", usagef("no transcript: give --text, --text-file or a TRANSCRIPT argument, or pipe it in")
	}
	if path != "" && path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return "", err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, maxTranscriptBytes+1))
	if err != nil {
		return "", fmt.Errorf("reading the transcript: %w", err)
	}
	if len(data) > maxTranscriptBytes {
		return "", fmt.Errorf("the transcript is larger than %d bytes", maxTranscriptBytes)
	}
	// A file's final newline is not part of the transcript; trimming only
	// the end keeps every byte offset the result reports.
	return strings.TrimRightFunc(string(data), unicode.IsSpace), nil
}

// windowSeconds is the length of the aligned audio.
func windowSeconds(o align.Options, dur float64) float64 {
	if o.End > 0 {
		return o.End - o.Start
	}
	return dur
}

// flagNames spells the request fields that the audio decoder's and the
// aligner's errors name as this command's flags.
var flagNames = cli.Flags{
	audio.ParamTrack:   "--audio-track",
	audio.ParamChannel: "--audio-channel",
	"start":            "--start",
	"end":              "--end",
	"language":         "--lang",
	"search_effort":    "--search-effort",
	"protected_terms":  "--protected-term",
}

// describe adds the alignment failure's reason and a hint to err.
func describe(err error) error {
	var se *sotto.Error
	if !errors.As(err, &se) {
		return err
	}
	var f *align.Failure
	switch d := se.Detail.(type) {
	case align.Failure:
		f = &d
	case *align.Failure:
		f = d
	}
	if f == nil {
		return err
	}
	msg := fmt.Sprintf("alignment failed: reason %s (search effort %s, path %s, limit %s)",
		f.Reason, orDash(f.SearchEffortUsed), orDash(f.SearchPath), orDash(f.SearchLimit))
	if f.RetryRecommended {
		msg += "; a wider search may succeed: try --search-effort extended"
	}
	if f.EstimatedExtraBytes > 0 {
		msg += fmt.Sprintf("; the wider search needs about %s more memory", size(f.EstimatedExtraBytes))
	}
	return fmt.Errorf("%s: %w", msg, err)
}

// size formats a byte count for people.
func size(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", b)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// write renders res in format to w; sub lays out srt and vtt cues.
func write(ctx context.Context, w io.Writer, format string, res *align.Alignment, sub segment.SubtitleOptions) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(res)
	case "srt", "vtt":
		if sub.Language == "" {
			sub.Language = res.Language // the detected language's break words
		}
		laid, err := segment.Subtitles(ctx, cues(res), sub)
		if err != nil {
			return err
		}
		if format == "srt" {
			return segment.WriteSRT(w, laid)
		}
		return segment.WriteVTT(w, laid)
	case "textgrid":
		return writeTextGrid(w, res)
	}
	return usagef("--format %q: want json, srt, vtt or textgrid", format)
}

// cues turns the segments of res into cues with their words' times, for
// segment.Subtitles to lay out.
func cues(res *align.Alignment) []segment.Cue {
	out := make([]segment.Cue, 0, len(res.Segments))
	for _, s := range res.Segments {
		c := segment.Cue{Text: s.Text, Start: s.Start, End: s.End}
		for _, w := range s.Words {
			c.Words = append(c.Words, segment.Word{Word: w.Word, Start: w.Start, End: w.End})
		}
		if s.Speaker != nil {
			c.Speaker = *s.Speaker
		}
		out = append(out, c)
	}
	return out
}

// openAligner opens the aligner. Sotto/Lattice-1 without --acoustic-dir or
// --dict opens as sotto-cli serve opens it, from the model store of
// --data-dir, so that its Chinese and German language packs are used when
// they are downloaded, and a --lang zh or de whose pack is missing is an
// error that says so (it was aligned with the English model). Everything
// else opens from the flags. close releases what was opened.
func (c *config) openAligner(ctx context.Context, cfg backend.Config) (align.Backend, func(), error) {
	if c.model != models.Lattice1 || c.acousticDir != "" || c.dict != "" {
		b, err := align.Open(ctx, "", cfg)
		if err != nil {
			return nil, nil, err
		}
		return b, func() { b.Close() }, nil
	}
	loaded, release, err := loaders.Open(ctx, models.Config{DataDir: c.dataDir, CatalogFile: models.UserCatalog(c.dataDir, c.catalog)}, c.model)
	if err != nil {
		return nil, nil, err
	}
	b, ok := loaded.(align.Backend)
	if !ok {
		release()
		return nil, nil, fmt.Errorf("%s does not load as an aligner", c.model)
	}
	return b, release, nil
}

func envOr(name, def string) string {
	if v := strings.TrimSpace(os.Getenv(name)); v != "" {
		return v
	}
	return def
}

// didYouMean is "; did you mean ID?" for a suggested model ID, or "".
func didYouMean(id string) string {
	if id == "" {
		return ""
	}
	return "; did you mean " + id + "?"
}
