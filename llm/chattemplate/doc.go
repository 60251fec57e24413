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
// Hermes/Qwen <tool_call> JSON, Llama 3.1 JSON, Mistral [TOOL_CALLS]. The
// XML parameter syntax of Qwen3.5/3.6 and Qwen3-Coder is not read yet: such
// templates report no tool support.
// A [Splitter] does the same on streamed output, showing text at once and
// holding back what may be a call.
package chattemplate
