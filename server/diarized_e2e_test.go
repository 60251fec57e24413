package server

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"math"
	"testing"

	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/internal/transcript"
)

// pcmWAV returns samples (16 kHz mono) as a 16-bit WAV.
func pcmWAV(samples []float32) []byte {
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(36+2*len(samples)))
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(16000), uint32(32000), uint16(2), uint16(16)} {
		binary.Write(&b, binary.LittleEndian, v)
	}
	b.WriteString("data")
	binary.Write(&b, binary.LittleEndian, uint32(2*len(samples)))
	for _, s := range samples {
		binary.Write(&b, binary.LittleEndian, int16(math.Round(float64(max(-1, min(1, s)))*32767)))
	}
	return b.Bytes()
}

// TestTranscriptionOptionsWords: the formats that cut segments by word
// times ask the recognizer for words whatever the granularities say.
func TestTranscriptionOptionsWords(t *testing.T) {
	for _, c := range []struct {
		format transcript.Format
		words  bool // granularity word
		want   bool
	}{
		{transcript.JSON, false, false},
		{transcript.Text, false, false},
		{transcript.VerboseJSON, false, false},
		{transcript.VerboseJSON, true, true},
		{transcript.SRT, false, true},
		{transcript.VTT, false, true},
		{transcript.DiarizedJSON, false, true},
		{transcript.DiarizedJSON, true, true},
	} {
		req := &transcriptionRequest{format: c.format, gran: transcript.Granularities{Words: c.words}}
		if got := req.options().Words; got != c.want {
			t.Errorf("%s, word granularity %v: options().Words = %v; want %v", c.format, c.words, got, c.want)
		}
	}
}

// TestTranscriptionDiarizedTwoSpeakers: JFK's address followed without a
// pause by two sentences of the LJ Speech reader. diarized_json without
// granularities must name two speakers, give JFK's part and LJ's part
// different ones, and split a recognised segment that runs across the
// change (which needs the words: the bug this test was written for).
func TestTranscriptionDiarizedTwoSpeakers(t *testing.T) {
	skipUnderRace(t)
	ts, _ := asrServer(t, false)
	var all []float32
	var jfkEnd float64
	for i, name := range []string{"en_jfk_16k.wav", "en_lj_LJ001-0004_16k.wav", "en_lj_LJ001-0006_16k.wav"} {
		a, _, err := audio.DecodeFile(context.Background(), testdata.Path(t, "speech", name), audio.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s := a.Samples
		if i == 0 {
			s = s[:int(10.4*16000)] // JFK's last word ends at about 10.3 s; no pause before LJ
			jfkEnd = 10.4
		}
		all = append(all, s...)
	}
	r := postTranscription(t, ts, []part{mediaPart(pcmWAV(all)), field("language", "en"), field("response_format", "diarized_json")})
	var d transcript.DiarizedResult
	if err := json.Unmarshal(r.body, &d); err != nil || r.status != 200 {
		t.Fatalf("diarized_json = %d %s", r.status, r.body)
	}
	if len(d.Speakers) < 2 {
		t.Fatalf("diarized_json speakers %v; want two (JFK, then the LJ reader): %s", d.Speakers, r.body)
	}
	// The speaker holding most of each side's segment time.
	side := func(lo, hi float64) string {
		dur := map[string]float64{}
		for _, s := range d.Segments {
			if s.Speaker != nil {
				dur[*s.Speaker] += max(0, min(s.End, hi)-max(s.Start, lo))
			}
		}
		best, bd := "", 0.0
		for sp, v := range dur {
			if v > bd {
				best, bd = sp, v
			}
		}
		return best
	}
	first, second := side(0, jfkEnd-1), side(jfkEnd+1, float64(len(all))/16000)
	if first == "" || second == "" || first == second {
		t.Errorf("JFK's part spoken by %q, the LJ reader's by %q; want two different speakers: %s", first, second, r.body)
	}
	for i, s := range d.Segments {
		if s.Start < jfkEnd-1 && s.End > jfkEnd+1 {
			t.Errorf("segment %d (%.2f–%.2f s, %v) runs across the change of speaker at %.1f s", i, s.Start, s.End, s.Speaker, jfkEnd)
		}
	}
}
