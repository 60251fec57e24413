// Package debtext builds the second English language model of the
// recognizer's lattice rescoring (asr option lm2) from English text Debian
// ships: the Collaborative International Dictionary of English
// (dict-gcide: Webster 1913 with its quotations), fortune cookies
// (fortunes, fortunes-min), The Devil's Dictionary (dict-devil), the King
// James Bible (bible-kjv) and, not used by default, WordNet's glosses
// (wordnet-base). The text is cut into sentences, spelled the way the
// recognizer's words are (lower case, apostrophes kept, every other
// character a space; numbers as words through package normalize), and
// counted into an interpolated modified Kneser-Ney trigram over
// cmudict-en-us's words (internal/lm Trainer), trigrams seen once
// dropped, written as gzip-compressed ARPA text. See docs/bench/asr.md
// (session 13) for the contamination check and the measurements.
package debtext

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/sottolabs/sotto/internal/lm"
	"github.com/sottolabs/sotto/normalize"
)

// DictPath is the pronouncing dictionary whose words are the model's
// vocabulary.
const DictPath = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"

// Source is one Debian text: its name, the Debian package that ships it,
// a file (or program) that package installs, and a function giving its raw
// text, a piece (a paragraph, a verse, a gloss) at a time.
type Source struct {
	Name    string
	Package string
	Path    string
	Read    func(emit func(string)) error
}

// Sources are the texts this package reads.
var Sources = []Source{
	{"gcide", "dict-gcide", "/usr/share/dictd/gcide.dict.dz", func(emit func(string)) error { return readDict("/usr/share/dictd/gcide.dict.dz", emit) }},
	{"wordnet", "wordnet-base", "/usr/share/wordnet/data.noun", readWordNet},
	{"fortunes", "fortunes", "/usr/share/games/fortunes/art", readFortunes},
	{"devil", "dict-devil", "/usr/share/dictd/devil.dict.dz", func(emit func(string)) error { return readDict("/usr/share/dictd/devil.dict.dz", emit) }},
	{"kjv", "bible-kjv", "/usr/bin/bible", readKJV},
}

// Control is a text that cannot hold the test transcripts (the Jargon
// File, dict-jargon), for the contamination check.
var Control = Source{"jargon (control)", "dict-jargon", "/usr/share/dictd/jargon.dict.dz", func(emit func(string)) error {
	return readDict("/usr/share/dictd/jargon.dict.dz", emit)
}}

// Missing returns the Debian packages of the named sources (and of the
// pronouncing dictionary) that are not installed.
func Missing(names []string) []string {
	var p []string
	if _, err := os.Stat(DictPath); err != nil {
		p = append(p, "pocketsphinx-en-us")
	}
	for _, s := range Sources {
		if slices.Contains(names, s.Name) {
			if _, err := os.Stat(s.Path); err != nil {
				p = append(p, s.Package)
			}
		}
	}
	return p
}

// DefaultSources are the sources of the default model.
var DefaultSources = []string{"gcide", "fortunes", "devil", "kjv"}

// Build trains the model on the named sources and writes it to out (ARPA
// text, gzip-compressed when out ends in .gz), through a temporary file
// renamed at the end, so a reader never sees half a model. Trigrams seen
// fewer than minTri times are dropped. Progress goes to log (may be nil).
func Build(ctx context.Context, out string, use []string, minTri int, log io.Writer) error {
	if log == nil {
		log = io.Discard
	}
	vocab, err := dictWords(DictPath)
	if err != nil {
		return err
	}
	t, err := lm.NewTrainer(vocab)
	if err != nil {
		return err
	}
	for _, s := range Sources {
		if !slices.Contains(use, s.Name) {
			continue
		}
		before, oov, n := t.Tokens, t.OOV, 0
		err := s.Read(func(raw string) {
			for _, ws := range Sentences(ctx, raw) {
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
			return fmt.Errorf("debtext: %s (Debian package %s): %w", s.Name, s.Package, err)
		}
		fmt.Fprintf(log, "%s: %d sentences, %d words, %d outside the vocabulary\n", s.Name, n, t.Tokens-before, t.OOV-oov)
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(out), filepath.Base(out)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if err := f.Chmod(0o644); err != nil {
		f.Close()
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

// Words spells already normalized text as the recognizer's words are
// spelled (and the ASR eval scores them): lower case, letters, digits and
// inner apostrophes; everything else separates words.
func Words(s string) []string {
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
	return ws
}

// Sentences cuts raw text into sentences of words spelled as the
// recognizer's (and the ASR eval's) words are.
func Sentences(ctx context.Context, raw string) [][]string {
	var out [][]string
	for _, s := range sentenceEnd.Split(raw, -1) {
		if hasDigit.MatchString(s) {
			if r, err := normalize.Normalize(ctx, s, normalize.Options{Language: "en"}); err == nil {
				s = r.Best()
			}
		}
		if ws := Words(s); len(ws) > 0 {
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
