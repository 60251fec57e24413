package audio

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/sottolabs/sotto"
)

// FFmpegAvailable reports whether the ffmpeg program is on PATH, that is,
// whether formats other than WAV, MP3 and FLAC can be decoded.
func FFmpegAvailable() bool {
	_, err := exec.LookPath("ffmpeg")
	return err == nil
}

// viaFFmpeg decodes the input with ffmpeg. br holds the unread input; path,
// when not empty, names the same input on disk. what describes the input for
// the error message when ffmpeg is missing; "" means info.Format.
func viaFFmpeg(ctx context.Context, br *bufio.Reader, path string, info Info, track int, ch Channel, what string) (sotto.Audio, Info, error) {
	bin, err := exec.LookPath("ffmpeg")
	if err != nil {
		if what == "" {
			what = info.Format.String()
		}
		return sotto.Audio{}, info, invalidFile(CodeUnsupportedFormat,
			"audio: the file is %s, which needs ffmpeg to decode, and ffmpeg is not installed on the server; install it (apt-get install ffmpeg) or send WAV, MP3 or FLAC",
			what)
	}
	info.Decoder = "ffmpeg"
	if path == "" {
		tmp, err := spool(ctx, br)
		if err != nil {
			return sotto.Audio{}, info, err
		}
		defer os.Remove(tmp)
		path = tmp
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return sotto.Audio{}, info, fmt.Errorf("audio: %w", err)
	}
	// The file: protocol keeps a path with a colon or a leading dash from
	// being read as a URL or an option.
	in := "file:" + abs

	tracks, err := countTracks(ctx, bin, in, info.Format)
	if err != nil {
		return sotto.Audio{}, info, err
	}
	info.Tracks = tracks
	if tracks == 0 {
		return sotto.Audio{}, info, invalidFile(CodeBadRequest, "audio: the %s file has no decodable audio track", info.Format)
	}
	if track >= tracks {
		return sotto.Audio{}, info, sotto.Invalid(CodeBadRequest, ParamTrack,
			"audio_track %d is out of range: the %s file has %d audio track(s)", track, info.Format, tracks)
	}

	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(cctx, bin,
		"-nostdin", "-hide_banner", "-loglevel", "error",
		"-protocol_whitelist", "file",
		"-i", in,
		"-map", "0:a:"+strconv.Itoa(track), "-vn", "-sn", "-dn",
		"-c:a", "pcm_f32le", "-f", "wav", "-bitexact", "pipe:1")
	cmd.WaitDelay = 2 * time.Second
	stderr := &tailBuffer{max: 4096}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return sotto.Audio{}, info, fmt.Errorf("audio: ffmpeg: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return sotto.Audio{}, info, fmt.Errorf("audio: starting ffmpeg: %w", err)
	}
	a, info, rerr := decodeFFmpegOutput(ctx, out, ch, info)
	if rerr != nil {
		cancel() // stop ffmpeg; the rest of its output is not needed
	}
	werr := cmd.Wait()
	var se *sotto.Error
	switch {
	case ctx.Err() != nil:
		return sotto.Audio{}, info, fmt.Errorf("audio: ffmpeg: %w", ctx.Err())
	case errors.As(rerr, &se) && se.Param != ParamFile:
		return sotto.Audio{}, info, rerr // a selection error such as audio_channel
	case werr != nil:
		return sotto.Audio{}, info, invalidFile(CodeBadRequest, "audio: ffmpeg could not decode the %s file: %s",
			info.Format, ffmpegMessage(stderr.String(), abs))
	case rerr != nil:
		return sotto.Audio{}, info, rerr
	}
	return a, info, nil
}

// decodeFFmpegOutput reads ffmpeg's WAV output.
func decodeFFmpegOutput(ctx context.Context, r io.Reader, ch Channel, info Info) (sotto.Audio, Info, error) {
	br := bufio.NewReaderSize(r, bufSize)
	h, err := readWAVHeader(br)
	if err != nil {
		return sotto.Audio{}, info, fmt.Errorf("audio: reading ffmpeg output: %w", err)
	}
	return render(ctx, newWAVSource(br, h), ch, -1, info)
}

// spool copies r to a temporary file, checking ctx between blocks, and
// returns its name. The caller removes it.
func spool(ctx context.Context, r io.Reader) (string, error) {
	f, err := os.CreateTemp("", "sotto-audio-*")
	if err != nil {
		return "", fmt.Errorf("audio: spooling input for ffmpeg: %w", err)
	}
	name := f.Name()
	fail := func(err error) (string, error) {
		f.Close()
		os.Remove(name)
		return "", err
	}
	buf := make([]byte, 256<<10)
	for {
		if err := ctx.Err(); err != nil {
			return fail(fmt.Errorf("audio: decode: %w", err))
		}
		n, rerr := r.Read(buf)
		if n > 0 {
			if _, err := f.Write(buf[:n]); err != nil {
				return fail(fmt.Errorf("audio: spooling input for ffmpeg: %w", err))
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return fail(fmt.Errorf("audio: reading input: %w", rerr))
		}
	}
	if err := f.Close(); err != nil {
		return fail(fmt.Errorf("audio: spooling input for ffmpeg: %w", err))
	}
	return name, nil
}

// countTracks returns the number of audio streams in the input, asking
// ffprobe when it is installed and parsing ffmpeg's input listing otherwise.
func countTracks(ctx context.Context, ffmpeg, in string, f Format) (int, error) {
	if probe, err := exec.LookPath("ffprobe"); err == nil {
		cmd := exec.CommandContext(ctx, probe, "-v", "error",
			"-protocol_whitelist", "file",
			"-select_streams", "a", "-show_entries", "stream=index", "-of", "csv=p=0", in)
		cmd.WaitDelay = 2 * time.Second
		stderr := &tailBuffer{max: 4096}
		cmd.Stderr = stderr
		out, err := cmd.Output()
		if ctx.Err() != nil {
			return 0, fmt.Errorf("audio: ffprobe: %w", ctx.Err())
		}
		if err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				return 0, invalidFile(CodeBadRequest, "audio: ffprobe could not read the %s file: %s",
					f, ffmpegMessage(stderr.String(), strings.TrimPrefix(in, "file:")))
			}
			return 0, fmt.Errorf("audio: ffprobe: %w", err)
		}
		n := 0
		for line := range strings.Lines(string(out)) {
			if strings.TrimSpace(line) != "" {
				n++
			}
		}
		return n, nil
	}
	// "ffmpeg -i FILE" with no output lists the streams and exits with
	// status 1; a file it cannot open yields no stream lines.
	cmd := exec.CommandContext(ctx, ffmpeg, "-nostdin", "-hide_banner",
		"-protocol_whitelist", "file", "-i", in)
	cmd.WaitDelay = 2 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	_ = cmd.Run()
	if ctx.Err() != nil {
		return 0, fmt.Errorf("audio: ffmpeg: %w", ctx.Err())
	}
	return parseFFmpegStreams(stderr.String(), f, strings.TrimPrefix(in, "file:"))
}

var (
	streamLine = regexp.MustCompile(`(?m)^\s*Stream #0:\d+.*?: (Audio|Video|Subtitle|Data|Attachment):`)
	inputLine  = regexp.MustCompile(`(?m)^Input #0,`)
)

// parseFFmpegStreams counts the audio streams in the stream listing that
// "ffmpeg -i" prints.
func parseFFmpegStreams(listing string, f Format, path string) (int, error) {
	if !inputLine.MatchString(listing) {
		return 0, invalidFile(CodeBadRequest, "audio: ffmpeg could not read the %s file: %s", f, ffmpegMessage(listing, path))
	}
	n := 0
	for _, m := range streamLine.FindAllStringSubmatch(listing, -1) {
		if m[1] == "Audio" {
			n++
		}
	}
	return n, nil
}

// ffmpegMessage condenses ffmpeg's diagnostics for an error message: the
// last few lines, with the server-side path replaced.
func ffmpegMessage(s, path string) string {
	s = strings.ReplaceAll(s, "file:"+path, "input")
	s = strings.ReplaceAll(s, path, "input")
	var lines []string
	for line := range strings.Lines(s) {
		if t := strings.TrimSpace(line); t != "" {
			lines = append(lines, t)
		}
	}
	if len(lines) > 3 {
		lines = lines[len(lines)-3:]
	}
	msg := strings.Join(lines, "; ")
	if len(msg) > 400 {
		msg = msg[len(msg)-400:]
	}
	if msg == "" {
		msg = "no diagnostics"
	}
	return msg
}

// tailBuffer is an io.Writer that keeps the last max bytes written.
type tailBuffer struct {
	buf []byte
	max int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return string(t.buf) }
