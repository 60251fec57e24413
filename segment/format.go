package segment

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strings"
)

// WriteSRT writes cues to w as a SubRip (.srt) file: numbered blocks with
// "HH:MM:SS,mmm --> HH:MM:SS,mmm" times. Line breaks inside a cue's text
// are kept, blank lines are removed (they would end the block).
func WriteSRT(w io.Writer, cues []Cue) error {
	bw := bufio.NewWriter(w)
	for i, c := range cues {
		fmt.Fprintf(bw, "%d\n%s --> %s\n%s\n\n", i+1, stamp(c.Start, ','), stamp(c.End, ','), cueText(c.Text, false))
	}
	return bw.Flush()
}

// WriteVTT writes cues to w as a WebVTT file. A cue with a speaker gets a
// voice tag (<v Speaker>); text is escaped as WebVTT requires.
func WriteVTT(w io.Writer, cues []Cue) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("WEBVTT\n\n")
	for _, c := range cues {
		text := cueText(c.Text, true)
		if c.Speaker != "" {
			text = "<v " + vttEscape(strings.ReplaceAll(c.Speaker, ">", "")) + ">" + text
		}
		fmt.Fprintf(bw, "%s --> %s\n%s\n\n", stamp(c.Start, '.'), stamp(c.End, '.'), text)
	}
	return bw.Flush()
}

// stamp formats seconds as HH:MM:SS followed by sep and milliseconds.
func stamp(sec float64, sep byte) string {
	if !(sec > 0) || math.IsInf(sec, 0) {
		sec = 0
	}
	ms := int64(math.Round(sec * 1000))
	return fmt.Sprintf("%02d:%02d:%02d%c%03d", ms/3600000, ms/60000%60, ms/1000%60, sep, ms%1000)
}

// cueText removes what would break a cue block: blank lines and "-->".
func cueText(s string, vtt bool) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "-->", "->")
	var lines []string
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			if vtt {
				l = vttEscape(l)
			}
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return "…"
	}
	return strings.Join(lines, "\n")
}

var vttReplacer = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

func vttEscape(s string) string { return vttReplacer.Replace(s) }
