package audio

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/hajimehoshi/go-mp3"
)

// mp3Source decodes MPEG audio layer III with github.com/hajimehoshi/go-mp3,
// which always produces 16-bit little-endian stereo; a mono stream appears
// in both channels and only the first is kept.
type mp3Source struct {
	d   *mp3.Decoder
	ch  int
	raw []byte
}

// plainReader hides io.Seeker, so go-mp3 decodes in one pass instead of
// first scanning the whole input for frame offsets.
type plainReader struct{ r io.Reader }

func (p plainReader) Read(b []byte) (int, error) { return p.r.Read(b) }

func newMP3Source(br *bufio.Reader) (s *mp3Source, err error) {
	head, _ := br.Peek(bufSize)
	off, h, ok := findMPEGFrame(head)
	if !ok || h.layer != 3 {
		return nil, corrupt("mp3: no MPEG audio layer III frame found")
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
	return &mp3Source{d: d, ch: h.channels}, nil
}

func mp3Err(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return corrupt("mp3: file is truncated")
	}
	return corrupt("mp3: %v", err)
}

func (s *mp3Source) rate() int     { return s.d.SampleRate() }
func (s *mp3Source) channels() int { return s.ch }
func (s *mp3Source) frames() int64 { return -1 }

func (s *mp3Source) read(buf []float32) (n int, err error) {
	nf := len(buf) / s.ch
	if cap(s.raw) < 4*nf {
		s.raw = make([]byte, 4*nf)
	}
	raw := s.raw[:4*nf]
	defer func() {
		if p := recover(); p != nil {
			n, err = 0, corrupt("mp3: undecodable frame (%v)", p)
		}
	}()
	m, err := io.ReadFull(s.d, raw)
	switch {
	case err == nil:
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		// go-mp3 ends the stream at a truncated final frame, as players do.
		err = io.EOF
	default:
		return 0, fmt.Errorf("audio: mp3: %w", mp3Err(err))
	}
	frames := m / 4
	le := binary.LittleEndian
	if s.ch == 1 {
		for i := range frames {
			buf[i] = float32(int16(le.Uint16(raw[4*i:]))) / (1 << 15)
		}
	} else {
		for i := range 2 * frames {
			buf[i] = float32(int16(le.Uint16(raw[2*i:]))) / (1 << 15)
		}
	}
	return frames * s.ch, err
}
