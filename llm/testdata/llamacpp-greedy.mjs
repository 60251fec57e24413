// llamacpp-greedy.mjs records llama.cpp's greedy generations (through
// node-llama-cpp 3.21.1 and its prebuilt CPU binaries) on stories260K
// converted to GGUF, for the prompts and step counts of
// stories260K-greedy-reference.jsonl, as stories260K-llamacpp-greedy.jsonl.
//
//   go run ./llm/internal/convert -tokenizer llm/testdata/stories260K-tok512.bin \
//       llm/testdata/stories260K.bin /tmp/stories260K.gguf
//   (in a scratch dir) npm install node-llama-cpp@3.21.1 --ignore-scripts
//   cp llm/testdata/llamacpp-greedy.mjs <scratch>/ && node <scratch>/llamacpp-greedy.mjs \
//       /tmp/stories260K.gguf llm/testdata/stories260K-greedy-reference.jsonl \
//       > llm/testdata/stories260K-llamacpp-greedy.jsonl
import fs from "node:fs";
import {getLlama} from "node-llama-cpp";

const [modelPath, refPath] = process.argv.slice(2);
const llama = await getLlama({gpu: false, build: "never"});
const model = await llama.loadModel({modelPath, gpuLayers: 0});
const ctx = await model.createContext({contextSize: 512, threads: 1, sequences: 1});
const seq = ctx.getSequence();
for (const line of fs.readFileSync(refPath, "utf8").split("\n").filter(Boolean)) {
    const {prompt, steps} = JSON.parse(line);
    await seq.clearHistory();
    const promptTokens = [model.tokens.bos, ...model.tokenize(prompt)];
    // llama2.c prints `steps` tokens after BOS: the prompt's, then generated ones.
    const want = steps + 1 - promptTokens.length;
    const tokens = [];
    for await (const t of seq.evaluate(promptTokens, {temperature: 0})) {
        if (t === model.tokens.bos) break;
        tokens.push(t);
        if (tokens.length >= want) break;
    }
    console.log(JSON.stringify({prompt, steps, prompt_tokens: promptTokens, tokens,
        output: model.detokenize([...promptTokens.slice(1), ...tokens])}));
}
await ctx.dispose();
await model.dispose();
