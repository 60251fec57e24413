package audio

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/hajimehoshi/go-mp3"
)

// mp3DecoderDelay is the delay, in samples, of the standard MPEG layer III
// synthesis filter bank, which the LAME gapless fields assume.
const mp3DecoderDelay = 529

// mp3Source decodes MPEG audio layer III with github.com/hajimehoshi/go-mp3,
// which always produces 16-bit little-endian stereo; a mono stream appears
// in both channels and only the first is kept.
//
// go-mp3 decodes every frame, including the Xing/Info metadata frame (as
// silence), and does not remove the encoder delay and padding. When the file
// has a LAME (or compatible) tag, mp3Source trims them as ffmpeg and other
// gapless players do, so that timestamps match the original recording.
type mp3Source struct {
	d     *mp3.Decoder
	ch    int
	total int64 // frames after trimming, or -1 if unknown
	skip  int   // frames still to drop at the start
	hold  int   // frames to drop at the end
	raw   []byte
	pend  []float32 // decoded, untrimmed samples not yet returned
	eof   bool
}

// plainReader hides io.Seeker, so go-mp3 decodes in one pass instead of
// first scanning the whole input for frame offsets.
type plainReader struct{ r io.Reader }

func (p plainReader) Read(b []byte) (int, error) { return p.r.Read(b) }

// newMP3Source starts decoding br; size is the input length in bytes, or -1
// if unknown.
func newMP3Source(br *bufio.Reader, size int64) (s *mp3Source, err error) {
	head, _ := br.Peek(bufSize)
	off, h, ok := findMPEGFrame(head)
	if !ok || h.layer != 3 {
		return nil, corrupt("mp3: no MPEG audio layer III frame found")
	}
	g := parseXing(head[off:], h)
	if g.total < 0 && size > 0 && h.bitrate > 0 {
		// No Xing frame count: estimate from the size, exact for constant
		// bit rate (files with variable bit rate nearly always have one).
		g.total = size * 8 * int64(h.rate) / int64(h.bitrate)
	}
	if _, err := br.Discard(off); err != nil {
		return nil, readErr(err, "mp3")
	}
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, corrupt("mp3: undecodable stream (%v)", p)
		}
	}()
	d, err := mp3.NewDecoder(plainReader{br})
	if err != nil {
		return nil, mp3Err(err)
	}
	if d.SampleRate() <= 0 {
		return nil, corrupt("mp3: invalid sample rate")
	}
	return &mp3Source{d: d, ch: h.channels, total: g.total, skip: g.skip, hold: g.trimEnd}, nil
}

// gapless describes the samples to trim from an MP3 stream.
type gapless struct {
	skip    int   // leading samples: the metadata frame, encoder and decoder delay
	trimEnd int   // trailing samples: encoder padding less the decoder delay
	total   int64 // samples after trimming, or -1 if unknown
}

// parseXing reads the Xing/Info frame and its LAME extension, if frame (the
// bytes from the first frame header on) starts with one.
func parseXing(frame []byte, h mpegHeader) gapless {
	g := gapless{total: -1}
	v1 := (frame[1]>>3)&3 == 3
	spf := 576
	side := 9
	if v1 {
		spf, side = 1152, 17
	}
	if h.channels == 2 {
		side = map[bool]int{true: 32, false: 17}[v1]
	}
	off := 4 + side
	if frame[1]&1 == 0 {
		off += 2 // CRC
	}
	if len(frame) < off+8 {
		return g
	}
	if tag := string(frame[off : off+4]); tag != "Xing" && tag != "Info" {
		return g
	}
	g.skip = spf // the metadata frame decodes to silence
	be := binary.BigEndian
	flags := be.Uint32(frame[off+4:])
	p := off + 8
	frames := int64(-1)
	if flags&1 != 0 && len(frame) >= p+4 {
		frames = int64(be.Uint32(frame[p:]))
		p += 4
	}
	if flags&2 != 0 {
		p += 4
	}
	if flags&4 != 0 {
		p += 100
	}
	if flags&8 != 0 {
		p += 4
	}
	if len(frame) < p+24 {
		return g
	}
	if enc := string(frame[p : p+4]); enc != "LAME" && enc != "Lavf" && enc != "Lavc" && enc != "GOGO" {
		return g
	}
	delay := int(frame[p+21])<<4 | int(frame[p+22])>>4
	padding := int(frame[p+22]&0x0F)<<8 | int(frame[p+23])
	g.skip += delay + mp3DecoderDelay
	g.trimEnd = max(padding-mp3DecoderDelay, 0)
	if frames > 0 {
		g.total = max(frames*int64(spf)-int64(delay)-int64(padding), 0)
	}
	return g
}

func mp3Err(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return corrupt("mp3: file is truncated")
	}
	return corrupt("mp3: %v", err)
}

func (s *mp3Source) rate() int     { return s.d.SampleRate() }
func (s *mp3Source) channels() int { return s.ch }
func (s *mp3Source) frames() int64 { return s.total }

func (s *mp3Source) read(buf []float32) (int, error) {
	nf := len(buf) / s.ch
	for {
		avail := len(s.pend)/s.ch - s.hold
		if avail >= nf || s.eof {
			n := max(min(avail, nf), 0)
			copy(buf, s.pend[:n*s.ch])
			s.pend = s.pend[:copy(s.pend, s.pend[n*s.ch:])]
			if s.eof && n == max(avail, 0) {
				return n * s.ch, io.EOF
			}
			return n * s.ch, nil
		}
		got, err := s.decode(nf)
		if err != nil {
			return 0, err
		}
		if got == 0 {
			s.eof = true
		}
	}
}

// decode appends up to nf decoded frames to s.pend, after dropping the
// leading frames still to skip, and returns how many frames it decoded.
func (s *mp3Source) decode(nf int) (got int, err error) {
	if cap(s.raw) < 4*nf {
		s.raw = make([]byte, 4*nf)
	}
	raw := s.raw[:4*nf]
	defer func() {
		if p := recover(); p != nil {
			got, err = 0, corrupt("mp3: undecodable frame (%v)", p)
		}
	}()
	m, err := io.ReadFull(s.d, raw)
	switch {
	case err == nil:
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		// go-mp3 ends the stream at a truncated final frame, as players do.
	default:
		return 0, fmt.Errorf("audio: mp3: %w", mp3Err(err))
	}
	frames := m / 4
	raw = raw[:4*frames]
	if d := min(s.skip, frames); d > 0 {
		raw = raw[4*d:]
		s.skip -= d
	}
	le := binary.LittleEndian
	for i := range len(raw) / 4 {
		s.pend = append(s.pend, float32(int16(le.Uint16(raw[4*i:])))/(1<<15))
		if s.ch == 2 {
			s.pend = append(s.pend, float32(int16(le.Uint16(raw[4*i+2:])))/(1<<15))
		}
	}
	return frames, nil
}
