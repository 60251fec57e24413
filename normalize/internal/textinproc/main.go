// Command textinproc prints, for every case of the shared text suites, what
// the in-process scorers compute: the best normalization of the case's
// input at top_k 1 with the case's language and mode and default options
// (as `sotto-normalize --strict` runs it), and the sentences the segmenter
// finds with the case's language and with the language guessed (as
// segment/internal/segbench runs them). scripts/text-api-check.py sends the
// same cases through the HTTP API and compares the two case by case.
//
//	go run ./normalize/internal/textinproc -data $SOTTO_TESTDATA/text > inproc.jsonl
//
// One JSON object a line: file (relative to -data), line (1-based line of
// the case in the file), kind (normalize or segment), then for
// normalization best (or err: an input the API refuses, such as an empty
// one, is its error, as normalizetest.RunStrict counts it) and supported
// (whether the case's language has rules), for segmentation sentences and
// guessed (or err).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/normalize"
	"github.com/sottolabs/sotto/segment"
)

type record struct {
	File      string   `json:"file"`
	Line      int      `json:"line"`
	Kind      string   `json:"kind"`
	Best      *string  `json:"best,omitempty"`
	Supported *bool    `json:"supported,omitempty"`
	Sentences []string `json:"sentences,omitempty"`
	Guessed   []string `json:"guessed,omitempty"`
	Err       string   `json:"err,omitempty"`
}

type testCase struct {
	Lang  string `json:"lang"`
	Mode  string `json:"mode"`
	Input string `json:"input"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "textinproc:", err)
		os.Exit(1)
	}
}

func run() error {
	data := flag.String("data", filepath.Join(testdata.Root(), "text"), "the text suites (normalize/ and segment/ below it)")
	flag.Parse()
	var files []string
	err := filepath.WalkDir(*data, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(files)
	langs := normalize.Languages()
	ctx := context.Background()
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, path := range files {
		rel, _ := filepath.Rel(*data, path)
		rel = filepath.ToSlash(rel)
		kind := strings.SplitN(rel, "/", 2)[0]
		if kind != "normalize" && kind != "segment" {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			var c testCase
			if err := json.Unmarshal([]byte(line), &c); err != nil {
				return fmt.Errorf("%s:%d: %w", rel, i+1, err)
			}
			r := record{File: rel, Line: i + 1, Kind: kind}
			if kind == "normalize" {
				sup := slices.Contains(langs, c.Lang)
				r.Supported = &sup
				// The API's request check first, as RunStrict does.
				text, lang, one := c.Input, c.Lang, normalize.Literal("1")
				err := (&normalize.Request{Text: &text, Language: &lang, Mode: normalize.Mode(c.Mode), TopK: &one}).Validate()
				var res *normalize.Result
				if err == nil || !sup {
					res, err = normalize.Normalize(ctx, c.Input, normalize.Options{Language: c.Lang, Mode: normalize.Mode(c.Mode), TopK: 1})
				}
				if err != nil {
					r.Err = err.Error()
				} else {
					best := res.Best()
					r.Best = &best
				}
			} else {
				got, err := segment.Sentences(ctx, c.Input, segment.Options{Language: c.Lang})
				if err == nil {
					r.Sentences = got
					got, err = segment.Sentences(ctx, c.Input, segment.Options{})
					r.Guessed = got
				}
				if err != nil {
					r.Err = err.Error()
				}
			}
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
	}
	return nil
}
