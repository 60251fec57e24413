// Command lmtrain builds the second English language model of the
// recognizer's lattice rescoring (asr option lm2) from English text Debian
// ships (package asr/internal/debtext), and checks it:
//
//	go run ./asr/internal/lmtrain -out debian-text.arpa.gz   # the default sources
//	go run ./asr/internal/lmtrain -check                     # contamination check only
//	go run ./asr/internal/lmtrain -ppl debian-text.arpa.gz   # dev perplexity
//
// -check measures, for each source, the share of the word 6-grams (-n) of
// the English test transcripts (speech/en_*.txt of the shared test data)
// that occur in the source's text, beside the same share for a control
// text that cannot hold them (the Jargon File, dict-jargon, when
// installed), and lists the n-grams found on standard error. -ppl prints
// the perplexity of the dev part's transcripts under Debian's trigram, the
// given model, and their interpolations.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/sottolabs/sotto/asr/internal/debtext"
	"github.com/sottolabs/sotto/asr/internal/evalset"
	"github.com/sottolabs/sotto/internal/lm"
	"github.com/sottolabs/sotto/internal/testdata"
)

// checkN is the n-gram length of the contamination check.
var checkN = 6

func main() {
	out := flag.String("out", "", "ARPA file to write (.gz: gzip-compressed)")
	check := flag.Bool("check", false, "contamination check only: the test transcripts' 6-grams found in each source")
	use := flag.String("sources", strings.Join(debtext.DefaultSources, ","), "sources to train on, comma-separated")
	minTri := flag.Int("min3", 2, "drop trigrams seen fewer times")
	flag.IntVar(&checkN, "n", 6, "-check: the n-gram length")
	ppl := flag.String("ppl", "", "perplexity of the dev part's transcripts under Debian's trigram, this ARPA file and their interpolations")
	flag.Parse()
	ctx := context.Background()
	var err error
	if *ppl != "" {
		err = perplexity(ctx, *ppl)
	} else if *check {
		err = contamination(ctx)
	} else if *out == "" {
		err = fmt.Errorf("-out is required")
	} else {
		err = debtext.Build(ctx, *out, strings.Split(*use, ","), *minTri, os.Stderr)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "lmtrain:", err)
		os.Exit(1)
	}
}

// contamination prints, for each source and the control, the share of the
// test transcripts' distinct word 6-grams found in its sentences.
func contamination(ctx context.Context) error {
	dir, err := testdata.Lookup("speech")
	if err != nil {
		return err
	}
	recs, err := evalset.List(dir, 1, "")
	if err != nil {
		return err
	}
	type ref struct {
		base  string
		grams []string
	}
	var refs []ref
	all := map[string][]string{} // 6-gram → recordings
	for _, rec := range recs {
		base := rec.Name
		var ws []string
		for _, s := range debtext.Sentences(ctx, rec.Text) {
			ws = append(ws, s...)
		}
		r := ref{base: base}
		for i := 0; i+checkN <= len(ws); i++ {
			g := strings.Join(ws[i:i+checkN], " ")
			if !slices.Contains(all[g], base) {
				all[g] = append(all[g], base)
			}
			r.grams = append(r.grams, g)
		}
		refs = append(refs, r)
	}
	fmt.Printf("%d recordings, %d distinct word %d-grams\n\n", len(refs), len(all), checkN)
	fmt.Printf("| source | words | n-grams found | share | recordings with one |\n|---|---|---|---|---|\n")
	for _, s := range append(slices.Clone(debtext.Sources), debtext.Control) {
		found := map[string]bool{}
		words := 0
		err := s.Read(func(raw string) {
			// 6-grams across the source's sentence cuts count too: a
			// quotation cut at a semicolon is still the quotation.
			var ws []string
			for _, sn := range debtext.Sentences(ctx, raw) {
				ws = append(ws, sn...)
			}
			words += len(ws)
			for i := 0; i+checkN <= len(ws); i++ {
				g := strings.Join(ws[i:i+checkN], " ")
				if _, ok := all[g]; ok {
					found[g] = true
				}
			}
		})
		if err != nil {
			fmt.Printf("| %s | (not installed: %v) | | | |\n", s.Name, err)
			continue
		}
		recs := map[string]int{}
		for g := range found {
			for _, b := range all[g] {
				recs[b]++
			}
		}
		fmt.Printf("| %s | %d | %d | %.3f %% | %d |\n", s.Name, words, len(found), 100*float64(len(found))/float64(len(all)), len(recs))
		var gs []string
		for g := range found {
			gs = append(gs, g+" ("+strings.Join(all[g], ", ")+")")
		}
		slices.Sort(gs)
		var buf bytes.Buffer
		for _, g := range gs {
			fmt.Fprintf(&buf, "    %s\n", g)
		}
		fmt.Fprint(os.Stderr, s.Name+":\n"+buf.String())
	}
	return nil
}

// perplexity prints the perplexity of the dev part's transcripts (the
// words both models know; a word Debian's model lacks restarts the
// history) under Debian's trigram, the model in path, and their linear
// interpolation at a few weights.
func perplexity(ctx context.Context, path string) error {
	deb, err := lm.Load("/usr/share/pocketsphinx/model/en-us/en-us.lm.bin")
	if err != nil {
		return err
	}
	m2, err := lm.Load(path)
	if err != nil {
		return err
	}
	dir, err := testdata.Lookup("speech")
	if err != nil {
		return err
	}
	recs, err := evalset.List(dir, 1, "dev")
	if err != nil {
		return err
	}
	type tok struct{ p1, p2 float64 }
	var toks []tok
	oov := 0
	for _, rec := range recs {
		var ws []string
		for _, s := range debtext.Sentences(ctx, rec.Text) {
			ws = append(ws, s...)
		}
		ws = append(ws, lm.SentenceEnd)
		s1, _ := deb.ID(lm.SentenceStart)
		s2, _ := m2.ID(lm.SentenceStart)
		h1, h2 := []int32{s1}, []int32{s2}
		for _, word := range ws {
			a, ok1 := deb.ID(word)
			b, ok2 := m2.ID(word)
			if !ok1 || !ok2 {
				oov++
				h1, h2 = nil, nil
				continue
			}
			toks = append(toks, tok{math.Exp(float64(deb.Score(a, h1...))), math.Exp(float64(m2.Score(b, h2...)))})
			h1 = append([]int32{a}, h1...)
			h2 = append([]int32{b}, h2...)
			if len(h1) > 2 {
				h1, h2 = h1[:2], h2[:2]
			}
		}
	}
	fmt.Printf("dev transcripts: %d words scored (with </s>), %d outside a model\n", len(toks), oov)
	for _, lam := range []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 1} {
		var sum float64
		for _, t := range toks {
			sum += math.Log(lam*t.p2 + (1-lam)*t.p1)
		}
		fmt.Printf("lambda %.1f: perplexity %.1f\n", lam, math.Exp(-sum/float64(len(toks))))
	}
	return nil
}
