// Command readaloud speaks a text into a WAV file and prints when each word
// is spoken: package tts splits the text into sentences, normalizes them
// ("$12.50 at 3:30 pm" is read as words), synthesizes them one after the
// other, and reports word marks that point back to the bytes of the
// original text.
//
//	go run ./examples/readaloud -o hello.wav 'It costs $12.50. See you at 3:30 pm.'
//	go run ./examples/readaloud -lang de -o hallo.wav 'Der Zug fährt um 8:15 Uhr.'
//
// English is spoken by flite (apt-get install flite), other languages by
// espeak-ng (apt-get install espeak-ng), each with the voice tts.PickVoice
// chooses for the language. The marks are printed as
// "start end word «the text it reads»".
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/tts"
)

func main() {
	out := flag.String("o", "speech.wav", "WAV file to write")
	lang := flag.String("lang", "en", "language of the text (BCP 47)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: readaloud [-o FILE.wav] [-lang L] TEXT...")
		flag.PrintDefaults()
	}
	flag.Parse()
	text := strings.Join(flag.Args(), " ")
	if strings.TrimSpace(text) == "" {
		flag.Usage()
		os.Exit(2)
	}
	// Ctrl-C stops every synthesis in flight.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, text, *lang, *out); err != nil {
		fmt.Fprintln(os.Stderr, "readaloud:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, text, lang, out string) error {
	engine := "flite"
	if !strings.HasPrefix(strings.ToLower(lang), "en") {
		engine = "espeak-ng"
	}
	b, err := tts.Open(ctx, engine, backend.Config{})
	if err != nil {
		return err
	}
	defer b.Close()
	v, err := tts.PickVoice(b, lang) // a *sotto.Error (language_unsupported) when no voice speaks it
	if err != nil {
		return err
	}
	var samples []float32
	err = tts.Speak(ctx, b, text, tts.Options{Voice: v.ID, Language: lang, Marks: true}, func(c tts.Chunk) error {
		samples = append(samples, c.Samples...) // a chunk of marks alone has no samples
		for _, m := range c.Marks {             // times count from the start of the speech
			src := ""
			if m.SourceStartByte >= 0 {
				src = text[m.SourceStartByte:m.SourceEndByte]
			}
			fmt.Printf("%6.2f %6.2f %-12s «%s»\n", m.Start, m.End, m.Word, src)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return os.WriteFile(out, audio.EncodeWAV(samples, v.SampleRate), 0o644)
}
