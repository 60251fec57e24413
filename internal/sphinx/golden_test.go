package sphinx

import (
	"bufio"
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

type interval struct {
	start, end float64
	label      string
}

// readTSV reads a "start_s end_s label" file with a header line.
func readTSV(t testing.TB, path string) []interval {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("reference %s not available: %v", path, err)
	}
	defer f.Close()
	var out []interval
	sc := bufio.NewScanner(f)
	for first := true; sc.Scan(); first = false {
		if first {
			continue
		}
		p := strings.Split(sc.Text(), "\t")
		if len(p) != 3 {
			t.Fatalf("%s: bad line %q", path, sc.Text())
		}
		s, err1 := strconv.ParseFloat(p[0], 64)
		e, err2 := strconv.ParseFloat(p[1], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: bad times in %q", path, sc.Text())
		}
		out = append(out, interval{s, e, p[2]})
	}
	return out
}

// boundaryStats counts boundary differences within 10 and 20 ms.
type boundaryStats struct {
	n, within10, within20 int
	sumAbs                float64
}

func (b *boundaryStats) add(got, want float64) {
	d := math.Abs(got - want)
	b.n++
	b.sumAbs += d
	if d <= 0.010+1e-9 {
		b.within10++
	}
	if d <= 0.020+1e-9 {
		b.within20++
	}
}

func (b *boundaryStats) share20() float64 { return float64(b.within20) / float64(max(1, b.n)) }

// alignFile force-aligns one shared test file to its transcript.
func alignFile(t testing.TB, m *Model, base string, opts AlignOptions) *Alignment {
	t.Helper()
	x := readWAVFloat(t, speechFile(t, base+"_16k.wav"))
	txt, err := os.ReadFile(speechFile(t, base+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := m.Align(context.Background(), x, strings.Fields(string(txt)), opts)
	if err != nil {
		t.Fatalf("Align(%s) = %v", base, err)
	}
	return a
}

// compareToReference scores an alignment against .words.tsv / .phones.tsv.
func compareToReference(t testing.TB, a *Alignment, base string) (words, phones boundaryStats) {
	t.Helper()
	dir := testdataDir(t) + "/speech/"
	refW := readTSV(t, dir+base+".words.tsv")
	refP := readTSV(t, dir+base+".phones.tsv")
	var gotW []Segment
	for _, w := range a.Words {
		if w.Parent >= 0 {
			gotW = append(gotW, w)
		}
	}
	if len(gotW) != len(refW) {
		t.Fatalf("%s: %d words aligned; reference has %d", base, len(gotW), len(refW))
	}
	for i, w := range gotW {
		words.add(a.Seconds(w.Start), refW[i].start)
		words.add(a.Seconds(w.End), refW[i].end)
	}
	// Phones: compare word by word where the phone sequences agree.
	ri := 0
	for wi, w := range a.Words {
		if w.Parent < 0 {
			continue
		}
		var ph []Segment
		for _, p := range a.Phones {
			if p.Parent == wi {
				ph = append(ph, p)
			}
		}
		// Reference phones inside this reference word.
		rw := refW[len(phonesWordsBefore(a, wi))]
		var rp []interval
		for ri < len(refP) && refP[ri].start < rw.end-1e-6 {
			if refP[ri].start >= rw.start-1e-6 {
				rp = append(rp, refP[ri])
			}
			ri++
		}
		if len(rp) != len(ph) {
			continue
		}
		for k := range ph {
			phones.add(a.Seconds(ph[k].Start), rp[k].start)
			phones.add(a.Seconds(ph[k].End), rp[k].end)
		}
	}
	return words, phones
}

func phonesWordsBefore(a *Alignment, wi int) []Segment {
	var out []Segment
	for _, w := range a.Words[:wi] {
		if w.Parent >= 0 {
			out = append(out, w)
		}
	}
	return out
}

func TestGoldenPocketsphinxAlignments(t *testing.T) {
	m := loadTestModel(t)
	var allW, allP boundaryStats
	for _, base := range []string{"en_ps_sense0870", "en_ps_sense0880", "en_ps_sense0890"} {
		t.Run(base, func(t *testing.T) {
			a := alignFile(t, m, base, AlignOptions{})
			w, p := compareToReference(t, a, base)
			t.Logf("%s: words %d/%d within 10 ms, %d/%d within 20 ms (mean |Δ| %.1f ms); phones %d/%d, %d/%d",
				base, w.within10, w.n, w.within20, w.n, 1000*w.sumAbs/float64(w.n), p.within10, p.n, p.within20, p.n)
			allW.n += w.n
			allW.within10 += w.within10
			allW.within20 += w.within20
			allW.sumAbs += w.sumAbs
			allP.n += p.n
			allP.within10 += p.within10
			allP.within20 += p.within20
		})
	}
	if allW.n == 0 {
		t.Skip("no pocketsphinx reference alignments available (SOTTO_TESTDATA)")
	}
	t.Logf("all: word boundaries %.1f%% within 10 ms, %.1f%% within 20 ms (n=%d); phone boundaries %.1f%% / %.1f%% (n=%d)",
		100*float64(allW.within10)/float64(allW.n), 100*allW.share20(), allW.n,
		100*float64(allP.within10)/float64(allP.n), 100*allP.share20(), allP.n)
	if allW.share20() < 0.95 {
		t.Errorf("word boundaries within 20 ms of pocketsphinx = %.1f%%; want ≥ 95%%", 100*allW.share20())
	}
}
