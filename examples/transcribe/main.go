// Command transcribe prints what is said in a recording, a line per
// stretch of speech in order, with each word's time and confidence when
// -words is given. By default the recognizer first adapts to the speaker
// over the whole file (fewer errors), so lines start once that pass is
// done; -live prints each stretch as soon as it is decoded instead.
//
//	go run ./examples/transcribe talk.mp3
//	go run ./examples/transcribe -words -prompt "Sotto, pocketsphinx" meeting.wav
//
// The recognizer is the pure-Go one on the Debian English model (apt-get
// install pocketsphinx-en-us); audio in any format package audio reads.
// A Whisper model downloaded by sotto-cli is used the same way through
// asr.Open(ctx, "whisper", ...) with its file in backend.Config.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/sottolabs/sotto/asr"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
)

func main() {
	words := flag.Bool("words", false, "print every word with its time and confidence")
	prompt := flag.String("prompt", "", "words to favour (names, terms the recording uses)")
	live := flag.Bool("live", false, "print each stretch as soon as it is decoded (no speaker adaptation)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: transcribe [-words] [-live] [-prompt TEXT] AUDIO")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	// Ctrl-C stops the decoding.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, flag.Arg(0), asr.Options{Language: "en", Words: *words, Prompt: *prompt, Streaming: *live}); err != nil {
		fmt.Fprintln(os.Stderr, "transcribe:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, path string, opts asr.Options) error {
	b, err := asr.Open(ctx, "", backend.Config{}) // "" = the pure-Go English recognizer
	if err != nil {
		return err
	}
	defer b.Close()
	a, _, err := audio.DecodeFile(ctx, path, audio.Options{}) // 16 kHz mono
	if err != nil {
		return err
	}
	for s, err := range asr.Segments(ctx, b, a, opts) {
		if err != nil {
			return err
		}
		fmt.Printf("[%7.2f – %7.2f] %s\n", s.Start, s.End, s.Text)
		for _, w := range s.Words {
			fmt.Printf("    %7.2f %7.2f %.2f %s\n", w.Start, w.End, w.Confidence, w.Word)
		}
	}
	return nil
}
