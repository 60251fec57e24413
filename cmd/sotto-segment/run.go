package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/pflag"
	"golang.org/x/text/language"

	"github.com/sottolabs/sotto/internal/cli"
	"github.com/sottolabs/sotto/internal/progress"
	"github.com/sottolabs/sotto/segment"
)

const segmentUsage = `usage: sotto-segment [flags] [FILE|-]

sotto-segment splits text into sentences (or paragraphs, with
--paragraph-threshold), in any language: abbreviations, initials, numbers,
lists and quotations do not end a sentence. The input is plain text, or an
exported transcript JSON whose timed words become timed sentences and
subtitle cues (--format srt or vtt: at most 2 lines of 42 columns and 7 s a
cue by default). FILE "-" reads standard input, as does no FILE when it is
piped.

Examples:
  sotto-segment --text "Dr. Smith arrived at 5 p.m. on Jan. 3. He left early."
  sotto-segment -f lines essay.txt
  sotto-segment --language de -f lines brief.txt
  sotto-segment --paragraph-threshold 0.6 notes.txt
  sotto-segment -f srt transcript.json > talk.srt
  sotto-segment --cues --max-chars 32 -f vtt transcript.json

Exit status: 0 success, 1 the input could not be read or used (the reason
is printed), 2 usage error.

Flags:
`

// run is the whole command, with its environment passed in for tests.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("sotto-segment", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		text      = fs.String("text", "", "segment this text instead of reading a file")
		input     = fs.String("input", "auto", "input kind: auto, text or json (exported transcript)")
		format    = fs.StringP("format", "f", "json", "output: json, lines, srt or vtt (srt and vtt need timed input)")
		threshold = fs.Float64("threshold", segment.DefaultThreshold, "sentence threshold, 0 to 1: lower splits more")
		para      = fs.Float64("paragraph-threshold", 0, "paragraph mode with this threshold, 0 to 1 (text input only; default: sentence mode)")
		minChars  = fs.Int("min-chars", segment.DefaultMinChars, "merge cues shorter than this (with --max-chars or --cues)")
		maxChars  = fs.Int("max-chars", segment.DefaultMaxChars, "split cues longer than this (with --min-chars or --cues)")
		cues      = fs.Bool("cues", false, "turn on length constraints with the default or given min/max chars")
		startM    = fs.Float64("start-margin", segment.DefaultStartMargin, "seconds of padding before each timed cue")
		endM      = fs.Float64("end-margin", segment.DefaultEndMargin, "seconds of padding after each timed cue")
		lang      = fs.String("language", "", "language tag for abbreviations (default: guessed)")
		lineChars = fs.Int("max-line-chars", segment.DefaultMaxLineChars, "srt/vtt: wrap lines at this many columns (CJK characters count 2); 0 = no wrapping")
		maxLines  = fs.Int("max-lines", segment.DefaultMaxLines, "srt/vtt: split cues that need more lines than this; 0 = no limit")
		cueSecs   = fs.Float64("max-cue-seconds", segment.DefaultMaxCueSeconds, "srt/vtt: split cues longer than this many seconds; 0 = no limit")
	)
	help := fs.BoolP("help", "h", false, "show this help")
	fs.Usage = func() { // only for --help (ContinueOnError): standard output, to page or grep it
		fs.SetOutput(stdout)
		fmt.Fprint(stdout, segmentUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil
		}
		return cli.UsageError{Err: err}
	}
	if *help {
		fs.Usage()
		return nil
	}
	if *lang != "" {
		if _, err := language.Parse(*lang); err != nil { // as the API refuses it
			return cli.Usagef("--language %q is not a BCP 47 tag (e.g. en, de-AT); leave it out to guess", *lang)
		}
	}
	opts := segment.Options{Threshold: segment.Float(*threshold), Language: *lang}
	if fs.Changed("paragraph-threshold") {
		opts.ParagraphThreshold = segment.Float(*para)
	}
	if *cues || fs.Changed("min-chars") || fs.Changed("max-chars") {
		opts.Length = &segment.Length{MinChars: *minChars, MaxChars: *maxChars}
	}
	if opts.Length != nil || fs.Changed("start-margin") || fs.Changed("end-margin") {
		opts.Margins = &segment.Margins{Start: *startM, End: *endM}
	}
	if err := opts.Validate(); err != nil {
		return cli.UsageError{Err: err}
	}
	sub := segment.SubtitleOptions{MaxLineChars: *lineChars, MaxLines: *maxLines, MaxCueSeconds: *cueSecs, Language: *lang}
	if err := sub.Validate(); err != nil {
		return cli.UsageError{Err: err}
	}
	// The flags are checked before the input is read: a wrong one should
	// not wait for standard input first.
	switch *format {
	case "json", "lines", "srt", "vtt":
	default:
		return cli.Usagef("--format %q: want json, lines, srt or vtt", *format)
	}
	switch *input {
	case "auto", "text", "json":
	default:
		return cli.Usagef("--input %q: want auto, text or json", *input)
	}

	var data []byte
	switch {
	case fs.Changed("text"):
		if fs.NArg() > 0 {
			return cli.Usagef("give --text or a file, not both")
		}
		data = []byte(*text)
	case fs.NArg() > 1:
		return cli.Usagef("at most one input file")
	case fs.NArg() == 0 && progress.IsTerminal(stdin):
		// Nothing given and nothing piped: waiting silently for typing
		// looks like a hang.
		return cli.Usagef("no input: give FILE, --text, or pipe it in (\"-\" reads what you type, up to Ctrl-D)")
	case fs.NArg() == 0 || fs.Arg(0) == "-":
		b, err := io.ReadAll(io.LimitReader(stdin, segment.MaxFileBytes+1))
		if err != nil {
			return err
		}
		data = b
	default:
		b, err := os.ReadFile(fs.Arg(0))
		if err != nil {
			return err
		}
		data = b
	}
	if len(data) > segment.MaxFileBytes {
		return fmt.Errorf("input larger than %d bytes", segment.MaxFileBytes)
	}
	what := "the input"
	switch {
	case fs.Changed("text"):
		what = "--text"
	case fs.NArg() == 1 && fs.Arg(0) != "-":
		what = fs.Arg(0)
	}
	if err := cli.CheckText(data, what); err != nil {
		return err
	}

	var tr *segment.Transcript
	switch *input {
	case "text":
	case "json":
		t, err := segment.ParseTranscript(data)
		if err != nil {
			return err
		}
		tr = t
	case "auto":
		// Text that opens with a brace or bracket is a transcript only if
		// it is JSON; a JSON document that is not a usable transcript is
		// an error (segmenting its source as prose helps nobody).
		if t := bytes.TrimSpace(data); len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t) {
			p, err := segment.ParseTranscript(data)
			if err != nil {
				return fmt.Errorf("%w (--input text segments the file as plain text)", err)
			}
			tr = p
		}
	default:
		return fmt.Errorf("--input %q: want auto, text or json", *input)
	}

	var res *segment.Result
	var timed []segment.Cue
	var err error
	if tr != nil && tr.Segments != nil {
		if opts.ParagraphThreshold != nil {
			return errors.New("paragraph mode needs plain text; the transcript has timed segments")
		}
		timed, err = segment.Cues(ctx, tr.Segments, opts)
		if err != nil {
			return err
		}
		res = segment.TimedResult(timed)
	} else {
		s := string(data)
		if tr != nil {
			s = tr.Text
		}
		if strings.TrimSpace(s) == "" {
			return errors.New("empty input")
		}
		res, err = segment.Text(ctx, s, opts)
		if err != nil {
			return err
		}
	}

	switch *format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(res)
	case "lines":
		sep := "\n"
		if opts.ParagraphThreshold != nil {
			sep = "\n\n"
		}
		for i, s := range res.Segments {
			if i > 0 {
				io.WriteString(stdout, sep)
			}
			io.WriteString(stdout, s.Text)
		}
		_, err := io.WriteString(stdout, "\n")
		return err
	case "srt", "vtt":
		if timed == nil {
			return fmt.Errorf("--format %s needs timed input (a transcript JSON with segment times)", *format)
		}
		laid, err := segment.Subtitles(ctx, timed, sub)
		if err != nil {
			return err
		}
		if *format == "srt" {
			return segment.WriteSRT(stdout, laid)
		}
		return segment.WriteVTT(stdout, laid)
	}
	return fmt.Errorf("--format %q: want json, lines, srt or vtt", *format)
}
