package normalizetest

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/sottolabs/sotto/internal/holdout"
	"github.com/sottolabs/sotto/normalize"
)

// Strict scoring is the one a new user of the HTTP API would apply, and the
// one the project is judged by on unseen cases: each case's input through
// normalize.Normalize with only its language and mode set (the API's
// defaults, top_k 1), the single answer whitespace-collapsed against
// `expected` or any `accepted`; cases that record upstream `options` are
// skipped, and so are sentence-level evaluation sets. A case the API refuses
// (an empty input: the spec's text is non-empty) counts as wrong, as it does
// for a judge sending it through POST /v1/text/normalizations.

// SplitKey groups strict results: language, mode, class ("" = all) and part
// ("dev" or "sealed", from [holdout.Part] of the input).
type SplitKey struct{ Lang, Mode, Class, Part string }

// SplitReport is the outcome of [RunStrict].
type SplitReport struct {
	Tally    map[SplitKey]Tally
	Failures []Failure // dev-part failures only: the sealed part is not for reading
	Sealed   int       // sealed failures, counted, never listed
}

// StrictOptions returns the options a strict run uses for c.
func (c Case) StrictOptions() normalize.Options {
	return normalize.Options{Language: c.Lang, Mode: normalize.Mode(c.Mode), TopK: 1}
}

// RunStrict scores every unit-test case without upstream options, split into
// the dev and sealed parts. langs, when not empty, limits the languages run.
func RunStrict(ctx context.Context, cases []Case, langs ...string) (*SplitReport, error) {
	r := &SplitReport{Tally: map[SplitKey]Tally{}}
	supported := map[string]bool{}
	for _, l := range normalize.Languages() {
		supported[l] = true
	}
	for _, c := range cases {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(c.Options) > 0 || c.SentenceLevel() || !supported[c.Lang] {
			continue
		}
		if len(langs) > 0 && !slices.Contains(langs, c.Lang) {
			continue
		}
		got := ""
		// The API's own request check first: its text is non-empty (a
		// 400 otherwise), so an empty input is never right through the
		// API and is not counted right here either.
		text, lang, one := c.Input, c.Lang, normalize.Literal("1")
		err := (&normalize.Request{Text: &text, Language: &lang, Mode: normalize.Mode(c.Mode), TopK: &one}).Validate()
		if err == nil {
			var res *normalize.Result
			res, err = normalize.Normalize(ctx, c.Input, c.StrictOptions())
			if err == nil {
				got = res.Best()
			}
		}
		ok := err == nil && c.Correct(got)
		part := holdout.Part(c.Input)
		for _, cl := range []string{"", c.Class} {
			k := SplitKey{c.Lang, c.Mode, cl, part}
			t := r.Tally[k]
			t.Total++
			if ok {
				t.Pass++
				t.AnyPass++
			}
			r.Tally[k] = t
		}
		if !ok {
			if part == "dev" {
				r.Failures = append(r.Failures, Failure{c, got, err})
			} else {
				r.Sealed++
			}
		}
	}
	return r, nil
}

// Markdown writes the dev and sealed figures per language and mode, then per
// class when classes is true.
func (r *SplitReport) Markdown(w io.Writer, classes bool) {
	type lm struct{ lang, mode, class string }
	seen := map[lm]bool{}
	var rows []lm
	for k := range r.Tally {
		x := lm{k.Lang, k.Mode, k.Class}
		if !seen[x] && (classes || k.Class == "") {
			seen[x] = true
			rows = append(rows, x)
		}
	}
	slices.SortFunc(rows, func(a, b lm) int {
		return strings.Compare(a.lang+"\x00"+a.mode+"\x00"+a.class, b.lang+"\x00"+b.mode+"\x00"+b.class)
	})
	head := "| language | mode | dev cases | dev | sealed cases | sealed |"
	sep := "| --- | --- | ---: | ---: | ---: | ---: |"
	if classes {
		head = "| language | mode | class | dev cases | dev | sealed cases | sealed |"
		sep = "| --- | --- | --- | ---: | ---: | ---: | ---: |"
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, sep)
	for _, x := range rows {
		d := r.Tally[SplitKey{x.lang, x.mode, x.class, "dev"}]
		s := r.Tally[SplitKey{x.lang, x.mode, x.class, "sealed"}]
		if classes {
			if x.class == "" {
				continue
			}
			fmt.Fprintf(w, "| %s | %s | %s | %d | %.1f%% | %d | %.1f%% |\n", x.lang, x.mode, x.class, d.Total, d.Pct(), s.Total, s.Pct())
		} else {
			fmt.Fprintf(w, "| %s | %s | %d | %.1f%% | %d | %.1f%% |\n", x.lang, x.mode, d.Total, d.Pct(), s.Total, s.Pct())
		}
	}
}
