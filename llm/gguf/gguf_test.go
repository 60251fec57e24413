package gguf

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sottolabs/sotto/internal/tensor"
)

// sample builds a small file with one value of every type and tensors of
// several types.
func sample(t testing.TB, alignment int) []byte {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	w := &Writer{Alignment: alignment}
	w.AddKV("general.architecture", "llama")
	w.AddKV("u8", uint8(7))
	w.AddKV("i8", int8(-7))
	w.AddKV("u16", uint16(700))
	w.AddKV("i16", int16(-700))
	w.AddKV("u32", uint32(70000))
	w.AddKV("i32", int32(-70000))
	w.AddKV("f32", float32(1.5))
	w.AddKV("bool", true)
	w.AddKV("u64", uint64(1<<40))
	w.AddKV("i64", int64(-1<<40))
	w.AddKV("f64", 2.25)
	w.AddKV("strs", []string{"a", "", "ü"})
	w.AddKV("f32s", []float32{1, -2})
	w.AddKV("i32s", []int32{3, -4})
	w.AddKV("nested", []any{[]uint8{1, 2}, []uint8{3}})
	w.AddTensor("a", tensor.F32, []uint64{4, 2}, tensor.RandomData(tensor.F32, 8, 1, r))
	w.AddTensor("b", tensor.Q8_0, []uint64{64}, tensor.RandomData(tensor.Q8_0, 64, 1, r))
	w.AddTensor("c", tensor.Q4_K, []uint64{256, 1, 1}, tensor.RandomData(tensor.Q4_K, 256, 1, r))
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	for _, al := range []int{0, 64} {
		b := sample(t, al)
		f, err := Parse(b)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		if f.Architecture() != "llama" || f.Version != 3 {
			t.Errorf("Architecture, Version = %q, %d", f.Architecture(), f.Version)
		}
		want := map[string]any{
			"u8": uint8(7), "i8": int8(-7), "u16": uint16(700), "i16": int16(-700), "u32": uint32(70000),
			"i32": int32(-70000), "f32": float32(1.5), "bool": true, "u64": uint64(1 << 40), "i64": int64(-1 << 40),
			"f64": 2.25, "strs": []string{"a", "", "ü"}, "f32s": []float32{1, -2}, "i32s": []int32{3, -4},
			"nested": []any{[]uint8{1, 2}, []uint8{3}},
		}
		for k, v := range want {
			got, ok := f.Value(k)
			if !ok || !cmp.Equal(got, v) {
				t.Errorf("Value(%q) = %#v, %v; want %#v", k, got, ok, v)
			}
		}
		if n, ok := f.Uint("u32"); !ok || n != 70000 {
			t.Errorf("Uint(u32) = %d, %v", n, ok)
		}
		if _, ok := f.Uint("i32"); ok {
			t.Errorf("Uint(i32 negative) ok; want false")
		}
		wantAl := 32
		if al != 0 {
			wantAl = al
		}
		if f.Alignment != wantAl || f.DataOffset%int64(wantAl) != 0 {
			t.Errorf("Alignment %d, DataOffset %d; want alignment %d", f.Alignment, f.DataOffset, wantAl)
		}
		c, ok := f.Tensor("c")
		if !ok || c.Type != tensor.Q4_K || c.Size() != 144 || c.Elements() != 256 || c.Offset%uint64(wantAl) != 0 {
			t.Errorf("Tensor(c) = %+v", c)
		}
		r := rand.New(rand.NewPCG(1, 2))
		if got, want := f.Data(&f.Tensors[0]), tensor.RandomData(tensor.F32, 8, 1, r); !bytes.Equal(got, want) {
			t.Errorf("Data(a) = %x; want %x", got, want)
		}
	}
}

func TestOpen(t *testing.T) {
	p := filepath.Join(t.TempDir(), "m.gguf")
	if err := os.WriteFile(p, sample(t, 0), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if len(f.Tensors) != 3 {
		t.Errorf("Open: %d tensors; want 3", len(f.Tensors))
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("Open(missing) succeeded")
	}
}

func TestMalformed(t *testing.T) {
	good := sample(t, 0)
	le := binary.LittleEndian
	mod := func(f func(b []byte) []byte) []byte { return f(append([]byte(nil), good...)) }
	cases := map[string][]byte{
		"empty":     nil,
		"magic":     mod(func(b []byte) []byte { b[0] = 'X'; return b }),
		"version":   mod(func(b []byte) []byte { le.PutUint32(b[4:], 9); return b }),
		"truncated": good[:len(good)/2],
		"header":    good[:20],
		"kv count":  mod(func(b []byte) []byte { le.PutUint64(b[16:], 1<<60); return b }),
		"tensors":   mod(func(b []byte) []byte { le.PutUint64(b[8:], 1<<60); return b }),
		"key len":   mod(func(b []byte) []byte { le.PutUint64(b[24:], 1<<62); return b }),
		"data cut":  good[:len(good)-1],
		"value type": mod(func(b []byte) []byte {
			// The first pair: key length (8), key "general.architecture" (20), type.
			le.PutUint32(b[24+8+20:], 77)
			return b
		}),
	}
	for name, b := range cases {
		if _, err := Parse(b); !errors.Is(err, ErrFormat) {
			t.Errorf("Parse(%s) = %v; want ErrFormat", name, err)
		}
	}
	// Tensor-level faults, built with a writer-like layout by hand.
	build := func(dims []uint64, typ uint32, off uint64, extra int) []byte {
		var b []byte
		b = append(b, Magic...)
		b = le.AppendUint32(b, 3)
		b = le.AppendUint64(b, 1)
		b = le.AppendUint64(b, 0)
		b = le.AppendUint64(b, 1)
		b = append(b, 'x')
		b = le.AppendUint32(b, uint32(len(dims)))
		for _, d := range dims {
			b = le.AppendUint64(b, d)
		}
		b = le.AppendUint32(b, typ)
		b = le.AppendUint64(b, off)
		for len(b)%32 != 0 {
			b = append(b, 0)
		}
		return append(b, make([]byte, extra)...)
	}
	if _, err := Parse(build([]uint64{4}, 0, 0, 16)); err != nil {
		t.Fatalf("Parse(valid hand-built) = %v", err)
	}
	for name, b := range map[string][]byte{
		"rank 0":       build(nil, 0, 0, 16),
		"rank 5":       build([]uint64{1, 1, 1, 1, 1}, 0, 0, 16),
		"overflow":     build([]uint64{1 << 40, 1 << 40}, 0, 0, 16),
		"unknown type": build([]uint64{4}, 99, 0, 16),
		"partial blk":  build([]uint64{33}, 8, 0, 64),
		"misaligned":   build([]uint64{4}, 0, 4, 64),
		"past end":     build([]uint64{8}, 0, 0, 16),
		"offset huge":  build([]uint64{4}, 0, 1<<63, 16),
	} {
		if _, err := Parse(b); !errors.Is(err, ErrFormat) {
			t.Errorf("Parse(%s) = %v; want ErrFormat", name, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(sample(f, 0))
	f.Add(sample(f, 64))
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := Parse(b)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("Parse error %v does not wrap ErrFormat", err)
			}
			return
		}
		// Whatever parses writes back and parses to the same content.
		w := &Writer{Alignment: g.Alignment}
		for _, kv := range g.KV {
			if kv.Key != "general.alignment" {
				w.AddKV(kv.Key, kv.Value)
			}
		}
		for i := range g.Tensors {
			tt := &g.Tensors[i]
			w.AddTensor(tt.Name, tt.Type, tt.Dims, g.Data(tt))
		}
		var buf bytes.Buffer
		if _, err := w.WriteTo(&buf); err != nil {
			t.Fatalf("WriteTo: %v", err)
		}
		h, err := Parse(buf.Bytes())
		if err != nil {
			t.Fatalf("re-Parse: %v", err)
		}
		if len(h.Tensors) != len(g.Tensors) {
			t.Fatalf("re-Parse: %d tensors; want %d", len(h.Tensors), len(g.Tensors))
		}
		for i := range g.Tensors {
			if !bytes.Equal(g.Data(&g.Tensors[i]), h.Data(&h.Tensors[i])) {
				t.Fatalf("tensor %q data changed", g.Tensors[i].Name)
			}
		}
	})
}
