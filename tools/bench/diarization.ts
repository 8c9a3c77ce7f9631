/**
 * Diarization benchmark: the diarization stage's own time in a whole pipeline run (speaker
 * models loaded beforehand) on a generated 10-minute conversation, in Node (onnxruntime-node,
 * the CPU) and in Chromium (the browser host's port in a module worker, onnxruntime-web on
 * WASM, cross-origin isolated). The stage's settings are given through the pipeline, as a host
 * gives them. Models: generated weights at the production models' sizes (pyannote
 * segmentation 3.0 and WeSpeaker ResNet34: `murmur-bench/...`, made by
 * tools/models/diarization/make_bench_models.py when missing), or any other pair; before them,
 * the staged test recogniser, held to a real model's pace, and Silero VAD
 * (tools/testing/diarization-through-pipeline.ts). Speech is what the speech stage finds.
 * Prints seconds per minute of audio, peak memory (the whole run's), and how the stage's time
 * splits between the segmentation model, the embedding model and the rest (clustering, turns).
 * usage: tsx tools/bench/diarization.ts [--seconds 600] [--runs 1] [--node-only|--browser-only]
 *   [--segmentation-model ID] [--embedding-model ID] [--embedding-batch N]
 * (`--embedding-batch 1`: one stretch a call of the embedding model, as before batches.)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DiarizationReply, DiarizationRun } from '../../e2e/harness/diarization-protocol';
import { DEFAULT_DIARIZATION_SETTINGS } from '../../src/engine/stage-settings';
import { diskFile, nodeEnginePorts, type DiskFile } from '../../src/hosts/node';
import { conversation, writeConversationWav } from '../testing/conversation';
import {
  diarizeThroughPipeline,
  loadForDiarization,
} from '../testing/diarization-through-pipeline';
import { TEST_WHISPER_ID } from '../testing/ffmpeg-fixtures';
import type { SpeakerModelTimes } from '../testing/timed-speaker-models';
import { REPO } from './bench-media';
import { writeBenchResult } from './bench-result';
import { buildHarness, launchChromium, sampleChromiumMemory, startPreview } from './chromium';

const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const seconds = Number(option('seconds') ?? 600);
const runs = Number(option('runs') ?? 1);
const segmentationModel = option('segmentation-model') ?? 'murmur-bench/segmentation-3.0-sized';
const embeddingModel = option('embedding-model') ?? 'murmur-bench/wespeaker-resnet34-sized';
const models = join(REPO, '.models');
const embeddingBatch = Number(
  option('embedding-batch') ?? DEFAULT_DIARIZATION_SETTINGS.embeddingBatch,
);

if (segmentationModel.startsWith('murmur-bench/') && !existsSync(join(models, segmentationModel))) {
  console.error('Making the benchmark models (generated weights at production sizes) ...');
  execFileSync(
    '/usr/bin/python3',
    ['tools/models/diarization/make_bench_models.py', '--out', models],
    {
      cwd: REPO,
      stdio: 'inherit',
    },
  );
}

console.error(`Generating a ${seconds}-s conversation ...`);
const talk = conversation({ speakers: 3, seconds, overlapShare: 0.2, seed: 600 });
const audioSeconds = talk.samples.length / 16000;
const wav = writeConversationWav(
  join(mkdtempSync(join(tmpdir(), 'murmur-bench-diarization-')), 'conversation.wav'),
  talk,
);
// The conversation's speech, for the summary: its turns, joined where they touch.
const speech: { start: number; end: number }[] = [];
for (const t of [...talk.turns].sort((a, b) => a.start - b.start)) {
  const last = speech.at(-1);
  if (last && t.start <= last.end + 0.3) last.end = Math.max(last.end, t.end);
  else speech.push({ start: t.start, end: t.end });
}
const speechSeconds = speech.reduce((s, r) => s + r.end - r.start, 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** The stage's seconds split between the two models and the rest. */
function split(total: number, t: SpeakerModelTimes): string {
  return (
    `(segmentation ${t.segmentSeconds.toFixed(1)} s in ${t.segmentCalls} calls, ` +
    `embedding ${t.embedSeconds.toFixed(1)} s: ${t.embeddings} embeddings in ${t.embedCalls} calls, ` +
    `rest ${(total - t.segmentSeconds - t.embedSeconds).toFixed(1)} s)`
  );
}

interface Row {
  host: string;
  seconds: number[];
  loadSeconds: number;
  peakMb: number;
  speakers: number;
  times: SpeakerModelTimes[];
}
const rows: Row[] = [];

function peakRssMb(): number {
  const status = execFileSync('cat', [`/proc/${process.pid}/status`]).toString();
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function nodeRuns() {
  const ports = nodeEnginePorts({
    models,
    model: TEST_WHISPER_ID,
    segmentationModel,
    embeddingModel,
  });
  const loaded = await loadForDiarization(ports);
  const times: number[] = [];
  const parts: SpeakerModelTimes[] = [];
  let speakers = 0;
  for (let r = 0; r < runs; r++) {
    const file = (await diskFile(wav)) as DiskFile;
    const out = await diarizeThroughPipeline(ports, loaded, file, {
      numSpeakers: null,
      settings: { embeddingBatch },
    });
    times.push(out.seconds);
    parts.push(out.times);
    speakers = out.speakers;
    console.error(
      `node run ${r + 1}: ${out.seconds.toFixed(1)} s ${split(out.seconds, out.times)}`,
    );
  }
  rows.push({
    host: 'Node',
    seconds: times,
    loadSeconds: loaded.speakersLoadSeconds,
    peakMb: peakRssMb(),
    speakers,
    times: parts,
  });
}

async function browserRuns() {
  const outDir = buildHarness();
  writeConversationWav(join(outDir, 'bench-conversation.wav'), talk);
  const port = Number(process.env.MURMUR_BENCH_PORT ?? 4176);
  const preview = await startPreview(outDir, port, '/e2e/harness/diarization.html');
  const browser = await launchChromium();
  try {
    const times: number[] = [];
    let loadSeconds = 0;
    let peakMb = 0;
    let speakers = 0;
    const parts: SpeakerModelTimes[] = [];
    for (let r = 0; r < runs; r++) {
      const page = await browser.newPage();
      page.setDefaultTimeout(0);
      await page.goto(`${preview.base}/e2e/harness/diarization.html`);
      await page.waitForFunction(() => 'diarizationHarness' in window);
      const run: DiarizationRun = {
        modelHost: `${preview.base}/hub/`,
        segmentationModel,
        embeddingModel,
        mediaUrl: `${preview.base}/bench-conversation.wav`,
        numSpeakers: null,
        embeddingBatch,
      };
      const memory = sampleChromiumMemory();
      const reply = (await page.evaluate(
        (r) => window.diarizationHarness.run(r),
        run,
      )) as DiarizationReply;
      peakMb = Math.max(peakMb, memory.stop().peakRendererMb);
      if (reply.type === 'error') throw new Error(reply.data.message);
      const result = reply.data;
      if (!result.crossOriginIsolated)
        throw new Error('The harness page is not cross-origin isolated.');
      times.push(result.seconds);
      parts.push(result.times);
      loadSeconds = result.loadSeconds;
      speakers = result.speakers;
      console.error(
        `chromium run ${r + 1}: ${result.seconds.toFixed(1)} s ${split(result.seconds, result.times)}`,
      );
      await page.close();
    }
    rows.push({ host: 'Chromium', seconds: times, loadSeconds, peakMb, speakers, times: parts });
  } finally {
    await browser.close();
    preview.stop();
  }
}

if (!process.argv.includes('--browser-only')) await nodeRuns();
if (!process.argv.includes('--node-only')) await browserRuns();
console.log(
  `\n${audioSeconds.toFixed(0)} s conversation (3 speakers, ${speechSeconds.toFixed(0)} s of speech), ` +
    `${segmentationModel} + ${embeddingModel}, embeddings ${embeddingBatch} a call at most, median of ${runs}\n`,
);
console.log(
  '| host | diarization (s) | s per minute of audio | real-time factor | segmentation (s) | embedding (s) | embeddings | rest (s) | load (s) | peak memory | speakers |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const s = median(r.seconds);
  console.log(
    `| ${r.host} | ${s.toFixed(1)} | ${((60 * s) / audioSeconds).toFixed(2)} | ${(s / audioSeconds).toFixed(3)} | ` +
      `${median(r.times.map((t) => t.segmentSeconds)).toFixed(1)} | ${median(r.times.map((t) => t.embedSeconds)).toFixed(1)} | ` +
      `${median(r.times.map((t) => t.embeddings))} | ${median(r.seconds.map((x, i) => x - r.times[i]!.segmentSeconds - r.times[i]!.embedSeconds)).toFixed(1)} | ${r.loadSeconds.toFixed(2)} | ${Math.round(r.peakMb)} MB | ${r.speakers} |`,
  );
}

const figures: Record<string, number> = {};
const units: Record<string, string> = {};
for (const r of rows) {
  const host = r.host.toLowerCase();
  const s = median(r.seconds);
  Object.assign(figures, {
    [`${host}.seconds`]: s,
    [`${host}.rtf`]: s / audioSeconds,
    [`${host}.s_per_minute`]: (60 * s) / audioSeconds,
    [`${host}.peak_mb`]: r.peakMb,
  });
  Object.assign(units, {
    [`${host}.seconds`]: 's',
    [`${host}.s_per_minute`]: 's per minute of audio',
    [`${host}.peak_mb`]: host === 'node' ? 'MB (VmHWM)' : 'MB (renderer)',
  });
}
writeBenchResult(import.meta.filename, {
  name: 'diarization',
  settings: {
    recording_s: Math.round(audioSeconds),
    runs,
    segmentation_model: segmentationModel,
    embedding_model: embeddingModel,
    embedding_batch: embeddingBatch,
  },
  figures,
  ratios: {},
  units,
});
