package audio

import (
	"errors"
	"testing"

	"github.com/sottolabs/sotto"
)

func TestParseFFmpegStreams(t *testing.T) {
	tests := []struct {
		name    string
		listing string
		want    int
		wantErr bool
	}{
		{"video and 5.1 audio", `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'file:/tmp/x.mp4':
  Duration: 00:00:05.31, start: 0.000000, bitrate: 629 kb/s
  Stream #0:0[0x1](und): Video: h264 (High) (avc1 / 0x31637661), yuv420p(progressive), 320x240, 237 kb/s, 25 fps (default)
  Stream #0:1[0x2](und): Audio: aac (LC) (mp4a / 0x6134706D), 48000 Hz, 5.1, fltp, 384 kb/s (default)
At least one output file must be specified
`, 1, false},
		{"two audio tracks and subtitles", `Input #0, matroska,webm, from 'file:/tmp/y.mkv':
  Stream #0:0: Audio: flac, 16000 Hz, mono, s16
  Stream #0:1(eng): Subtitle: subrip
  Stream #0:2(deu): Audio: opus, 48000 Hz, stereo, fltp (default)
`, 2, false},
		{"no audio", "Input #0, image2, from 'file:/tmp/z.png':\n  Stream #0:0: Video: png, rgb24, 1x1\n", 0, false},
		{"unreadable", "file:/tmp/q.bin: Invalid data found when processing input\n", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseFFmpegStreams(tt.listing, FormatMP4, "/tmp/q.bin")
			if got != tt.want || (err != nil) != tt.wantErr {
				t.Errorf("parseFFmpegStreams(%s) = %d, %v; want %d, error %v", tt.name, got, err, tt.want, tt.wantErr)
			}
			if err != nil && !errors.Is(err, sotto.ErrInvalidRequest) {
				t.Errorf("parseFFmpegStreams(%s) error = %v; want a 400 *sotto.Error", tt.name, err)
			}
		})
	}
}

func TestFFmpegMessage(t *testing.T) {
	got := ffmpegMessage("line 1\n\nfile:/srv/tmp/abc: Invalid data found when processing input\n", "/srv/tmp/abc")
	if want := "line 1; input: Invalid data found when processing input"; got != want {
		t.Errorf("ffmpegMessage = %q; want %q", got, want)
	}
	if got := ffmpegMessage("", "/x"); got != "no diagnostics" {
		t.Errorf("ffmpegMessage(empty) = %q; want %q", got, "no diagnostics")
	}
}

func TestTailBuffer(t *testing.T) {
	tb := &tailBuffer{max: 5}
	tb.Write([]byte("abc"))
	tb.Write([]byte("defg"))
	if got := tb.String(); got != "cdefg" {
		t.Errorf("tailBuffer = %q; want %q", got, "cdefg")
	}
}
