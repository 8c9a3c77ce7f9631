// Loads the generated benchmark models with transformers.js' ASR pipeline and times one window.
// usage: node bench.mjs <models root (.models)> [model ids...]
import { env, pipeline } from '@huggingface/transformers';

const [root, ...ids] = process.argv.slice(2);
env.localModelPath = root.endsWith('/') ? root : root + '/';
env.allowRemoteModels = false;
const models = ids.length ? ids : ['murmur-bench/whisper-tiny', 'murmur-bench/whisper-base'];
const audio = new Float32Array(16000 * 8).map(
  (_, i) => 0.1 * Math.sin(i * 0.03) * Math.sin(i * 0.0007),
);
for (const id of models) {
  for (const dtype of ['fp32', 'q8']) {
    let t = performance.now();
    const asr = await pipeline('automatic-speech-recognition', id, { dtype });
    const load = performance.now() - t;
    t = performance.now();
    const r = await asr(audio, { language: 'en', task: 'transcribe', max_new_tokens: 32 });
    const run = performance.now() - t;
    console.log(
      JSON.stringify({
        id,
        dtype,
        load_ms: Math.round(load),
        run_ms: Math.round(run),
        chars: r.text.length,
      }),
    );
    await asr.dispose();
  }
}
