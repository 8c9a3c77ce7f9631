import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pcm16k, sentence, speak, scratchDir } from '../../../tools/testing/speech';
import { configureModelSource } from '../../hosts/node/transformers-setup';
import { REPO, testEnginePorts } from '../../../tools/testing/ffmpeg-fixtures';

/**
 * The engine runs the decoder session itself (fetching only what its loop reads) instead of
 * transformers.js' model.forward. Both must give the same numbers, step after step.
 */
const MODELS = join(REPO, '.models');
const MODEL = 'murmur-test/whisper-synth';

type Row = Float32Array;
function maxDifference(a: Row, b: Row): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  return worst;
}

describe('the decoder step', () => {
  it('gives the logits and cross-attention of transformers.js’ model.forward', async () => {
    const engine = await testEnginePorts({ models: MODELS, model: MODEL }).recogniser({});
    const transformers = configureModelSource(MODELS);
    const reference = (await transformers.WhisperForConditionalGeneration.from_pretrained(MODEL, {
      device: 'cpu',
      dtype: { encoder_model: 'fp32', decoder_model_merged: 'fp32' },
    })) as unknown as {
      forward(
        inputs: Record<string, unknown>,
      ): Promise<Record<string, InstanceType<typeof transformers.Tensor>>>;
      generation_config: { alignment_heads: [number, number][] };
    };
    const audio = new Float32Array(engine.windowSamples);
    audio.set(
      pcm16k(
        speak(
          'en',
          sentence('en', 42, 6),
          { variant: 'm3', speed: 145, pitch: 45 },
          join(scratchDir(), 'step.wav'),
        ),
      ).subarray(0, audio.length),
    );
    const encoded = await engine.encode(await engine.features(audio));

    const tokens = [
      engine.vocab.startOfTranscript,
      engine.vocab.languages.get('en')!,
      engine.vocab.transcribe,
    ];
    const ids = (t: number[]) =>
      new transformers.Tensor('int64', BigInt64Array.from(t.map(BigInt)), [1, t.length]);
    let step = await engine.step(encoded, tokens, null);
    let out = await reference.forward({
      encoder_outputs: encoded,
      decoder_input_ids: ids(tokens),
      past_key_values: null,
    });
    let past: Record<string, unknown> = {};
    const [layer, head] = reference.generation_config.alignment_heads[0]!;
    for (let i = 0; i < 4; i++) {
      const logits = out.logits!;
      const width = logits.dims[2]!;
      const positions = logits.dims[1]!;
      const last = (logits.data as Float32Array).subarray(
        (positions - 1) * width,
        positions * width,
      );
      expect(maxDifference(step.lastLogits, last)).toBeLessThan(1e-4);
      const attention = out[`cross_attentions.${layer}`]!;
      const [, , queries = 1, frames = 0] = attention.dims;
      const offset = (head * queries + queries - 1) * frames;
      const row = (attention.data as Float32Array).subarray(offset, offset + frames);
      expect(maxDifference(step.alignmentRows[0]!, row)).toBeLessThan(1e-5);

      let next = 0;
      for (let t = 1; t < step.lastLogits.length; t++)
        if (step.lastLogits[t]! > step.lastLogits[next]!) next = t;
      const previous = past;
      past = {};
      for (const [name, tensor] of Object.entries(out)) {
        if (!name.startsWith('present')) continue;
        const pastName = name.replace('present', 'past_key_values');
        past[pastName] =
          name.includes('.encoder.') && previous[pastName] ? previous[pastName] : tensor;
      }
      step = await engine.step(encoded, [next], step.past);
      out = await reference.forward({
        encoder_outputs: encoded,
        decoder_input_ids: ids([next]),
        past_key_values: past,
      });
    }
  });

  it('reads the same features as the model’s own feature extractor', async () => {
    const engine = await testEnginePorts({ models: MODELS, model: MODEL }).recogniser({});
    const transformers = configureModelSource(MODELS);
    const extractor = await transformers.AutoFeatureExtractor.from_pretrained(MODEL);
    const audio = pcm16k(
      speak(
        'fr',
        sentence('fr', 7, 5),
        { variant: 'f2', speed: 160, pitch: 60 },
        join(scratchDir(), 'features.wav'),
      ),
    ).subarray(0, engine.windowSamples - 16000);
    const ours = await engine.features(audio);
    const { input_features } = (await extractor(audio)) as {
      input_features: InstanceType<typeof transformers.Tensor>;
    };
    expect(ours.dims).toEqual(input_features.dims);
    expect(
      maxDifference(ours.data as Float32Array, input_features.data as Float32Array),
    ).toBeLessThan(1e-5);
  });
});
