/**
 * The one table `npm run bench` ends with, built from the benchmarks' result files: the
 * engine against transformers.js' pipeline, the first segment, the speaker stage's time
 * against recognition's, memory for long recordings (and over a whole 10-hour transcription)
 * and the HTTP service's throughput. A
 * figure no result holds is shown as not measured, with the reason; nothing is estimated.
 */
import type { BenchResult } from './bench-result';

const NOT_MEASURED = 'not measured';
/** Recognition models the summary looks for, as `asr.ts --model murmur-bench/<name>` names them. */
const ASR_MODELS = ['whisper-tiny', 'whisper-base'] as const;
/** Recording lengths of the media benchmark, and what names them in the table. */
const MEDIA_LENGTHS = [
  [3600, '1 h', 'stereo'],
  [7200, '2 h', 'stereo'],
  [36000, '10 h', 'mono'],
] as const;
const HOSTS = ['node', 'chromium'] as const;
type Host = (typeof HOSTS)[number];

interface Row {
  figure: string;
  node: string;
  chromium: string;
  from: string;
}

type Results = ReadonlyMap<string, BenchResult>;

const script = (r: BenchResult) => r.bench.split('/').pop()!;
const day = (r: BenchResult, runStart: Date | null) =>
  r.measured_at.slice(0, 16).replace('T', ' ') +
  (runStart && new Date(r.measured_at) < runStart ? ' (earlier run)' : '');

/** Where a row's figures come from: the scripts, how they measured, and when. */
function source(results: BenchResult[], how: string, runStart: Date | null): string {
  const scripts = [...new Set(results.map(script))].join(', ');
  const when = [...new Set(results.map((r) => day(r, runStart)))].join(', ');
  return `${scripts}: ${how}, ${when}`;
}

/** The command's options, for a figure its last run left out. */
function leftOut(r: BenchResult): string {
  const options = r.command.split(' ').slice(2).join(' ');
  return `${NOT_MEASURED}: not in its last run${options ? ` (${options})` : ''}`;
}

/** A row no result feeds: the reason goes where the source would. */
function missing(figure: string, reason: string, chromium = NOT_MEASURED): Row {
  return { figure, node: NOT_MEASURED, chromium, from: `${NOT_MEASURED}: ${reason}` };
}

const runsOf = (r: BenchResult) => {
  const runs = Number(r.settings['runs'] ?? 1);
  return runs === 1 ? 'one run' : `median of ${runs} runs`;
};

function asrRows(results: Results, runStart: Date | null): Row[] {
  const rows: Row[] = [];
  for (const model of ASR_MODELS) {
    const r = results.get(`asr-${model}`);
    const labels = {
      speed: `engine against the pipeline, ${model}: speed (real-time factors)`,
      whisperCpp: `engine against whisper.cpp (native in Node, WASM in Chromium), ${model}: speed (real-time factors)`,
      first: `first segment, ${model}: engine (pipeline)`,
      peak: `peak memory, recognition, ${model}: engine / pipeline`,
    };
    if (!r) {
      const reason = `no result from tools/bench/asr.ts --model murmur-bench/${model} yet (npm run bench)`;
      rows.push(...Object.values(labels).map((label) => missing(label, reason)));
      continue;
    }
    const f = r.figures;
    const cells = (cell: (host: Host) => string | null) =>
      Object.fromEntries(HOSTS.map((h) => [h, cell(h) ?? leftOut(r)])) as Record<Host, string>;
    const from = source(
      [r],
      `${r.settings['recording_s']}-s recording, ${runsOf(r)} each`,
      runStart,
    );
    rows.push({
      figure: labels.speed,
      ...cells((h) => {
        const speedup = r.ratios[`${h}.speedup`];
        if (speedup === undefined) return null;
        return `${speedup.toFixed(2)}x faster (${f[`${h}.engine.rtf`]!.toFixed(3)} against ${f[`${h}.pipeline.rtf`]!.toFixed(3)})`;
      }),
      from,
    });
    rows.push({
      figure: labels.whisperCpp,
      ...cells((h) => {
        const speedup = r.ratios[`${h}.speedup_whispercpp`];
        const build = h === 'node' ? 'native' : 'wasm';
        if (speedup === undefined) return null;
        return `${speedup.toFixed(2)}x faster (${f[`${h}.engine.rtf`]!.toFixed(3)} against ${f[`${h}.whispercpp-${build}.rtf`]!.toFixed(3)})`;
      }),
      from,
    });
    rows.push({
      figure: labels.first,
      ...cells((h) => {
        const engine = f[`${h}.engine.first_segment_s`];
        if (engine === undefined) return null;
        const sooner = r.ratios[`${h}.first_segment_sooner`];
        const pipeline = f[`${h}.pipeline.first_segment_s`];
        return sooner === undefined || pipeline === undefined
          ? `${engine.toFixed(2)} s (pipeline ${NOT_MEASURED})`
          : `${engine.toFixed(2)} s (${pipeline.toFixed(2)} s): ${sooner.toFixed(1)}x sooner`;
      }),
      from,
    });
    rows.push({
      figure: labels.peak,
      ...cells((h) => {
        const engine = f[`${h}.engine.peak_mb`];
        const pipeline = f[`${h}.pipeline.peak_mb`];
        if (engine === undefined && pipeline === undefined) return null;
        const mb = (x: number | undefined) =>
          x === undefined ? NOT_MEASURED : `${x.toFixed(0)} MB`;
        return `${mb(engine)} / ${mb(pipeline)}`;
      }),
      from,
    });
  }
  return rows;
}

function diarizationRows(results: Results, runStart: Date | null): Row[] {
  const d = results.get('diarization');
  const stage = 'speaker stage: seconds per minute of audio (peak memory)';
  const share = (model: string) =>
    `speaker stage's time / recognition's, ${model} (real-time factors)`;
  if (!d) {
    const reason = 'no result from tools/bench/diarization.ts yet (npm run bench)';
    return [stage, ...ASR_MODELS.map(share)].map((figure) => missing(figure, reason));
  }
  const how = `${d.settings['recording_s']}-s conversation, ${runsOf(d)}`;
  const rows: Row[] = [
    {
      figure: stage,
      ...(Object.fromEntries(
        HOSTS.map((h) => {
          const perMinute = d.figures[`${h}.s_per_minute`];
          const peak = d.figures[`${h}.peak_mb`];
          return [
            h,
            perMinute === undefined || peak === undefined
              ? leftOut(d)
              : `${perMinute.toFixed(2)} s (${peak.toFixed(0)} MB)`,
          ];
        }),
      ) as Record<Host, string>),
      from: source([d], how, runStart),
    },
  ];
  for (const model of ASR_MODELS) {
    const figure = share(model);
    const r = results.get(`asr-${model}`);
    if (!r) {
      rows.push(missing(figure, `no recognition result for ${model}`));
      continue;
    }
    const cell = (h: Host) => {
      const speakers = d.figures[`${h}.rtf`];
      const recognition = r.figures[`${h}.engine.rtf`];
      if (speakers === undefined) return leftOut(d);
      if (recognition === undefined) return leftOut(r);
      return `${(speakers / recognition).toFixed(2)}x (${speakers.toFixed(3)} / ${recognition.toFixed(3)})`;
    };
    rows.push({
      figure,
      node: cell('node'),
      chromium: cell('chromium'),
      from: source([d, r], `${how}; recognition ${runsOf(r)}`, runStart),
    });
  }
  return rows;
}

function mediaRows(results: Results, runStart: Date | null): Row[] {
  return MEDIA_LENGTHS.map(([seconds, length, layout]) => {
    const figure = `media and speech stages, ${length} ${layout} mp3: peak memory (speed)`;
    const name = (h: Host) => `media-${h}-${layout === 'mono' ? 'mono-' : ''}${seconds}s`;
    const found = HOSTS.map((h) => [h, results.get(name(h))] as const);
    const present = found.filter(([, r]) => r).map(([, r]) => r!);
    if (present.length === 0) {
      return missing(figure, 'no result from tools/bench/media.ts yet (npm run bench)');
    }
    const cell = ([h, r]: readonly [Host, BenchResult | undefined]) => {
      if (!r)
        return `${NOT_MEASURED}: no ${h === 'node' ? 'media-node.ts' : 'media-browser.ts'} run`;
      const peak = r.figures[`${h}.peak_mb`]!;
      const speed = r.figures[`${h}.total_x_realtime`]!;
      return `${peak.toFixed(0)} MB (${speed.toFixed(1)}x real time)`;
    };
    return {
      figure,
      node: cell(found[0]!),
      chromium: cell(found[1]!),
      from: source(present, 'one run each', runStart),
    };
  });
}

/**
 * The long transcription in Chromium and in Node (`transcribe-long-browser.ts` and
 * `transcribe-long-node.ts`, `npm run bench:long`).
 */
function longTranscriptionRows(results: Results, runStart: Date | null): Row[] {
  const figure =
    'whole transcription, 10 h mono mp3, test-size Whisper: peak memory, first hour / later hours (speed)';
  const cell = (r: BenchResult | undefined, host: 'node' | 'chromium', script: string) => {
    if (!r) return `${NOT_MEASURED}: no result from tools/bench/${script} yet (npm run bench:long)`;
    const first = r.figures[`${host}.first_hour_peak_mb`]!;
    const later = r.figures[`${host}.later_hours_peak_mb`]!;
    const speed = r.figures[`${host}.total_x_realtime`]!;
    return `${first.toFixed(0)} MB / ${later.toFixed(0)} MB (${speed.toFixed(1)}x real time)`;
  };
  const node = results.get('transcribe-node-mono-36000s');
  const chromium = results.get('transcribe-chromium-mono-36000s');
  const measured = [node, chromium].filter((r): r is BenchResult => r !== undefined);
  return [
    {
      figure,
      node: cell(node, 'node', 'transcribe-long-node.ts'),
      chromium: cell(chromium, 'chromium', 'transcribe-long-browser.ts'),
      from:
        measured.length === 0
          ? `${NOT_MEASURED}: no result from tools/bench/transcribe-long-browser.ts or transcribe-long-node.ts yet (npm run bench:long)`
          : source(measured, `one run each, ${measured[0]!.settings['model']}`, runStart),
    },
  ];
}

function serveRows(results: Results, runStart: Date | null): Row[] {
  const s = results.get('serve');
  const figure = 'HTTP service: requests a minute (p50 latency, peak memory) by concurrency';
  const chromium = 'n/a: the service runs in Node';
  if (!s) {
    return [missing(figure, 'no result from tools/bench/serve.ts yet (npm run bench)', chromium)];
  }
  const levels = String(s.settings['concurrency']).split(',');
  const node = levels
    .map((c) => {
      const at = `node.c${c}`;
      const perMinute = s.figures[`${at}.per_minute`];
      if (perMinute === undefined) return `${c}: ${NOT_MEASURED}`;
      return `${c}: ${perMinute.toFixed(1)} (${s.figures[`${at}.p50_s`]!.toFixed(2)} s, ${s.figures[`${at}.peak_mb`]!.toFixed(0)} MB)`;
    })
    .join('; ');
  return [
    {
      figure,
      node,
      chromium,
      from: source(
        [s],
        `${s.settings['requests']} requests a level, ${s.settings['model']}`,
        runStart,
      ),
    },
  ];
}

/** A Markdown table, its columns padded so that it reads as well in a terminal. */
function markdown(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/**
 * The summary: a title line and one table. `runStart` (when this `npm run bench` began) marks
 * figures left from an earlier run.
 */
export function summaryTable(results: Results, runStart: Date | null = null): string {
  const rows = [
    ...asrRows(results, runStart),
    ...diarizationRows(results, runStart),
    ...mediaRows(results, runStart),
    ...longTranscriptionRows(results, runStart),
    ...serveRows(results, runStart),
  ];
  return [
    'Benchmark summary (bench-results/*.json; medians where the benchmark takes several runs; Node peaks are VmHWM, Chromium peaks the renderer)',
    '',
    markdown(
      ['figure', 'Node', 'Chromium', 'measured by'],
      rows.map((r) => [r.figure, r.node, r.chromium, r.from]),
    ),
  ].join('\n');
}
