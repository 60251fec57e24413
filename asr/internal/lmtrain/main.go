// Command lmtrain builds a second English language model for the
// recognizer's lattice rescoring from English text Debian ships: the
// Collaborative International Dictionary of English (dict-gcide: Webster
// 1913 with its quotations), WordNet's glosses and example sentences
// (wordnet-base), fortune cookies (fortunes, fortunes-min) and The Devil's
// Dictionary (dict-devil). The text is cut into sentences, spelled the way
// the recognizer's words are (lower case, apostrophes kept, every other
// character a space; numbers as words through package normalize), and
// counted into an interpolated modified Kneser-Ney trigram over
// cmudict-en-us's words (internal/lm Trainer), written as ARPA text
// (gzip-compressed when the name ends in .gz).
//
//	go run ./asr/internal/lmtrain -out .sotto-data/asr/debian-text.arpa.gz
//	go run ./asr/internal/lmtrain -check   # contamination check only
//
// -check measures, for each source, the share of the word 6-grams of the
// English test transcripts (speech/en_*.txt of the shared test data) that
// occur in the source's text, beside the same share for a control text
// that cannot hold them (the Jargon File, dict-jargon, when installed), and
// lists the 6-grams found.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/sottolabs/sotto/internal/holdout"
	"github.com/sottolabs/sotto/internal/lm"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/normalize"
)

// checkN is the n-gram length of the contamination check.
var checkN = 6

const dictPath = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"

// source is one Debian text: its name and a function giving its raw
// sentences.
type source struct {
	name string
	pkg  string
	read func(emit func(string)) error
}

var sources = []source{
	{"gcide", "dict-gcide", func(emit func(string)) error { return readDict("/usr/share/dictd/gcide.dict.dz", emit) }},
	{"wordnet", "wordnet-base", readWordNet},
	{"fortunes", "fortunes", readFortunes},
	{"devil", "dict-devil", func(emit func(string)) error { return readDict("/usr/share/dictd/devil.dict.dz", emit) }},
	{"kjv", "bible-kjv", readKJV},
}

var control = source{"jargon (control)", "dict-jargon", func(emit func(string)) error {
	return readDict("/usr/share/dictd/jargon.dict.dz", emit)
}}

func main() {
	out := flag.String("out", "", "ARPA file to write (.gz: gzip-compressed)")
	check := flag.Bool("check", false, "contamination check only: the test transcripts' 6-grams found in each source")
	use := flag.String("sources", "gcide,wordnet,fortunes,devil", "sources to train on, comma-separated")
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
		err = train(ctx, *out, strings.Split(*use, ","), *minTri)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "lmtrain:", err)
		os.Exit(1)
	}
}

func train(ctx context.Context, out string, use []string, minTri int) error {
	vocab, err := dictWords(dictPath)
	if err != nil {
		return err
	}
	t, err := lm.NewTrainer(vocab)
	if err != nil {
		return err
	}
	for _, s := range sources {
		if !slices.Contains(use, s.name) {
			continue
		}
		before, oov, n := t.Tokens, t.OOV, 0
		err := s.read(func(raw string) {
			for _, ws := range sentences(ctx, raw) {
				// Fragments (sense labels, headword leftovers) and
				// lines mostly outside the vocabulary (etymologies,
				// code) are not English sentences.
				k := 0
				for _, w := range ws {
					if t.Known(w) {
						k++
					}
				}
				if len(ws) < 3 || k*10 < len(ws)*8 {
					continue
				}
				t.Add(ws)
				n++
			}
		})
		if err != nil {
			return fmt.Errorf("%s (Debian package %s): %w", s.name, s.pkg, err)
		}
		fmt.Fprintf(os.Stderr, "%s: %d sentences, %d words, %d outside the vocabulary\n", s.name, n, t.Tokens-before, t.OOV-oov)
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	tmp := out + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	var w io.Writer = f
	var zw *gzip.Writer
	if strings.HasSuffix(out, ".gz") {
		zw = gzip.NewWriter(f)
		w = zw
	}
	if err := t.WriteARPA(w, lm.TrainOptions{MinTrigram: minTri}); err != nil {
		f.Close()
		return err
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			f.Close()
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, out)
}

// dictWords returns the spellings of the pronunciation dictionary, variants
// ("word(2)") folded.
func dictWords(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var ws []string
	seen := map[string]bool{}
	for line := range strings.Lines(string(b)) {
		w, _, _ := strings.Cut(line, " ")
		if i := strings.IndexByte(w, '('); i > 0 {
			w = w[:i]
		}
		w = strings.TrimSpace(w)
		if w != "" && !seen[w] {
			seen[w] = true
			ws = append(ws, w)
		}
	}
	return ws, nil
}

var (
	sentenceEnd = regexp.MustCompile(`[.!?;:]+(["')\]]*)(\s|$)`)
	hasDigit    = regexp.MustCompile(`[0-9]`)
)

// sentences cuts raw text into sentences of words spelled as the
// recognizer's (and the ASR eval's) words are.
func sentences(ctx context.Context, raw string) [][]string {
	var out [][]string
	for _, s := range sentenceEnd.Split(raw, -1) {
		if hasDigit.MatchString(s) {
			if r, err := normalize.Normalize(ctx, s, normalize.Options{Language: "en"}); err == nil {
				s = r.Best()
			}
		}
		s = strings.Map(func(r rune) rune {
			r = unicode.ToLower(r)
			if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' {
				return r
			}
			return ' '
		}, s)
		var ws []string
		for _, w := range strings.Fields(s) {
			if w = strings.Trim(w, "'"); w != "" {
				ws = append(ws, w)
			}
		}
		if len(ws) > 0 {
			out = append(out, ws)
		}
	}
	return out
}

var (
	dictBracket  = regexp.MustCompile(`\[[^\]]*\]`)
	dictCite     = regexp.MustCompile(`--\s*\S+`)
	dictLabel    = regexp.MustCompile(`\([A-Z][A-Za-z]*\.?( [A-Za-z]+\.?)?\)`)
	dictSense    = regexp.MustCompile(`(^|\s)(\d+|[a-z])\.\s`)
	dictSynonyms = regexp.MustCompile(`Syn(onyms)?:`)
)

// readDict reads a dictd database (dictzip, which gzip reads): each entry's
// headword lines (at column 0, with the pronunciation between
// backslashes) are left out, then brackets (etymologies, "[1913
// Webster]"), citations ("--Shak."), field labels ("(Zool.)") and sense
// numbers; paragraphs (blank lines) end sentences.
func readDict(path string, emit func(string)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var para strings.Builder
	flush := func() {
		s := para.String()
		para.Reset()
		s = dictBracket.ReplaceAllString(s, " ")
		s = dictCite.ReplaceAllString(s, ". ")
		s = dictLabel.ReplaceAllString(s, " ")
		s = dictSense.ReplaceAllString(s, ". ")
		s = dictSynonyms.ReplaceAllString(s, ". ")
		s = strings.NewReplacer("{", "", "}", "", "`", "", "*", "").Replace(s)
		if strings.TrimSpace(s) != "" {
			emit(s)
		}
	}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.TrimSpace(line) == "":
			flush()
		case line[0] != ' ' && line[0] != '\t':
			// A headword line: keep what follows its pronunciation
			// (the etymology bracket is dropped with the rest).
			flush()
			if i := strings.LastIndexByte(line, '\\'); i >= 0 {
				line = line[i+1:]
			}
			// The part of speech ("n.", "v. t.") is no sentence.
			para.WriteString(". " + line + " ")
		default:
			para.WriteString(line)
			para.WriteByte(' ')
		}
	}
	flush()
	return sc.Err()
}

// readKJV reads the King James Bible through bible-kjv's reader, one verse
// at a time (verse numbers and book headings left out).
func readKJV(emit func(string)) error {
	out, err := exec.Command("bible", "-l100000", "gen1:1-rev22:21").Output()
	if err != nil {
		return err
	}
	for line := range strings.Lines(string(out)) {
		t := strings.TrimSpace(line)
		num, verse, ok := strings.Cut(t, " ")
		if !ok || strings.Trim(num, "0123456789") != "" {
			continue
		}
		emit(verse)
	}
	return nil
}

// readWordNet reads the glosses of WordNet's data files: definitions and
// quoted example sentences after "|", split at ";".
func readWordNet(emit func(string)) error {
	for _, pos := range []string{"noun", "verb", "adj", "adv"} {
		b, err := os.ReadFile("/usr/share/wordnet/data." + pos)
		if err != nil {
			return err
		}
		for line := range strings.Lines(string(b)) {
			if strings.HasPrefix(line, " ") {
				continue // the licence
			}
			_, gloss, ok := strings.Cut(line, " | ")
			if !ok {
				continue
			}
			for _, part := range strings.Split(gloss, ";") {
				emit(strings.Trim(strings.TrimSpace(part), `"`) + ".")
			}
		}
	}
	return nil
}

// readFortunes reads the English fortune files (fortunes, fortunes-min):
// cookies between "%" lines, attribution lines ("-- Mark Twain") left out.
func readFortunes(emit func(string)) error {
	files, err := filepath.Glob("/usr/share/games/fortunes/*")
	if err != nil {
		return err
	}
	n := 0
	for _, p := range files {
		if strings.HasSuffix(p, ".dat") || strings.HasSuffix(p, ".u8") {
			continue
		}
		st, err := os.Stat(p)
		if err != nil || st.IsDir() {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		var cookie strings.Builder
		for line := range strings.Lines(string(b)) {
			t := strings.TrimSpace(line)
			switch {
			case t == "%":
				emit(cookie.String())
				cookie.Reset()
			case strings.HasPrefix(t, "--"):
			default:
				cookie.WriteString(t)
				cookie.WriteByte(' ')
			}
		}
		emit(cookie.String())
	}
	if n == 0 {
		return fmt.Errorf("no fortune files in /usr/share/games/fortunes")
	}
	return nil
}

// contamination prints, for each source and the control, the share of the
// test transcripts' distinct word 6-grams found in its sentences.
func contamination(ctx context.Context) error {
	dir, err := testdata.Lookup("speech")
	if err != nil {
		return err
	}
	wavs, _ := filepath.Glob(filepath.Join(dir, "en_*_16k.wav"))
	slices.Sort(wavs)
	type ref struct {
		base  string
		grams []string
	}
	var refs []ref
	all := map[string][]string{} // 6-gram → recordings
	for _, w := range wavs {
		base := strings.TrimSuffix(filepath.Base(w), "_16k.wav")
		txt, err := os.ReadFile(filepath.Join(dir, base+".txt"))
		if err != nil {
			continue
		}
		var ws []string
		for _, s := range sentences(ctx, string(txt)) {
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
	for _, s := range append(slices.Clone(sources), control) {
		found := map[string]bool{}
		words := 0
		err := s.read(func(raw string) {
			// 6-grams across the source's sentence cuts count too: a
			// quotation cut at a semicolon is still the quotation.
			var ws []string
			for _, sn := range sentences(ctx, raw) {
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
			fmt.Printf("| %s | (not installed: %v) | | | |\n", s.name, err)
			continue
		}
		recs := map[string]int{}
		for g := range found {
			for _, b := range all[g] {
				recs[b]++
			}
		}
		fmt.Printf("| %s | %d | %d | %.3f %% | %d |\n", s.name, words, len(found), 100*float64(len(found))/float64(len(all)), len(recs))
		var gs []string
		for g := range found {
			gs = append(gs, g+" ("+strings.Join(all[g], ", ")+")")
		}
		slices.Sort(gs)
		var buf bytes.Buffer
		for _, g := range gs {
			fmt.Fprintf(&buf, "    %s\n", g)
		}
		fmt.Fprint(os.Stderr, s.name+":\n"+buf.String())
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
	wavs, _ := filepath.Glob(filepath.Join(dir, "en_*_16k.wav"))
	slices.Sort(wavs)
	type tok struct{ p1, p2 float64 }
	var toks []tok
	oov := 0
	for _, w := range wavs {
		base := strings.TrimSuffix(filepath.Base(w), "_16k.wav")
		txt, err := os.ReadFile(filepath.Join(dir, base+".txt"))
		if err != nil || holdout.Part(base) != "dev" {
			continue
		}
		var ws []string
		for _, s := range sentences(ctx, string(txt)) {
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
