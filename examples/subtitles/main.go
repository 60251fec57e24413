// Command subtitles turns a recording and its transcript into subtitles:
// package align finds when each word is spoken, package segment lays the
// sentences out as subtitle cues (at most 42 columns a line, two lines and
// about seven seconds a cue), and the cues are written as SubRip (SRT) or
// WebVTT on standard output.
//
//	go run ./examples/subtitles speech.wav transcript.txt > speech.srt
//	go run ./examples/subtitles -vtt -lang es lectura.mp3 lectura.txt > lectura.vtt
//
// It needs the Debian English acoustic model (apt-get install
// pocketsphinx-en-us); other languages are aligned through espeak-ng's
// phonemes (apt-get install espeak-ng). Audio in any format package audio
// reads (WAV, FLAC, MP3; others through ffmpeg).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/segment"
)

func main() {
	vtt := flag.Bool("vtt", false, "write WebVTT instead of SRT")
	lang := flag.String("lang", "en", "language of the transcript (BCP 47)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: subtitles [-vtt] [-lang L] AUDIO TRANSCRIPT.txt")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 {
		flag.Usage()
		os.Exit(2)
	}
	// Ctrl-C cancels the alignment.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, flag.Arg(0), flag.Arg(1), *lang, *vtt); err != nil {
		fmt.Fprintln(os.Stderr, "subtitles:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, audioPath, textPath, lang string, vtt bool) error {
	text, err := os.ReadFile(textPath)
	if err != nil {
		return err
	}
	a, _, err := audio.DecodeFile(ctx, audioPath, audio.Options{}) // 16 kHz mono
	if err != nil {
		return err
	}
	res, err := align.Align(ctx, a, string(text), align.Options{Language: lang, SearchEffort: align.EffortAuto})
	if err != nil {
		return err // a *sotto.Error: code "alignment_failed" when the text does not match the speech
	}
	// The alignment's sentences with their words become subtitle cues; the
	// words give the split cues their times.
	var cues []segment.Cue
	for _, s := range res.Segments {
		c := segment.Cue{Text: s.Text, Start: s.Start, End: s.End}
		for _, w := range s.Words {
			c.Words = append(c.Words, segment.Word{Word: w.Word, Start: w.Start, End: w.End})
		}
		cues = append(cues, c)
	}
	opts := segment.DefaultSubtitleOptions()
	opts.Language = lang
	subs, err := segment.Subtitles(ctx, cues, opts)
	if err != nil {
		return err
	}
	if vtt {
		return segment.WriteVTT(os.Stdout, subs)
	}
	return segment.WriteSRT(os.Stdout, subs)
}
