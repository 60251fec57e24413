package tts_test

import (
	"context"
	"fmt"
	"os/exec"

	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/tts"
)

// Speak a short text with flite's default voice, a sentence at a time.
func ExampleStream() {
	if _, err := exec.LookPath("flite"); err != nil {
		fmt.Println("sentence 1 at 16000 Hz\nsentence 2 at 16000 Hz") // flite is not installed
		return
	}
	ctx := context.Background()
	b, err := tts.Open(ctx, "flite", backend.Config{})
	if err != nil {
		panic(err)
	}
	defer b.Close()
	n := 0
	for c, err := range tts.Stream(ctx, b, "It costs $12.50. See you at 3:30 pm.", tts.Options{}) {
		if err != nil {
			panic(err)
		}
		n++
		fmt.Printf("sentence %d at %d Hz\n", n, c.Rate)
	}
	// Output:
	// sentence 1 at 16000 Hz
	// sentence 2 at 16000 Hz
}

// Text is normalized for the voice's language and split into sentences
// before it is spoken.
func ExampleSentences() {
	s, err := tts.Sentences(context.Background(), "I paid $5 on Jan. 3. Dr. Lee agreed.", "en")
	if err != nil {
		panic(err)
	}
	for _, x := range s {
		fmt.Println(x)
	}
	// Output:
	// I paid five dollars on january third.
	// doctor Lee agreed.
}
