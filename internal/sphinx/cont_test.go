package sphinx

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// mixwFile builds a mixture_weights file from weights laid out
// [senone][stream][density].
func mixwFile(nSen, nFeat, nDen int, w []float32, chksum bool) []byte {
	words := []uint32{uint32(nSen), uint32(nFeat), uint32(nDen), uint32(len(w))}
	for _, v := range w {
		words = append(words, math.Float32bits(v))
	}
	return s3File(words, chksum)
}

// xformFile builds a feature_transform file holding one rows×cols matrix.
func xformFile(rows, cols int, m []float32) []byte {
	words := []uint32{1, uint32(rows), uint32(cols), uint32(len(m))}
	for _, v := range m {
		words = append(words, math.Float32bits(v))
	}
	return s3File(words, true)
}

// tinyTextMdef is the text form of tinyMdef plus a second triphone.
const tinyTextMdef = `# a comment
0.3
2 n_base
2 n_tri
16 n_state_map
12 n_tied_state
6 n_tied_ci_state
2 n_tied_tmat
#
# Columns definitions
#base lft  rt p attrib tmat      ... state id's ...
AA  -   -   - n/a    0    0    1    2 N
SIL -   -   - filler 1    3    4    5 N
AA  SIL SIL b n/a    0    6    7    8 N
AA  AA  SIL e n/a    0    9   10   11 N
`

func TestParseMixtureWeights(t *testing.T) {
	// One senone, one stream: 0.5, 0.25, 0.25 and a zero that the floor
	// lifts to 1e-7. −log_1.0001(0.5) = 6931.8 → (6931+511)>>10 = 7;
	// 0.25 → (13863+511)>>10 = 14; 1e-7 → (161189+511)>>10 = 157.
	// The second senone's weights are unnormalised (×4) and give the same.
	w := []float32{0.5, 0.25, 0.25, 0, 2, 1, 1, 0}
	for _, ck := range []bool{true, false} {
		mw, err := ParseMixtureWeights("mixture_weights", mixwFile(2, 1, 4, w, ck), 0)
		if err != nil {
			t.Fatalf("ParseMixtureWeights(chksum=%v) = %v", ck, err)
		}
		want := []uint8{7, 7, 14, 14, 14, 14, 157, 157} // [density][senone]
		if !bytes.Equal(mw.W, want) {
			t.Errorf("W = %v; want %v", mw.W, want)
		}
		if mw.NSen != 2 || mw.NFeat != 1 || mw.NDensity != 4 {
			t.Errorf("shape %d×%d×%d; want 2×1×4", mw.NSen, mw.NFeat, mw.NDensity)
		}
	}
	good := mixwFile(2, 1, 4, w, true)
	for n := range len(good) {
		if _, err := ParseMixtureWeights("mixture_weights", good[:n], 0); err == nil {
			t.Errorf("truncated to %d of %d bytes: error = nil", n, len(good))
		}
	}
	for name, b := range map[string][]byte{
		"negative":  mixwFile(1, 1, 2, []float32{1, -1}, true),
		"nan":       mixwFile(1, 1, 2, []float32{1, float32(math.NaN())}, true),
		"count":     s3File([]uint32{1, 1, 2, 3, 0, 0, 0}, true),
		"empty":     mixwFile(0, 1, 2, nil, true),
		"trailing":  append(bytes.Clone(good), 0),
		"bad floor": nil,
	} {
		floor := 0.0
		if name == "bad floor" {
			b, floor = good, 1.5
		}
		if _, err := ParseMixtureWeights("mixture_weights", b, floor); err == nil {
			t.Errorf("%s: error = nil; want an error", name)
		}
	}
}

func TestFeatureTransform(t *testing.T) {
	m := []float32{1, 0, 2, 0, 1, -1, 3, 3, 3}
	for _, dim := range []int{0, 2, 3, 9} {
		x, err := ParseFeatureTransform("feature_transform", xformFile(3, 3, m), dim)
		if err != nil {
			t.Fatal(err)
		}
		wantOut := 3
		if dim == 2 {
			wantOut = 2
		}
		if x.In != 3 || x.Out != wantOut {
			t.Fatalf("dim %d: %d→%d; want 3→%d", dim, x.In, x.Out, wantOut)
		}
		got := x.Apply(make([]float32, x.Out), []float32{1, 2, 3})
		want := []float32{7, -1, 18}[:wantOut]
		if !slices.Equal(got, want) {
			t.Errorf("dim %d: Apply = %v; want %v", dim, got, want)
		}
	}
	good := xformFile(3, 3, m)
	for n := range len(good) {
		if _, err := ParseFeatureTransform("feature_transform", good[:n], 0); err == nil {
			t.Errorf("truncated to %d of %d bytes: error = nil", n, len(good))
		}
	}
	if _, err := ParseFeatureTransform("feature_transform", s3File([]uint32{1, 1, 2, 3, 0, 0, 0}, true), 0); err == nil {
		t.Error("bad value count: error = nil")
	}
}

func TestParseTextMdef(t *testing.T) {
	m, err := ParseMdef("mdef", []byte(tinyTextMdef))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.CIName) != 2 || m.NSen != 12 || m.NCISen != 6 || m.NEmit != 3 || m.Sil != 1 || len(m.Phones) != 4 {
		t.Fatalf("mdef = %d CI, %d senones (%d CI), %d states, sil %d, %d phones", len(m.CIName), m.NSen, m.NCISen, m.NEmit, m.Sil, len(m.Phones))
	}
	if !m.Phones[1].Filler || m.Phones[0].Filler {
		t.Error("filler flags wrong")
	}
	if p := m.Triphone(0, 1, 1, PosBegin); p != 2 {
		t.Errorf("Triphone(AA, SIL, SIL, begin) = %d; want 2", p)
	}
	if p := m.Triphone(0, 0, 1, PosEnd); p != 3 {
		t.Errorf("Triphone(AA, AA, SIL, end) = %d; want 3", p)
	}
	if p := m.Triphone(0, 0, 0, PosInternal); p != 0 {
		t.Errorf("Triphone(AA, AA, AA, internal) = %d; want the CI phone 0", p)
	}
	if got := m.Senones(3); !slices.Equal(got, []uint16{9, 10, 11}) {
		t.Errorf("Senones(3) = %v", got)
	}
	bad := map[string]string{
		"senone range": strings.Replace(tinyTextMdef, "9   10   11", "9   10   12", 1),
		"unknown ctx":  strings.Replace(tinyTextMdef, "AA  AA  SIL e", "AA  XX  SIL e", 1),
		"position":     strings.Replace(tinyTextMdef, "AA  AA  SIL e", "AA  AA  SIL q", 1),
		"duplicate":    strings.Replace(tinyTextMdef, "AA  AA  SIL e", "AA  SIL SIL b", 1),
		"no N":         strings.Replace(tinyTextMdef, "11 N", "11 X", 1),
		"count":        strings.Replace(tinyTextMdef, "2 n_tri", "3 n_tri", 1),
		"shared":       strings.Replace(tinyTextMdef, "9   10   11", "3   10   11", 1),
		"unused":       strings.Replace(tinyTextMdef, "12 n_tied_state", "13 n_tied_state", 1),
	}
	for name, s := range bad {
		if _, err := ParseMdef("mdef", []byte(s)); err == nil {
			t.Errorf("%s: error = nil; want an error", name)
		}
	}
	for n := range len(tinyTextMdef) {
		if _, err := ParseMdef("mdef", []byte(tinyTextMdef[:n])); err == nil && !strings.HasSuffix(tinyTextMdef[:n], "N") {
			t.Errorf("truncated to %d bytes: error = nil", n)
		}
	}
}

// writeS3 writes a Sphinx-3 parameter file of 4-byte words with a checksum.
func writeS3(t *testing.T, path string, words []uint32) {
	t.Helper()
	if err := os.WriteFile(path, s3File(words, true), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestContinuousEqualsPTM converts part of the Debian PTM model into a
// continuous model on disk — text mdef, one codebook per senone copied from
// its base phone's, float mixture_weights from the sendump bytes — and
// checks that the continuous reader scores every senone on real frames
// exactly as the PTM scorer does with the same quantised weights, and that
// a forced alignment gives the same segments.
func TestContinuousEqualsPTM(t *testing.T) {
	dir := modelDir(t)
	wav := speechFile(t, "en_jfk_16k.wav")
	t0 := time.Now()
	ctx := context.Background()
	ptm, err := Load(ctx, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if ptm.Kind != "ptm" || ptm.Transform != nil {
		t.Fatalf("Debian model: kind %q, transform %v; want ptm without transform", ptm.Kind, ptm.Transform)
	}
	words := []string{"and", "so", "my", "fellow", "americans"}
	samples := readWAVFloat(t, wav)[:16000*27/10]
	md := ptm.Mdef
	nCI := len(md.CIName)

	// The phones of the words plus silence; every triphone within them.
	inSet := map[int]bool{md.Sil: true}
	for _, w := range words {
		for _, p := range ptm.Dict.Lookup(w) {
			for _, ph := range p {
				inSet[int(ph)] = true
			}
		}
	}
	var phones []int
	for p := range md.Phones {
		ph := md.Phones[p]
		if p < nCI || (inSet[int(ph.Base)] && inSet[int(ph.Left)] && inSet[int(ph.Right)]) {
			phones = append(phones, p)
		}
	}
	used := map[int]bool{}
	for _, p := range phones {
		for _, s := range md.Senones(p) {
			used[int(s)] = true
		}
	}
	var orig []int // new senone id → original id
	for s := range md.NSen {
		if used[s] {
			orig = append(orig, s)
		}
	}
	newID := map[int]int{}
	for k, s := range orig {
		newID[s] = k
	}
	if newID[md.NCISen-1] != md.NCISen-1 {
		t.Fatalf("CI senones are not the first %d", md.NCISen)
	}
	K := len(orig)
	t.Logf("subset: %d phones, %d of %d senones", len(phones), K, md.NSen)

	out := t.TempDir()
	// Text mdef.
	var mb strings.Builder
	fmt.Fprintf(&mb, "0.3\n%d n_base\n%d n_tri\n%d n_state_map\n%d n_tied_state\n%d n_tied_ci_state\n%d n_tied_tmat\n",
		nCI, len(phones)-nCI, len(phones)*(md.NEmit+1), K, md.NCISen, md.NTmat)
	posName := [...]string{"i", "b", "e", "s"}
	for _, p := range phones {
		ph := md.Phones[p]
		attr := "n/a"
		if p < nCI && ph.Filler {
			attr = "filler"
		}
		l, r, pos := "-", "-", "-"
		if p >= nCI {
			l, r, pos = md.CIName[ph.Left], md.CIName[ph.Right], posName[ph.Pos]
		}
		fmt.Fprintf(&mb, "%s %s %s %s %s %d", md.CIName[ph.Base], l, r, pos, attr, ph.Tmat)
		for _, s := range md.Senones(p) {
			fmt.Fprintf(&mb, " %d", newID[int(s)])
		}
		mb.WriteString(" N\n")
	}
	if err := os.WriteFile(filepath.Join(out, "mdef"), []byte(mb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// Per-senone codebooks.
	var gs [2]*Gauden
	for i, name := range []string{"means", "variances"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		g, err := ParseGauden(name, b)
		if err != nil {
			t.Fatal(err)
		}
		gs[i] = g
		per := len(g.Data) / g.NMgau
		w := []uint32{uint32(K), uint32(g.NFeat), uint32(g.NDensity)}
		for _, l := range g.VecLen {
			w = append(w, uint32(l))
		}
		w = append(w, uint32(K*per))
		for _, s := range orig {
			cb := md.SenoneBase(s)
			for _, v := range g.Data[cb*per : (cb+1)*per] {
				w = append(w, math.Float32bits(v))
			}
		}
		writeS3(t, filepath.Join(out, name), w)
	}
	// Mixture weights from the sendump bytes.
	mw := ptm.Mixw
	nf, nd := mw.NFeat, mw.NDensity
	w := []uint32{uint32(K), uint32(nf), uint32(nd), uint32(K * nf * nd)}
	for _, s := range orig {
		for f := range nf {
			for d := range nd {
				b := mw.W[(f*nd+d)*mw.NSen+s]
				w = append(w, math.Float32bits(float32(math.Exp(-logUnit*float64(b)))))
			}
		}
	}
	writeS3(t, filepath.Join(out, "mixture_weights"), w)
	for _, f := range []string{"transition_matrices", "noisedict"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fp, err := os.ReadFile(filepath.Join(dir, "feat.params"))
	if err != nil {
		t.Fatal(err)
	}
	fp = bytes.Replace(fp, []byte("-model ptm"), []byte("-model cont"), 1)
	fp = bytes.Replace(fp, []byte("-cmn batch"), []byte("-cmn current"), 1)
	if err := os.WriteFile(filepath.Join(out, "feat.params"), fp, 0o644); err != nil {
		t.Fatal(err)
	}
	var db strings.Builder
	for _, wd := range words {
		for _, p := range ptm.Dict.Lookup(wd) {
			db.WriteString(wd)
			for _, ph := range p {
				db.WriteString(" " + md.CIName[ph])
			}
			db.WriteString("\n")
			wd += "(2)"
		}
	}
	if err := os.WriteFile(filepath.Join(out, "words.dict"), []byte(db.String()), 0o644); err != nil {
		t.Fatal(err)
	}

	cont, err := Load(ctx, Config{Dir: out, Dict: filepath.Join(out, "words.dict")})
	if err != nil {
		t.Fatalf("Load(continuous) = %v", err)
	}
	if cont.Kind != "cont" || cont.Mdef.NSen != K || cont.Params.CMN != "batch" {
		t.Fatalf("continuous model: kind %q, %d senones, cmn %q", cont.Kind, cont.Mdef.NSen, cont.Params.CMN)
	}
	// The requantised weights stay within two steps of the sendump's (the
	// PTM weights sum to 0.945–0.968 and are renormalised).
	ref := &MixWeights{NFeat: nf, NDensity: nd, NSen: mw.NSen, W: bytes.Clone(mw.W)}
	changed := 0
	for k, s := range orig {
		for f := range nf {
			for d := range nd {
				q := cont.Mixw.W[(f*nd+d)*K+k]
				b := mw.W[(f*nd+d)*mw.NSen+s]
				if diff := int(q) - int(b); diff < -2 || diff > 1 {
					t.Fatalf("senone %d stream %d density %d: requantised %d from sendump %d", s, f, d, q, b)
				}
				if q != b {
					changed++
				}
				ref.W[(f*nd+d)*mw.NSen+s] = q
			}
		}
	}
	t.Logf("%d of %d weights moved by the renormalisation", changed, K*nf*nd)
	// A PTM model scoring with the requantised weights is the reference.
	refModel := *ptm
	refModel.Mixw = ref
	refModel.scorer = newGMM(gs[0], gs[1], 1e-4, ref, ptm.senCB, nil, 4)

	feats, n, err := ptm.Features(ctx, samples)
	if err != nil {
		t.Fatal(err)
	}
	cf, cn, err := cont.Features(ctx, samples)
	if err != nil || cn != n || !slices.Equal(cf, feats) {
		t.Fatalf("continuous front end differs: %v, %d vs %d frames", err, cn, n)
	}
	dim := len(feats) / n
	cs, rs := cont.NewScorer(), refModel.NewScorer()
	all := make([]float32, K)
	for tt := range n {
		x := feats[tt*dim : (tt+1)*dim]
		cs.ScoreAll(x, all)
		rs.SetFrame(x)
		for k, s := range orig {
			want := rs.Senone(s)
			if all[k] != want {
				t.Fatalf("frame %d senone %d (continuous %d): %v; PTM %v", tt, s, k, all[k], want)
			}
		}
		cs.SetFrame(x)
		if k := tt % K; cs.Senone(k) != all[k] {
			t.Fatalf("frame %d: Senone(%d) = %v, ScoreAll gave %v", tt, k, cs.Senone(k), all[k])
		}
	}
	a1, err := refModel.Align(ctx, samples, words, AlignOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a2, err := cont.Align(ctx, samples, words, AlignOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, lv := range []struct {
		name string
		a, b []Segment
	}{{"words", a1.Words, a2.Words}, {"phones", a1.Phones, a2.Phones}} {
		if len(lv.a) != len(lv.b) {
			t.Fatalf("%s: %d vs %d segments", lv.name, len(lv.a), len(lv.b))
		}
		for i := range lv.a {
			x, y := lv.a[i], lv.b[i]
			if x.Label != y.Label || x.Start != y.Start || x.End != y.End || math.Abs(x.Score-y.Score) > 1e-6*math.Abs(x.Score)+1e-6 {
				t.Errorf("%s %d: PTM %+v, continuous %+v", lv.name, i, x, y)
			}
		}
	}
	if math.Abs(a1.Score-a2.Score) > 1e-6*math.Abs(a1.Score) {
		t.Errorf("path score PTM %v, continuous %v", a1.Score, a2.Score)
	}
	t.Logf("%d frames, %d words, %d phones aligned identically; %v", n, len(a1.Words), len(a1.Phones), time.Since(t0))
	// The model files must agree: a mixture_weights file of another shape
	// is refused with a message naming it.
	b := mixwFile(K+1, nf, nd, make([]float32, (K+1)*nf*nd), true)
	if err := os.WriteFile(filepath.Join(out, "mixture_weights"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(ctx, Config{Dir: out, Dict: filepath.Join(out, "words.dict")}); err == nil || !strings.Contains(err.Error(), "mixture_weights") {
		t.Errorf("Load(mismatched mixture_weights) = %v; want an error naming the file", err)
	}
}

// TestScorerTransform checks that the scorer applies a feature transform to
// each frame before scoring: a one-density, one-dimension codebook scored
// on M·x equals the Gaussian of the transformed value.
func TestScorerTransform(t *testing.T) {
	means := &Gauden{NMgau: 1, NFeat: 1, NDensity: 1, VecLen: []int{1}, Data: []float32{2}}
	vars := &Gauden{NMgau: 1, NFeat: 1, NDensity: 1, VecLen: []int{1}, Data: []float32{0.5}}
	mw := &MixWeights{NFeat: 1, NDensity: 1, NSen: 1, W: []uint8{0}}
	x := &FeatureTransform{In: 3, Out: 1, M: []float32{1, 2, 3}}
	m := &Model{scorer: newGMM(means, vars, 1e-4, mw, []int32{0}, x, 4)}
	s := m.NewScorer()
	s.SetFrame([]float32{1, 1, 0}) // M·x = 3
	got := s.Senone(0)
	want := float32(-0.5*math.Log(2*math.Pi*0.5) - (3-2)*(3-2)/(2*0.5))
	if math.Abs(float64(got-want)) > 1e-6 {
		t.Errorf("Senone = %v; want %v", got, want)
	}
}

func FuzzParseMixtureWeights(f *testing.F) {
	f.Add(mixwFile(2, 1, 4, []float32{0.5, 0.25, 0.25, 0, 2, 1, 1, 0}, true))
	f.Fuzz(func(t *testing.T, b []byte) {
		mw, err := ParseMixtureWeights("mixture_weights", b, 0)
		if err != nil {
			return
		}
		if len(mw.W) != mw.NSen*mw.NFeat*mw.NDensity {
			t.Fatalf("len(W) = %d for shape %d×%d×%d", len(mw.W), mw.NSen, mw.NFeat, mw.NDensity)
		}
	})
}

func FuzzParseFeatureTransform(f *testing.F) {
	f.Add(xformFile(3, 3, []float32{1, 0, 2, 0, 1, -1, 3, 3, 3}))
	f.Fuzz(func(t *testing.T, b []byte) {
		x, err := ParseFeatureTransform("feature_transform", b, 0)
		if err != nil {
			return
		}
		if len(x.M) != x.In*x.Out {
			t.Fatalf("len(M) = %d for %d×%d", len(x.M), x.Out, x.In)
		}
		x.Apply(make([]float32, x.Out), make([]float32, x.In))
	})
}

func FuzzParseTextMdef(f *testing.F) {
	f.Add([]byte(tinyTextMdef))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseMdef("mdef", b)
		if err != nil {
			return
		}
		n := len(m.CIName)
		for b := range n {
			for l := range n {
				if p := m.Triphone(b, l, l, PosEnd); p < 0 || p >= len(m.Phones) {
					t.Fatalf("Triphone = %d out of range", p)
				}
			}
		}
	})
}
