// Records kaldi-native-fbank's filterbank frames (through sherpa-onnx's
// speaker-embedding extractor, the WeSpeaker front end) for the Go fbank
// test. Run by record.sh; see there.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const [dir, modules] = process.argv.slice(2);
const require = createRequire(modules + '/');
const sherpa = require('sherpa-onnx-node');

const raw = readFileSync(dir + '/signal.f32');
const samples = new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4);
const ex = new sherpa.SpeakerEmbeddingExtractor({ model: dir + '/flatten.onnx', numThreads: 1 });
const s = ex.createStream();
s.acceptWaveform({ samples, sampleRate: 16000 });
s.inputFinished();
if (!ex.isReady(s)) throw new Error('not enough audio');
const v = ex.compute(s);
console.log(JSON.stringify({
  peer: 'sherpa-onnx-node 1.13.8 (kaldi-native-fbank)',
  frames: v.length / 80, bins: 80, values: Array.from(v, (x) => Math.round(x * 1e6) / 1e6),
}));
