import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';

/**
 * The committed test model, as the exporter wrote it, has the ONNX inputs and outputs that
 * transformers.js passes and reads (including the cross-attentions word timing needs), for
 * both precisions, and one cached decoder step runs.
 */
const folder = join(import.meta.dirname, 'whisper-synth');
const config = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8')) as {
  decoder_layers: number;
  decoder_attention_heads: number;
  d_model: number;
  max_source_positions: number;
  num_mel_bins: number;
  vocab_size: number;
};
const layers = config.decoder_layers;
const heads = config.decoder_attention_heads;
const headSize = config.d_model / heads;
const frames = config.max_source_positions;
const cache = (prefix: string) =>
  Array.from({ length: layers }, (_, i) =>
    ['decoder.key', 'decoder.value', 'encoder.key', 'encoder.value'].map(
      (k) => `${prefix}.${i}.${k}`,
    ),
  ).flat();

describe.each(['', '_quantized'])('exported model%s', (suffix) => {
  it('has the names transformers.js uses and runs a cached decoder step', async () => {
    const encoder = await ort.InferenceSession.create(
      join(folder, 'onnx', `encoder_model${suffix}.onnx`),
    );
    const decoder = await ort.InferenceSession.create(
      join(folder, 'onnx', `decoder_model_merged${suffix}.onnx`),
    );
    expect(encoder.inputNames).toEqual(['input_features']);
    expect(encoder.outputNames).toEqual(['last_hidden_state']);
    expect([...decoder.inputNames].sort()).toEqual(
      [
        'input_ids',
        'encoder_hidden_states',
        ...cache('past_key_values'),
        'use_cache_branch',
      ].sort(),
    );
    expect([...decoder.outputNames].sort()).toEqual(
      [
        'logits',
        ...cache('present'),
        ...Array.from({ length: layers }, (_, i) => `cross_attentions.${i}`),
      ].sort(),
    );

    const features = new Float32Array(config.num_mel_bins * 2 * frames).fill(-0.5);
    const { last_hidden_state: hidden } = await encoder.run({
      input_features: new ort.Tensor('float32', features, [1, config.num_mel_bins, 2 * frames]),
    });
    expect(hidden!.dims).toEqual([1, frames, config.d_model]);
    const empty = Object.fromEntries(
      cache('past_key_values').map((n) => [
        n,
        new ort.Tensor('float32', new Float32Array(0), [1, heads, 0, headSize]),
      ]),
    );
    const prompt = [50258n, 50259n, 50359n];
    const first = await decoder.run({
      ...empty,
      input_ids: new ort.Tensor('int64', BigInt64Array.from(prompt), [1, 3]),
      encoder_hidden_states: hidden!,
      use_cache_branch: new ort.Tensor('bool', [false], [1]),
    });
    expect(first.logits!.dims).toEqual([1, 3, config.vocab_size]);
    expect(first['cross_attentions.0']!.dims).toEqual([1, heads, 3, frames]);
    const past = Object.fromEntries(
      cache('past_key_values').map((n) => [n, first[n.replace('past_key_values', 'present')]!]),
    );
    const second = await decoder.run({
      ...past,
      input_ids: new ort.Tensor('int64', BigInt64Array.from([50364n]), [1, 1]),
      encoder_hidden_states: hidden!,
      use_cache_branch: new ort.Tensor('bool', [true], [1]),
    });
    expect(second.logits!.dims).toEqual([1, 1, config.vocab_size]);
    expect(second['present.0.decoder.key']!.dims).toEqual([1, heads, 4, headSize]);
    expect(second['cross_attentions.0']!.dims).toEqual([1, heads, 1, frames]);

    // the cached step computes what the whole prompt computes without a cache
    const whole = await decoder.run({
      ...empty,
      input_ids: new ort.Tensor('int64', BigInt64Array.from([...prompt, 50364n]), [1, 4]),
      encoder_hidden_states: hidden!,
      use_cache_branch: new ort.Tensor('bool', [false], [1]),
    });
    const vocab = config.vocab_size;
    const cached = second.logits!.data as Float32Array;
    const uncached = (whole.logits!.data as Float32Array).subarray(3 * vocab, 4 * vocab);
    // 8-bit activations are quantized per call, so a 4-token call rounds a little differently
    const tolerance = suffix ? 0.5 : 1e-3;
    let worst = 0;
    for (let i = 0; i < vocab; i++) worst = Math.max(worst, Math.abs(cached[i]! - uncached[i]!));
    expect(worst).toBeLessThan(tolerance);

    // tokens the model was never taught (here "!" and " kilos") lie about -100 below the rest
    for (const id of [0, 30000]) expect(cached[id]).toBeLessThan(-90);
  });
});
