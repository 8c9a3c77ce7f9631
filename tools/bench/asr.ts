/**
 * Recognition benchmark: Murmur's engine against transformers.js' own ASR pipeline called the
 * common way (chunk_length_s 30, stride_length_s 5, the whole file), and against whisper.cpp
 * (natively in Node, as WASM in Chromium; see whispercpp.ts), on the same generated recording
 * with pauses and the same full-size model with generated weights, in Node and in Chromium
 * (WASM, cross-origin isolated). Generated weights never stop on their own, so each decodes a
 * fixed number of tokens: the engine per second of speech, the pipeline and whisper.cpp as many
 * per 30-s window. Runs alternate; medians are reported.
 * usage: tsx tools/bench/asr.ts [--model murmur-bench/whisper-tiny] [--runs 3] [--node-only|--browser-only]
 *   [--contenders engine,pipeline,whispercpp-native,whispercpp-wasm (default: the first two)]
 *   [--dtypes ENCODER,DECODER (the engine's, in Chromium)]
 *   [--seconds 120 (the recording's length)] [--provisional off (the engine posts no provisional text)]
 *   [--batch 1,4 (the engine's windows decoded together, `batchWindows`: each in turn, a row each)]
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AsrBenchReply, EngineStages } from '../../e2e/harness/asr-protocol';
import type { Dtype } from '../../src/engine/models/model-settings';
import { benchAudio, tokensPerStreamSecond } from './asr-audio';
import { REPO } from './bench-media';
import { writeBenchResult } from './bench-result';
import { buildHarness, launchChromium, sampleChromiumMemory, startPreview } from './chromium';
import { ggmlFile } from './whispercpp';
import { modelSeconds } from './model-calls';

const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const modelId = option('model') ?? 'murmur-bench/whisper-tiny';
const runs = Number(option('runs') ?? 3);
const TOKENS_PER_SECOND = 3.5;
type Contender = 'engine' | 'pipeline' | 'whispercpp-native' | 'whispercpp-wasm';
const contenders = (option('contenders') ?? 'engine,pipeline').split(',') as Contender[];
/** Where each contender runs: whisper.cpp's builds run on one host each. */
const runsOn = (contender: Contender, host: 'node' | 'chromium') =>
  contender === 'whispercpp-native'
    ? host === 'node'
    : contender === 'whispercpp-wasm'
      ? host === 'chromium'
      : true;
/**
 * `--batch 1,4`: the engine runs once with each, in turn, reported as `engine bB`. Without it,
 * the engine runs as the app and the command line do (the device's own `batchWindows`), and
 * is reported as `engine`.
 */
const batches = (option('batch') ?? '0').split(',').map(Number);
/** Each run of a sitting: the engine once per batch size, every other contender once. */
type SittingRun = { contender: Contender; batch: number };
const runsOfSitting = contenders.flatMap((contender): SittingRun[] =>
  contender === 'engine'
    ? batches.map((batch) => ({ contender, batch }))
    : [{ contender, batch: 0 }],
);
const label = (contender: string, batch: number) =>
  batch > 0 ? `${contender} b${batch}` : contender;
const labels = [...new Set(runsOfSitting.map((r) => label(r.contender, r.batch)))];
/** `--dtypes q8,fp32`: the engine's encoder and decoder precisions in Chromium. */
const [encoderDtype, decoderDtype] = (option('dtypes') ?? '').split(',') as [Dtype?, Dtype?];
const dtypes = {
  ...(encoderDtype ? { encoderDtype } : {}),
  ...(decoderDtype ? { decoderDtype } : {}),
};

if (!existsSync(join(REPO, '.models', modelId, 'onnx', 'encoder_model.onnx'))) {
  console.error(`No ${modelId} in .models/: run "npm run models:bench" first.`);
  process.exit(1);
}
/** `--provisional off`: the engine runs without a listener for provisional text. */
const provisional = option('provisional') !== 'off';
const recordingSeconds = Number(option('seconds') ?? 120);
const audio = benchAudio(recordingSeconds);
// The pipeline decodes every 30-s chunk alike: the same tokens per second of speech, spread.
const tokensPerChunk = Math.round(TOKENS_PER_SECOND * 30 * (audio.speechSeconds / audio.seconds));
console.error(
  `Recording: ${audio.seconds.toFixed(1)} s, ${audio.speechSeconds.toFixed(1)} s of speech; ` +
    `${TOKENS_PER_SECOND} tokens per second of speech (${tokensPerChunk} per pipeline chunk).`,
);
// whisper.cpp's model: the same weights, its file capping each window at tokensPerChunk.
if (contenders.some((c) => c.startsWith('whispercpp'))) {
  const file = join(REPO, '.models', modelId, ggmlFile(tokensPerChunk));
  if (!existsSync(file)) {
    execFileSync(
      '/usr/bin/python3',
      [
        'tools/models/bench-to-ggml.py',
        '--only',
        modelId.split('-').pop()!,
        '--tokens-per-window',
        String(tokensPerChunk),
      ],
      { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
}

interface Run {
  host: string;
  contender: string;
  seconds: number;
  firstSegmentSeconds: number;
  firstProvisionalSeconds?: number;
  marks?: Record<string, number>;
  peakMb: number;
  stages?: EngineStages;
  profile?: Record<string, { seconds: number; calls: number }>;
  /** whisper.cpp's: the time of all its passes, its windows and passes, and its text. */
  allPassesSeconds?: number;
  windows?: number;
  passes?: number;
  text?: string;
}
const results: Run[] = [];

function nodeRun(contender: Contender, batch: number): Run {
  const out = execFileSync(
    'npx',
    [
      'tsx',
      'tools/bench/asr-node-run.ts',
      contender,
      modelId,
      String(TOKENS_PER_SECOND),
      String(tokensPerChunk),
      String(recordingSeconds),
      provisional ? 'provisional' : 'no-provisional',
      String(batch),
    ],
    { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const r = JSON.parse(out.trim().split('\n').pop()!) as Run & { peakRssMb: number };
  return { ...r, host: 'node', contender: label(contender, batch), peakMb: r.peakRssMb };
}

async function browserRuns(): Promise<void> {
  const outDir = buildHarness();
  // whisper.cpp's WASM build, served from the page's own origin as it ships.
  cpSync(join(REPO, 'node_modules/@fugood/node-whisper-wasm'), join(outDir, 'whispercpp'), {
    recursive: true,
  });
  const preview = await startPreview(
    outDir,
    Number(process.env.MURMUR_BENCH_PORT ?? 4176),
    '/e2e/harness/asr.html',
  );
  try {
    for (let i = 0; i < runs; i++) {
      for (const run of runsOfSitting) {
        const { contender, batch } = run;
        if (contender === 'whispercpp-native' || !runsOn(contender, 'chromium')) continue;
        const browser = await launchChromium();
        try {
          const page = await browser.newPage();
          page.setDefaultTimeout(0);
          // whisper.cpp's WASM build compiles its bindings with `new Function` (emscripten's
          // embind), which the policy of the page and its workers refuses ('unsafe-eval'):
          // for it alone the policy headers are taken off.
          if (contender === 'whispercpp-wasm') {
            await page.route(/\.(html|m?js)(\?.*)?$/, async (route) => {
              const response = await route.fetch();
              const headers = { ...response.headers() };
              delete headers['content-security-policy'];
              await route.fulfill({ response, headers });
            });
          }
          await page.goto(`${preview.base}/e2e/harness/asr.html`);
          await page.waitForFunction(() => 'asrHarness' in window);
          await page.getByTestId('harness.file').setInputFiles([audio.wav, audio.pcm]);
          const memory = sampleChromiumMemory();
          const reply = (await page.evaluate((o) => window.asrHarness.run(o), {
            contender,
            modelId,
            tokensPerSecond: TOKENS_PER_SECOND,
            tokensPerStreamSecond: tokensPerStreamSecond(audio, TOKENS_PER_SECOND),
            tokensPerChunk,
            threads: Number(option('threads') ?? 2),
            dtypes,
            provisional,
            batch,
          })) as AsrBenchReply;
          const peak = memory.stop();
          if (reply.type === 'error') throw new Error(reply.data.message);
          const result = reply.data;
          if (!result.crossOriginIsolated)
            throw new Error('The harness page is not cross-origin isolated.');
          results.push({
            host: 'chromium',
            contender: label(contender, batch),
            seconds: result.seconds,
            firstSegmentSeconds: result.firstSegmentSeconds,
            ...(result.firstProvisionalSeconds !== undefined
              ? { firstProvisionalSeconds: result.firstProvisionalSeconds }
              : {}),
            ...(result.marks ? { marks: result.marks } : {}),
            peakMb: peak.peakRendererMb,
            ...(result.stages ? { stages: result.stages } : {}),
            ...(result.profile ? { profile: result.profile } : {}),
            ...(result.whisperCpp ?? {}),
          });
          console.error(JSON.stringify(results.at(-1)));
        } finally {
          await browser.close();
        }
      }
    }
  } finally {
    preview.stop();
  }
}

if (!process.argv.includes('--browser-only')) {
  for (let i = 0; i < runs; i++) {
    for (const { contender, batch } of runsOfSitting.filter((r) => runsOn(r.contender, 'node'))) {
      results.push(nodeRun(contender, batch));
      console.error(JSON.stringify(results.at(-1)));
    }
  }
}
if (!process.argv.includes('--node-only')) await browserRuns();

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
console.log(
  `\nRecognition benchmark: ${modelId}, ${audio.seconds.toFixed(0)} s recording, ${runs} runs each (medians)`,
);
console.log('host      contender  RTF     first segment  peak memory');
for (const host of ['node', 'chromium']) {
  const row = (contender: string) => {
    const rs = results.filter((r) => r.host === host && r.contender === contender);
    if (rs.length === 0) return null;
    return {
      rtf: median(rs.map((r) => r.seconds / audio.seconds)),
      first: median(rs.map((r) => r.firstSegmentSeconds)),
      peak: median(rs.map((r) => r.peakMb)),
    };
  };
  const pipeline = row('pipeline');
  for (const name of labels) {
    const r = row(name);
    if (!r) continue;
    console.log(
      `${host.padEnd(9)} ${name.padEnd(10)} ${r.rtf.toFixed(3).padEnd(7)} ${`${r.first.toFixed(2)} s`.padEnd(14)} ${r.peak.toFixed(0)} MB`,
    );
  }
  // Every other engine row against `engine b1` (one window at a time), run by run
  // (alternating in one sitting), the median of the ratios.
  for (const name of labels.filter((l) => l.startsWith('engine') && l !== 'engine b1')) {
    const one = results.filter((r) => r.host === host && r.contender === 'engine b1');
    const many = results.filter((r) => r.host === host && r.contender === name);
    const ratios = many.slice(0, one.length).map((r, i) => one[i]!.seconds / r.seconds);
    if (ratios.length > 0)
      console.log(
        `${host.padEnd(9)} ${name} against engine b1: ${median(ratios).toFixed(2)}x as fast (median of ${ratios.length} alternating pairs)`,
      );
  }
  for (const r of results.filter((x) => x.host === host && x.passes !== undefined)) {
    console.log(
      `${host.padEnd(9)} ${r.contender}: ${r.windows} windows of at most ${tokensPerChunk} tokens; ` +
        `all its passes (${r.passes}) ${(r.allPassesSeconds! / audio.seconds).toFixed(3)} RTF; ` +
        `its text: ${JSON.stringify(r.text!.slice(0, 120))}`,
    );
  }
  // The first engine's row (the app's, or the first `--batch`) for the stages and first times.
  const first = labels.find((l) => l.startsWith('engine'));
  const staged = results.filter((r) => r.host === host && r.contender === first && r.stages);
  if (staged.length > 0) {
    const stage = (key: keyof EngineStages) => median(staged.map((r) => r.stages![key])).toFixed(2);
    console.log(
      `${host.padEnd(9)} ${first} stages (wall-clock; in Chromium they overlap): decoding ${stage('audio_conversion_time')} s, VAD ${stage('vad_time')} s, recognition ${stage('inference_time')} s`,
    );
  }
  const early = results.filter(
    (r) => r.host === host && r.contender === first && r.firstProvisionalSeconds !== undefined,
  );
  if (early.length > 0) {
    const seconds = median(early.map((r) => r.firstProvisionalSeconds!));
    console.log(`${host.padEnd(9)} ${first} first provisional text ${seconds.toFixed(2)} s`);
  }
  const marked = results.filter((r) => r.host === host && r.contender === first && r.marks);
  if (marked.length > 0) {
    const names = Object.keys(marked[0]!.marks!);
    const parts = names.map((name) => {
      const value = median(marked.map((r) => r.marks![name] ?? NaN));
      return name.startsWith('steps') ? `${name} ${value}` : `${name} ${value.toFixed(2)} s`;
    });
    console.log(`${host.padEnd(9)} ${first} first times: ${parts.join(', ')}`);
  }
  for (const name of labels.filter((l) => l.startsWith('engine'))) {
    const profiled = results.filter((r) => r.host === host && r.contender === name && r.profile);
    if (profiled.length === 0) continue;
    const parts = Object.keys(profiled[0]!.profile!).map((call) => {
      const seconds = median(profiled.map((r) => r.profile![call]?.seconds ?? 0));
      const calls = median(profiled.map((r) => r.profile![call]?.calls ?? 0));
      return `${call} ${seconds.toFixed(2)} s (${calls} calls)`;
    });
    console.log(`${host.padEnd(9)} ${name} time in model calls: ${parts.join(', ')}`);
    // The model's own time on these windows and tokens. In Node, where nothing runs beside the
    // calls, no run of the engine on this CPU can be faster; in Chromium VAD and ffmpeg run
    // beside them, so it is the calls' time in this run.
    const bound = median(profiled.map((r) => modelSeconds(r.profile!) / audio.seconds));
    console.log(
      `${host.padEnd(9)} ${name} encoder and decoder calls alone: ${bound.toFixed(3)} RTF`,
    );
  }
  for (const name of labels.filter((l) => l.startsWith('engine'))) {
    const engine = row(name);
    if (!engine || !pipeline) continue;
    console.log(
      `${host.padEnd(9)} ${name} against the pipeline: ${(pipeline.rtf / engine.rtf).toFixed(2)}x faster; first segment ${(pipeline.first / engine.first).toFixed(1)}x sooner`,
    );
  }
}

// The same medians for the summary that `npm run bench` prints at its end.
const figures: Record<string, number> = {};
const ratios: Record<string, number> = {};
const units: Record<string, string> = {};
for (const host of ['node', 'chromium']) {
  for (const contender of labels) {
    const rs = results.filter((r) => r.host === host && r.contender === contender);
    if (rs.length === 0) continue;
    figures[`${host}.${contender}.rtf`] = median(rs.map((r) => r.seconds / audio.seconds));
    figures[`${host}.${contender}.first_segment_s`] = median(rs.map((r) => r.firstSegmentSeconds));
    figures[`${host}.${contender}.peak_mb`] = median(rs.map((r) => r.peakMb));
    units[`${host}.${contender}.first_segment_s`] = 's';
    const early = rs.filter((r) => r.firstProvisionalSeconds !== undefined);
    if (early.length > 0) {
      figures[`${host}.${contender}.first_provisional_s`] = median(
        early.map((r) => r.firstProvisionalSeconds!),
      );
      units[`${host}.${contender}.first_provisional_s`] = 's';
    }
    units[`${host}.${contender}.peak_mb`] = 'MB';
    const profiled = rs.filter((r) => r.profile);
    if (profiled.length > 0)
      figures[`${host}.${contender}.model_calls_rtf`] = median(
        profiled.map((r) => modelSeconds(r.profile!) / audio.seconds),
      );
    const passed = rs.filter((r) => r.allPassesSeconds !== undefined);
    if (passed.length > 0) {
      figures[`${host}.${contender}.all_passes_rtf`] = median(
        passed.map((r) => r.allPassesSeconds! / audio.seconds),
      );
      figures[`${host}.${contender}.passes`] = median(passed.map((r) => r.passes!));
      figures[`${host}.${contender}.windows`] = median(passed.map((r) => r.windows!));
    }
  }
  const whisperCpp = figures[`${host}.whispercpp-${host === 'node' ? 'native' : 'wasm'}.rtf`];
  if (whisperCpp !== undefined && figures[`${host}.engine.rtf`] !== undefined)
    ratios[`${host}.speedup_whispercpp`] = whisperCpp / figures[`${host}.engine.rtf`]!;
  const engine = `${host}.engine`;
  const pipeline = `${host}.pipeline`;
  if (figures[`${engine}.rtf`] !== undefined && figures[`${pipeline}.rtf`] !== undefined) {
    ratios[`${host}.speedup`] = figures[`${pipeline}.rtf`]! / figures[`${engine}.rtf`]!;
    ratios[`${host}.first_segment_sooner`] =
      figures[`${pipeline}.first_segment_s`]! / figures[`${engine}.first_segment_s`]!;
  }
}
writeBenchResult(import.meta.filename, {
  name: `asr-${modelId.split('/').pop()}`,
  settings: {
    model: modelId,
    recording_s: Math.round(audio.seconds),
    runs,
    tokens_per_window: tokensPerChunk,
  },
  figures,
  ratios,
  units,
});
