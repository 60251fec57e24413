package audio_test

import (
	"bytes"
	"encoding/binary"
	"math"
)

// wavSpec describes a WAV file for makeWAV, the test fixture generator.
type wavSpec struct {
	tag        uint16 // 1 PCM, 3 float, 7 mu-law, ...; with extensible, the subformat
	extensible bool
	channels   int
	rate       int
	width      int // bytes per sample
	validBits  int // 0: 8*width
	frames     [][]float64
	rf64       bool
	dataSize   int64 // -2: actual size; else written as is (0, 0xFFFFFFFF)
	before     []chunk
	between    []chunk // between fmt and data
	after      []chunk
	riffSize   int64 // -2: actual
}

type chunk struct {
	id   string
	body []byte
}

func (s wavSpec) withDefaults() wavSpec {
	if s.channels == 0 {
		s.channels = 1
	}
	if s.rate == 0 {
		s.rate = 16000
	}
	if s.tag == 0 {
		s.tag = 1
	}
	if s.width == 0 {
		s.width = 2
	}
	if s.dataSize == 0 {
		s.dataSize = -2
	}
	if s.riffSize == 0 {
		s.riffSize = -2
	}
	return s
}

// encodeSample writes v in [-1, 1] as one little-endian sample.
func encodeSample(b *bytes.Buffer, tag uint16, width, validBits int, v float64) {
	le := binary.LittleEndian
	if tag == 3 {
		if width == 4 {
			b.Write(le.AppendUint32(nil, math.Float32bits(float32(v))))
		} else {
			b.Write(le.AppendUint64(nil, math.Float64bits(v)))
		}
		return
	}
	bits := 8 * width
	if validBits == 0 {
		validBits = bits
	}
	q := int64(math.Round(v * float64(int64(1)<<(validBits-1))))
	q = max(min(q, int64(1)<<(validBits-1)-1), -(int64(1) << (validBits - 1)))
	q <<= bits - validBits // left-justified in the container
	if width == 1 {
		b.WriteByte(byte(q + 128))
		return
	}
	for i := range width {
		b.WriteByte(byte(q >> (8 * i)))
	}
}

// quantize returns the value the decoder should produce for v.
func quantize(tag uint16, width, validBits int, v float64) float32 {
	if tag == 3 {
		return float32(v)
	}
	if validBits == 0 {
		validBits = 8 * width
	}
	scale := float64(int64(1) << (validBits - 1))
	q := math.Round(v * scale)
	q = max(min(q, scale-1), -scale)
	return float32(q / scale)
}

func writeChunk(b *bytes.Buffer, c chunk) {
	b.WriteString(c.id)
	b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(c.body))))
	b.Write(c.body)
	if len(c.body)%2 == 1 {
		b.WriteByte(0)
	}
}

// makeWAV renders s.
func makeWAV(s wavSpec) []byte {
	s = s.withDefaults()
	le := binary.LittleEndian
	var fmtb bytes.Buffer
	tag := s.tag
	if s.extensible {
		tag = 0xFFFE
	}
	fmtb.Write(le.AppendUint16(nil, tag))
	fmtb.Write(le.AppendUint16(nil, uint16(s.channels)))
	fmtb.Write(le.AppendUint32(nil, uint32(s.rate)))
	fmtb.Write(le.AppendUint32(nil, uint32(s.rate*s.channels*s.width)))
	fmtb.Write(le.AppendUint16(nil, uint16(s.channels*s.width)))
	fmtb.Write(le.AppendUint16(nil, uint16(8*s.width)))
	if s.extensible {
		valid := s.validBits
		if valid == 0 {
			valid = 8 * s.width
		}
		fmtb.Write(le.AppendUint16(nil, 22))
		fmtb.Write(le.AppendUint16(nil, uint16(valid)))
		fmtb.Write(le.AppendUint32(nil, 0)) // channel mask
		fmtb.Write(le.AppendUint16(nil, s.tag))
		fmtb.Write([]byte{0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71})
	} else if s.tag != 1 {
		fmtb.Write(le.AppendUint16(nil, 0)) // cbSize
	}
	var data bytes.Buffer
	for _, fr := range s.frames {
		for _, v := range fr {
			encodeSample(&data, s.tag, s.width, s.validBits, v)
		}
	}
	var body bytes.Buffer
	body.WriteString("WAVE")
	if s.rf64 {
		ds := make([]byte, 28)
		le.PutUint64(ds[0:], 0)
		le.PutUint64(ds[8:], uint64(data.Len()))
		le.PutUint64(ds[16:], uint64(len(s.frames)))
		writeChunk(&body, chunk{"ds64", ds})
	}
	for _, c := range s.before {
		writeChunk(&body, c)
	}
	writeChunk(&body, chunk{"fmt ", fmtb.Bytes()})
	for _, c := range s.between {
		writeChunk(&body, c)
	}
	body.WriteString("data")
	size := uint32(data.Len())
	if s.rf64 {
		size = 0xFFFFFFFF
	} else if s.dataSize != -2 {
		size = uint32(s.dataSize)
	}
	body.Write(le.AppendUint32(nil, size))
	body.Write(data.Bytes())
	if data.Len()%2 == 1 && len(s.after) > 0 {
		body.WriteByte(0)
	}
	for _, c := range s.after {
		writeChunk(&body, c)
	}
	var out bytes.Buffer
	if s.rf64 {
		out.WriteString("RF64")
		out.Write(le.AppendUint32(nil, 0xFFFFFFFF))
	} else {
		out.WriteString("RIFF")
		rs := uint32(body.Len())
		if s.riffSize != -2 {
			rs = uint32(s.riffSize)
		}
		out.Write(le.AppendUint32(nil, rs))
	}
	out.Write(body.Bytes())
	return out.Bytes()
}

// ramp returns n frames of a deterministic test signal that covers the full
// range, including -1 and values near +1.
func ramp(n, channels int) [][]float64 {
	fr := make([][]float64, n)
	for i := range fr {
		fr[i] = make([]float64, channels)
		for c := range channels {
			fr[i][c] = math.Sin(float64(i)*0.37+float64(c)) * 0.999
			if i == 3 {
				fr[i][c] = -1
			}
		}
	}
	return fr
}
