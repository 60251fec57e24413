package tts

import (
	"context"
	"iter"
	"slices"
	"strings"

	"golang.org/x/text/language"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/normalize"
	"github.com/sottolabs/sotto/segment"
)

// lookahead is how many sentences [Speak] synthesizes ahead of the one
// being delivered.
const lookahead = 2

// Speak turns written text into speech with b: it normalizes the text for
// the voice's language (TN: "$12.50 at 3:30 pm" becomes words), splits it
// into sentences, and synthesizes them in order, calling emit with each
// sentence's audio as soon as it and every sentence before it are done, so
// the first audio leaves before the rest is spoken. While one sentence is
// delivered the next ones are already being synthesized. emit is called
// from the calling goroutine only; a non-nil error from it stops the work
// and is returned. Cancelling ctx stops every synthesis in flight.
func Speak(ctx context.Context, b Backend, text string, opts Options, emit func(Chunk) error) error {
	v, ok := FindVoice(b, opts.Voice)
	if !ok {
		return unknownVoice(opts.Voice)
	}
	lang := opts.Language
	if lang == "" || lang == "auto" {
		lang = v.Languages[0]
	}
	sents, err := Sentences(ctx, text, lang)
	if err != nil {
		return err
	}
	if len(sents) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		chunks []Chunk
		err    error
	}
	pending := make([]chan result, len(sents))
	start := func(i int) {
		ch := make(chan result, 1)
		pending[i] = ch
		go func() {
			var r result
			r.err = b.Synthesize(ctx, sents[i], opts, func(c Chunk) error {
				r.chunks = append(r.chunks, c)
				return nil
			})
			ch <- r
		}()
	}
	// The first sentence runs alone, so that its audio comes out as soon
	// as the engine can make it; from then on up to lookahead sentences
	// are synthesized ahead of the one being delivered.
	start(0)
	started := 1
	for i := range sents {
		var r result
		select {
		case r = <-pending[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		if r.err != nil {
			return r.err
		}
		for ; started < len(sents) && started <= i+lookahead; started++ {
			start(started)
		}
		for _, c := range r.chunks {
			if err := emit(c); err != nil {
				return err
			}
		}
	}
	return nil
}

// Stream is [Speak] as an iterator: chunks in order, an error yielded once,
// last. Each range runs the synthesis anew.
func Stream(ctx context.Context, b Backend, text string, opts Options) iter.Seq2[Chunk, error] {
	return backend.Seq(ctx, func(ctx context.Context, emit func(Chunk) error) error {
		return Speak(ctx, b, text, opts, emit)
	})
}

// Sentences prepares text for a voice of language lang: written forms
// become words where package normalize has rules for the language (the
// text is kept as written where it has none), and the result is split into
// sentences with package segment. Blank sentences are dropped.
func Sentences(ctx context.Context, text, lang string) ([]string, error) {
	spoken := text
	if base := baseLanguage(lang); base != "" && normalizes(base) {
		res, err := normalize.Normalize(ctx, text, normalize.Options{Language: base, Mode: normalize.TN, TopK: 1})
		if err != nil {
			return nil, err
		}
		spoken = res.Best()
	}
	sents, err := segment.Sentences(ctx, spoken, segment.Options{Language: baseLanguage(lang)})
	if err != nil {
		return nil, err
	}
	out := sents[:0]
	for _, s := range sents {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out, nil
}

// baseLanguage returns the base language subtag of a BCP 47 tag ("en" for
// "en-US"), or "" when it does not parse.
func baseLanguage(tag string) string {
	t, err := language.Parse(tag)
	if err != nil {
		return ""
	}
	b, _ := t.Base()
	return b.String()
}

// normalizes reports whether package normalize has TN rules for base.
func normalizes(base string) bool {
	return slices.Contains(normalize.Languages(), base)
}

func unknownVoice(id string) error {
	return sotto.Invalid("bad_request", "voice", "voice %q is not one of this model's voices (GET /v1/audio/voices lists them)", id)
}

func unknownVariant(v string) error {
	return sotto.Invalid("bad_request", "variant", "voice variant %q is not installed", v)
}
