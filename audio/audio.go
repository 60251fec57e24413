package audio

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sottolabs/sotto"
)

// Error codes and parameters of the errors this package returns. They are
// the gateway spec's codes; the server copies them into the error envelope.
const (
	// CodeUnsupportedFormat is the code of a 400 error for input that is not
	// a recognised audio format, or a format that needs ffmpeg when ffmpeg
	// is not installed. Its Param is ParamFile.
	CodeUnsupportedFormat = "unsupported_audio_format"
	// CodeBadRequest is the code of a 400 error for a corrupt or truncated
	// file (Param ParamFile) and for an invalid track or channel selection
	// (Param ParamTrack or ParamChannel).
	CodeBadRequest = "bad_request"

	// ParamFile is the Param of errors about the uploaded file itself.
	ParamFile = "file"
	// ParamTrack is the Param of errors about Options.Track.
	ParamTrack = "audio_track"
	// ParamChannel is the Param of errors about Options.Channel.
	ParamChannel = "audio_channel"
)

// Options selects what to decode from a file. The zero value decodes the
// first audio track, with all its channels averaged to mono.
type Options struct {
	// Track is the zero-based index among the decodable audio tracks of the
	// input. WAV, MP3 and FLAC have exactly one track (index 0); containers
	// decoded through ffmpeg (MP4, Matroska/WebM, Ogg, ...) may have more.
	// Video and subtitle streams do not count. Out of range: a 400 error with
	// code "bad_request" and param "audio_track".
	Track int
	// Channel is "mix" (or "", the default), which averages all channels of
	// the track, or a zero-based channel index in decimal ("0" is the left
	// channel of a stereo file). An invalid or out-of-range value: a 400 error
	// with code "bad_request" and param "audio_channel". See [ParseChannel].
	Channel string
}

// Channel is a parsed channel selection: [Mix] or a zero-based channel index.
type Channel int

// Mix selects the average of all channels.
const Mix Channel = -1

// ParseChannel parses the audio_channel request field: "" or "mix" (any
// case) gives [Mix], a non-negative decimal integer gives that channel
// index. Anything else returns a 400 *sotto.Error with code "bad_request"
// and param "audio_channel". Whether the index exists in a given file is
// checked when the file is decoded.
func ParseChannel(s string) (Channel, error) {
	t := strings.TrimSpace(s)
	if t == "" || strings.EqualFold(t, "mix") {
		return Mix, nil
	}
	n, err := strconv.ParseUint(t, 10, 16)
	if err != nil {
		return 0, sotto.Invalid(CodeBadRequest, ParamChannel,
			"audio_channel must be \"mix\" or a zero-based channel index, got %q", s)
	}
	return Channel(n), nil
}

// String returns "mix" for [Mix] and the decimal index otherwise, the form
// [ParseChannel] accepts.
func (c Channel) String() string {
	if c < 0 {
		return "mix"
	}
	return strconv.Itoa(int(c))
}

// ParseTrack parses the audio_track request field: "" gives 0, a
// non-negative decimal integer gives that track index. Anything else returns
// a 400 *sotto.Error with code "bad_request" and param "audio_track".
func ParseTrack(s string) (int, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(t, 10, 16)
	if err != nil {
		return 0, sotto.Invalid(CodeBadRequest, ParamTrack,
			"audio_track must be a zero-based track index, got %q", s)
	}
	return int(n), nil
}

// Validate checks the syntax of o (a non-negative Track, a Channel that
// [ParseChannel] accepts) without looking at any file. It returns the same
// errors as [ParseChannel] and [ParseTrack].
func (o Options) Validate() error {
	_, err := o.parse()
	return err
}

func (o Options) parse() (Channel, error) {
	if o.Track < 0 {
		return 0, sotto.Invalid(CodeBadRequest, ParamTrack,
			"audio_track must be a zero-based track index, got %d", o.Track)
	}
	return ParseChannel(o.Channel)
}

// Format identifies an input format detected from its leading bytes.
type Format string

// Formats that [Sniff] reports; [Format.String] gives their display names.
// WAV, MP3 and FLAC are decoded in Go ([Format.Native]); every other format
// is decoded by ffmpeg when it is installed.
const (
	FormatUnknown   Format = ""
	FormatWAV       Format = "wav"        // RIFF/RF64 WAVE with PCM or IEEE float samples
	FormatMP3       Format = "mp3"        // MPEG-1/2/2.5 audio layer III
	FormatFLAC      Format = "flac"       // native FLAC
	FormatMPEGAudio Format = "mpeg-audio" // MPEG audio layer I or II
	FormatAAC       Format = "aac"        // AAC in ADTS framing
	FormatOgg       Format = "ogg"        // Ogg (Opus, Vorbis, FLAC, Speex) audio or video
	FormatOpus      Format = "opus"       // Ogg Opus
	FormatVorbis    Format = "vorbis"
	FormatMP4       Format = "mp4" // ISO base media: MP4, M4A, MOV, 3GP
	FormatMatroska  Format = "matroska"
	FormatWebM      Format = "webm"
	FormatAIFF      Format = "aiff"
	FormatCAF       Format = "caf"
	FormatAU        Format = "au"
	FormatAMR       Format = "amr"
	FormatASF       Format = "asf" // WMA, WMV
	FormatAVI       Format = "avi"
	FormatFLV       Format = "flv"
	FormatMPEGTS    Format = "mpeg-ts"
	FormatMPEGPS    Format = "mpeg-ps"
	FormatWavPack   Format = "wavpack"
	FormatAPE       Format = "ape"
	FormatWAVCodec  Format = "wav-codec" // WAV with a compressed codec (ADPCM, A-law, ...)
)

var formatNames = map[Format]string{
	FormatUnknown:   "unknown",
	FormatWAV:       "WAV",
	FormatMP3:       "MP3",
	FormatFLAC:      "FLAC",
	FormatMPEGAudio: "MPEG audio layer I/II",
	FormatAAC:       "AAC (ADTS)",
	FormatOgg:       "Ogg",
	FormatOpus:      "Ogg Opus",
	FormatVorbis:    "Ogg Vorbis",
	FormatMP4:       "MP4/M4A/MOV",
	FormatMatroska:  "Matroska",
	FormatWebM:      "WebM",
	FormatAIFF:      "AIFF",
	FormatCAF:       "Core Audio Format (CAF)",
	FormatAU:        "Sun AU",
	FormatAMR:       "AMR",
	FormatASF:       "ASF (WMA/WMV)",
	FormatAVI:       "AVI",
	FormatFLV:       "FLV",
	FormatMPEGTS:    "MPEG transport stream",
	FormatMPEGPS:    "MPEG program stream",
	FormatWavPack:   "WavPack",
	FormatAPE:       "Monkey's Audio (APE)",
	FormatWAVCodec:  "WAV with a compressed codec",
}

// String returns a human-readable name of f, such as "Ogg Opus".
func (f Format) String() string {
	if n, ok := formatNames[f]; ok {
		return n
	}
	return string(f)
}

// Native reports whether f is decoded in Go, without ffmpeg.
func (f Format) Native() bool {
	return f == FormatWAV || f == FormatMP3 || f == FormatFLAC
}

// Info describes a decoded input.
type Info struct {
	Format     Format        // detected format
	Decoder    string        // "go" or "ffmpeg"
	SampleRate int           // original sample rate of the track, Hz
	Channels   int           // channels of the decoded track
	Tracks     int           // decodable audio tracks in the input (1 for WAV, MP3, FLAC)
	Frames     int64         // decoded sample frames at SampleRate (per channel)
	Duration   time.Duration // Frames / SampleRate

	// Truncated reports a file that ends before the length its header
	// declares, as a recording cut off by a crashed recorder or an
	// interrupted copy does: the audio holds every whole frame that is
	// there (as ffmpeg decodes it), and callers should warn. Declared is
	// the duration the header promised, 0 when the header gave none.
	Truncated bool
	Declared  time.Duration
}

// String summarises i for logs.
func (i Info) String() string {
	s := fmt.Sprintf("%s via %s: %d Hz, %d ch, %d track(s), %v",
		i.Format, i.Decoder, i.SampleRate, i.Channels, i.Tracks, i.Duration)
	if i.Truncated {
		s += " " + i.TruncationNote()
	}
	return s
}

// TruncationNote describes a truncated file for a warning ("(truncated:
// the header declares 11s)"), or returns "" when i is not truncated.
func (i Info) TruncationNote() string {
	switch {
	case !i.Truncated:
		return ""
	case i.Declared > 0:
		return fmt.Sprintf("(truncated: the header declares %v)", i.Declared.Round(time.Millisecond))
	default:
		return "(truncated: the last frame is incomplete)"
	}
}
