package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/internal/cli"
	"github.com/sottolabs/sotto/internal/progress"
	"github.com/sottolabs/sotto/normalize"
	eval "github.com/sottolabs/sotto/normalize/normalizetest"
)

const normalizeUsage = `usage: sotto-normalize [flags] [TEXT...]

sotto-normalize rewrites TEXT (or standard input, also as "-") between its
written and spoken forms: text normalization (--mode tn: "$12.50 at 3:30 pm"
becomes "twelve dollars fifty cents at three thirty PM", what a speech
synthesizer should say) and inverse normalization (--mode itn: "twenty five
percent" becomes "25 %", what a transcript should show). Numbers, money,
measures, dates, times, telephone numbers, addresses and abbreviations are
covered; --capabilities lists the languages and classes of each mode.

Examples:
  sotto-normalize "The meeting is on 3/4/2025 at 10:30am."
  sotto-normalize --mode itn "i paid twenty five dollars on the fifth of may"
  sotto-normalize --lang de "Am 3. Oktober kostete es 12,50 €."
  sotto-normalize --top-k 3 --json "St. Louis is 5 mi away"
  sotto-normalize --classes money,date < letter.txt
  sotto-normalize --capabilities

Exit status: 0 success, 1 reading or writing failed (the reason is
printed), 2 usage error.

Flags:
`

// run is the whole command; main only wires it to the process.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := pflag.NewFlagSet("sotto-normalize", pflag.ContinueOnError)
	// --language, as sotto-transcribe, sotto-speak and sotto-segment spell
	// it (and the API's field), is accepted for --lang.
	fs.SetNormalizeFunc(func(_ *pflag.FlagSet, n string) pflag.NormalizedName {
		if n == "language" {
			n = "lang"
		}
		return pflag.NormalizedName(n)
	})
	fs.SetOutput(stderr)
	lang := fs.String("lang", "en", "BCP 47 language tag, or und")
	mode := fs.String("mode", "tn", "tn (written to spoken) or itn (spoken to written)")
	topK := fs.Int("top-k", 1, "number of alternatives to print (1-16)")
	classes := fs.StringSlice("classes", nil, "restrict conversion to these classes")
	asJSON := fs.Bool("json", false, "print the full normalization result as JSON")
	evalDir := fs.String("eval", "", "run the accuracy report over the JSONL suites in `DIR` (text/normalize)")
	failures := fs.Int("failures", 0, "with --eval: print up to N failing cases to stderr")
	caps := fs.Bool("capabilities", false, "print the languages and classes per mode as JSON")
	report := fs.String("report", "", "write the markdown accuracy and throughput report for the suites in `DIR`")
	strict := fs.String("strict", "", "score the suites in `DIR` as the API would (top_k 1, default options), dev and sealed parts apart; --failures N lists dev failures")
	strictLangs := fs.StringSlice("strict-lang", nil, "with --strict: only these languages")
	strictClasses := fs.Bool("strict-classes", false, "with --strict: per-class rows too")
	usage := func(w io.Writer) {
		fs.SetOutput(w)
		fmt.Fprint(w, normalizeUsage)
		fs.PrintDefaults()
	}
	help := fs.BoolP("help", "h", false, "show this help")
	fs.Usage = func() {} // printed below: --help to standard output, to page or grep it
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			usage(stdout)
			return nil
		}
		return cli.UsageError{Err: err}
	}
	if *help {
		usage(stdout)
		return nil
	}
	if *topK < 1 || *topK > normalize.MaxTopK {
		// The library reads 0 as its default of 8; a user who typed 0 asked
		// for none, and is told before any text is waited for.
		return cli.Usagef("--top-k: top_k %d is outside 1..%d", *topK, normalize.MaxTopK)
	}
	if *caps {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(normalize.Capabilities())
	}
	if *report != "" {
		return runReport(ctx, suiteDir(*report), stdout)
	}
	if *strict != "" {
		return runStrict(ctx, *strict, *strictLangs, *strictClasses, *failures, stdout, stderr)
	}
	if *evalDir != "" {
		return runEval(ctx, *evalDir, *failures, stdout, stderr)
	}
	var text string
	what := "the text"
	if fs.NArg() > 0 && !(fs.NArg() == 1 && fs.Arg(0) == "-") { // "-": standard input
		text = strings.Join(fs.Args(), " ")
	} else if fs.NArg() == 0 && progress.IsTerminal(stdin) {
		// Nothing given and nothing piped: waiting silently for typing
		// looks like a hang.
		return cli.Usagef("no text: give TEXT or pipe it in (\"-\" reads what you type, up to Ctrl-D)")
	} else {
		b, err := io.ReadAll(stdin)
		if err != nil {
			return err
		}
		text, what = strings.TrimRight(string(b), "\n"), "standard input"
	}
	if err := cli.CheckText([]byte(text), what); err != nil {
		return err
	}
	if text == "" {
		return errors.New("no text: pass it as arguments or on stdin")
	}
	opts := normalize.Options{Language: *lang, Mode: normalize.Mode(*mode), TopK: *topK}
	if fs.Changed("classes") {
		// A name that is no class at all is a typing mistake (exit 2, with
		// the names); a class the language lacks is the library's 422.
		for _, c := range *classes {
			if !slices.Contains(normalize.AllClasses, c) {
				return cli.Usagef("--classes: %q is not a class; the classes are %s", c, strings.Join(normalize.AllClasses, ", "))
			}
		}
		opts.Classes = *classes
	}
	res, err := normalize.Normalize(ctx, text, opts)
	if err != nil {
		return flagError(err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(res)
	}
	for _, a := range res.Alternatives {
		if len(res.Alternatives) > 1 {
			fmt.Fprintf(stdout, "%d\t", a.Rank)
		}
		fmt.Fprintln(stdout, a.Text)
	}
	return nil
}

// optionFlags name the flag of each option normalize validates.
var optionFlags = map[string]string{"mode": "--mode", "language": "--lang", "top_k": "--top-k", "classes": "--classes"}

// flagError turns normalize's refusal of an option into a usage error
// naming the flag (exit status 2, as an unknown flag); other errors pass.
func flagError(err error) error {
	var se *sotto.Error
	if errors.As(err, &se) && errors.Is(err, sotto.ErrInvalidRequest) && optionFlags[se.Param] != "" {
		return cli.Usagef("%s: %s", optionFlags[se.Param], strings.TrimPrefix(se.Message, "normalize: "))
	}
	return err
}

// suiteDir accepts either the text/normalize folder or its parent.
func suiteDir(dir string) string {
	if fi, err := os.Stat(filepath.Join(dir, "normalize")); err == nil && fi.IsDir() {
		return filepath.Join(dir, "normalize")
	}
	return dir
}

func runEval(ctx context.Context, dir string, nfail int, stdout, stderr io.Writer) error {
	dir = suiteDir(dir)
	cases, err := eval.Load(dir)
	if err != nil {
		return err
	}
	if len(cases) == 0 {
		return fmt.Errorf("no *.jsonl cases under %s", dir)
	}
	start := time.Now()
	rep, err := eval.Run(ctx, cases)
	if err != nil {
		return err
	}
	rep.Markdown(stdout)
	fmt.Fprintf(stderr, "%d cases in %v\n", len(cases), time.Since(start).Round(time.Millisecond))
	for k, f := range rep.Failures {
		if k >= nfail {
			break
		}
		fmt.Fprintf(stderr, "FAIL %s/%s/%s %s %q\n   got  %q\n   want %q\n", f.Case.Lang, f.Case.Mode, f.Case.Class, f.Case.File, f.Case.Input, f.Got, f.Case.Expected)
	}
	return nil
}

// runStrict prints the strict dev/sealed figures and lists up to nfail dev
// failures (the sealed part's failures are counted, never shown).
func runStrict(ctx context.Context, dir string, langs []string, classes bool, nfail int, stdout, stderr io.Writer) error {
	cases, err := eval.Load(suiteDir(dir))
	if err != nil {
		return err
	}
	rep, err := eval.RunStrict(ctx, cases, langs...)
	if err != nil {
		return err
	}
	rep.Markdown(stdout, classes)
	for k, f := range rep.Failures {
		if k >= nfail {
			break
		}
		fmt.Fprintf(stderr, "FAIL %s/%s/%s %s %q\n   got  %q\n   want %q\n", f.Case.Lang, f.Case.Mode, f.Case.Class, f.Case.File, f.Case.Input, f.Got, f.Case.Expected)
	}
	return nil
}
