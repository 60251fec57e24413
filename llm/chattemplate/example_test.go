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
