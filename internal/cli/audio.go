package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

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

// InFile prefixes err with the input it concerns, "talk.wav: …" (or
// "standard input: …" for [StdinName]), so that a message such as "audio:
// the file is empty" says which file; an error whose message names the
// path already ("open talk.wav: no such file or directory") is returned as
// it is. The error stays what it wraps for errors.Is and errors.As.
func InFile(path string, err error) error {
	if err == nil {
		return nil
	}
	name := path
	if path == StdinName {
		name = "standard input"
	}
	if strings.Contains(err.Error(), name) {
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}
