package audio

import "bytes"

// SniffLen is the number of leading bytes [Sniff] looks at; fewer work for
// short inputs.
const SniffLen = 4096

// Sniff detects the format of an input from its leading bytes (ideally
// [SniffLen] of them), never from a file name. It returns [FormatUnknown]
// when no known signature matches. An ID3v2 tag is skipped when it fits in
// head, so the tagged payload decides (MP3, FLAC or AAC); a longer tag is
// reported as MP3, the usual case. Sniff is safe for concurrent use.
func Sniff(head []byte) Format {
	head = head[:min(len(head), SniffLen)]
	if n := id3Len(head); n > 0 {
		if n >= len(head) {
			return FormatMP3
		}
		if f := Sniff(head[n:]); f != FormatUnknown {
			return f
		}
		return FormatMP3
	}
	has := func(off int, sig string) bool {
		return len(head) >= off+len(sig) && string(head[off:off+len(sig)]) == sig
	}
	switch {
	case (has(0, "RIFF") || has(0, "RF64") || has(0, "BW64")) && has(8, "WAVE"):
		return FormatWAV
	case has(0, "RIFF") && has(8, "AVI "):
		return FormatAVI
	case has(0, "fLaC"):
		return FormatFLAC
	case has(0, "OggS"):
		// The first page carries the codec identification header.
		switch {
		case bytes.Contains(head[:min(len(head), 128)], []byte("OpusHead")):
			return FormatOpus
		case bytes.Contains(head[:min(len(head), 128)], []byte("\x01vorbis")):
			return FormatVorbis
		}
		return FormatOgg
	case has(4, "ftyp"):
		return FormatMP4
	case has(0, "\x1a\x45\xdf\xa3"):
		if bytes.Contains(head[:min(len(head), 64)], []byte("webm")) {
			return FormatWebM
		}
		return FormatMatroska
	case has(0, "FORM") && (has(8, "AIFF") || has(8, "AIFC")):
		return FormatAIFF
	case has(0, "caff"):
		return FormatCAF
	case has(0, ".snd"):
		return FormatAU
	case has(0, "#!AMR"):
		return FormatAMR
	case has(0, "\x30\x26\xb2\x75\x8e\x66\xcf\x11"):
		return FormatASF
	case has(0, "FLV\x01"):
		return FormatFLV
	case has(0, "wvpk"):
		return FormatWavPack
	case has(0, "MAC "):
		return FormatAPE
	case has(0, "\x00\x00\x01\xba"):
		return FormatMPEGPS
	case len(head) >= 189 && head[0] == 0x47 && head[188] == 0x47:
		return FormatMPEGTS
	}
	if f := sniffMPEG(head); f != FormatUnknown {
		return f
	}
	return FormatUnknown
}

// id3Len returns the total length of the ID3v2 tag at the start of b, or 0
// if b does not start with one.
func id3Len(b []byte) int {
	if len(b) < 10 || string(b[:3]) != "ID3" || b[3] == 0xFF || b[4] == 0xFF {
		return 0
	}
	for _, c := range b[6:10] {
		if c&0x80 != 0 {
			return 0
		}
	}
	n := int(b[6])<<21 | int(b[7])<<14 | int(b[8])<<7 | int(b[9])
	n += 10
	if b[5]&0x10 != 0 { // footer present
		n += 10
	}
	return n
}

// mpegHeader is a parsed MPEG audio frame header.
type mpegHeader struct {
	layer    int // 1, 2 or 3
	rate     int // Hz
	channels int
	length   int // frame length in bytes; 0 for free-format
	bitrate  int // bits per second; 0 for free-format
}

var (
	mpegRates = [4][3]int{ // by version bits (0: 2.5, 2: v2, 3: v1) and index
		{11025, 12000, 8000}, {}, {22050, 24000, 16000}, {44100, 48000, 32000},
	}
	// Bit rates in kbit/s: [v1 or v2][layer-1][index].
	mpegBitrates = [2][3][16]int{
		{ // MPEG-1
			{0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448},
			{0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384},
			{0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320},
		},
		{ // MPEG-2 and 2.5
			{0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256},
			{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160},
			{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160},
		},
	}
)

// parseMPEGHeader parses a 4-byte MPEG audio frame header.
func parseMPEGHeader(b []byte) (mpegHeader, bool) {
	var h mpegHeader
	if len(b) < 4 || b[0] != 0xFF || b[1]&0xE0 != 0xE0 {
		return h, false
	}
	ver := int(b[1]>>3) & 3
	layerBits := int(b[1]>>1) & 3
	bri := int(b[2] >> 4)
	sri := int(b[2]>>2) & 3
	if ver == 1 || layerBits == 0 || bri == 15 || sri == 3 {
		return h, false
	}
	h.layer = 4 - layerBits
	h.rate = mpegRates[ver][sri]
	h.channels = 2
	if b[3]>>6 == 3 {
		h.channels = 1
	}
	pad := int(b[2]>>1) & 1
	v := 0
	if ver != 3 {
		v = 1
	}
	br := mpegBitrates[v][h.layer-1][bri] * 1000
	h.bitrate = br
	if br == 0 {
		return h, true // free format: length unknown
	}
	switch {
	case h.layer == 1:
		h.length = (12*br/h.rate + pad) * 4
	case h.layer == 3 && v == 1:
		h.length = 72*br/h.rate + pad
	default:
		h.length = 144*br/h.rate + pad
	}
	return h, true
}

// sniffMPEG recognises an MPEG audio elementary stream (MP3, MP2) or AAC in
// ADTS framing at the start of b. When the whole first frame is in b, the
// next frame header must follow it, which rules out chance matches.
func sniffMPEG(b []byte) Format {
	if len(b) >= 7 && b[0] == 0xFF && b[1]&0xF6 == 0xF0 {
		// ADTS: sync 0xFFF, layer 00.
		n := int(b[3]&3)<<11 | int(b[4])<<3 | int(b[5]>>5)
		if n < 7 {
			return FormatUnknown
		}
		if len(b) >= n+2 && (b[n] != 0xFF || b[n+1]&0xF6 != 0xF0) {
			return FormatUnknown
		}
		return FormatAAC
	}
	h, ok := parseMPEGHeader(b)
	if !ok {
		return FormatUnknown
	}
	if h.length > 0 && len(b) >= h.length+4 {
		if _, ok := parseMPEGHeader(b[h.length:]); !ok {
			return FormatUnknown
		}
	}
	if h.layer == 3 {
		return FormatMP3
	}
	return FormatMPEGAudio
}

// findMPEGFrame returns the offset and header of the first MPEG audio frame
// in b that is followed by another valid header (or by the end of b).
func findMPEGFrame(b []byte) (int, mpegHeader, bool) {
	for i := 0; i+4 <= len(b); i++ {
		if b[i] != 0xFF {
			continue
		}
		h, ok := parseMPEGHeader(b[i:])
		if !ok {
			continue
		}
		if h.length > 0 && i+h.length+4 <= len(b) {
			if _, ok := parseMPEGHeader(b[i+h.length:]); !ok {
				continue
			}
		}
		return i, h, true
	}
	return 0, mpegHeader{}, false
}
