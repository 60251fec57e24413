package cli

import (
	"context"
	"io"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
)

// StdinName is the file name that means standard input ("-", as for
// every Unix tool).
const StdinName = "-"

// DecodeAudio decodes the audio or video file at path, or what standard
// input holds when path is "-" ([audio.Decode]: read as it streams for WAV,
// MP3 and FLAC, copied to a temporary file for ffmpeg's formats).
func DecodeAudio(ctx context.Context, path string, stdin io.Reader, opts audio.Options) (sotto.Audio, audio.Info, error) {
	if path == StdinName {
		return audio.Decode(ctx, stdin, opts)
	}
	return audio.DecodeFile(ctx, path, opts)
}
