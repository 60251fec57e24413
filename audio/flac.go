package audio

import (
	"errors"
	"io"

	"github.com/mewkiz/flac"
	"github.com/mewkiz/flac/frame"
)

// flacSource decodes native FLAC with github.com/mewkiz/flac.
type flacSource struct {
	st    *flac.Stream
	ch    int
	hz    int
	total int64 // frames announced by STREAMINFO; 0 if unknown
	done  int64 // frames returned so far
	fr    *frame.Frame
	pos   int // next sample within fr
	scale float32
	atEOF bool
}

func newFLACSource(r io.Reader) (s *flacSource, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, corrupt("flac: undecodable stream (%v)", p)
		}
	}()
	st, err := flac.New(r)
	if err != nil {
		return nil, flacErr(err)
	}
	si := st.Info
	if si.NChannels < 1 || int(si.SampleRate) < MinRate || int(si.SampleRate) > MaxRate {
		return nil, corrupt("flac: invalid STREAMINFO (%d channels, %d Hz)", si.NChannels, si.SampleRate)
	}
	return &flacSource{st: st, ch: int(si.NChannels), hz: int(si.SampleRate), total: int64(si.NSamples)}, nil
}

func flacErr(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return corrupt("flac: file is truncated")
	}
	return corrupt("flac: %v", err)
}

func (s *flacSource) rate() int     { return s.hz }
func (s *flacSource) channels() int { return s.ch }
func (s *flacSource) frames() int64 {
	if s.total == 0 {
		return -1
	}
	return s.total
}

func (s *flacSource) read(buf []float32) (n int, err error) {
	defer func() {
		if p := recover(); p != nil {
			n, err = 0, corrupt("flac: undecodable frame (%v)", p)
		}
	}()
	nf := len(buf) / s.ch
	out := 0
	for out < nf {
		if s.fr == nil || s.pos >= int(s.fr.BlockSize) {
			if s.atEOF {
				break
			}
			fr, err := s.st.ParseNext()
			if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
				// The stream ends; short of the declared length, or inside
				// a frame (whose samples are lost), the file was cut off:
				// keep what was decoded and report it.
				s.atEOF = true
				if err != io.EOF || s.total > 0 && s.done+int64(out) < s.total {
					s.done += int64(out)
					return out * s.ch, endsEarly{declared: s.total}
				}
				break
			}
			if err != nil {
				return 0, flacErr(err)
			}
			if len(fr.Subframes) != s.ch {
				return 0, corrupt("flac: frame with %d channels in a %d-channel stream", len(fr.Subframes), s.ch)
			}
			for _, sf := range fr.Subframes {
				if len(sf.Samples) < int(fr.BlockSize) {
					return 0, corrupt("flac: short subframe")
				}
			}
			if fr.BitsPerSample < 1 || fr.BitsPerSample > 32 {
				return 0, corrupt("flac: %d bits per sample", fr.BitsPerSample)
			}
			s.fr, s.pos = fr, 0
			s.scale = 1 / float32(uint64(1)<<(fr.BitsPerSample-1))
		}
		k := min(nf-out, int(s.fr.BlockSize)-s.pos)
		for c, sf := range s.fr.Subframes {
			smp := sf.Samples[s.pos : s.pos+k]
			for i, v := range smp {
				buf[(out+i)*s.ch+c] = float32(v) * s.scale
			}
		}
		out += k
		s.pos += k
	}
	s.done += int64(out)
	if out == 0 && s.atEOF {
		return 0, io.EOF
	}
	return out * s.ch, nil
}
