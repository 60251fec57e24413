package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/sottolabs/sotto/audio"
)

// setLong marks the concatenated long recording: word references shifted
// to their place in the concatenation.
const setLong = "long"

// longParts are the recordings concatenated, in turn, into the long file:
// the English ones with word references whose words CMUdict has.
var longParts = []string{"en_mfa_acoustic_corpus", "en_mfa_cold_corpus", "en_ps_sense0870", "en_ps_sense0880", "en_ps_sense0890"}

// buildLong concatenates longParts (audio, tokens and shifted references)
// until the audio lasts at least minutes, and writes it as a 16 kHz 16-bit
// WAV file in dir.
func buildLong(ctx context.Context, recs []*recording, minutes float64, dir string) (*recording, error) {
	byName := map[string]*recording{}
	for _, r := range recs {
		byName[r.Name] = r
	}
	long := &recording{Name: fmt.Sprintf("long_%gmin", minutes), Set: setLong, Lang: "en", Wav: filepath.Join(dir, "long.wav")}
	var samples []float32
	for i := 0; float64(len(samples)) < minutes*60*16000; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := byName[longParts[i%len(longParts)]]
		if r == nil {
			return nil, fmt.Errorf("long file: %s is missing from the data", longParts[i%len(longParts)])
		}
		a, _, err := audio.DecodeFile(ctx, r.Wav, audio.Options{})
		if err != nil {
			return nil, err
		}
		off := float64(len(samples)) / 16000
		samples = append(samples, a.Samples...)
		for k, ref := range r.Ref {
			long.Ref = append(long.Ref, span{Start: ref.Start + off, End: ref.End + off, Label: ref.Label})
			long.Tokens = append(long.Tokens, r.Tokens[k])
			long.Line = append(long.Line, i)
		}
	}
	long.Text = strings.Join(long.Tokens, " ")
	return long, writeWAV(long.Wav, samples)
}

// writeWAV writes 16 kHz mono 16-bit PCM.
func writeWAV(path string, x []float32) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	n := uint32(2 * len(x))
	le := binary.LittleEndian
	hdr := make([]byte, 44)
	copy(hdr, "RIFF")
	le.PutUint32(hdr[4:], 36+n)
	copy(hdr[8:], "WAVEfmt ")
	le.PutUint32(hdr[16:], 16)
	le.PutUint16(hdr[20:], 1)
	le.PutUint16(hdr[22:], 1)
	le.PutUint32(hdr[24:], 16000)
	le.PutUint32(hdr[28:], 32000)
	le.PutUint16(hdr[32:], 2)
	le.PutUint16(hdr[34:], 16)
	copy(hdr[36:], "data")
	le.PutUint32(hdr[40:], n)
	w.Write(hdr)
	var b [2]byte
	for _, v := range x {
		le.PutUint16(b[:], uint16(int16(max(-32768, min(32767, math.Round(float64(v)*32768))))))
		w.Write(b[:])
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
