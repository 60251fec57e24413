// record-extra.mjs records llama.cpp's token IDs (through node-llama-cpp
// 3.21.1 and its prebuilt CPU binaries, vocabulary only) for the strings of
// extra.txt, for seeded random strings mixing scripts, digits,
// punctuation, white space and emoji, and for seeded strings of code points
// from all of Unicode, as extra-NAME.jsonl lines
// {"text", "special", "ids"}: the Go test compares its tokenizers with them.
// Texts are tokenized without BOS; "special" says whether control tokens
// written in the text are parsed (llama.cpp's parse_special).
//
//   (in a scratch dir) npm install node-llama-cpp@3.21.1 --ignore-scripts
//   ./fetch-bpe.sh    # for llama-bpe and qwen2
//   cd <scratch> && node .../record-extra.mjs .../testdata/llamacpp NAME...
import fs from "node:fs";
import path from "node:path";
import {getLlama, LlamaLogLevel} from "node-llama-cpp";

const [dir, ...names] = process.argv.slice(2);

// mulberry32: a small seeded generator, so the strings are the same on
// every run.
function rng(seed) {
    return () => {
        seed = (seed + 0x6D2B79F5) | 0;
        let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

const pools = [
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "0123456789",
    " ", " ", " ", "  ", "\t", "\n", "\r\n", "\n\n", " \n",
    ".,;:!?-_()[]{}<>/\\|@#$%^&*+=~`\"",
    "'", "'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'LL", "'Re",
    "àáâäçéèêëíïñóöúüßÀÉÖÜæøåœ",
    "абвгдежзийклмнопрстуфхцчшщыьэюяАБВЖЩЯ",
    "αβγδεζηθλμπσωΑΒΓΔΩ",
    "日本語中文字漢字我想在工作",
    "ひらがなカタカナ",
    "العربيةمرحبا",
    "हिन्दीनमस्ते",
    "ภาษาไทยสวัสดี",
    "한국어안녕하세요",
    "🚀😶‍🌫️🦙✅👍🏽❤️",
    "\u00a0", "\u2028", "\u3000", "\u200b", "\u0085", "\u2009", "\u000b", "\u000c",
    "²³¹½¼ⅫⅣ٣٤٥１２３",
    "\u0301\u0308",
    "…—–“”‘’«»•·",
];

function randomString(r) {
    const n = 1 + Math.floor(r() * 12);
    let s = "";
    for (let i = 0; i < n; i++) {
        const p = pools[Math.floor(r() * pools.length)];
        const chars = Array.from(p);
        // Either the whole pool entry (multi-character entries are units)
        // or a run of 1-6 characters from it.
        if (chars.length <= 3) {
            s += p;
        } else {
            const k = 1 + Math.floor(r() * 6);
            for (let j = 0; j < k; j++) s += chars[Math.floor(r() * chars.length)];
        }
    }
    return s;
}

// Strings of code points drawn from all of Unicode (planes 0-3 and 14,
// surrogates left out), between ASCII letters, digits and spaces: they put
// the character classes (\p{L}, \p{N}, \s) of both implementations side by
// side.
function randomCodePoints(r) {
    const n = 1 + Math.floor(r() * 10);
    let s = "";
    for (let i = 0; i < n; i++) {
        const k = r();
        if (k < 0.15) s += " ";
        else if (k < 0.25) s += "ab"[Math.floor(r() * 2)];
        else if (k < 0.3) s += "7";
        else {
            let cp;
            do {
                const plane = [0, 0, 0, 0, 1, 2, 3, 14][Math.floor(r() * 8)];
                cp = plane * 0x10000 + Math.floor(r() * 0x10000);
            } while ((cp >= 0xD800 && cp <= 0xDFFF) || cp < 0x20);
            s += String.fromCodePoint(cp);
        }
    }
    return s;
}

const fixed = fs.readFileSync(path.join(dir, "extra.txt"), "utf8").split("\n__ggml_vocab_test__\n").filter(s => s !== "");
const r = rng(20261126);
const random = Array.from({length: 300}, () => randomString(r));
const r2 = rng(13);
random.push(...Array.from({length: 300}, () => randomCodePoints(r2)));

const llama = await getLlama({gpu: false, build: "never", logLevel: LlamaLogLevel.error});
for (const name of names) {
    const model = await llama.loadModel({modelPath: path.join(dir, `ggml-vocab-${name}.gguf`), vocabOnly: true});
    const lines = [];
    for (const special of [false, true]) {
        for (const text of [...fixed, ...random]) {
            const ids = Array.from(model.tokenize(text, special));
            // Whether llama.cpp's detokenizer gives the text back (control
            // tokens rendered when special).
            const roundtrip = model.detokenize(ids, special) === text;
            lines.push(JSON.stringify({text, special, ids, roundtrip}));
        }
    }
    fs.writeFileSync(path.join(dir, `extra-${name}.jsonl`), lines.join("\n") + "\n");
    await model.dispose();
}
