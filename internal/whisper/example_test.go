package whisper_test

import (
	"bytes"
	"context"
	"fmt"
	"math"

	"github.com/sottolabs/sotto/internal/whisper"
)

// A toy model written with random weights, read back, and a log-mel
// spectrogram of one second of a 440 Hz tone.
func Example() {
	h := whisper.Hparams{NVocab: 8, NAudioCtx: 4, NAudioState: 32, NAudioHead: 2, NAudioLayer: 1,
		NTextCtx: 4, NTextState: 32, NTextHead: 2, NTextLayer: 1, NMels: 2, FType: whisper.FTypeQ8_0}
	f := whisper.Filters{NMel: 2, NFFT: 201, Data: make([]float32, 2*201)}
	f.Data[11], f.Data[201+50] = 1, 1 // bin 11 is 440 Hz; bin 50 is 2 kHz
	var buf bytes.Buffer
	if err := whisper.WriteRandom(context.Background(), &buf, h, f, [][]byte{[]byte("hi")}, 1); err != nil {
		panic(err)
	}
	m, err := whisper.Parse(buf.Bytes())
	if err != nil {
		panic(err)
	}
	fmt.Println(len(m.Tensors), "tensors;", m.CheckTensors())

	tone := make([]float32, whisper.SampleRate)
	for i := range tone {
		tone[i] = float32(0.5 * math.Sin(2*math.Pi*440*float64(i)/whisper.SampleRate))
	}
	mel, err := whisper.LogMel(context.Background(), tone, m.Filters, 1)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d frames; frame 50: 440 Hz %.2f, 2 kHz %.2f\n", mel.NLen, mel.At(50, 0), mel.At(50, 1))
	// Output:
	// 50 tensors; <nil>
	// 3100 frames; frame 50: 440 Hz 1.85, 2 kHz -0.15
}
