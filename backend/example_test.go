package backend_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/sottolabs/sotto/backend"
)

// Greeter is the backend interface of a made-up capability.
type Greeter interface {
	Greet(name string) string
}

type english struct{}

func (english) Greet(name string) string { return "Hello, " + name }

type french struct{}

func (french) Greet(name string) string { return "Bonjour, " + name }

// A capability package keeps one registry; drivers register from init and
// Open picks the named one, or the highest priority for "".
func ExampleRegistry() {
	drivers := backend.NewRegistry[Greeter]("greet")
	drivers.Register(backend.Driver[Greeter]{Name: "en", Priority: 1,
		Open: func(context.Context, backend.Config) (Greeter, error) { return english{}, nil }})
	drivers.Register(backend.Driver[Greeter]{Name: "fr",
		Open: func(context.Context, backend.Config) (Greeter, error) { return french{}, nil }})
	fmt.Println(drivers.Drivers())

	ctx := context.Background()
	g, _ := drivers.Open(ctx, "", backend.Config{}) // highest priority
	fmt.Println(g.Greet("Ada"))
	g, _ = drivers.Open(ctx, "fr", backend.Config{})
	fmt.Println(g.Greet("Ada"))
	_, err := drivers.Open(ctx, "onnx", backend.Config{})
	fmt.Println(err)
	// Output:
	// [en fr]
	// Hello, Ada
	// Bonjour, Ada
	// greet: backend "onnx" is not in this build (compiled in: en, fr; rebuild with CGO_ENABLED=1 -tags onnx)
}

// A backend pushes results through a callback; Seq turns that into an
// iterator for callers, with the producer's error yielded last.
func ExampleSeq() {
	words := func(ctx context.Context, emit func(string) error) error {
		for _, w := range strings.Fields("ask not what your country") {
			if err := emit(w); err != nil {
				return err // the consumer stopped
			}
		}
		return errors.New("words: end of transcript")
	}
	for w, err := range backend.Seq(context.Background(), words) {
		if err != nil {
			fmt.Println("error:", err)
			break
		}
		fmt.Println(w)
		if w == "what" {
			break // the producer's emit returns an error and it stops
		}
	}
	// Output:
	// ask
	// not
	// what
}
