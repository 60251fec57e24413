package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Reference sets, by how far their timings can be trusted.
const (
	setMFA    = "mfa"    // MFA TextGrids, ≈ 50 ms
	setPS     = "ps"     // pocketsphinx alignments, ≈ 50–100 ms
	setAeneas = "aeneas" // aeneas line map, ≈ 0.5 s
	setNone   = ""       // no reference timings (non-English)
)

// span is a labelled interval in seconds.
type span struct {
	Start, End float64
	Label      string
}

// recording is one file of the evaluation with its transcript and
// reference.
type recording struct {
	Name string // base name, e.g. "en_mfa_cold_corpus"
	Set  string // setMFA, setPS, setAeneas or setNone
	Lang string // BCP 47
	Wav  string // path of the 16 kHz WAV
	// Text is the transcript handed to both aligners.
	Text string
	// Tokens are the whitespace-separated words of Text, and Line the
	// line (aeneas fragment) of each token.
	Tokens []string
	Line   []int
	// Ref holds the reference words (word sets) or lines (aeneas).
	Ref []span
	// Respelled lists the transcript words spelled as CMUdict spells them.
	Respelled []string
}

// respell maps a reference label to the spelling CMUdict uses for the same
// word. Only spelling variants belong here, never different words.
var respell = map[string]string{"yknow": "y'know"}

// discover lists the recordings of dir that have reference timings, and
// the non-English recordings with transcripts.
func discover(dir string) ([]*recording, error) {
	var out []*recording
	words, _ := filepath.Glob(filepath.Join(dir, "*.words.tsv"))
	for _, p := range words {
		name := strings.TrimSuffix(filepath.Base(p), ".words.tsv")
		set := setMFA
		if strings.HasPrefix(name, "en_ps_") {
			set = setPS
		}
		ref, err := readTSV(p)
		if err != nil {
			return nil, err
		}
		r := &recording{Name: name, Set: set, Lang: "en", Wav: filepath.Join(dir, name+"_16k.wav"), Ref: ref}
		// The transcript is the reference's own word sequence: the .txt
		// transcripts differ slightly from the TextGrid word tiers.
		for _, s := range ref {
			w := s.Label
			if alt, ok := respell[w]; ok {
				r.Respelled = append(r.Respelled, w+" → "+alt)
				w = alt
			}
			r.Tokens = append(r.Tokens, w)
			r.Line = append(r.Line, 0)
		}
		r.Text = strings.Join(r.Tokens, " ")
		out = append(out, r)
	}
	lines, _ := filepath.Glob(filepath.Join(dir, "*.lines.tsv"))
	for _, p := range lines {
		name := strings.TrimSuffix(filepath.Base(p), ".lines.tsv")
		ref, err := readTSV(p)
		if err != nil {
			return nil, err
		}
		r := &recording{Name: name, Set: setAeneas, Lang: "en", Wav: filepath.Join(dir, name+"_16k.wav"), Ref: ref}
		var text []string
		for i, s := range ref {
			text = append(text, s.Label)
			for _, w := range strings.Fields(s.Label) {
				r.Tokens = append(r.Tokens, w)
				r.Line = append(r.Line, i)
			}
		}
		r.Text = strings.Join(text, "\n")
		out = append(out, r)
	}
	wavs, _ := filepath.Glob(filepath.Join(dir, "*_16k.wav"))
	for _, p := range wavs {
		name := strings.TrimSuffix(filepath.Base(p), "_16k.wav")
		lang, _, _ := strings.Cut(name, "_")
		if lang == "en" || len(lang) != 2 || strings.Contains(name, "silence") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, name+".txt"))
		if err != nil {
			continue // no transcript
		}
		r := &recording{Name: name, Set: setNone, Lang: lang, Wav: p, Text: strings.TrimSpace(string(data))}
		r.Tokens = strings.Fields(r.Text)
		r.Line = make([]int, len(r.Tokens))
		out = append(out, r)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if a, b := setOrder(out[i].Set), setOrder(out[j].Set); a != b {
			return a < b
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

func setOrder(s string) int { return map[string]int{setMFA: 0, setPS: 1, setAeneas: 2, setNone: 3}[s] }

// readTSV reads a "start_s end_s label" file with a header line.
func readTSV(path string) ([]span, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseTSV(f.Name(), bufio.NewScanner(f))
}

func parseTSV(name string, sc *bufio.Scanner) ([]span, error) {
	var out []span
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if n == 1 || strings.TrimSpace(line) == "" {
			continue // header
		}
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 {
			return nil, fmt.Errorf("%s:%d: want start, end and label separated by tabs", name, n)
		}
		s, err1 := strconv.ParseFloat(f[0], 64)
		e, err2 := strconv.ParseFloat(f[1], 64)
		if err1 != nil || err2 != nil || e < s {
			return nil, fmt.Errorf("%s:%d: bad interval %q–%q", name, n, f[0], f[1])
		}
		out = append(out, span{Start: s, End: e, Label: f[2]})
	}
	return out, sc.Err()
}

// norm reduces a word to lower-case letters, digits and inner apostrophes
// for matching.
func norm(w string) string {
	w = strings.ToLower(w)
	w = strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '-' {
			return r
		}
		return -1
	}, w)
}
