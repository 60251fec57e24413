package speaker

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteRTTM writes t's turns as RTTM "SPEAKER" lines (the NIST Rich
// Transcription Time Marked format that diarization scorers read):
//
//	SPEAKER <file> 1 <start> <duration> <NA> <NA> <speaker> <NA> <NA>
//
// file is the recording's name; it must not contain white space.
func WriteRTTM(w io.Writer, file string, t *Timeline) error {
	if file == "" || strings.ContainsFunc(file, isSpace) {
		return fmt.Errorf("speaker: rttm: file name %q is empty or contains white space", file)
	}
	bw := bufio.NewWriter(w)
	for _, tu := range t.Turns {
		fmt.Fprintf(bw, "SPEAKER %s 1 %.3f %.3f <NA> <NA> %s <NA> <NA>\n", file, tu.Start, tu.End-tu.Start, tu.Speaker)
	}
	return bw.Flush()
}

func isSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

// ParseRTTM reads the SPEAKER lines of an RTTM file as turns (other line
// types and ";;" comments are skipped). Turns of every file and channel
// are returned in file order; the Speaker of each is the RTTM speaker name.
func ParseRTTM(r io.Reader) ([]Turn, error) {
	var out []Turn
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], ";;") || f[0] != "SPEAKER" {
			continue
		}
		if len(f) < 8 {
			return nil, fmt.Errorf("speaker: rttm line %d: %d fields, a SPEAKER line has at least 8", line, len(f))
		}
		start, err1 := strconv.ParseFloat(f[3], 64)
		dur, err2 := strconv.ParseFloat(f[4], 64)
		if err1 != nil || err2 != nil || math.IsNaN(start) || math.IsInf(start, 0) || math.IsNaN(dur) ||
			math.IsInf(dur, 0) || start < 0 || dur < 0 {
			return nil, fmt.Errorf("speaker: rttm line %d: start %q and duration %q must be non-negative numbers", line, f[3], f[4])
		}
		out = append(out, Turn{Start: start, End: start + dur, Speaker: f[7]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("speaker: rttm: %w", err)
	}
	return out, nil
}
