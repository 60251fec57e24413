package llm_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/llm"
)

// Generating with the pure-Go engine from a llama2.c checkpoint (the
// stories260K test model), greedily.
func Example() {
	ctx := context.Background()
	b, err := llm.Open(ctx, "go", backend.Config{Options: map[string]string{
		llm.OptModelFile:     "testdata/stories260K.bin",
		llm.OptTokenizerFile: "testdata/stories260K-tok512.bin",
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	var out strings.Builder
	err = b.Generate(ctx, []llm.Message{{Role: "user", Content: "Once upon a time"}}, llm.Options{MaxTokens: 11},
		func(t llm.Token) error { out.WriteString(t.Text); return nil })
	fmt.Printf("%q %v\n", out.String(), err)
	// Output: ", there was a little girl named Lily." <nil>
}

// Structured output: the reply is JSON that validates against the schema,
// whatever the model (stories260K has never seen JSON).
func ExampleOptions_jSONSchema() {
	ctx := context.Background()
	b, err := llm.Open(ctx, "go", backend.Config{Options: map[string]string{
		llm.OptModelFile:     "testdata/stories260K.bin",
		llm.OptTokenizerFile: "testdata/stories260K-tok512.bin",
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.Close()
	schema := `{"type":"object","properties":{"mood":{"enum":["happy","sad"]},"friends":{"type":"array","items":{"type":"string","maxLength":8},"maxItems":2}},"required":["mood","friends"]}`
	var out strings.Builder
	err = b.Generate(ctx, []llm.Message{{Role: "user", Content: "Lily"}}, llm.Options{MaxTokens: 60, JSONSchema: []byte(schema)},
		func(t llm.Token) error { out.WriteString(t.Text); return nil })
	fmt.Println(out.String(), err)
	// Output: {"mood": "sad","friends": [". "," said Ma"]} <nil>
}
