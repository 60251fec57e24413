package decoder

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/holdout"
	"github.com/sottolabs/sotto/internal/lm"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/internal/wer"
)

// oracleEnv names the word lists TestDevWordListOracle measures,
// comma-separated: "base" (the default list), "lb35" (Config.FlatListBeam
// 1e-35), "me0" (every exit counts, FlatMinEnds < 0), "lm2" (the default
// list, the second language model of file $SOTTO_LM2 in the rescoring at
// weight 0.5), "lm2flat" (and in the flat pass). Unset: the test is
// skipped (it decodes 27 recordings per list, minutes of CPU).
const oracleEnv = "SOTTO_ORACLE"

// TestDevWordListOracle measures, on the dev part of the shared English
// recordings at stride 3 (the recordings of docs/bench/asr.md's stride-3
// runs; whole files, no segmentation or adaptation, references lower-cased
// without text normalization), how many reference words the tree pass
// hands to the flat pass (its word list, by spelling, anywhere in the
// file) and the graph error count of the flat pass's lattice
// ([Lattice.Oracle]) beside the errors of the rescored best path. The
// best path is a path of the lattice, so its errors can be no fewer than
// the oracle's: each file asserts that. See docs/bench/asr.md.
func TestDevWordListOracle(t *testing.T) {
	lists := os.Getenv(oracleEnv)
	if lists == "" {
		t.Skipf("set %s=base[,lb35,me0] to measure the word lists on the dev recordings", oracleEnv)
	}
	am := acoustic(t)
	const lmPath = "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin"
	lang, err := lm.Load(lmPath)
	if err != nil {
		t.Skipf("skipping: %v", err)
	}
	dir, err := testdata.Lookup("speech")
	if err != nil {
		t.Skip(err)
	}
	words := func(s string) []string {
		return strings.Fields(strings.Map(func(r rune) rune {
			if r = unicode.ToLower(r); unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' {
				return r
			}
			return ' '
		}, s))
	}
	type file struct {
		name  string
		ref   []string
		feats []float32
		n     int
	}
	var files []file
	wavs, _ := filepath.Glob(filepath.Join(dir, "en_*_16k.wav"))
	slices.Sort(wavs)
	k := -1
	for _, w := range wavs {
		base := strings.TrimSuffix(filepath.Base(w), "_16k.wav")
		txt, err := os.ReadFile(filepath.Join(dir, base+".txt"))
		if err != nil {
			continue
		}
		if k++; k%3 != 0 || holdout.Part(base) != "dev" {
			continue
		}
		a, _, err := audio.DecodeFile(context.Background(), w, audio.Options{})
		if err != nil {
			t.Fatal(err)
		}
		f, n, err := am.Features(context.Background(), a.Samples)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, file{base, words(string(txt)), f, n})
	}
	// The driver's defaults (asr), without consensus: its words are not
	// always a path of the lattice.
	base := Config{Flat: true, BestPath: true, KeepLattice: true, FlatLanguageWeight: 7.5,
		BestPathLanguageWeight: 7.5, BestPathWordInsertion: 0.2, FlatStartCluster: 10}
	for _, name := range strings.Split(lists, ",") {
		cfg := base
		switch name {
		case "base":
		case "lb35":
			cfg.FlatListBeam = 1e-35
		case "me0":
			cfg.FlatMinEnds = -1
		case "lm2", "lm2flat":
			m2, err := lm.Load(os.Getenv("SOTTO_LM2"))
			if err != nil {
				t.Fatalf("%s %s needs SOTTO_LM2: %v", oracleEnv, name, err)
			}
			cfg.LM2, cfg.LM2Weight, cfg.LM2Flat = m2, 0.5, name == "lm2flat"
		default:
			t.Fatalf("%s: unknown list %q", oracleEnv, name)
		}
		d, err := New(am, lang, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var refWords, inList, decoded, oracle, nw, ns int
		for _, f := range files {
			frame := func(i int) []float32 { return f.feats[i*39 : (i+1)*39] }
			fp, err := d.DecodeFirst(context.Background(), frame, f.n, Options{})
			if err != nil {
				t.Fatal(err)
			}
			w, s := fp.Words()
			nw, ns = nw+w, ns+s
			listed := map[string]bool{}
			for _, id := range fp.vocab {
				listed[d.lx.words[id].text] = true
			}
			for _, w := range f.ref {
				if listed[w] {
					inList++
				}
			}
			r, err := d.DecodeSecond(context.Background(), frame, fp, Options{})
			if err != nil {
				t.Fatal(err)
			}
			e := wer.Errors(f.ref, strings.Fields(r.Text()))
			o := -1
			if r.Lattice != nil {
				o = r.Lattice.Oracle(f.ref)
			}
			if o < 0 || o > e {
				t.Errorf("%s, %s: lattice oracle %d errors; want 0 to the best path's %d", name, f.name, o, e)
			}
			refWords, decoded, oracle = refWords+len(f.ref), decoded+e, oracle+max(o, 0)
		}
		t.Logf("%s: %d files, %d reference words; list %d words, %d starts; reference words in the list %d (%.1f %%); best path %d errors; lattice oracle %d",
			name, len(files), refWords, nw, ns, inList, 100*float64(inList)/float64(refWords), decoded, oracle)
	}
}
