package chattemplate_test

import (
	"fmt"

	"github.com/sottolabs/sotto/llm/chattemplate"
)

func Example() {
	// SmolLM2-Instruct's template.
	src := "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\nYou are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n' }}{% endif %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
	t, err := chattemplate.Parse(src)
	if err != nil {
		panic(err)
	}
	prompt, err := t.Render(chattemplate.Input{
		Messages:            []chattemplate.Message{{Role: "user", Content: "Hello!"}},
		AddGenerationPrompt: true,
	})
	if err != nil {
		panic(err)
	}
	fmt.Print(prompt)
	fmt.Println(t.SupportsTools())
	// Output:
	// <|im_start|>system
	// You are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>
	// <|im_start|>user
	// Hello!<|im_end|>
	// <|im_start|>assistant
	// false
}

func ExampleParseToolCalls() {
	out := "Checking.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"
	text, calls := chattemplate.ParseToolCalls(chattemplate.FormatHermes, out)
	fmt.Printf("%q\n", text)
	for _, c := range calls {
		fmt.Println(c.Name, string(c.Arguments))
	}
	// Output:
	// "Checking."
	// get_weather {"city":"Paris"}
}

// A Splitter reads a Qwen3.6 reply (the XML tool-call syntax) as it
// streams: the text is shown at once, the call is announced when its name
// is known, and its arguments follow as JSON pieces typed by the tool's
// schema.
func ExampleSplitter() {
	tool := chattemplate.Tool{Name: "get_weather",
		Parameters: []byte(`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}}}`)}
	s := chattemplate.NewSplitter(chattemplate.FormatXML, tool)
	for _, piece := range []string{"Let me check.\n<tool_call>\n<function=get_weather>\n",
		"<parameter=city>\nPar", "is\n</parameter>\n<parameter=days>\n3\n</parameter>\n", "</function>\n</tool_call>"} {
		if text := s.Write(piece); text != "" {
			fmt.Printf("text %q\n", text)
		}
		for _, d := range s.Deltas() {
			fmt.Printf("call %d name %q arguments %q\n", d.Index, d.Name, d.Arguments)
		}
	}
	_, calls := s.Finish()
	fmt.Printf("%s %s\n", calls[0].Name, calls[0].Arguments)
	// Output:
	// text "Let me check."
	// call 0 name "get_weather" arguments "{"
	// call 0 name "" arguments "\"city\":\"Par"
	// call 0 name "" arguments "is\",\"days\":3"
	// call 0 name "" arguments "}"
	// get_weather {"city":"Paris","days":3}
}
