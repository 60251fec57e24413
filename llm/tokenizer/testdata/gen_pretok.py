#!/usr/bin/env python3
"""Writes pretok.json: the words each model family's published pre-tokenizer
regular expression cuts sample strings into, computed with the `regex`
module (which supports \\p{..} classes and lookahead, as the originals need).
The Go pre-tokenizers in ../pretok.go are checked against this file.

Run: python3 gen_pretok.py > pretok.json
"""
import json
import regex

PATTERNS = {
    "gpt2": r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""",
    "llama-bpe": r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""",
    "qwen2": r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""",
}

SAMPLES = [
    "Hello world",
    "Hello, world! How's it going? I'LL be there; they'RE here.",
    "  leading spaces and trailing   ",
    "numbers 1234567 and 3.14159, x=42",
    "tabs\tand\nnewlines\n\n  indented\r\nwindows",
    "Grüße aus Köln — naïve café",
    "日本語のテキストと English mixed",
    "emoji 🙂🙂 and symbols $%^&*()",
    "line one\n\nline two\n   \nline three",
    "don't won't can't SHOULDN'T",
    "a\u00a0non-breaking space",
    "<|im_start|>user\nhi<|im_end|>",
    "   \n",
    "x  y   z",
    "٣٤٥ arabic digits and ½ fractions",
]

out = {name: [{"text": s, "words": regex.findall(p, s)} for s in SAMPLES] for name, p in PATTERNS.items()}


def smollm(s):
    # llama.cpp runs SmolLM's expressions in turn: \p{N} cuts out every
    # digit, then the GPT-2 expression splits the text between digits.
    words = []
    for piece in regex.split(r"(\p{N})", s):
        if piece == "":
            continue
        if regex.fullmatch(r"\p{N}", piece):
            words.append(piece)
        else:
            words.extend(regex.findall(PATTERNS["gpt2"], piece))
    return words


out["smollm"] = [{"text": s, "words": smollm(s)} for s in SAMPLES]
print(json.dumps(out, ensure_ascii=False, indent=1))
