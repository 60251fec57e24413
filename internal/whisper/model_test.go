package whisper

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// forTests returns the bytes of whisper.cpp's models/for-tests-ggml-tiny.bin
// (committed gzipped in testdata; see testdata/README.md).
func forTests(tb testing.TB) []byte {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", "for-tests-ggml-tiny.bin.gz"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	b, err := io.ReadAll(z)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func TestParseForTests(t *testing.T) {
	m, err := Parse(forTests(t))
	if err != nil {
		t.Fatalf("Parse(for-tests-ggml-tiny.bin) = %v", err)
	}
	want := Hparams{NVocab: 51865, NAudioCtx: 1500, NAudioState: 384, NAudioHead: 6, NAudioLayer: 4,
		NTextCtx: 448, NTextState: 384, NTextHead: 6, NTextLayer: 4, NMels: 80, FType: FTypeF16}
	if m.Hparams != want {
		t.Errorf("Hparams = %+v; want %+v", m.Hparams, want)
	}
	if m.Filters.NMel != 80 || m.Filters.NFFT != 201 || len(m.Filters.Data) != 80*201 {
		t.Errorf("Filters = %d×%d, %d weights; want 80×201", m.Filters.NMel, m.Filters.NFFT, len(m.Filters.Data))
	}
	if len(m.Vocab) != 50257 || string(m.Vocab[0]) != "!" || string(m.Vocab[1]) != `"` || string(m.Vocab[50256]) != "" {
		t.Errorf("Vocab: %d tokens, first %q %q, last %q; want 50257, \"!\" and an empty last", len(m.Vocab), m.Vocab[0], m.Vocab[1], m.Vocab[len(m.Vocab)-1])
	}
	if len(m.Tensors) != 0 {
		t.Errorf("%d tensors; want none", len(m.Tensors))
	}
	if err := m.CheckTensors(); !errors.Is(err, ErrFormat) {
		t.Errorf("CheckTensors() on a weightless file = %v; want ErrFormat", err)
	}
	// Slaney-normalised mel filters: each row is a triangle, non-negative,
	// peaking once.
	for b := range 80 {
		row := m.Filters.Data[b*201 : (b+1)*201]
		nz := 0
		for _, v := range row {
			if v < 0 {
				t.Fatalf("filter %d has a negative weight %v", b, v)
			}
			if v > 0 {
				nz++
			}
		}
		if nz == 0 {
			t.Errorf("filter %d is empty", b)
		}
	}
}

// smallHparams is a toy shape that keeps tests fast.
func smallHparams(ft FType) Hparams {
	return Hparams{NVocab: 40, NAudioCtx: 6, NAudioState: 64, NAudioHead: 2, NAudioLayer: 1,
		NTextCtx: 5, NTextState: 64, NTextHead: 2, NTextLayer: 1, NMels: 3, FType: ft}
}

func smallModel(t testing.TB, ft FType, seed uint64) []byte {
	h := smallHparams(ft)
	f := Filters{NMel: 3, NFFT: 201, Data: make([]float32, 3*201)}
	for i := range f.Data {
		f.Data[i] = float32(i%7) / 100
	}
	vocab := [][]byte{[]byte("a"), []byte(" b"), {}, []byte("\xe5\x9c\xba")}
	var buf bytes.Buffer
	if err := WriteRandom(context.Background(), &buf, h, f, vocab, seed); err != nil {
		t.Fatalf("WriteRandom(%v) = %v", ft, err)
	}
	return buf.Bytes()
}

var allFTypes = []FType{FTypeF32, FTypeF16, FTypeQ8_0, FTypeQ5_0, FTypeQ5_1, FTypeQ4_0}

// rewrite serialises a parsed model again with Writer.
func rewrite(t testing.TB, m *Model) []byte {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.Header(m.Hparams, m.Filters, m.Vocab); err != nil {
		t.Fatal(err)
	}
	for _, tn := range m.Tensors {
		if err := w.Tensor(tn.Name, tn.Type, tn.Dims, tn.Data); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestWriteRandomRoundTrip(t *testing.T) {
	for _, ft := range allFTypes {
		wt, _ := ft.WeightType()
		t.Run(wt.String(), func(t *testing.T) {
			b := smallModel(t, ft, 7)
			if again := smallModel(t, ft, 7); !bytes.Equal(b, again) {
				t.Fatal("WriteRandom gave different bytes for the same seed")
			}
			if other := smallModel(t, ft, 8); bytes.Equal(b, other) {
				t.Fatal("WriteRandom gave the same bytes for seeds 7 and 8")
			}
			m, err := Parse(b)
			if err != nil {
				t.Fatalf("Parse(WriteRandom) = %v", err)
			}
			if err := m.CheckTensors(); err != nil {
				t.Fatalf("CheckTensors() = %v", err)
			}
			if got := rewrite(t, m); !bytes.Equal(got, b) {
				t.Fatal("rewriting the parsed model changed its bytes")
			}
			tn, _ := m.Tensor("encoder.blocks.0.attn.query.weight")
			if tn.Type != wt || tn.Dims[0] != 64 || tn.Dims[1] != 64 {
				t.Errorf("query weight: %v %v; want %v [64 64]", tn.Type, tn.Dims, wt)
			}
			if c, _ := m.Tensor("encoder.conv1.weight"); c.Type != ft.ConvType() {
				t.Errorf("conv1 type %v; want %v", c.Type, ft.ConvType())
			}
		})
	}
}

// TestWriteRandomStable pins the bytes WriteRandom produces for the toy
// shape, so that a change to the generator (which would silently
// invalidate golden files recorded from its output) fails here.
func TestWriteRandomStable(t *testing.T) {
	want := map[FType]string{
		FTypeF16:  "f761df2aa55116f7b9b8556fec58fb668779a6b6ffa88f21c0a3d737ac79f409",
		FTypeQ8_0: "e34c244aedcdc30c96966af4cf217719e8d882690f8cc3c43b88176323bf9678",
		FTypeQ5_0: "de6274af40bf0be649ae0af6f611ada16bd54f9d824deaacd247136ade20791e",
	}
	for ft, w := range want {
		s := sha256.Sum256(smallModel(t, ft, 1))
		if got := hex.EncodeToString(s[:]); got != w {
			t.Errorf("sha256(WriteRandom(%v, seed 1)) = %s; want %s", ft, got, w)
		}
	}
}

func TestParseRejects(t *testing.T) {
	good := smallModel(t, FTypeQ8_0, 1)
	put := func(off int, v uint32) []byte {
		b := bytes.Clone(good)
		binary.LittleEndian.PutUint32(b[off:], v)
		return b
	}
	// Offset of the first tensor record: header, filters, vocabulary.
	first := 4 + 11*4 + 8 + 3*201*4 + 4 + (4 + 1) + (4 + 2) + 4 + (4 + 3)
	cases := []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"bad magic", put(0, 0x46554747)},
		{"zero vocab", put(4, 0)},
		{"huge vocab", put(4, 1<<30)},
		{"negative ctx", put(8, 0xffffffff)},
		{"heads not dividing width", put(16, 5)},
		{"unknown ftype", put(44, 5)},
		{"filters mismatch n_mels", put(48, 4)},
		{"huge filters", put(52, 1<<30)},
		{"vocab larger than n_vocab", put(4+11*4+8+3*201*4, 41)},
		{"tensor rank 5", put(first, 5)},
		{"tensor rank 0", put(first, 0)},
		{"empty tensor name", put(first+4, 0)},
		{"unknown tensor type", put(first+8, 99)},
		{"zero dimension", put(first+12, 0)},
		{"tensor past end", put(first+12, 1<<20)},
		{"truncated header", good[:30]},
		{"truncated filters", good[:100]},
		{"truncated tensor", good[:len(good)-1]},
		{"trailing bytes", append(bytes.Clone(good), 1, 2, 3)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Parse(c.b); !errors.Is(err, ErrFormat) {
				t.Errorf("Parse = %v; want ErrFormat", err)
			}
		})
	}
	// A duplicated tensor record.
	m, _ := Parse(good)
	tn := m.Tensors[len(m.Tensors)-1]
	var buf bytes.Buffer
	buf.Write(good)
	w := NewWriter(&buf)
	w.Tensor(tn.Name, tn.Type, tn.Dims, tn.Data)
	w.Flush()
	if _, err := Parse(buf.Bytes()); !errors.Is(err, ErrFormat) {
		t.Errorf("Parse(duplicate tensor) = %v; want ErrFormat", err)
	}
}

func TestOpenMapsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.bin")
	if err := os.WriteFile(path, smallModel(t, FTypeF16, 3), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Open(path)
	if err != nil {
		t.Fatalf("Open = %v", err)
	}
	if err := m.CheckTensors(); err != nil {
		t.Errorf("CheckTensors() = %v", err)
	}
	if err := m.Close(); err != nil {
		t.Errorf("Close() = %v", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "absent.bin")); err == nil {
		t.Error("Open(absent file) succeeded")
	}
}

func FuzzParse(f *testing.F) {
	f.Add(smallModel(f, FTypeQ5_0, 1))
	f.Add(smallModel(f, FTypeF16, 2)[:900])
	f.Add(forTests(f)[:4096])
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Parse(b)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("Parse error %v does not wrap ErrFormat", err)
			}
			return
		}
		for _, tn := range m.Tensors {
			n, err := tn.Type.Size(int64(tn.Elements()))
			if err != nil || n != int64(len(tn.Data)) {
				t.Fatalf("tensor %q: %d bytes for %v %v (size %d, %v)", tn.Name, len(tn.Data), tn.Type, tn.Dims, n, err)
			}
		}
		// Whatever parses, the writer reproduces byte for byte.
		if got := rewrite(t, m); !bytes.Equal(got, b) {
			t.Fatalf("rewrite of a parsed file differs (%d bytes, want %d)", len(got), len(b))
		}
	})
}
