package align_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
)

// Align with the default backend, opened on the first call and shared. The
// example is compiled but not run: it needs a recording (speech.wav) and
// the Debian English model (apt-get install pocketsphinx-en-us).
func ExampleAlign() {
	ctx := context.Background()
	a, _, err := audio.DecodeFile(ctx, "speech.wav", audio.Options{})
	if err != nil {
		log.Fatal(err)
	}
	res, err := align.Align(ctx, a, "ask not what your country can do for you", align.Options{Language: "en"})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range res.Segments {
		for _, w := range s.Words {
			fmt.Printf("%5.2f %5.2f %s\n", w.Start, w.End, w.Word)
		}
	}
}

// Open a backend of your own to choose the driver or model, or to release
// the model with Close. Compiled, not run (it needs a recording).
func ExampleOpen() {
	ctx := context.Background()
	b, err := align.Open(ctx, "", backend.Config{}) // "" = the highest-priority driver
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close()
	a, _, err := audio.DecodeFile(ctx, "speech.wav", audio.Options{})
	if err != nil {
		log.Fatal(err)
	}
	res, err := b.Align(ctx, a, "Ask not what your country can do for you.", align.Options{
		Language:          "en",
		TextNormalization: align.DefaultTextNormalization,
		SearchEffort:      align.EffortAuto, // widen the search once if the first fails
	})
	if err != nil {
		var se *sotto.Error
		if errors.As(err, &se) && se.Code == "alignment_failed" {
			if f, ok := se.Detail.(align.Failure); ok {
				fmt.Println("no alignment:", f.Reason, "retry recommended:", f.RetryRecommended)
				return
			}
		}
		log.Fatal(err)
	}
	fmt.Println(res.Duration, "s,", len(res.Segments), "segments")
}

// The drivers compiled into this program: the pure-Go "go" one, plus
// native ones built with their tags.
func ExampleDrivers() {
	fmt.Println(align.Drivers())
	// Output: [go]
}

// Errors are *sotto.Error values with the spec's code and parameter.
func ExampleAlign_errors() {
	_, err := align.Align(context.Background(), sotto.Audio{}, "hello", align.Options{Model: "Sotto/Lattice-1"})
	var se *sotto.Error
	if errors.As(err, &se) {
		fmt.Println(errors.Is(err, sotto.ErrInvalidRequest), se.Code, se.Param)
	}
	// Output: true bad_request model
}
