package audio

import (
	"encoding/binary"
	"math"
)

// WAVHeader returns the 44-byte header of a mono 16-bit PCM WAV file at rate
// Hz holding dataBytes bytes of samples. A negative dataBytes writes the
// placeholder sizes streaming writers use when the length is not known yet
// (0xFFFFFFFF for the RIFF and data chunk sizes); readers then take the data
// to run until the end of the stream.
func WAVHeader(rate, dataBytes int) []byte {
	h := make([]byte, 44)
	le := binary.LittleEndian
	riff, data := uint32(0xFFFFFFFF), uint32(0xFFFFFFFF)
	if dataBytes >= 0 && dataBytes <= math.MaxUint32-36 {
		riff, data = uint32(36+dataBytes), uint32(dataBytes)
	}
	copy(h[0:], "RIFF")
	le.PutUint32(h[4:], riff)
	copy(h[8:], "WAVEfmt ")
	le.PutUint32(h[16:], 16)
	le.PutUint16(h[20:], wavPCM)
	le.PutUint16(h[22:], 1)
	le.PutUint32(h[24:], uint32(rate))
	le.PutUint32(h[28:], uint32(rate*2))
	le.PutUint16(h[32:], 2)
	le.PutUint16(h[34:], 16)
	copy(h[36:], "data")
	le.PutUint32(h[40:], data)
	return h
}

// AppendPCM16 appends samples (mono float32 in [-1, 1]; values outside are
// clipped) to dst as little-endian 16-bit PCM and returns the extended
// slice.
func AppendPCM16(dst []byte, samples []float32) []byte {
	for _, s := range samples {
		v := math.Round(float64(s) * 32767)
		switch {
		case v > 32767:
			v = 32767
		case v < -32768:
			v = -32768
		case v != v: // NaN
			v = 0
		}
		dst = binary.LittleEndian.AppendUint16(dst, uint16(int16(v)))
	}
	return dst
}

// EncodeWAV returns samples as a complete mono 16-bit PCM WAV file at rate
// Hz.
func EncodeWAV(samples []float32, rate int) []byte {
	b := make([]byte, 0, 44+2*len(samples))
	b = append(b, WAVHeader(rate, 2*len(samples))...)
	return AppendPCM16(b, samples)
}
