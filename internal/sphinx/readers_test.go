package sphinx

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// s3File builds a small Sphinx-3 binary parameter file from 4-byte words.
func s3File(words []uint32, chksum bool) []byte {
	var b bytes.Buffer
	b.WriteString("s3\nversion 1.0\n")
	if chksum {
		b.WriteString("chksum0 yes\n")
	}
	b.WriteString("endhdr\n")
	binary.Write(&b, binary.LittleEndian, uint32(0x11223344))
	var sum uint32
	for _, w := range words {
		binary.Write(&b, binary.LittleEndian, w)
		sum = (sum<<20 | sum>>12) + w
	}
	if chksum {
		binary.Write(&b, binary.LittleEndian, sum)
	}
	return b.Bytes()
}

func gaudenWords(nm, nf, nd int, vl []int, vals []float32) []uint32 {
	w := []uint32{uint32(nm), uint32(nf), uint32(nd)}
	for _, l := range vl {
		w = append(w, uint32(l))
	}
	w = append(w, uint32(len(vals)))
	for _, v := range vals {
		w = append(w, math.Float32bits(v))
	}
	return w
}

// tinyMdef builds a binary mdef with CI phones SIL and AA (one emitting
// state each... three here) and one triphone AA(SIL,SIL) at word begin.
func tinyMdef() []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	b.WriteString("BMDF")
	binary.Write(&b, le, int32(1))
	desc := []byte("BEGIN FILE FORMAT DESCRIPTION\x00\x00\x00")
	binary.Write(&b, le, int32(len(desc)))
	b.Write(desc)
	// n_ciphone, n_phone, n_emit, n_ci_sen, n_sen, n_tmat, n_sseq, n_ctx, n_cd_tree, sil
	for _, v := range []int32{2, 3, 3, 6, 9, 2, 3, 3, 8, 1} {
		binary.Write(&b, le, v)
	}
	names := []byte("AA\x00SIL\x00")
	b.Write(names)
	for (len(names))%4 != 0 {
		b.WriteByte(0)
		names = append(names, 0)
	}
	// cd tree: 4 word positions; begin(1) → base AA(0) → left SIL(1) → right SIL(1) → pid 2
	tree := [][3]int32{
		{-1, 0, -1}, {1, 1, 4}, {-1, 0, -1}, {-1, 0, -1}, // positions (only begin has children)
		{0, 1, 5},  // base AA
		{1, 1, 6},  // left SIL
		{1, 0, 2},  // right SIL → phone 2
		{0, 0, -1}, // unused leaf without a phone
	}
	for _, n := range tree {
		binary.Write(&b, le, int16(n[0]))
		binary.Write(&b, le, int16(n[1]))
		binary.Write(&b, le, n[2])
	}
	// phones: ssid, tmat, info[4]
	type ph struct {
		ss, tm int32
		info   [4]byte
	}
	for _, p := range []ph{{0, 0, [4]byte{0, 0, 0, 0}}, {1, 1, [4]byte{1, 0, 0, 0}}, {2, 0, [4]byte{1, 0, 1, 1}}} {
		binary.Write(&b, le, p.ss)
		binary.Write(&b, le, p.tm)
		b.Write(p.info[:])
	}
	binary.Write(&b, le, int32(9))
	for _, s := range []uint16{0, 1, 2, 3, 4, 5, 6, 7, 8} {
		binary.Write(&b, le, s)
	}
	return b.Bytes()
}

func tinySendump(nf, nd, ns int) []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	for _, s := range []string{"BEGIN FILE FORMAT DESCRIPTION", "END FILE FORMAT DESCRIPTION", "cluster_count 0", "feature_count 1"} {
		binary.Write(&b, le, int32(len(s)+1))
		b.WriteString(s)
		b.WriteByte(0)
	}
	binary.Write(&b, le, int32(0))
	binary.Write(&b, le, int32(nd))
	binary.Write(&b, le, int32(ns))
	for i := range nf * nd * ns {
		b.WriteByte(byte(i % 200))
	}
	return b.Bytes()
}

func TestParseGaudenRoundTrip(t *testing.T) {
	vals := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	for _, ck := range []bool{true, false} {
		g, err := ParseGauden("means", s3File(gaudenWords(2, 2, 2, []int{2, 1}, vals), ck))
		if err != nil {
			t.Fatalf("ParseGauden(chksum=%v) = %v", ck, err)
		}
		if diff := cmp.Diff(vals, g.Data); diff != "" {
			t.Errorf("ParseGauden data mismatch (-want +got):\n%s", diff)
		}
		// Codebook 1 starts at index 6; its stream 1 follows 2 densities of
		// stream 0 (4 values), so density 0 of it is index 10.
		if got := g.Data[g.Offset(1, 1, 0)]; got != 11 {
			t.Errorf("Data[Offset(1,1,0)] = %v; want 11", got)
		}
	}
}

func TestParseErrors(t *testing.T) {
	good := s3File(gaudenWords(1, 1, 2, []int{2}, []float32{1, 2, 3, 4}), true)
	badSum := bytes.Clone(good)
	badSum[len(badSum)-1] ^= 1
	badMagic := bytes.Clone(good)
	badMagic[bytes.Index(good, []byte("endhdr\n"))+7] = 0x55
	tm := s3File([]uint32{1, 1, 2, 2, math.Float32bits(1), math.Float32bits(1)}, true)
	tmZero := s3File([]uint32{1, 1, 2, 2, 0, 0}, true)
	mdef := tinyMdef()
	badSSeq := bytes.Clone(mdef)
	badSSeq[len(badSSeq)-2] = 99
	tests := []struct {
		name  string
		parse func() error
	}{
		{"gauden/checksum", func() error { _, err := ParseGauden("means", badSum); return err }},
		{"gauden/magic", func() error { _, err := ParseGauden("means", badMagic); return err }},
		{"gauden/noheader", func() error { _, err := ParseGauden("means", good[3:]); return err }},
		{"gauden/trailing", func() error { _, err := ParseGauden("means", append(bytes.Clone(good), 0)); return err }},
		{"gauden/count", func() error {
			_, err := ParseGauden("means", s3File(gaudenWords(1, 1, 2, []int{2}, []float32{1, 2, 3}), true))
			return err
		}},
		{"gauden/nan", func() error {
			_, err := ParseGauden("means", s3File(gaudenWords(1, 1, 1, []int{1}, []float32{float32(math.NaN())}), true))
			return err
		}},
		{"tmat/zero-row", func() error { _, err := ParseTransitionMatrices("tmat", tmZero, 1e-4); return err }},
		{"tmat/truncated", func() error { _, err := ParseTransitionMatrices("tmat", tm[:len(tm)-6], 1e-4); return err }},
		{"mdef/magic", func() error { _, err := ParseMdef("mdef", append([]byte("XXXX"), mdef[4:]...)); return err }},
		{"mdef/senone-range", func() error { _, err := ParseMdef("mdef", badSSeq); return err }},
		{"mdef/trailing", func() error { _, err := ParseMdef("mdef", append(bytes.Clone(mdef), 0, 0)); return err }},
		{"sendump/shape", func() error { _, err := ParseSendump("sendump", tinySendump(1, 4, 9), 1, 4, 10); return err }},
		{"sendump/trailing", func() error { _, err := ParseSendump("sendump", append(tinySendump(1, 4, 9), 1), 1, 4, 9); return err }},
		{"featparams/odd", func() error { _, err := ParseFeatParams("feat.params", []byte("-nfilt")); return err }},
		{"featparams/feat", func() error { _, err := ParseFeatParams("feat.params", []byte("-feat s2_4x")); return err }},
		{"featparams/nfilt", func() error { _, err := ParseFeatParams("feat.params", []byte("-nfilt x")); return err }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.parse(); err == nil {
				t.Errorf("%s: error = nil; want an error", tc.name)
			}
		})
	}
	// Every strict prefix of a valid file must fail.
	for _, f := range []struct {
		name  string
		data  []byte
		parse func([]byte) error
	}{
		{"gauden", good, func(b []byte) error { _, err := ParseGauden("means", b); return err }},
		{"tmat", tm, func(b []byte) error { _, err := ParseTransitionMatrices("tmat", b, 1e-4); return err }},
		{"mdef", mdef, func(b []byte) error { _, err := ParseMdef("mdef", b); return err }},
		{"sendump", tinySendump(1, 4, 9), func(b []byte) error { _, err := ParseSendump("sendump", b, 1, 4, 9); return err }},
	} {
		if err := f.parse(f.data); err != nil {
			t.Fatalf("%s: valid fixture rejected: %v", f.name, err)
		}
		for n := range len(f.data) {
			if err := f.parse(f.data[:n]); err == nil {
				t.Errorf("%s truncated to %d of %d bytes: error = nil; want an error", f.name, n, len(f.data))
			}
		}
	}
}

func TestTinyMdefTriphone(t *testing.T) {
	m, err := ParseMdef("mdef", tinyMdef())
	if err != nil {
		t.Fatal(err)
	}
	aa, _ := m.CIPhone("AA")
	sil, _ := m.CIPhone("SIL")
	if m.Sil != sil {
		t.Errorf("Sil = %d; want %d", m.Sil, sil)
	}
	tests := []struct {
		l, r int
		pos  WordPos
		want int
	}{
		{sil, sil, PosBegin, 2},
		{sil, sil, PosEnd, 2},    // back-off to another word position
		{aa, aa, PosInternal, 0}, // back-off to the CI phone
		{-1, sil, PosBegin, 0},   // no context
	}
	for _, tc := range tests {
		if got := m.Triphone(aa, tc.l, tc.r, tc.pos); got != tc.want {
			t.Errorf("Triphone(AA, %d, %d, %d) = %d; want %d", tc.l, tc.r, tc.pos, got, tc.want)
		}
	}
	if got, want := m.Senones(2), []uint16{6, 7, 8}; !cmp.Equal(got, want) {
		t.Errorf("Senones(2) = %v; want %v", got, want)
	}
}

func TestTransitionMatrices(t *testing.T) {
	// One matrix, 1 emitting state: row (3, 1) → log(0.75), log(0.25).
	tm, err := ParseTransitionMatrices("tmat", s3File([]uint32{1, 1, 2, 2, math.Float32bits(3), math.Float32bits(1)}, true), 1e-4)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tm.At(0, 0, 0), float32(math.Log(0.75)); math.Abs(float64(got-want)) > 1e-6 {
		t.Errorf("At(0,0,0) = %v; want %v", got, want)
	}
	if got, want := tm.At(0, 0, 1), float32(math.Log(0.25)); math.Abs(float64(got-want)) > 1e-6 {
		t.Errorf("At(0,0,1) = %v; want %v", got, want)
	}
}

func TestLoadDebianModel(t *testing.T) {
	dir := modelDir(t)
	m, err := Load(context.Background(), Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	md := m.Mdef
	got := []int{len(md.CIName), len(md.Phones), md.NSen, md.NCISen, len(md.SSeq) / md.NEmit, m.Tmat.N, m.Mixw.NDensity}
	want := []int{42, 137095, 5126, 126, 29324, 42, 128}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("model counts (CI, phones, senones, CI senones, sseq, tmat, densities) mismatch (-want +got):\n%s", diff)
	}
	if md.CIName[md.Sil] != "SIL" || md.Sil != 32 {
		t.Errorf("Sil = %d (%q); want 32 (SIL)", md.Sil, md.CIName[md.Sil])
	}
	// Verified against pocketsphinx_mdef_convert -text: "AA AA AA s ... 158 181 210".
	aa, _ := md.CIPhone("AA")
	p := md.Triphone(aa, aa, aa, PosSingle)
	if p != 42 {
		t.Errorf("Triphone(AA,AA,AA,single) = %d; want 42", p)
	}
	if got, want := md.Senones(p), []uint16{158, 181, 210}; !cmp.Equal(got, want) {
		t.Errorf("Senones(%d) = %v; want %v", p, got, want)
	}
	if got := m.Dict.Lookup("and"); len(got) < 2 {
		t.Errorf("Dict.Lookup(and) = %v; want at least 2 variants", got)
	}
	if !m.Dict.IsFiller("[NOISE]") || m.Dict.IsFiller("and") {
		t.Errorf("Dict.IsFiller([NOISE], and) = %v, %v; want true, false", m.Dict.IsFiller("[NOISE]"), m.Dict.IsFiller("and"))
	}
	// "read" and "read(2)" are separate lines of cmudict-en-us.
	if got := m.Dict.Lookup("read"); len(got) != 2 {
		t.Errorf("Dict.Lookup(read) has %d variants; want 2", len(got))
	}
	// A model directory with a corrupt file fails with the file's name.
	bad := t.TempDir()
	for _, f := range []string{"feat.params", "mdef", "means", "variances", "transition_matrices", "sendump", "noisedict"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "variances" {
			b = b[:len(b)-100]
		}
		if err := os.WriteFile(filepath.Join(bad, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err = Load(context.Background(), Config{Dir: bad})
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("variances")) || !errors.Is(err, errTruncated) {
		t.Errorf("Load(truncated variances) = %v; want a truncation error naming variances", err)
	}
}

func FuzzParseGauden(f *testing.F) {
	f.Add(s3File(gaudenWords(1, 1, 2, []int{2}, []float32{1, 2, 3, 4}), true))
	f.Add(s3File(gaudenWords(2, 2, 2, []int{2, 1}, make([]float32, 12)), false))
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := ParseGauden("means", b)
		if err != nil {
			return
		}
		total := 0
		for _, l := range g.VecLen {
			total += l
		}
		if len(g.Data) != g.NMgau*g.NDensity*total {
			t.Fatalf("ParseGauden accepted %d values for shape %d×%d×%d", len(g.Data), g.NMgau, g.NDensity, total)
		}
	})
}

func FuzzParseTransitionMatrices(f *testing.F) {
	f.Add(s3File([]uint32{1, 1, 2, 2, math.Float32bits(3), math.Float32bits(1)}, true))
	f.Fuzz(func(t *testing.T, b []byte) {
		tm, err := ParseTransitionMatrices("tmat", b, 1e-4)
		if err != nil {
			return
		}
		for _, v := range tm.LogProb {
			if v > 0 || math.IsNaN(float64(v)) {
				t.Fatalf("log probability %v", v)
			}
		}
	})
}

func FuzzParseMdef(f *testing.F) {
	f.Add(tinyMdef())
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ParseMdef("mdef", b)
		if err != nil {
			return
		}
		for p := range m.Phones {
			for _, s := range m.Senones(p) {
				if int(s) >= m.NSen {
					t.Fatalf("phone %d senone %d ≥ %d", p, s, m.NSen)
				}
			}
		}
		n := len(m.CIName)
		for b := range n {
			for l := range n {
				if p := m.Triphone(b, l, l, PosBegin); p < 0 || p >= len(m.Phones) {
					t.Fatalf("Triphone = %d out of range", p)
				}
			}
		}
	})
}

func FuzzParseSendump(f *testing.F) {
	f.Add(tinySendump(1, 4, 9))
	f.Fuzz(func(t *testing.T, b []byte) {
		mw, err := ParseSendump("sendump", b, 1, 4, 9)
		if err != nil {
			return
		}
		if len(mw.W) != 36 {
			t.Fatalf("len(W) = %d; want 36", len(mw.W))
		}
	})
}

func FuzzParseFeatParams(f *testing.F) {
	f.Add([]byte("-lowerf 130 -upperf 6800 -nfilt 25 -transform dct -lifter 22 -feat 1s_c_d_dd -svspec 0-12/13-25/26-38 -cmninit 41.00,-5.29"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ParseFeatParams("feat.params", b)
		if err != nil {
			return
		}
		if _, err := NewFrontend(p); err != nil {
			t.Fatalf("ParseFeatParams accepted %q but NewFrontend fails: %v", b, err)
		}
	})
}

func FuzzParseDict(f *testing.F) {
	m, err := ParseMdef("mdef", tinyMdef())
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte("a AA\na(2) AA SIL\n;;; comment\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var d Dict
		if err := ParseDict("dict", b, m, false, &d); err != nil {
			return
		}
		for w := range d.index {
			ps := d.Lookup(w)
			if len(ps) == 0 {
				t.Fatalf("word %q has no pronunciation", w)
			}
			for _, p := range ps {
				if len(p) == 0 {
					t.Fatalf("word %q has an empty pronunciation", w)
				}
			}
		}
	})
}

// TestParseDictSkipUnknownPhones checks both ways of meeting a phone the
// model lacks: a strict parse fails naming the line, a model dictionary
// (SkipUnknownPhones) leaves that word out and keeps every other.
func TestParseDictSkipUnknownPhones(t *testing.T) {
	m, err := ParseMdef("mdef", tinyMdef())
	if err != nil {
		t.Fatal(err)
	}
	data := []byte("a AA\nb AA QQ\nb(2) AA\nc QQ\n")
	var strict Dict
	if err := ParseDict("x.dic", data, m, false, &strict); err == nil || !strings.Contains(err.Error(), `x.dic:2: word "b" uses phone "QQ"`) {
		t.Errorf("strict parse: %v; want the error for line 2", err)
	}
	d := Dict{SkipUnknownPhones: true}
	if err := ParseDict("x.dic", data, m, false, &d); err != nil {
		t.Fatalf("lenient parse: %v", err)
	}
	if got := d.Skipped(); !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("Skipped() = %q; want [b c]", got)
	}
	if d.Len() != 2 || len(d.Lookup("a")) != 1 || len(d.Lookup("b")) != 1 || d.Lookup("c") != nil {
		t.Errorf("lenient dictionary: %d words, a %v, b %v, c %v; want a and b(2) kept, c left out",
			d.Len(), d.Lookup("a"), d.Lookup("b"), d.Lookup("c"))
	}
}
