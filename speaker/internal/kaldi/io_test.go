package kaldi

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/speaker/internal/kaldi/kaldiwrite"
)

// writer builds Kaldi binary data for the tests.
type writer = kaldiwrite.Writer

func TestReadVectorText(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []float32
	}{
		{" [ 4.450152 -1.5 3e2 ]\n", []float32{4.450152, -1.5, 300}},
		{"[ 1\n 2 ]", []float32{1, 2}},
		{"[ ]", []float32{}},
	} {
		got, err := ReadVector([]byte(c.in))
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if len(got) != len(c.want) {
			t.Fatalf("%q: %v, want %v", c.in, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Fatalf("%q: %v, want %v", c.in, got, c.want)
			}
		}
	}
	for _, bad := range []string{"", "1 2 3", "[ 1 x ]", "[ 1 2", "[ nan ]", "[ 1e99 ]"} {
		if _, err := ReadVector([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestReadVectorBinary(t *testing.T) {
	var w writer
	w.WriteString(binaryHeader)
	w.Vector(1, -2, 0.5)
	got, err := ReadVector(w.Bytes())
	if err != nil || len(got) != 3 || got[0] != 1 || got[1] != -2 || got[2] != 0.5 {
		t.Fatalf("got %v, %v", got, err)
	}
	// A double vector.
	var d writer
	d.WriteString(binaryHeader)
	d.Token("DV")
	d.Int32(2)
	binary.Write(&d.Buffer, binary.LittleEndian, []float64{0.25, -8})
	got, err = ReadVector(d.Bytes())
	if err != nil || len(got) != 2 || got[0] != 0.25 || got[1] != -8 {
		t.Fatalf("double: got %v, %v", got, err)
	}
}

func TestReadMatrix(t *testing.T) {
	var w writer
	w.WriteString(binaryHeader)
	w.Matrix(2, 3, 1, 2, 3, 4, 5, 6)
	m, err := ReadMatrix(w.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if m.Rows != 2 || m.Cols != 3 || m.Row(1)[2] != 6 || m.Row(0)[1] != 2 {
		t.Fatalf("got %+v", m)
	}
	m, err = ReadMatrix([]byte("[ 1 2\n 3 4\n 5 6 ]\n"))
	if err != nil || m.Rows != 3 || m.Cols != 2 || m.Row(2)[0] != 5 {
		t.Fatalf("text: got %+v, %v", m, err)
	}
	bad := map[string][]byte{
		"ragged text":      []byte("[ 1 2\n 3 ]"),
		"cut short":        w.Bytes()[:len(w.Bytes())-1],
		"trailing bytes":   append(append([]byte(nil), w.Bytes()...), 'x'),
		"compressed":       []byte(binaryHeader + "CM \x04\x01\x00\x00\x00"),
		"negative rows":    mat(-1, 2),
		"huge":             mat(1<<20, 1<<20),
		"bad integer size": []byte(binaryHeader + "FM \x08\x01\x00\x00\x00\x00\x00\x00\x00"),
	}
	for name, b := range bad {
		if _, err := ReadMatrix(b); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func mat(rows, cols int) []byte {
	var w writer
	w.WriteString(binaryHeader)
	w.Token("FM")
	w.Int32(rows)
	w.Int32(cols)
	return w.Bytes()
}

func TestReaderNumbers(t *testing.T) {
	var w writer
	w.Float32(1.5)
	w.Float64(-2.25)
	w.Int32(-7)
	w.Bool(true)
	w.WriteString(" ")
	w.Bool(false)
	r := &reader{b: w.Bytes()}
	a, err1 := r.float()
	b, err2 := r.float()
	c, err3 := r.int32()
	d, err4 := r.bool()
	e, err5 := r.bool()
	if err := firstErr(err1, err2, err3, err4, err5); err != nil {
		t.Fatal(err)
	}
	if a != 1.5 || b != -2.25 || c != -7 || !d || e {
		t.Fatalf("got %v %v %v %v %v", a, b, c, d, e)
	}
	if _, err := r.float(); err == nil || !strings.Contains(err.Error(), "cut short") {
		t.Fatalf("past the end: %v", err)
	}
	if math.IsNaN(a) {
		t.Fatal("unreachable")
	}
}
