package audio

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/sottolabs/sotto"
)

// chunkFrames is the number of sample frames decoded, mixed and resampled at
// a time; it bounds the working memory besides the output.
const chunkFrames = 8192

// maxPrealloc bounds the output samples allocated up front from a frame
// count in a file header, unless the input size makes the count plausible.
const maxPrealloc = 1 << 21

// bufSize is the read-ahead of the input; format detection and the WAV
// header check look at most this far.
const bufSize = 64 << 10

// source is a decoder positioned at the first sample frame.
type source interface {
	rate() int     // Hz
	channels() int // samples per frame
	frames() int64 // expected total frames (sizes the output), or -1 if unknown
	// read fills buf (whose length is a multiple of channels) with
	// interleaved samples in [-1, 1] and returns how many it wrote, always
	// whole frames. It returns io.EOF, with or without samples, at the end.
	read(buf []float32) (int, error)
}

// endsEarly is returned by a source's read, with the last samples and in
// place of io.EOF, when the data ends before the length the header declares
// (declared frames, 0 if unknown): render keeps what was decoded and marks
// the Info truncated.
type endsEarly struct{ declared int64 }

func (e endsEarly) Error() string {
	return fmt.Sprintf("audio: the data ends before the %d frames the header declares", e.declared)
}

// invalidFile returns a 400 error about the file field.
func invalidFile(code, format string, args ...any) *sotto.Error {
	return sotto.Invalid(code, ParamFile, format, args...)
}

// DecodeFile decodes the audio file at path to 16 kHz mono, selecting the
// track and channel that opts name; see [Decode] for the formats, errors and
// cancellation. Formats that need ffmpeg are passed to it by path, without a
// copy. An error opening path is returned as is (wrapped), not as a 400.
func DecodeFile(ctx context.Context, path string, opts Options) (sotto.Audio, Info, error) {
	f, err := os.Open(path)
	if err != nil {
		return sotto.Audio{}, Info{}, fmt.Errorf("audio: %w", err)
	}
	defer f.Close()
	size := int64(-1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	return decode(ctx, f, path, size, opts)
}

// Decode reads an audio or video file from r and returns its selected track
// and channel as 16 kHz mono float32 samples in [-1, 1], with an Info that
// describes the input.
//
// The format is detected from the leading bytes (see [Sniff]). WAV (PCM 8,
// 16, 24 and 32 bit, IEEE float 32 and 64 bit, WAVE_FORMAT_EXTENSIBLE, RF64),
// MP3 and FLAC are decoded in Go while streaming through the resampler, so
// memory stays near the size of the output. Every other format is decoded by
// the ffmpeg program found on PATH; Decode first copies r to a temporary
// file, since containers such as MP4 need to seek.
//
// Errors: a 400 *sotto.Error with code "unsupported_audio_format" and param
// "file" for unrecognised bytes, or for a format that needs ffmpeg when it is
// not installed; code "bad_request" with param "file" for a corrupt or
// truncated file, and with param "audio_track" or "audio_channel" for a
// selection the file does not have. Errors reading r are returned wrapped.
// When ctx is cancelled Decode stops within one chunk, kills ffmpeg, and
// returns an error that wraps ctx.Err().
func Decode(ctx context.Context, r io.Reader, opts Options) (sotto.Audio, Info, error) {
	size := int64(-1)
	if l, ok := r.(interface{ Len() int }); ok {
		size = int64(l.Len()) // bytes.Reader, strings.Reader, bytes.Buffer
	}
	return decode(ctx, r, "", size, opts)
}

// decode implements Decode and DecodeFile; size is the input length in
// bytes, or -1 if unknown.
func decode(ctx context.Context, r io.Reader, path string, size int64, opts Options) (a sotto.Audio, info Info, err error) {
	ch, err := opts.parse()
	if err != nil {
		return a, info, err
	}
	if err := ctx.Err(); err != nil {
		return a, info, fmt.Errorf("audio: decode: %w", err)
	}
	// A decoder may report a failing reader as corrupt data; the trap keeps
	// the reader's own error so that it is returned instead.
	trap := &readTrap{r: r}
	defer func() {
		if err != nil && trap.err != nil && ctx.Err() == nil && !errors.Is(err, trap.err) {
			err = fmt.Errorf("audio: reading input: %w", trap.err)
		}
	}()
	br := bufio.NewReaderSize(trap, bufSize)
	if err := skipID3(br); err != nil {
		return a, info, err
	}
	head, perr := br.Peek(SniffLen)
	if perr != nil && !errors.Is(perr, io.EOF) {
		return a, info, fmt.Errorf("audio: reading input: %w", perr)
	}
	if len(head) == 0 {
		return a, info, invalidFile(CodeBadRequest, "audio: the file is empty")
	}
	format := Sniff(head)
	info.Format = format

	var src source
	switch format {
	case FormatWAV:
		// Check the header on a copy first: a WAV file with a compressed
		// codec goes to ffmpeg with the stream still intact.
		full, _ := br.Peek(bufSize)
		var codec errWAVCodec
		if _, err := readWAVHeader(bytes.NewReader(full)); errors.As(err, &codec) {
			info.Format = FormatWAVCodec
			return viaFFmpeg(ctx, br, path, info, opts.Track, ch, codec.what())
		}
		h, err := readWAVHeader(br)
		switch {
		case errors.As(err, &codec) && path != "":
			// The header was too long to check on a copy; ffmpeg can
			// still read the file by its path.
			info.Format = FormatWAVCodec
			return viaFFmpeg(ctx, br, path, info, opts.Track, ch, codec.what())
		case errors.As(err, &codec):
			return a, info, invalidFile(CodeUnsupportedFormat,
				"audio: WAV codec 0x%04X is not supported in a stream whose header exceeds %d bytes; send the file, or convert it to PCM WAV, MP3 or FLAC", codec.tag, bufSize)
		case err != nil:
			return a, info, err
		}
		src = newWAVSource(br, h)
	case FormatMP3:
		src, err = newMP3Source(br, size)
	case FormatFLAC:
		src, err = newFLACSource(br)
	case FormatUnknown:
		return a, info, invalidFile(CodeUnsupportedFormat,
			"audio: the file format is not recognised; send WAV, MP3, FLAC, or (with ffmpeg installed) another common audio or video format")
	default:
		return viaFFmpeg(ctx, br, path, info, opts.Track, ch, "")
	}
	if err != nil {
		return a, info, err
	}
	info.Decoder = "go"
	info.Tracks = 1
	if opts.Track != 0 {
		return a, info, sotto.Invalid(CodeBadRequest, ParamTrack,
			"audio_track %d is out of range: the %s file has 1 audio track", opts.Track, format)
	}
	return render(ctx, src, ch, size, info)
}

// readTrap remembers the first error other than io.EOF from r.
type readTrap struct {
	r   io.Reader
	err error
}

func (t *readTrap) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if err != nil && err != io.EOF && t.err == nil {
		t.err = err
	}
	return n, err
}

// skipID3 discards ID3v2 tags at the start of br.
func skipID3(br *bufio.Reader) error {
	for range 8 { // a few stacked tags at most
		b, _ := br.Peek(10)
		n := id3Len(b)
		if n == 0 {
			return nil
		}
		if _, err := br.Discard(n); err != nil {
			return readErr(err, "ID3 tag")
		}
	}
	return nil
}

// render decodes src to the end, selects or mixes the channel, and resamples
// to sotto.SampleRate in chunks.
func render(ctx context.Context, src source, ch Channel, size int64, info Info) (sotto.Audio, Info, error) {
	nch := src.channels()
	info.SampleRate = src.rate()
	info.Channels = nch
	if ch != Mix && int(ch) >= nch {
		return sotto.Audio{}, info, sotto.Invalid(CodeBadRequest, ParamChannel,
			"audio_channel %d is out of range: the track has %d channel(s) (0 to %d, or \"mix\")", int(ch), nch, nch-1)
	}
	rs, err := NewResampler(info.SampleRate, sotto.SampleRate)
	if err != nil {
		return sotto.Audio{}, info, invalidFile(CodeBadRequest, "audio: %v", err)
	}
	// Allocate the output once when the header's frame count is credible:
	// at most 32 times the input size as 16-bit PCM (lossless codecs rarely
	// compress speech more than 3:1). Otherwise append grows it.
	var out []float32
	// The test divides rather than multiplies: a header's count can be near
	// the top of int64 (an RF64 ds64 chunk holds any 64-bit size), where
	// n*nch*2 and n*rate wrap around to negative numbers.
	if n := src.frames(); n >= 0 {
		credible := size >= 0 && n <= 16*size/int64(nch)
		if !credible {
			n = min(n, maxPrealloc)
		}
		want := n*sotto.SampleRate/int64(info.SampleRate) + 2
		if !credible {
			want = min(want, maxPrealloc)
		}
		out = make([]float32, 0, want)
	}
	buf := make([]float32, chunkFrames*nch)
	mono := make([]float32, chunkFrames)
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return sotto.Audio{}, info, fmt.Errorf("audio: decode: %w", err)
		}
		n, err := src.read(buf)
		if early, ok := err.(endsEarly); ok {
			info.Truncated = true
			if early.declared > 0 {
				info.Declared = time.Duration(float64(early.declared) / float64(info.SampleRate) * float64(time.Second))
			}
			err = io.EOF
		}
		if err != nil && err != io.EOF {
			return sotto.Audio{}, info, err
		}
		frames := n / nch
		total += int64(frames)
		m := mono[:frames]
		switch {
		case nch == 1:
			copy(m, buf[:frames])
		case ch == Mix:
			scale := 1 / float32(nch)
			for i := range m {
				var s float32
				for _, v := range buf[i*nch : (i+1)*nch] {
					s += v
				}
				m[i] = s * scale
			}
		default:
			for i := range m {
				m[i] = buf[i*nch+int(ch)]
			}
		}
		out = rs.Process(out, m)
		if err == io.EOF {
			break
		}
	}
	if info.Truncated && total == 0 {
		return sotto.Audio{}, info, corrupt("%s: the file ends before its first sample frame; it is truncated", info.Format)
	}
	out = rs.Flush(out)
	for i, v := range out {
		// The filter can overshoot slightly near full scale.
		if v > 1 {
			out[i] = 1
		} else if v < -1 {
			out[i] = -1
		}
	}
	info.Frames = total
	info.Duration = time.Duration(float64(total) / float64(info.SampleRate) * float64(time.Second))
	return sotto.Audio{Samples: out, SampleRate: sotto.SampleRate}, info, nil
}
