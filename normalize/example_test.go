package normalize_test

import (
	"context"
	"fmt"

	"github.com/sottolabs/sotto/normalize"
)

func ExampleNormalize() {
	res, err := normalize.Normalize(context.Background(), "It costs $5 on 1/2.", normalize.Options{Language: "en", TopK: 2})
	if err != nil {
		panic(err)
	}
	for _, a := range res.Alternatives {
		fmt.Println(a.Rank, a.Text)
	}
	sp := res.Alternatives[0].Spans[0]
	fmt.Printf("%d-%d %s %q → %q\n", sp.StartByte, sp.EndByte, sp.Class, sp.Source, sp.Output)
	// Output:
	// 0 It costs five dollars on one half.
	// 1 It costs five dollars on january second.
	// 9-11 money "$5" → "five dollars"
}

func ExampleNormalize_itn() {
	res, err := normalize.Normalize(context.Background(), "it weighs twenty five kilograms and costs two dollars",
		normalize.Options{Language: "en", Mode: normalize.ITN, TopK: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Best())
	// Output:
	// it weighs 25 kg and costs $2
}

func ExampleNormalize_und() {
	res, err := normalize.Normalize(context.Background(), "Der Preis ist 21 Euro. 我有3个苹果", normalize.Options{Language: "und", TopK: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Best())
	// Output:
	// Der Preis ist ein und zwanzig Euro. 我有三个苹果
}
