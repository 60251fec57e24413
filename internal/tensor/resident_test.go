package tensor

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"
)

func TestCopyToMemory(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	var mats, orig []*Matrix
	for _, typ := range allTypes {
		m, err := NewMatrix(typ, 3, 256, RandomData(typ, 3*256, 1, r))
		if err != nil {
			t.Fatal(err)
		}
		c := *m
		mats, orig = append(mats, m), append(orig, &c)
	}
	mats = append(mats, nil)
	release, err := CopyToMemory(mats)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float32, 256)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	var a Activation
	a.Set(x)
	for i, m := range mats[:len(orig)] {
		o := orig[i]
		if unsafe.SliceData(m.Data) == unsafe.SliceData(o.Data) {
			t.Errorf("%v: data not copied", m.Type)
		}
		if !bytes.Equal(m.Data, o.Data) || cap(m.Data) != len(m.Data) {
			t.Errorf("%v: copy differs (len %d cap %d; want len %d)", m.Type, len(m.Data), cap(m.Data), len(o.Data))
		}
		if uintptr(unsafe.Pointer(unsafe.SliceData(m.Data)))%64 != 0 {
			t.Errorf("%v: copy not aligned to 64 bytes", m.Type)
		}
		for row := range m.Rows {
			if got, want := m.DotRow(row, &a), o.DotRow(row, &a); got != want {
				t.Errorf("%v row %d: %v after the copy; want %v", m.Type, row, got, want)
			}
		}
	}
	if err := release(); err != nil {
		t.Fatal(err)
	}
}
