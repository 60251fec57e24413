package speaker_test

import (
	"context"
	"fmt"

	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"

	"github.com/sottolabs/sotto/speaker"
)

func ExampleSimilarity() {
	sim, err := speaker.Similarity([]float64{1, 0, 1}, []float64{1, 0, 0})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.3f\n", sim)
	// Output: 0.707
}

// Compare two recordings with the pure-Go driver.
func Example_compare() {
	ctx := context.Background()
	b, err := speaker.Open(ctx, "go", backend.Config{}) // the Debian en-us model
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	embed := func(path string) []float64 {
		a, _, err := audio.DecodeFile(ctx, path, audio.Options{})
		if err != nil {
			panic(err)
		}
		v, err := b.Embed(ctx, a) // a 422 *sotto.Error when there is too little speech
		if err != nil {
			panic(err)
		}
		return speaker.Float64(v)
	}
	sim, _ := speaker.Similarity(embed("a.wav"), embed("b.wav"))
	fmt.Printf("similarity %.3f, same speaker likely: %v\n", sim, sim >= speaker.VerifyThreshold)
}
