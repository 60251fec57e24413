// peer.mjs measures llama.cpp (through node-llama-cpp 3.21.1 and its
// prebuilt CPU binaries) on the benchmark models llmbench writes, with the
// same token counts, and prints JSON for `llmbench -peer`.
//
//   npm install node-llama-cpp@3.21.1 --ignore-scripts   (in a scratch dir)
//   cp peer.mjs <scratch>/ && node <scratch>/peer.mjs DIR [P N R TYPES THREADS] > peer.json
import {getLlama} from "node-llama-cpp";

const [dir, p = "64", n = "32", r = "3", types = "Q8_0,Q4_K", threadList = "1,2"] = process.argv.slice(2);
// Process CPU time (user + system) in seconds.
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
const nPrompt = +p, nGen = +n, reps = +r;
const llama = await getLlama({gpu: false, build: "never", maxThreads: 0});
const out = [];
for (const type of types.split(",")) {
    const model = await llama.loadModel({modelPath: `${dir}/random-0.5b-${type}.gguf`, gpuLayers: 0});
    for (const threads of threadList.split(",").map(Number)) {
        const ctx = await model.createContext({contextSize: 512, batchSize: nPrompt, threads, sequences: 1});
        const seq = ctx.getSequence();
        // A first pass pages the weights in.
        await seq.evaluateWithoutGeneratingNewTokens(Array.from({length: nPrompt}, (_, i) => 3 + i));
        // The same kind of input as llmbench: seeded random token IDs.
        let x = 12345;
        const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
        const tokens = Array.from({length: nPrompt + nGen}, () => 3 + Math.floor(rnd() * (49152 - 3)));
        const ps = [], gs = [], pc = [], gc = [];
        for (let i = 0; i < reps; i++) {
            await seq.clearHistory();
            let t0 = performance.now(), c0 = cpu();
            await seq.evaluateWithoutGeneratingNewTokens(tokens.slice(0, nPrompt));
            ps.push(nPrompt / ((performance.now() - t0) / 1000));
            pc.push(nPrompt / (cpu() - c0));
            t0 = performance.now(); c0 = cpu();
            // One token at a time, as generation does (greedy, random weights).
            let k = 0;
            for await (const _ of seq.evaluate([tokens[nPrompt]], {temperature: 0})) {
                if (++k >= nGen) break;
            }
            gs.push(k / ((performance.now() - t0) / 1000));
            gc.push(k / (cpu() - c0));
        }
        const med = (a) => a.sort((u, v) => u - v)[a.length >> 1];
        out.push({type, threads, prompt_tps: med(ps), gen_tps: med(gs), prompt_tpcs: med(pc), gen_tpcs: med(gc)});
        console.error(JSON.stringify(out.at(-1)));
        await ctx.dispose();
    }
    await model.dispose();
}
console.log(JSON.stringify(out, null, 1));
