package transcript_test

import (
	"context"
	"os"

	"github.com/sottolabs/sotto/asr"
	"github.com/sottolabs/sotto/internal/transcript"
)

func ExampleWrite() {
	res := &transcript.Result{Language: "en", Duration: 4, Segments: []asr.Segment{
		{Start: 0.5, End: 1.5, Text: "hello there friend", Words: []asr.Word{
			{Word: "hello", Start: 0.5, End: 0.9, Confidence: 0.9}, {Word: "there", Start: 0.9, End: 1.2, Confidence: 0.8}, {Word: "friend", Start: 1.2, End: 1.5, Confidence: 0.7}}},
		{Start: 2.5, End: 3.25, Text: "you are a bold one"},
	}}
	ctx := context.Background()
	transcript.Write(ctx, os.Stdout, transcript.JSON, res, transcript.Granularities{})
	transcript.Write(ctx, os.Stdout, transcript.VerboseJSON, res, transcript.Granularities{Words: true})
	// Subtitle cues follow package segment: segments that fit together in
	// one cue (two lines of 42 columns, 7 s) share it.
	transcript.Write(ctx, os.Stdout, transcript.SRT, res, transcript.Granularities{})
	// Output:
	// {"text":"hello there friend you are a bold one","duration":4,"usage":{"type":"duration","seconds":4}}
	// {"task":"transcribe","language":"en","duration":4,"text":"hello there friend you are a bold one","words":[{"word":"hello","start":0.5,"end":0.9,"confidence":0.9},{"word":"there","start":0.9,"end":1.2,"confidence":0.8},{"word":"friend","start":1.2,"end":1.5,"confidence":0.7}],"usage":{"type":"duration","seconds":4}}
	// 1
	// 00:00:00,500 --> 00:00:03,250
	// hello there friend you are a bold one
}
