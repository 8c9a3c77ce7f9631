// Loads a staged model with transformers.js' own ASR pipeline and transcribes WAV files.
// usage: node pipeline.mjs <models root (.models)> <model id> <dtype: fp32|q8> <language|-> <file.wav>...
// Prints one JSON line per file and mode.
import fs from 'node:fs';
import { env, pipeline } from '@huggingface/transformers';

const [root, modelId, dtype, language, ...files] = process.argv.slice(2);
env.localModelPath = root.endsWith('/') ? root : root + '/';
env.allowRemoteModels = false;
env.allowLocalModels = true;

function readWav(p) {
  const b = fs.readFileSync(p);
  let off = 12;
  let fmt = null;
  while (off + 8 <= b.length) {
    const id = b.toString('ascii', off, off + 4);
    const size = b.readUInt32LE(off + 4);
    if (id === 'fmt ')
      fmt = {
        ch: b.readUInt16LE(off + 10),
        rate: b.readUInt32LE(off + 12),
        bits: b.readUInt16LE(off + 22),
      };
    if (id === 'data') {
      const n = size / 2 / fmt.ch;
      const out = new Float32Array(n);
      for (let i = 0; i < n; i++) out[i] = b.readInt16LE(off + 8 + i * 2 * fmt.ch) / 32768;
      return out;
    }
    off += 8 + size + (size % 2);
  }
  throw new Error('no data chunk in ' + p);
}

const t0 = Date.now();
const asr = await pipeline('automatic-speech-recognition', modelId, { dtype });
console.error(`loaded ${modelId} (${dtype}) in ${Date.now() - t0} ms`);
for (const f of files) {
  const audio = readWav(f);
  const opts = { task: 'transcribe' };
  if (language !== '-') opts.language = language;
  for (const return_timestamps of [false, true, 'word']) {
    const t = Date.now();
    const r = await asr(audio, { ...opts, return_timestamps });
    console.log(JSON.stringify({ file: f, return_timestamps, ms: Date.now() - t, ...r }));
  }
}
