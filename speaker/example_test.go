package speaker_test

import (
	"fmt"

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
