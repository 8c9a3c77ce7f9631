/**
 * Where a cached decoder step's time goes: the same step of a Whisper merged decoder (8-bit,
 * as the browser loads it), with the encoder's keys and values of a whole window (1500 frames)
 * and of one frame, on onnxruntime-web's WASM build (run here in Node, as in the browser's
 * worker) and on onnxruntime-node. The difference between the two rows of a runtime is the
 * cost of the encoder's keys and values at every step: cross-attention over the frames, plus,
 * on WASM, copying them into the runtime's memory, which onnxruntime-web does for every input
 * of every run (an unchanged input cannot be kept there on the CPU).
 * usage: tsx tools/bench/decoder-step.ts [--model murmur-bench/whisper-base] [--threads 1]
 *   [--steps 40]
 */
import { join } from 'node:path';
import * as native from 'onnxruntime-node';
import { REPO } from './bench-media';

const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const modelId = option('model') ?? 'murmur-bench/whisper-base';
const threads = Number(option('threads') ?? 1);
const steps = Number(option('steps') ?? 40);
const file = join(REPO, '.models', modelId, 'onnx', 'decoder_model_merged_quantized.onnx');
/** Tokens already decoded: the decoder's own keys and values have this many positions. */
const PAST_TOKENS = 40;

type Ort = typeof native;
interface Session {
  inputNames: readonly string[];
  run(feeds: Record<string, unknown>, fetches: string[]): Promise<unknown>;
}

/** A cached step's inputs: one token, `frames` encoder frames in the cross-attention cache. */
function feeds(ort: Ort, names: readonly string[], frames: number, heads: number, width: number) {
  const f: Record<string, unknown> = {
    input_ids: new ort.Tensor('int64', BigInt64Array.from([50259n]), [1, 1]),
    // Read only through the cached keys and values on this branch.
    encoder_hidden_states: new ort.Tensor('float32', new Float32Array(width), [1, 1, width]),
    use_cache_branch: new ort.Tensor('bool', [true], [1]),
  };
  for (const name of names) {
    if (!name.startsWith('past_key_values')) continue;
    const positions = name.includes('.encoder.') ? frames : PAST_TOKENS;
    const size = heads * positions * 64;
    f[name] = new ort.Tensor('float32', new Float32Array(size), [1, heads, positions, 64]);
  }
  return f;
}

async function timeSteps(ort: Ort, session: Session, frames: number, heads: number, width: number) {
  const inputs = feeds(ort, session.inputNames, frames, heads, width);
  for (let i = 0; i < 5; i++) await session.run(inputs, ['logits']);
  const started = performance.now();
  for (let i = 0; i < steps; i++) await session.run(inputs, ['logits']);
  return (performance.now() - started) / steps;
}

const config = (await import(join(REPO, '.models', modelId, 'config.json'), {
  with: { type: 'json' },
})) as { default: { d_model: number; decoder_attention_heads: number } };
const { d_model: width, decoder_attention_heads: heads } = config.default;

// onnxruntime-web's Node entry runs the same WASM build as the browser's worker.
const web = (await import(
  join(REPO, 'node_modules/onnxruntime-web/dist/ort.node.min.mjs')
)) as unknown as Ort & { env: { wasm: { numThreads: number } } };
web.env.wasm.numThreads = threads;
const runtimes: [string, Ort, () => Promise<Session>][] = [
  ['onnxruntime-web (WASM)', web, () => web.InferenceSession.create(file)],
  [
    'onnxruntime-node',
    native,
    () => native.InferenceSession.create(file, { intraOpNumThreads: threads }),
  ],
];
console.log(`${modelId}, 8-bit merged decoder, ${threads} thread(s), ${steps} steps each (mean)`);
for (const [name, ort, create] of runtimes) {
  const session = await create();
  const whole = await timeSteps(ort, session, 1500, heads, width);
  const one = await timeSteps(ort, session, 1, heads, width);
  console.log(
    `${name.padEnd(24)} 1500 frames ${whole.toFixed(1)} ms, 1 frame ${one.toFixed(1)} ms: ` +
      `the encoder's keys and values ${(whole - one).toFixed(1)} ms a step (${((100 * (whole - one)) / whole).toFixed(0)}%)`,
  );
}
