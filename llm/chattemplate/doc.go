// Package chattemplate renders the chat templates that language models
// ship (the Jinja source in a GGUF file's tokenizer.chat_template, or in
// tokenizer_config.json), and reads the tool calls those models write.
//
//	src := "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
//	t, err := chattemplate.Parse(src) // e.g. a GGUF's tokenizer.chat_template
//	if err != nil { ... }
//	prompt, err := t.Render(chattemplate.Input{
//		Messages:            []chattemplate.Message{{Role: "user", Content: "Hello!"}},
//		AddGenerationPrompt: true,
//		BOS:                 "<s>", EOS: "</s>",
//	})
//
// # Rendering
//
// Templates run on github.com/ardanlabs/jinja, a pure-Go Jinja engine
// written for chat templates (statements, filters, tests, namespace(),
// macros, loop variables, slicing, Python string and dict methods, and
// Hugging Face's trim_blocks/lstrip_blocks defaults). The input is given
// to the template as Hugging Face's apply_chat_template does: messages
// (role, content, tool_calls with function.arguments as a dictionary,
// tool_call_id, name), tools (OpenAI function tools), add_generation_prompt,
// bos_token, eos_token, raise_exception and strftime_now. JSON objects keep
// the key order the client wrote. A template that calls raise_exception
// fails with an error matching [ErrRejected].
//
// The tests render real templates (Llama 3.2, Qwen2.5, Qwen3, Qwen3.6,
// Ministral 3, Mistral Medium 3.5, SmolLM2, TinyLlama) and compare them
// with Python Jinja2's renderings.
// One difference is known: tojson(indent=N), which Llama 3 uses to print
// tool definitions, sorts object keys and escapes <, > and & as \u003c …
//
// # Tool calls
//
// [Template.SupportsTools] tells whether a template renders tools (it is
// rendered once with a probe tool) in a syntax [ParseToolCalls] reads:
// Hermes/Qwen <tool_call> JSON, Llama 3.1 JSON, Mistral [TOOL_CALLS], and
// the XML parameter syntax of Qwen3-Coder, Qwen3.5 and Qwen3.6
// (<function=NAME><parameter=P>value</parameter>), whose bare values take
// their JSON types from the tools' parameter schemas.
//
// A [Splitter] reads the same on streamed output: it shows text at once,
// holds back what may be a call marker, and announces each call as soon
// as its name is known, its arguments following piece by piece as
// [CallDelta] values whose Arguments, joined, are the call's JSON
// arguments:
//
//	var tools []chattemplate.Tool // the request's tools
//	var output <-chan string      // the model's text, piece by piece
//	s := chattemplate.NewSplitter(t.ToolFormat(), tools...)
//	for piece := range output {
//		fmt.Print(s.Write(piece)) // text to show at once
//		for _, d := range s.Deltas() { // a Name starts call d.Index
//			fmt.Println(d.Index, d.Name, d.Arguments)
//		}
//	}
//	rest, calls := s.Finish()
package chattemplate
