package audio_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
)

// toneWAV returns a 16-bit stereo WAV file of seconds at rate Hz: a 440 Hz
// tone on the left channel and silence on the right.
func toneWAV(rate int, seconds float64) []byte {
	n := int(float64(rate) * seconds)
	le := binary.LittleEndian
	b := le.AppendUint32([]byte("RIFF"), uint32(36+4*n))
	b = append(b, "WAVEfmt "...)
	b = le.AppendUint32(b, 16)
	b = le.AppendUint16(b, 1)              // PCM
	b = le.AppendUint16(b, 2)              // channels
	b = le.AppendUint32(b, uint32(rate))   // sample rate
	b = le.AppendUint32(b, uint32(4*rate)) // bytes per second
	b = le.AppendUint16(b, 4)              // block align
	b = le.AppendUint16(b, 16)             // bits per sample
	b = append(b, "data"...)
	b = le.AppendUint32(b, uint32(4*n))
	for i := range n {
		v := int16(16000 * math.Sin(2*math.Pi*440*float64(i)/float64(rate)))
		b = le.AppendUint16(b, uint16(v))
		b = le.AppendUint16(b, 0)
	}
	return b
}

func ExampleDecode() {
	wav := toneWAV(44100, 2) // 2 s of 44.1 kHz stereo
	a, info, err := audio.Decode(context.Background(), bytes.NewReader(wav), audio.Options{Channel: "0"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(info.Format, info.SampleRate, "Hz,", info.Channels, "channels,", info.Duration)
	fmt.Println(len(a.Samples), "samples at", a.Rate(), "Hz")
	// Output:
	// WAV 44100 Hz, 2 channels, 2s
	// 32000 samples at 16000 Hz
}

func ExampleDecode_errors() {
	_, _, err := audio.Decode(context.Background(), strings.NewReader("plain text"), audio.Options{})
	var e *sotto.Error
	if errors.As(err, &e) {
		fmt.Println(errors.Is(err, sotto.ErrInvalidRequest), e.Code, e.Param)
	}

	_, _, err = audio.Decode(context.Background(), bytes.NewReader(toneWAV(8000, 0.1)), audio.Options{Channel: "2"})
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.Param+":", e.Message)
	}
	// Output:
	// true unsupported_audio_format file
	// bad_request audio_channel: audio_channel 2 is out of range: the track has 2 channel(s) (0 to 1, or "mix")
}

func ExampleParseChannel() {
	for _, s := range []string{"", "mix", "1", "left"} {
		c, err := audio.ParseChannel(s)
		fmt.Printf("%q -> %v %v\n", s, c, err)
	}
	// Output:
	// "" -> mix <nil>
	// "mix" -> mix <nil>
	// "1" -> 1 <nil>
	// "left" -> 0 audio_channel must be "mix" or a zero-based channel index, got "left"
}

func ExampleResample() {
	// One second of a 1 kHz tone at 48 kHz.
	x := make([]float32, 48000)
	for i := range x {
		x[i] = float32(0.5 * math.Sin(2*math.Pi*1000*float64(i)/48000))
	}
	y, err := audio.Resample(nil, x, 48000, 16000)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Output sample 4001 and input sample 12003 are the same instant
	// (0.2500625 s): the resampler adds no delay.
	fmt.Printf("%d samples; y[4001] = %.4f, x[12003] = %.4f\n", len(y), y[4001], x[12003])
	// Output:
	// 16000 samples; y[4001] = 0.1913, x[12003] = 0.1913
}

func ExampleResampler() {
	r, err := audio.NewResampler(22050, 16000)
	if err != nil {
		fmt.Println(err)
		return
	}
	var out []float32
	chunk := make([]float32, 1000)
	for range 22 { // 22000 input samples, in chunks as they arrive
		out = r.Process(out, chunk)
	}
	out = r.Flush(out)
	fmt.Println(len(out)) // ceil(22000 * 16000 / 22050)
	// Output:
	// 15964
}

func ExampleSniff() {
	fmt.Println(audio.Sniff([]byte("fLaC\x00\x00\x00\x22")))
	fmt.Println(audio.Sniff([]byte("\x00\x00\x00\x20ftypisom")))
	fmt.Println(audio.Sniff([]byte("plain text")) == audio.FormatUnknown)
	// Output:
	// FLAC
	// MP4/M4A/MOV
	// true
}

// DecodeFile reads a file of any supported format; here a WAV written for
// the example.
func ExampleDecodeFile() {
	dir, err := os.MkdirTemp("", "audio-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "tone.wav")
	if err := os.WriteFile(path, toneWAV(22050, 1.5), 0o644); err != nil {
		log.Fatal(err)
	}

	a, info, err := audio.DecodeFile(context.Background(), path, audio.Options{}) // Channel "mix": the average
	if err != nil {
		log.Fatal(err) // a *sotto.Error for bad input
	}
	fmt.Println(info.Format, info.SampleRate, "Hz,", info.Channels, "channels,", info.Duration)
	fmt.Println(len(a.Samples), "samples at", a.Rate(), "Hz,", a.Duration())
	// Output:
	// WAV 22050 Hz, 2 channels, 1.5s
	// 24000 samples at 16000 Hz, 1.5s
}
