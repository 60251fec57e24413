package audio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// WAV format tags.
const (
	wavPCM        = 0x0001
	wavFloat      = 0x0003
	wavExtensible = 0xFFFE
)

// wavGUIDTail is the common tail of the KSDATAFORMAT_SUBTYPE GUIDs; the first
// two bytes hold the format tag.
var wavGUIDTail = []byte{0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71}

// wavHeader is the validated description of a WAV stream's sample data.
type wavHeader struct {
	format     uint16 // wavPCM or wavFloat after resolving EXTENSIBLE
	channels   int
	rate       int
	blockAlign int   // bytes per frame
	width      int   // bytes per sample (container)
	dataSize   int64 // bytes of sample data; -1 means until EOF
}

// errWAVCodec reports a well-formed WAV file whose codec is not PCM or float.
type errWAVCodec struct{ tag uint16 }

func (e errWAVCodec) Error() string {
	return fmt.Sprintf("audio: wav: codec 0x%04X is not PCM or IEEE float", e.tag)
}

// what describes the file for an error message.
func (e errWAVCodec) what() string {
	return fmt.Sprintf("WAV with codec 0x%04X (not PCM or IEEE float)", e.tag)
}

// corrupt returns the 400 error for a damaged or truncated file.
func corrupt(format string, args ...any) error {
	return invalidFile(CodeBadRequest, "audio: "+format, args...)
}

// readErr converts an error from reading the input. A premature end becomes a
// 400 "truncated" error; any other read error is passed on wrapped, since it
// is not the client's fault.
func readErr(err error, what string) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return corrupt("%s: file is truncated", what)
	}
	return fmt.Errorf("audio: %s: %w", what, err)
}

// readWAVHeader parses the RIFF (or RF64/BW64) header and the chunks up to
// the start of the sample data, validating each. It leaves r at the first
// byte of sample data.
func readWAVHeader(r io.Reader) (wavHeader, error) {
	var h wavHeader
	var hdr [12]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return h, readErr(err, "wav: RIFF header")
	}
	riff := string(hdr[0:4])
	rf64 := riff == "RF64" || riff == "BW64"
	if riff != "RIFF" && !rf64 || string(hdr[8:12]) != "WAVE" {
		return h, corrupt("wav: not a RIFF WAVE file")
	}
	var ds64Data int64 = -1
	haveFmt := false
	for {
		var ch [8]byte
		if _, err := io.ReadFull(r, ch[:]); err != nil {
			if errors.Is(err, io.EOF) && haveFmt {
				return h, corrupt("wav: no data chunk")
			}
			if errors.Is(err, io.EOF) {
				return h, corrupt("wav: no fmt chunk")
			}
			return h, readErr(err, "wav: chunk header")
		}
		id := string(ch[0:4])
		size := int64(binary.LittleEndian.Uint32(ch[4:8]))
		switch id {
		case "fmt ":
			if haveFmt {
				return h, corrupt("wav: more than one fmt chunk")
			}
			if size < 16 || size > 1<<16 {
				return h, corrupt("wav: fmt chunk of %d bytes", size)
			}
			buf := make([]byte, size+size&1)
			if _, err := io.ReadFull(r, buf); err != nil {
				return h, readErr(err, "wav: fmt chunk")
			}
			if err := h.parseFmt(buf[:size]); err != nil {
				return h, err
			}
			haveFmt = true
		case "ds64":
			if !rf64 {
				// Harmless in a RIFF file; skip it like any unknown chunk.
				if err := skipChunk(r, size); err != nil {
					return h, err
				}
				continue
			}
			if size < 24 || size > 1<<20 {
				return h, corrupt("wav: ds64 chunk of %d bytes", size)
			}
			buf := make([]byte, size+size&1)
			if _, err := io.ReadFull(r, buf); err != nil {
				return h, readErr(err, "wav: ds64 chunk")
			}
			ds64Data = int64(binary.LittleEndian.Uint64(buf[8:16]))
			if ds64Data < 0 {
				return h, corrupt("wav: ds64 data size out of range")
			}
		case "data":
			if !haveFmt {
				return h, corrupt("wav: data chunk before fmt chunk")
			}
			switch {
			case rf64 && size == 0xFFFFFFFF && ds64Data >= 0:
				h.dataSize = ds64Data
			case size == 0 || size == 0xFFFFFFFF:
				// Written by a streaming encoder that could not seek back
				// to fill in the size: the data runs to the end of input.
				h.dataSize = -1
			default:
				h.dataSize = size
			}
			return h, nil
		default:
			if err := skipChunk(r, size); err != nil {
				return h, err
			}
		}
	}
}

// skipChunk discards a chunk body and its pad byte.
func skipChunk(r io.Reader, size int64) error {
	n, err := io.CopyN(io.Discard, r, size+size&1)
	if err != nil {
		if errors.Is(err, io.EOF) && size&1 == 1 && n == size {
			// A missing pad byte at the very end of a file is common and
			// harmless; the next header read reports the end.
			return nil
		}
		return readErr(err, "wav: chunk")
	}
	return nil
}

func (h *wavHeader) parseFmt(b []byte) error {
	le := binary.LittleEndian
	tag := le.Uint16(b[0:2])
	h.channels = int(le.Uint16(b[2:4]))
	h.rate = int(le.Uint32(b[4:8]))
	h.blockAlign = int(le.Uint16(b[12:14]))
	bits := int(le.Uint16(b[14:16]))
	extensible := tag == wavExtensible
	if extensible {
		if len(b) < 40 || le.Uint16(b[16:18]) < 22 {
			return corrupt("wav: WAVE_FORMAT_EXTENSIBLE fmt chunk of %d bytes is too short", len(b))
		}
		valid := int(le.Uint16(b[18:20]))
		if valid > bits {
			return corrupt("wav: %d valid bits in a %d-bit container", valid, bits)
		}
		if !bytes.Equal(b[26:40], wavGUIDTail) {
			return errWAVCodec{tag: tag}
		}
		tag = le.Uint16(b[24:26])
	}
	if tag != wavPCM && tag != wavFloat {
		return errWAVCodec{tag: tag}
	}
	h.format = tag
	if h.channels < 1 {
		return corrupt("wav: %d channels", h.channels)
	}
	if h.rate < MinRate || h.rate > MaxRate {
		return corrupt("wav: sample rate %d Hz out of range (%d to %d)", h.rate, MinRate, MaxRate)
	}
	if bits < 1 {
		return corrupt("wav: %d bits per sample", bits)
	}
	if h.blockAlign < h.channels || h.blockAlign%h.channels != 0 {
		return corrupt("wav: block align %d does not fit %d channels", h.blockAlign, h.channels)
	}
	h.width = h.blockAlign / h.channels
	// The container is the whole number of bytes that holds bits; for
	// EXTENSIBLE, bits is the container size and must be a multiple of 8.
	if (bits+7)/8 != h.width || extensible && bits%8 != 0 {
		return corrupt("wav: %d bits per sample do not match block align %d for %d channel(s)", bits, h.blockAlign, h.channels)
	}
	switch {
	case tag == wavPCM && h.width >= 1 && h.width <= 4:
	case tag == wavFloat && (h.width == 4 || h.width == 8):
	default:
		kind := "PCM"
		if tag == wavFloat {
			kind = "float"
		}
		return corrupt("wav: unsupported %d-byte %s samples", h.width, kind)
	}
	return nil
}

// wavSource reads interleaved samples from the data chunk.
type wavSource struct {
	r         io.Reader
	h         wavHeader
	remaining int64 // bytes left in the data chunk, or -1 for until EOF
	raw       []byte
}

func newWAVSource(r io.Reader, h wavHeader) *wavSource {
	return &wavSource{r: r, h: h, remaining: h.dataSize}
}

func (s *wavSource) rate() int     { return s.h.rate }
func (s *wavSource) channels() int { return s.h.channels }

// frames reports the number of frames in the data chunk, or -1 if unknown.
func (s *wavSource) frames() int64 {
	if s.h.dataSize < 0 {
		return -1
	}
	return s.h.dataSize / int64(s.h.blockAlign)
}

// read fills buf with whole interleaved frames and returns the number of
// samples written. It returns io.EOF at the end of the data.
func (s *wavSource) read(buf []float32) (int, error) {
	ba := s.h.blockAlign
	nf := len(buf) / s.h.channels
	if nf == 0 {
		return 0, errors.New("audio: wav: buffer shorter than one frame")
	}
	want := int64(nf * ba)
	if s.remaining >= 0 && want > s.remaining {
		want = s.remaining
	}
	if want == 0 {
		return 0, io.EOF
	}
	if cap(s.raw) < int(want) {
		s.raw = make([]byte, want)
	}
	raw := s.raw[:want]
	n, err := io.ReadFull(s.r, raw)
	if s.remaining >= 0 {
		s.remaining -= int64(n)
	}
	if err != nil {
		if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
			return 0, fmt.Errorf("audio: wav: reading data: %w", err)
		}
		// The data ends: until-EOF data just stops (an incomplete final
		// frame, the writer interrupted mid-frame, is dropped); a sized
		// chunk that ends early is decoded as far as it goes and
		// reported, as ffmpeg does, since a recording cut off by a crash
		// is still worth hearing.
		end := error(io.EOF)
		if s.remaining > 0 {
			end = endsEarly{declared: s.frames()}
		}
		s.remaining = 0
		n -= n % ba
		decodeSamples(buf, raw[:n], s.h.format, s.h.width)
		return n / s.h.width, end
	}
	decodeSamples(buf, raw[:n], s.h.format, s.h.width)
	return n / s.h.width, nil
}

// decodeSamples converts little-endian samples to float32 in [-1, 1].
func decodeSamples(dst []float32, raw []byte, format uint16, width int) {
	le := binary.LittleEndian
	switch {
	case format == wavFloat && width == 4:
		for i := range len(raw) / 4 {
			dst[i] = clean(float64(math.Float32frombits(le.Uint32(raw[4*i:]))))
		}
	case format == wavFloat && width == 8:
		for i := range len(raw) / 8 {
			dst[i] = clean(math.Float64frombits(le.Uint64(raw[8*i:])))
		}
	case width == 1:
		for i, b := range raw {
			dst[i] = (float32(b) - 128) / 128
		}
	case width == 2:
		for i := range len(raw) / 2 {
			dst[i] = float32(int16(le.Uint16(raw[2*i:]))) / (1 << 15)
		}
	case width == 3:
		for i := range len(raw) / 3 {
			v := int32(uint32(raw[3*i])<<8|uint32(raw[3*i+1])<<16|uint32(raw[3*i+2])<<24) >> 8
			dst[i] = float32(v) / (1 << 23)
		}
	case width == 4:
		for i := range len(raw) / 4 {
			dst[i] = float32(float64(int32(le.Uint32(raw[4*i:]))) / (1 << 31))
		}
	}
}

// clean maps a float sample into [-1, 1]; NaN becomes 0.
func clean(v float64) float32 {
	switch {
	case v != v:
		return 0
	case v > 1:
		return 1
	case v < -1:
		return -1
	}
	return float32(v)
}
