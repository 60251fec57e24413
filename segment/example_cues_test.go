package segment_test

import (
	"context"
	"fmt"
	"os"

	"github.com/sottolabs/sotto/segment"
)

// Subtitles wraps a long sentence into cues of at most two 42-column lines
// and seven seconds, breaking at clause boundaries; without word times the
// cue times are shared out by characters.
func ExampleSubtitles() {
	in := []segment.Cue{{
		Text:  "When the rain finally stopped, the children ran out into the garden, and their parents followed them with cups of tea and a basket of warm bread.",
		Start: 0, End: 9,
	}}
	cues, err := segment.Subtitles(context.Background(), in, segment.DefaultSubtitleOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	segment.WriteSRT(os.Stdout, cues)
	// Output:
	// 1
	// 00:00:00,000 --> 00:00:04,283
	// When the rain finally stopped,
	// the children ran out into the garden,
	//
	// 2
	// 00:00:04,283 --> 00:00:09,000
	// and their parents followed them with cups
	// of tea and a basket of warm bread.
}
