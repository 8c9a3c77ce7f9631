import { vocabularyFrom } from '../../core/decoding/vocabulary';
import type { LoadedWhisper, OrtTensor, PastKeyValues, ProgressListener } from '../ports';
import { keptRows, stackedRows, type RowData } from './batch-rows';
import { logMel, logMelPlan, type LogMelPlan } from '../../core/audio/log-mel';
import {
  DEVICE_SETTINGS,
  sessionOptionsFor,
  type Device,
  type DeviceSettings,
} from './model-settings';
import { downloadProgress } from './download-progress';
import { nextTask } from './next-task';
import { transformersLoadFailure } from './transformers-load-failure';
import type { Tensor, TransformersModule } from './transformers-port';

interface WhisperConfigLike {
  max_target_positions: number;
  max_source_positions: number;
  median_filter_width?: number;
  vocab_size: number;
}

function toFloat32(data: unknown): Float32Array {
  if (data instanceof Float32Array) return data;
  if (data instanceof Uint16Array) {
    // fp16 outputs arrive as raw halves; widen them.
    const out = new Float32Array(data.length);
    for (let i = 0; i < data.length; i++) out[i] = halfToFloat(data[i]!);
    return out;
  }
  return Float32Array.from(data as ArrayLike<number>);
}

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

/**
 * Loads a Whisper model in the transformers.js layout and exposes single encoder and decoder
 * steps, so the engine can run Whisper's own decoding rules (which transformers.js' pipeline
 * lacks: language detection, no-speech detection, fallbacks, word confidences).
 */
export async function loadWhisper(
  transformers: TransformersModule,
  id: string,
  device: Device,
  onProgress?: ProgressListener,
  /** Precisions other than the device's defaults (benchmarks compare them). */
  dtypes: Partial<DeviceSettings> = {},
): Promise<LoadedWhisper> {
  const progress_callback = downloadProgress(id, onProgress);
  const settings = { ...DEVICE_SETTINGS[device], ...dtypes };
  const sessionOptions = sessionOptionsFor(device, dtypes.sessionOptions);
  const loading = Promise.all([
    transformers.AutoTokenizer.from_pretrained(id, { progress_callback }),
    transformers.AutoFeatureExtractor.from_pretrained(id, { progress_callback }),
    transformers.AutoConfig.from_pretrained(id, { progress_callback }),
    transformers.WhisperForConditionalGeneration.from_pretrained(id, {
      device,
      dtype: { encoder_model: settings.encoderDtype, decoder_model_merged: settings.decoderDtype },
      ...(sessionOptions ? { session_options: sessionOptions } : {}),
      progress_callback,
    }),
  ]);
  let parts: Awaited<typeof loading>;
  try {
    parts = await loading;
  } catch (thrown) {
    throw transformersLoadFailure(transformers, 'recognition', id, thrown);
  }
  const [tokenizer, extractor, config, model] = parts;
  const whisperConfig = config as unknown as WhisperConfigLike;
  const generation = (model as unknown as { generation_config: Record<string, unknown> })
    .generation_config;
  const alignmentHeads = (generation.alignment_heads as [number, number][] | undefined) ?? [];
  const vocab = vocabularyFrom(
    generation as unknown as Parameters<typeof vocabularyFrom>[0],
    whisperConfig.vocab_size,
    (token) => tokenizer.get_vocab().get(token),
  );
  const extractorConfig = (extractor as unknown as { config: { n_samples: number } }).config;
  const melPlan =
    extractor instanceof transformers.WhisperFeatureExtractor ? whisperMelPlan(extractor) : null;
  const sessions = (model as unknown as { sessions: Record<string, OrtSession> }).sessions;
  const encoderSession = sessions.model;
  if (!encoderSession) throw new Error(`${id} has no encoder session.`);
  const decoder = sessions.decoder_model_merged;
  if (!decoder) throw new Error(`${id} has no merged decoder session.`);
  // On WASM each call ends in a task of its own, so that what other workers sent meanwhile is
  // handled between calls (next-task.ts). onnxruntime-node starts each run in a task of its
  // own, and WebGPU's runs wait for the GPU's results in tasks of their own.
  const run = async (
    session: OrtSession,
    feeds: Record<string, OrtTensor>,
    fetches?: string[],
  ): Promise<Record<string, OrtTensor>> => {
    const output = await session.run(feeds, fetches);
    if (device === 'wasm') await nextTask();
    return output;
  };
  const { Tensor: TensorClass } = transformers;
  const presentNames = decoder.outputNames.filter((name) => name.startsWith('present'));
  const decoderPastNames = presentNames
    .filter((name) => name.includes('.decoder.'))
    .map((name) => name.replace('present', 'past_key_values'));
  const crossNames = [...new Set(alignmentHeads.map(([layer]) => `cross_attentions.${layer}`))];
  const firstFetches = ['logits', ...presentNames, ...crossNames];
  const stepFetches = [
    'logits',
    ...presentNames.filter((name) => name.includes('.decoder.')),
    ...crossNames,
  ];
  // The first step has no past: empty keys and values of the types and shapes the model
  // declares (`batch` rows, no positions yet).
  const emptyPast = (batch = 1): Record<string, OrtTensor> => {
    const feeds: Record<string, OrtTensor> = {};
    for (const meta of decoder.inputMetadata) {
      if (!meta.name.startsWith('past_key_values') || !meta.isTensor) continue;
      const shape = (meta.shape ?? []).map((d) =>
        typeof d === 'number' ? d : d === 'batch_size' ? batch : 0,
      );
      feeds[meta.name] = new TensorClass(meta.type as never, emptyData(meta.type), shape)
        .ort_tensor as OrtTensor;
    }
    return feeds;
  };

  // With cached keys and values the decoder reads the encoder's output only through them: a
  // one-frame stand-in saves copying the whole output into the runtime at every token.
  let stub: { width: number; batch: number; tensor: OrtTensor } | null = null;
  const stubHidden = (encoded: Tensor, batch = 1): OrtTensor => {
    const width = encoded.dims.at(-1) ?? 0;
    if (stub?.width !== width || stub.batch !== batch) {
      const tensor = new TensorClass('float32', new Float32Array(width * batch), [batch, 1, width]);
      stub = { width, batch, tensor: tensor.ort_tensor as OrtTensor };
    }
    return stub.tensor;
  };
  const ortTensor = (type: string, data: RowData, dims: readonly number[]): OrtTensor =>
    new TensorClass(type as never, data as never, [...dims]).ort_tensor as OrtTensor;
  const tokenIds = (rows: readonly (readonly number[])[]): OrtTensor =>
    ortTensor('int64', BigInt64Array.from(rows.flatMap((tokens) => tokens.map((t) => BigInt(t)))), [
      rows.length,
      rows[0]?.length ?? 0,
    ]);
  // The keys and values of one step, named as the next step's inputs; the encoder's, not
  // fetched after the first step, carried over from `past`.
  const nextPast = (output: Record<string, OrtTensor>, past: PastKeyValues | null) => {
    const next: PastKeyValues = {};
    for (const name of presentNames) {
      const pastName = name.replace('present', 'past_key_values');
      const tensor = output[name] ?? past?.[pastName];
      if (!tensor) throw new Error(`The decoder returned no ${name}.`);
      next[pastName] = tensor;
    }
    // Superseded keys and values on the GPU are freed now; on the CPU they are garbage.
    if (past) for (const name of decoderPastNames) release(past[name]);
    return next;
  };
  // Per row of the batch: the logits of its positions, and its alignment heads' cross-attention
  // for its last position.
  const stepRows = (output: Record<string, OrtTensor>) => {
    const logits = output.logits;
    if (!logits) throw new Error('The decoder returned no logits.');
    const [batch = 1, positions = 1, width = 0] = logits.dims;
    const all = toFloat32(logits.data);
    const attentions = alignmentHeads.map(([layer]) => {
      const attention = output[`cross_attentions.${layer}`];
      if (!attention) throw new Error(`The decoder returned no cross_attentions.${layer}.`);
      return { dims: attention.dims, data: toFloat32(attention.data) };
    });
    return Array.from({ length: batch }, (_, b) => {
      const row = (p: number) =>
        all.subarray((b * positions + p) * width, (b * positions + p + 1) * width);
      const alignmentRows = alignmentHeads.map(([, head], i) => {
        // [batch, heads, queries, frames]: the last query of row b.
        const { dims, data } = attentions[i]!;
        const [, heads = 1, queries = 1, frames = 0] = dims;
        const offset = ((b * heads + head) * queries + (queries - 1)) * frames;
        return data.slice(offset, offset + frames);
      });
      return {
        // A cached step's logits of one row are the runtime's own output: handed over as they
        // are (a copy of 52k floats per token was garbage at once). Other rows are copied out,
        // so that the rest of the output can be collected.
        lastLogits: positions === 1 && batch === 1 ? all : row(positions - 1).slice(),
        logitsAt: (p: number) => row(p).slice(),
        alignmentRows,
      };
    });
  };

  return {
    id,
    device,
    vocab,
    windowSamples: extractorConfig.n_samples,
    encoderFrames: whisperConfig.max_source_positions,
    maxTargetPositions: whisperConfig.max_target_positions,
    medianFilterWidth: whisperConfig.median_filter_width ?? 7,
    maxInitialTimestampIndex:
      typeof generation.max_initial_timestamp_index === 'number'
        ? generation.max_initial_timestamp_index
        : 50,

    async features(audio) {
      if (melPlan) {
        const { frames } = melPlan.settings;
        return new TensorClass('float32', logMel(melPlan, audio), [
          1,
          melPlan.bands.length,
          frames,
        ]) as unknown as Tensor;
      }
      const { input_features } = (await extractor(audio)) as { input_features: Tensor };
      return input_features;
    },

    async encode(features) {
      const output = await run(encoderSession, { input_features: features.ort_tensor });
      const hidden = output.last_hidden_state;
      if (!hidden) throw new Error('The encoder returned no last_hidden_state.');
      return new TensorClass(hidden as never);
    },

    async step(encoded, tokens, past) {
      const feeds: Record<string, OrtTensor> = {
        input_ids: tokenIds([tokens]),
        encoder_hidden_states: past ? stubHidden(encoded) : (encoded.ort_tensor as OrtTensor),
        use_cache_branch: new TensorClass('bool', [past !== null], [1]).ort_tensor as OrtTensor,
        ...(past ?? emptyPast()),
      };
      // Only what the loop reads comes back: the encoder's keys and values never change after
      // the first step, and copying them out at every step cost more than the step itself.
      const output = await run(decoder, feeds, past ? stepFetches : firstFetches);
      const [row] = stepRows(output);
      return { ...row!, past: nextPast(output, past) };
    },

    async encodeBatch(features) {
      const first = features[0];
      if (!first) return [];
      const stacked = stackedRows(
        await Promise.all(features.map((f) => valuesOf(f.ort_tensor as OrtTensor))),
        first.dims,
      );
      const output = await run(encoderSession, {
        input_features: ortTensor('float32', stacked.data, stacked.dims),
      });
      const hidden = output.last_hidden_state;
      if (!hidden) throw new Error('The encoder returned no last_hidden_state.');
      const values = await valuesOf(hidden);
      release(hidden);
      return features.map((_, i) => {
        const row = keptRows(values, hidden.dims, [i]);
        return new TensorClass(typeOf(hidden) as never, row.data as never, row.dims) as Tensor;
      });
    },

    async stepBatch(encoded, tokens, past) {
      const batch = tokens.length;
      let hidden: OrtTensor;
      if (past) hidden = stubHidden(encoded[0]!, batch);
      else {
        const first = encoded[0]!;
        const stacked = stackedRows(
          await Promise.all(encoded.map((e) => valuesOf(e.ort_tensor as OrtTensor))),
          first.dims,
        );
        hidden = ortTensor(typeOf(first.ort_tensor as OrtTensor), stacked.data, stacked.dims);
      }
      const feeds: Record<string, OrtTensor> = {
        input_ids: tokenIds(tokens),
        encoder_hidden_states: hidden,
        use_cache_branch: new TensorClass('bool', [past !== null], [1]).ort_tensor as OrtTensor,
        ...(past ?? emptyPast(batch)),
      };
      const output = await run(decoder, feeds, past ? stepFetches : firstFetches);
      return { rows: stepRows(output), past: nextPast(output, past) };
    },

    async keepRows(past, kept) {
      const next: PastKeyValues = {};
      for (const [name, tensor] of Object.entries(past)) {
        const rows = keptRows(await valuesOf(tensor), tensor.dims, kept);
        next[name] = ortTensor(typeOf(tensor), rows.data, rows.dims);
      }
      for (const tensor of Object.values(past)) release(tensor);
      return next;
    },

    releasePast(past) {
      for (const tensor of Object.values(past)) release(tensor);
    },

    encodeText: (text) => tokenizer.encode(text, { add_special_tokens: false }),
    decodeText: (tokens) =>
      tokens.length === 0 ? '' : tokenizer.decode([...tokens], { skip_special_tokens: true }),
    tokenText: (token) => tokenizer.decode([token], { skip_special_tokens: false }),
    dispose: async () => {
      await model.dispose();
    },
  };
}

/**
 * The same features as the model's own WhisperFeatureExtractor, computed faster (see
 * core/audio/log-mel.ts) with its window and mel filters; null where its settings are not
 * all there, and the extractor then computes them itself.
 */
function whisperMelPlan(extractor: unknown): LogMelPlan | null {
  const e = extractor as {
    window?: Float64Array;
    config?: Record<string, unknown>;
  };
  const c = e.config ?? {};
  const numbers = ['n_fft', 'hop_length', 'n_samples', 'nb_max_frames'].every(
    (k) => typeof c[k] === 'number',
  );
  if (!numbers || !e.window) return null;
  if (!Array.isArray(c.mel_filters)) return null;
  return logMelPlan({
    nFft: c.n_fft as number,
    hop: c.hop_length as number,
    windowSamples: c.n_samples as number,
    frames: c.nb_max_frames as number,
    window: e.window,
    melFilters: c.mel_filters as number[][],
  });
}

/** The parts of an onnxruntime session (web or Node) the engine uses. */
interface OrtSession {
  run(feeds: Record<string, OrtTensor>, fetches?: string[]): Promise<Record<string, OrtTensor>>;
  outputNames: readonly string[];
  inputMetadata: readonly {
    name: string;
    isTensor: boolean;
    type?: string;
    shape?: readonly (number | string)[];
  }[];
}

/**
 * A tensor's values on the CPU: those the runtime keeps on the GPU (WebGPU's keys and values)
 * are read back, for the rows of a batch to be cut apart or put together.
 */
async function valuesOf(tensor: OrtTensor): Promise<RowData> {
  const readable = tensor as OrtTensor & { getData?: () => Promise<unknown> };
  if (tensor.location === 'gpu-buffer' && readable.getData)
    return (await readable.getData()) as RowData;
  return tensor.data as RowData;
}

function typeOf(tensor: OrtTensor): string {
  return (tensor as OrtTensor & { type?: string }).type ?? 'float32';
}

function release(tensor: OrtTensor | undefined) {
  if (tensor?.location === 'gpu-buffer') tensor.dispose?.();
}

function emptyData(type: string | undefined) {
  if (type === 'float16') return new Uint16Array(0);
  return new Float32Array(0);
}
