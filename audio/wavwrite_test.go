package audio

import (
	"bytes"
	"context"
	"testing"
)

// EncodeWAV's output must read back through the package's own decoder with
// the same samples (to 16-bit precision) and rate.
func TestEncodeWAVRoundTrip(t *testing.T) {
	in := []float32{0, 0.5, -0.5, 1, -1, 0.25, 2, -2}
	for i := range 16000 {
		in = append(in, float32(i%200)/200-0.5)
	}
	b := EncodeWAV(in, 16000)
	a, info, err := Decode(context.Background(), bytes.NewReader(b), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if info.SampleRate != 16000 || len(a.Samples) != len(in) {
		t.Fatalf("Decode(EncodeWAV) = %d Hz, %d samples; want 16000 Hz, %d", info.SampleRate, len(a.Samples), len(in))
	}
	for i, s := range a.Samples {
		want := min(max(in[i], -1), 1)
		if d := s - want; d > 1.0/16384 || d < -1.0/16384 {
			t.Fatalf("sample %d = %v; want %v", i, s, want)
		}
	}
}

func TestWAVHeaderStreaming(t *testing.T) {
	h := WAVHeader(22050, -1)
	if len(h) != 44 || string(h[0:4]) != "RIFF" || string(h[8:16]) != "WAVEfmt " || string(h[36:40]) != "data" {
		t.Fatalf("WAVHeader = % x", h)
	}
	for _, off := range []int{4, 40} {
		if !bytes.Equal(h[off:off+4], []byte{0xFF, 0xFF, 0xFF, 0xFF}) {
			t.Errorf("size at %d = % x; want the streaming placeholder", off, h[off:off+4])
		}
	}
}
