package segment_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/sottolabs/sotto/segment"
)

func ExampleSentences() {
	ss, err := segment.Sentences(context.Background(),
		"At 5 a.m. Mr. Smith went to the U.S. Embassy. He left at 6. Was he late?", segment.Options{})
	if err != nil {
		panic(err)
	}
	for _, s := range ss {
		fmt.Println(s)
	}
	// Output:
	// At 5 a.m. Mr. Smith went to the U.S. Embassy.
	// He left at 6.
	// Was he late?
}

func ExampleText_paragraphs() {
	res, err := segment.Text(context.Background(), "First point. More on it.\n\nSecond point.",
		segment.Options{ParagraphThreshold: segment.Float(0.5)})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", res.Text)
	// Output:
	// "First point. More on it.\n\nSecond point."
}

func ExampleCues() {
	in := []segment.Cue{
		{Text: "Hello there, welcome to the show.", Start: 0, End: 2.1, Speaker: "A"},
		{Text: "Thanks for having me. It is great to be here.", Start: 2.3, End: 5.0, Speaker: "B"},
	}
	cues, err := segment.Cues(context.Background(), in, segment.Options{
		Length:  &segment.Length{MinChars: 12, MaxChars: 24},
		Margins: &segment.Margins{Start: 0.2, End: 0.2},
	})
	if err != nil {
		panic(err)
	}
	segment.WriteSRT(os.Stdout, cues)
	// Output:
	// 1
	// 00:00:00,000 --> 00:00:00,795
	// Hello there,
	//
	// 2
	// 00:00:00,795 --> 00:00:02,200
	// welcome to the show.
	//
	// 3
	// 00:00:02,200 --> 00:00:03,590
	// Thanks for having me.
	//
	// 4
	// 00:00:03,590 --> 00:00:05,000
	// It is great to be here.
}

func ExampleSegment() {
	req, err := segment.DecodeRequest(strings.NewReader(`{"text": "Hi. See you at 5 p.m. tomorrow."}`))
	if err != nil {
		panic(err)
	}
	res, err := segment.Segment(context.Background(), req, false)
	if err != nil {
		panic(err)
	}
	js, _ := json.Marshal(res)
	fmt.Println(string(js))
	// Output:
	// {"task":"segment","text":"Hi.\nSee you at 5 p.m. tomorrow.","segments":[{"text":"Hi."},{"text":"See you at 5 p.m. tomorrow."}]}
}

func ExampleDetectLanguage() {
	for _, t := range []string{"Der Zug fährt um acht Uhr ab, und wir sind noch nicht da.", "東京は日本の首都です。", "OK."} {
		tag, sure := segment.DetectLanguage(t)
		fmt.Println(tag, sure)
	}
	// Output:
	// de true
	// ja true
	// en false
}
