package sphinx_test

import (
	"context"
	"fmt"
	"math"

	"github.com/sottolabs/sotto/internal/sphinx"
)

// The front end needs no model files. One second of a 440 Hz tone gives 99
// frames of 13 cepstra: 98 full 25.6 ms windows at a 10 ms hop, plus the
// zero-padded remainder, as the peer's sphinx_fe counts them.
func ExampleFrontend() {
	p := sphinx.DefaultFeatParams()
	p.LowerF, p.UpperF, p.NFilt, p.Transform, p.Lifter = 130, 6800, 25, "dct", 22
	fe, err := sphinx.NewFrontend(p)
	if err != nil {
		panic(err)
	}
	x := make([]float32, 16000)
	for i := range x {
		x[i] = 0.3 * float32(math.Sin(2*math.Pi*440*float64(i)/16000))
	}
	cep, err := fe.Cepstra(context.Background(), x)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(cep)/fe.NCep(), "frames of", fe.NCep(), "cepstra")
	// Output: 99 frames of 13 cepstra
}

// Forced alignment with the Debian en-us model (apt-get install
// pocketsphinx-en-us); samples are 16 kHz mono in [-1,1].
func ExampleModel_Align() {
	ctx := context.Background()
	m, err := sphinx.Load(ctx, sphinx.Config{})
	if err != nil {
		fmt.Println(err)
		return
	}
	samples := make([]float32, 16000) // your audio here
	a, err := m.Align(ctx, samples, []string{"hello", "world"}, sphinx.AlignOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range a.Words {
		fmt.Printf("%-8s %.2f–%.2f s\n", w.Label, a.Seconds(w.Start), a.Seconds(w.End))
	}
}
