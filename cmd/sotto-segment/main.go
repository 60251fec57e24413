// Command sotto-segment splits text or a transcript into sentences,
// paragraphs or subtitle cues.
//
//	sotto-segment notes.txt                          # JSON segmentation result
//	sotto-segment -f lines --text "Hi there. Bye."   # one sentence per line
//	sotto-segment -f srt --max-chars 42 transcript.json
//
// Input is plain text or an exported transcript JSON (detected, or forced
// with --input); "-" or no file reads standard input. Output is the JSON
// segmentation result (json), one item per line (lines), or SubRip (srt) and
// WebVTT (vtt) for timed input. Subtitle output is laid out as viewers
// expect (segment.Subtitles): lines of at most 42 columns, two lines and
// about seven seconds a cue, broken at clause boundaries; --max-line-chars,
// --max-lines and --max-cue-seconds change the limits (0 turns one off).
// JSON and lines output are not affected by them.
package main

import (
	"context"
	"os"

	"github.com/sottolabs/sotto/internal/cli"
)

func main() {
	cli.Main("sotto-segment", func(ctx context.Context) error { return run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr) }, nil)
}
