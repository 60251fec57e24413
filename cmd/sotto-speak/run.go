package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/spf13/pflag"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/internal/cli"
	"github.com/sottolabs/sotto/internal/progress"
	"github.com/sottolabs/sotto/segment"
	"github.com/sottolabs/sotto/tts"
)

const usageHead = `usage: sotto-speak [flags] [TEXT...]

sotto-speak speaks TEXT (or --text-file, or standard input, also as "-") and
writes a 16-bit mono WAV file. Numbers, money, dates and times are read as
words ("$12.50 at 3:30 pm"), sentence by sentence.

Examples:
  sotto-speak -o hello.wav "Hello there. It is 3:30 pm."
  sotto-speak --voice builtin:slt --speed 1.2 -o fast.wav < story.txt
  sotto-speak --engine espeak-ng --language de -o de.wav "Guten Tag."
  sotto-speak --instructions "a slow, deep male voice with a British accent" "Good evening."
  sotto-speak --list-voices --engine espeak-ng
  sotto-speak --play "Testing, one, two, three."
  sotto-speak "Hello." > hello.wav      (a redirected standard output gets the WAV)
  sotto-speak --marks words.vtt -o talk.wav < talk.txt

Word timings (--marks) come from aligning the speech with its text (the
sotto-align engine); each word names the bytes of the input it reads, so
"$12.50" is read by "twelve dollars fifty cents".

Engines (--engine): flite (default for English: Debian's flite voices kal16,
rms, slt, awb, kal) and espeak-ng (every language espeak-ng has; voices are
builtin:<language>, variants with --variant or builtin:<language>+<variant>).
Without --engine, English uses flite and other languages espeak-ng.

Exit status: 0 success, 1 the speech or a file failed (the reason is
printed), 2 usage error, 130 interrupted (Ctrl-C; no file is written).

`

type config struct {
	engine, voice, language, variant, instructions string
	textFile, out, marks                           string
	speed, pitch                                   float64
	list, play                                     bool
	stdinArg                                       bool // TEXT or --text-file is "-"
	text                                           string
	engineSet                                      bool // --engine was given
}

func parseArgs(args []string, stdout io.Writer) (*config, error) {
	var c config
	fs := pflag.NewFlagSet("sotto-speak", pflag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.StringVar(&c.engine, "engine", "", "flite or espeak-ng (default: flite for English, espeak-ng otherwise)")
	fs.StringVar(&c.voice, "voice", tts.VoiceAuto, "voice ID (see --list-voices); builtin:auto picks one for --language")
	fs.StringVar(&c.language, "language", "", "BCP 47 language of the text (default: the voice's)")
	fs.Float64Var(&c.speed, "speed", 1, "speaking rate, 1 = natural (0.25 to 4)")
	fs.Float64Var(&c.pitch, "pitch", 0, "pitch shift in semitones (voices with a pitch control)")
	fs.StringVar(&c.variant, "variant", "", "espeak-ng voice variant (klatt, f3, whisper ...)")
	fs.StringVar(&c.instructions, "instructions", "", "describe the voice in words; picks voice, pitch and speed (builtin:design)")
	fs.StringVar(&c.textFile, "text-file", "", "read the text from `FILE` (\"-\" = standard input)")
	fs.StringVarP(&c.out, "output", "o", "speech.wav", "write the WAV to `FILE` (\"-\" = standard output; without -o, a redirected standard output gets it)")
	fs.StringVar(&c.marks, "marks", "", "write when each word is spoken to `FILE`: WebVTT if it ends in .vtt, else JSON")
	fs.BoolVar(&c.list, "list-voices", false, "list the engine's voices and exit")
	fs.BoolVar(&c.play, "play", false, "play the speech (aplay, paplay or ffplay) instead of writing a file")
	help := fs.BoolP("help", "h", false, "show this help")
	fs.Usage = func() {
		fmt.Fprint(stdout, usageHead)
		fmt.Fprintln(stdout, "Flags:")
		fmt.Fprint(stdout, fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return nil, nil
		}
		return nil, cli.UsageError{Err: err}
	}
	if *help {
		fs.Usage()
		return nil, nil
	}
	if math.IsNaN(c.speed) || c.speed < 0.25 || c.speed > 4 {
		// As the server's speech endpoint: out-of-range speeds were
		// accepted and spoken at some other rate.
		return nil, cli.Usagef("--speed %v is out of range (0.25 to 4; 1 is natural)", c.speed)
	}
	if c.engine != "" && !slices.Contains(tts.Drivers(), c.engine) {
		return nil, cli.Usagef("--engine %q: want flite or espeak-ng", c.engine)
	}
	c.stdinArg = fs.NArg() == 1 && fs.Arg(0) == "-" || c.textFile == "-"
	if !(fs.NArg() == 1 && fs.Arg(0) == "-") { // "-": the text is standard input
		c.text = strings.Join(fs.Args(), " ")
	}
	// "sotto-speak Hi > hi.wav" means standard output: without -o, a
	// standard output redirected to a file or pipe gets the WAV.
	if f, ok := stdout.(*os.File); ok && !fs.Changed("output") && !progress.IsTerminal(f) {
		c.out = "-"
	}
	c.engineSet = c.engine != ""
	if c.engine == "" {
		c.engine = "flite"
		if c.language != "" && !strings.HasPrefix(strings.ToLower(c.language), "en") {
			c.engine = "espeak-ng"
		}
	}
	if c.instructions != "" && c.voice == tts.VoiceAuto {
		c.voice = tts.VoiceDesign
	}
	return &c, nil
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	c, err := parseArgs(args, stdout)
	if err != nil || c == nil {
		return err
	}
	var text string
	if !c.list {
		if !c.play {
			if err := cli.CheckOutput(c.out, "--output"); err != nil {
				return err
			}
		}
		if err := cli.CheckOutput(c.marks, "--marks"); err != nil {
			return err
		}
		if text, err = c.readText(stdin); err != nil {
			return err
		}
		c.pickEngine(text, stderr)
	}
	b, err := tts.Open(ctx, c.engine, backend.Config{})
	if err != nil {
		return err
	}
	defer b.Close()
	if c.list {
		return listVoices(b, stdout)
	}
	opts := tts.Options{Voice: c.voice, Language: c.language, Speed: c.speed, Pitch: c.pitch, Variant: c.variant}
	var v tts.Voice
	switch c.voice {
	case tts.VoiceAuto:
		v, err = tts.PickVoice(b, c.language)
		if errors.Is(err, sotto.ErrUnsatisfiable) {
			err = fmt.Errorf("no %s voice speaks %q (sotto-speak --list-voices --engine %s lists them; espeak-ng speaks the most languages)", c.engine, c.language, c.engine)
		}
	case tts.VoiceDesign:
		var d tts.Design
		d, err = tts.DesignVoice(b, c.instructions, c.language)
		if err == nil {
			v = d.Voice
			opts.Pitch, opts.Variant = d.Pitch, d.Variant
			if d.Speed != 0 && c.speed == 1 {
				opts.Speed = d.Speed
			}
			fmt.Fprintf(stderr, "voice design: %s\n", strings.Join(append([]string{"voice " + d.VoiceID}, d.Applied...), "; "))
		}
	default:
		var ok bool
		if v, ok = tts.FindVoice(b, c.voice); !ok {
			// A voice ID no voice has is a mistake on the command line
			// (exit 2); a language no voice speaks is the engine's limit.
			err = cli.Usagef("--voice %q is not one of the %s voices (see --list-voices)", c.voice, c.engine)
		}
	}
	if err != nil {
		return err
	}
	opts.Voice = v.ID
	opts.Marks = c.marks != ""
	pcm := make([]byte, 44, 1<<16)
	var marks []tts.Mark
	err = tts.Speak(ctx, b, text, opts, func(ch tts.Chunk) error {
		pcm = audio.AppendPCM16(pcm, ch.Samples)
		marks = append(marks, ch.Marks...)
		return nil
	})
	if err != nil {
		return err
	}
	if c.marks != "" {
		if err := writeMarks(c.marks, text, marks); err != nil {
			return err
		}
	}
	copy(pcm, audio.WAVHeader(v.SampleRate, len(pcm)-44))
	if c.play {
		return play(ctx, pcm)
	}
	if c.out == "-" {
		_, err = stdout.Write(pcm)
		return err
	}
	return os.WriteFile(c.out, pcm, 0o644)
}

func (c *config) readText(stdin io.Reader) (string, error) {
	var b []byte
	var err error
	what := "the text"
	switch {
	case c.text != "":
		b = []byte(c.text)
	case c.textFile != "" && c.textFile != "-":
		b, err = os.ReadFile(c.textFile)
		what = c.textFile
	case !c.stdinArg && progress.IsTerminal(stdin):
		// Nothing given and nothing piped: waiting silently for typing
		// looks like a hang.
		return "", cli.Usagef("no text: give TEXT, --text-file FILE, or pipe it in (\"-\" reads what you type, up to Ctrl-D)")
	default:
		b, err = io.ReadAll(io.LimitReader(stdin, 16<<20))
		what = "standard input"
	}
	if err != nil {
		return "", err
	}
	if err := cli.CheckText(b, what); err != nil {
		return "", err
	}
	return checkText(string(b))
}

// pickEngine: text written without a Latin letter in a script whose
// language segment.DetectLanguage is sure of (Japanese, Russian, Greek
// ...) goes to espeak-ng in that language when neither --engine nor
// --language was given, since flite reads English only and would write
// silence. Latin-script guesses rest on a few function words, so they do
// not switch (--language does).
func (c *config) pickEngine(text string, stderr io.Writer) {
	if c.engineSet || c.language != "" || c.voice != tts.VoiceAuto {
		return
	}
	if strings.ContainsFunc(text, func(r rune) bool { return r < 0x80 && unicode.IsLetter(r) }) {
		return
	}
	if tag, sure := segment.DetectLanguage(text); sure && tag != "" && tag != "en" {
		c.engine, c.language = "espeak-ng", tag
		fmt.Fprintf(stderr, "language %s (from the text's script; --language sets it), engine espeak-ng\n", tag)
	}
}

// checkText refuses text with nothing to read aloud (no letter or digit:
// only spaces, punctuation, symbols or emoji), as POST /v1/audio/speech
// does, rather than writing a file of silence.
func checkText(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", errors.New("no text: pass it as arguments, with --text-file, or on standard input")
	}
	if !strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return "", errors.New("the text has nothing to speak (no letter or digit)")
	}
	return s, nil
}

func listVoices(b tts.Backend, w io.Writer) error {
	l, ok := b.(tts.Lister)
	if !ok {
		return errors.New("this engine does not list its voices")
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "VOICE\tLANGUAGES\tGENDER\tRATE\tCONTROLS\tNAME")
	for _, v := range l.Voices() {
		def := ""
		if v.Default {
			def = " (default)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s%s\n", v.ID, strings.Join(v.Languages, ","), v.Gender, v.SampleRate,
			strings.Join(v.Controls, ","), v.Name, def)
	}
	return tw.Flush()
}

// play pipes the WAV to the first player found.
func play(ctx context.Context, wav []byte) error {
	for _, p := range [][]string{{"aplay", "-q", "-"}, {"paplay"}, {"ffplay", "-nodisp", "-autoexit", "-loglevel", "quiet", "-"}} {
		if _, err := exec.LookPath(p[0]); err != nil {
			continue
		}
		cmd := exec.CommandContext(ctx, p[0], p[1:]...)
		cmd.Stdin = strings.NewReader(string(wav))
		return cmd.Run()
	}
	return errors.New("no audio player found (aplay, paplay or ffplay); write a file with -o instead")
}

// writeMarks writes word timings as WebVTT (one cue per word) for a .vtt
// path, else as a JSON array of marks.
func writeMarks(path, text string, marks []tts.Mark) error {
	var b strings.Builder
	if strings.HasSuffix(strings.ToLower(path), ".vtt") {
		b.WriteString("WEBVTT\n\n")
		for i, m := range marks {
			fmt.Fprintf(&b, "%d\n%s --> %s\n%s\n\n", i+1, vttTime(m.Start), vttTime(m.End), m.Word)
		}
	} else {
		if marks == nil {
			marks = []tts.Mark{}
		}
		j, err := json.MarshalIndent(map[string]any{"text": text, "marks": marks}, "", "  ")
		if err != nil {
			return err
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func vttTime(s float64) string {
	ms := int64(s*1000 + 0.5)
	return fmt.Sprintf("%02d:%02d:%02d.%03d", ms/3600000, ms/60000%60, ms/1000%60, ms%1000)
}
