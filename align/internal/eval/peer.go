package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/audio"
)

// The peer: pocketsphinx_batch (Debian 5prealpha) decoding each file as one
// utterance under a one-sentence JSGF grammar of the transcript, on the
// same acoustic model and dictionary.
const (
	peerBin   = "pocketsphinx_batch"
	peerModel = "/usr/share/pocketsphinx/model/en-us/en-us"
	peerDict  = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"
)

// wideBeams are the beams of the research note's fallback invocation.
var wideBeams = []string{"-beam", "1e-200", "-pbeam", "1e-200", "-wbeam", "1e-200", "-maxhmmpf", "-1"}

// cmudict is the peer's pronouncing dictionary: word → pronunciations.
type cmudict map[string][]string

func loadCMUdict(path string) (cmudict, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d := cmudict{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w, pron, ok := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		if !ok {
			continue
		}
		if i := strings.IndexByte(w, '('); i > 0 {
			w = w[:i]
		}
		if i := strings.Index(pron, "#"); i >= 0 {
			pron = pron[:i]
		}
		d[w] = append(d[w], strings.TrimSpace(pron))
	}
	return d, sc.Err()
}

var smallNumbers = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}

// peerWords turns a token into dictionary words with pronunciations: the
// CMUdict entry, else its hyphen-separated parts, else a small number,
// else align.Phonemize when set (the same fallback our aligner uses). It
// returns the words it could not pronounce.
func peerWords(ctx context.Context, d cmudict, tok string) (words []string, prons [][]string, missing []string) {
	w := norm(tok)
	if p, ok := d[w]; ok {
		return []string{w}, [][]string{p}, nil
	}
	if n, err := strconv.Atoi(w); err == nil && n >= 0 && n < len(smallNumbers) {
		return peerWords(ctx, d, smallNumbers[n])
	}
	if parts := strings.FieldsFunc(w, func(r rune) bool { return r == '-' }); len(parts) > 1 {
		for _, p := range parts {
			ww, pp, mm := peerWords(ctx, d, p)
			words, prons, missing = append(words, ww...), append(prons, pp...), append(missing, mm...)
		}
		return words, prons, missing
	}
	if align.Phonemize != nil {
		if p, err := align.Phonemize(ctx, "en", w); err == nil && len(p) > 0 {
			return []string{w}, [][]string{{strings.Join(p, " ")}}, nil
		}
	}
	return nil, nil, []string{w}
}

// peerRun is one decode by the peer.
type peerRun struct {
	Words  []span
	Wall   time.Duration
	PeakKB int64
	Wide   bool // the default beams found no path; the wide ones did
}

// peerJob holds the files of one recording for the peer.
type peerJob struct {
	dir     string
	key2tok []int // dictionary key index → token index
	missing []string
}

// preparePeer writes the raw audio, grammar, dictionary and control file
// for r into a temporary directory.
func preparePeer(ctx context.Context, r *recording, d cmudict) (*peerJob, error) {
	dir, err := os.MkdirTemp("", "align-eval-peer-")
	if err != nil {
		return nil, err
	}
	job := &peerJob{dir: dir}
	var dict, gram strings.Builder
	for i, tok := range r.Tokens {
		words, prons, missing := peerWords(ctx, d, tok)
		job.missing = append(job.missing, missing...)
		for k := range words {
			key := fmt.Sprintf("w%04d", len(job.key2tok))
			job.key2tok = append(job.key2tok, i)
			for v, p := range prons[k] {
				if v == 0 {
					fmt.Fprintf(&dict, "%s %s\n", key, p)
				} else {
					fmt.Fprintf(&dict, "%s(%d) %s\n", key, v+1, p)
				}
			}
			gram.WriteString(" " + key)
		}
	}
	if len(job.missing) > 0 {
		return job, nil
	}
	// Headerless 16 kHz s16le audio decoded by the same audio package: no
	// -adchdr guess about the WAV header (a LIST chunk makes it longer
	// than 44 bytes).
	a, _, err := audio.DecodeFile(ctx, r.Wav, audio.Options{})
	if err != nil {
		return nil, err
	}
	raw := make([]byte, 2*len(a.Samples))
	for i, x := range a.Samples {
		v := math.Round(float64(x) * 32768)
		binary.LittleEndian.PutUint16(raw[2*i:], uint16(int16(max(-32768, min(32767, v)))))
	}
	files := map[string]string{
		"utt.raw":  string(raw),
		"utt.dict": dict.String(),
		"utt.gram": "#JSGF V1.0;\ngrammar utt;\npublic <utt> =" + gram.String() + ";\n",
		"utt.ctl":  "utt\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			return nil, err
		}
	}
	return job, nil
}

// run decodes once; with wide it uses the wide beams.
func (j *peerJob) run(ctx context.Context, wide bool) (*peerRun, error) {
	ctm := filepath.Join(j.dir, "utt.ctm")
	os.Remove(ctm)
	args := []string{"-hmm", peerModel, "-remove_silence", "no", "-ctl", filepath.Join(j.dir, "utt.ctl"),
		"-cepdir", j.dir, "-cepext", ".raw", "-adcin", "yes", "-adchdr", "0",
		"-jsgf", filepath.Join(j.dir, "utt.gram"), "-dict", filepath.Join(j.dir, "utt.dict"),
		"-ctm", ctm, "-hypseg", filepath.Join(j.dir, "utt.seg")}
	if wide {
		args = append(args, wideBeams...)
	}
	cmd := exec.CommandContext(ctx, peerBin, args...)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	t0 := time.Now()
	err := cmd.Run()
	wall := time.Since(t0)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s did not finish within the time limit (killed after %.0f min)", peerBin, wall.Minutes())
		}
		return nil, fmt.Errorf("%s: %v: %s", peerBin, err, lastLines(log.String(), 3))
	}
	f, err := os.Open(ctm)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	words, err := parseCTM(f, j.key2tok)
	if err != nil {
		return nil, err
	}
	return &peerRun{Words: words, Wall: wall, PeakKB: maxRSS(cmd.ProcessState), Wide: wide}, nil
}

// parseCTM reads the peer's CTM ("utt 1 start dur word [conf]"), keeping
// the dictionary keys wNNNN and dropping silences and fillers. The end of a
// word is start + dur + 0.01 s: the duration leaves out the last 10 ms
// frame. Each word's label is its token index.
func parseCTM(r io.Reader, key2tok []int) ([]span, error) {
	var out []span
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], ";;") {
			continue
		}
		if len(f) < 5 {
			return nil, fmt.Errorf("ctm line %d: %q has fewer than 5 fields", n, sc.Text())
		}
		key := f[4]
		if i := strings.IndexByte(key, '('); i > 0 {
			key = key[:i]
		}
		if len(key) != 5 || key[0] != 'w' {
			continue // <sil>, <s>, </s>, fillers
		}
		k, err := strconv.Atoi(key[1:])
		if err != nil || k < 0 || k >= len(key2tok) {
			return nil, fmt.Errorf("ctm line %d: unknown word %q", n, f[4])
		}
		s, err1 := strconv.ParseFloat(f[2], 64)
		d, err2 := strconv.ParseFloat(f[3], 64)
		if err1 != nil || err2 != nil || d < 0 || math.IsNaN(s+d) {
			return nil, fmt.Errorf("ctm line %d: bad times %q %q", n, f[2], f[3])
		}
		out = append(out, span{Start: s, End: s + d + 0.01, Label: strconv.Itoa(key2tok[k])})
	}
	return out, sc.Err()
}

// tokenSpans merges the peer's words (labelled with token indices) into
// one span per token, labelled with the token, in token order.
func tokenSpans(words []span, tokens []string) []span {
	var out []span
	last := -1
	for _, w := range words {
		i, _ := strconv.Atoi(w.Label)
		if i == last && len(out) > 0 {
			out[len(out)-1].End = w.End
			continue
		}
		out = append(out, span{Start: w.Start, End: w.End, Label: tokens[i]})
		last = i
	}
	return out
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(l[max(0, len(l)-n):], " | ")
}
