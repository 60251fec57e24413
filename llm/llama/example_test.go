package llama_test

import (
	"context"
	"fmt"

	"github.com/sottolabs/sotto/llm/llama"
)

// Greedy generation with the stories260K llama2.c test model.
func ExampleGenerate() {
	b, err := llama.Load("../testdata/stories260K.bin", "../testdata/stories260K-tok512.bin")
	if err != nil {
		panic(err)
	}
	defer b.Close()
	pool := llama.NewPool(1)
	defer pool.Close()
	s := b.Model.NewState(0, pool)
	prompt := b.Tokenizer.Encode("Tom and his dog", true, false)
	var out string
	res, err := llama.Generate(context.Background(), s, b.Tokenizer, prompt, llama.GenerateOptions{MaxTokens: 5},
		func(text string, id int) error { out += text; return nil })
	fmt.Printf("%q %s %v\n", out, res.Stop, err)
	// Output: ", Max," length <nil>
}
