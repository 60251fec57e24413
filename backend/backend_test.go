package backend

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type fake struct{ name string }

func TestRegistrySelection(t *testing.T) {
	r := NewRegistry[*fake]("test")
	open := func(n string) func(context.Context, Config) (*fake, error) {
		return func(context.Context, Config) (*fake, error) { return &fake{n}, nil }
	}
	r.Register(Driver[*fake]{Name: "go", Priority: 0, Open: open("go")})
	r.Register(Driver[*fake]{Name: "onnx", Priority: 10, Open: open("onnx")})
	if got, want := r.Drivers(), []string{"go", "onnx"}; !cmp.Equal(got, want) {
		t.Errorf("Drivers() = %v; want %v", got, want)
	}
	b, err := r.Open(context.Background(), "", Config{})
	if err != nil || b.name != "onnx" {
		t.Errorf("Open(\"\") = %v, %v; want onnx", b, err)
	}
	b, err = r.Open(context.Background(), "go", Config{})
	if err != nil || b.name != "go" {
		t.Errorf("Open(go) = %v, %v; want go", b, err)
	}
	_, err = r.Open(context.Background(), "cuda", Config{})
	if err == nil || err.Error() != `test: unknown backend "cuda" (compiled in: go, onnx)` {
		t.Errorf("Open(cuda) error = %v; want no rebuild hint (no cuda tag exists)", err)
	}
	// A build tag's driver missing from the build: the rebuild hint.
	r2 := NewRegistry[*fake]("test")
	r2.Register(Driver[*fake]{Name: "go", Open: open("go")})
	_, err = r2.Open(context.Background(), "onnx", Config{})
	if err == nil || !strings.Contains(err.Error(), `backend "onnx" is not in this build (compiled in: go; rebuild with CGO_ENABLED=1 -tags onnx)`) {
		t.Errorf("Open(onnx) error = %v", err)
	}
}

func TestRegisterPanics(t *testing.T) {
	for name, d := range map[string]Driver[int]{
		"empty name": {Open: func(context.Context, Config) (int, error) { return 0, nil }},
		"nil open":   {Name: "x"},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%s) did not panic", name)
				}
			}()
			NewRegistry[int]("t").Register(d)
		})
	}
	r := NewRegistry[int]("t")
	d := Driver[int]{Name: "x", Open: func(context.Context, Config) (int, error) { return 0, nil }}
	r.Register(d)
	defer func() {
		if recover() == nil {
			t.Error("duplicate Register did not panic")
		}
	}()
	r.Register(d)
}

func TestSeq(t *testing.T) {
	boom := errors.New("boom")
	run := func(ctx context.Context, emit func(int) error) error {
		for i := range 5 {
			if err := emit(i); err != nil {
				return err
			}
		}
		return boom
	}
	var got []int
	var gotErr error
	for v, err := range Seq(context.Background(), run) {
		if err != nil {
			gotErr = err
			break
		}
		got = append(got, v)
	}
	if !cmp.Equal(got, []int{0, 1, 2, 3, 4}) || gotErr != boom {
		t.Errorf("Seq = %v, %v; want [0 1 2 3 4], boom", got, gotErr)
	}
	got = nil
	for v, err := range Seq(context.Background(), run) {
		if err != nil {
			t.Fatalf("unexpected error %v after early stop", err)
		}
		got = append(got, v)
		if v == 1 {
			break
		}
	}
	if !cmp.Equal(got, []int{0, 1}) {
		t.Errorf("early stop got %v", got)
	}
}
