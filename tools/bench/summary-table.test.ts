import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  readBenchResults,
  readRunStart,
  writeBenchResult,
  writeRunStart,
  type BenchResult,
} from './bench-result';
import { REPO } from './bench-media';
import { summaryTable } from './summary-table';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
function resultsDir(results: BenchResult[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'murmur-bench-results-'));
  dirs.push(dir);
  for (const r of results) writeFileSync(join(dir, `${r.name}.json`), JSON.stringify(r));
  return dir;
}

const result = (r: Partial<BenchResult> & Pick<BenchResult, 'name' | 'bench'>): BenchResult => ({
  command: `tsx ${r.bench}`,
  measured_at: '2026-11-27T10:00:00.000Z',
  settings: {},
  figures: {},
  ratios: {},
  units: {},
  ...r,
});

const asrTiny = result({
  name: 'asr-whisper-tiny',
  bench: 'tools/bench/asr.ts',
  settings: { model: 'murmur-bench/whisper-tiny', recording_s: 121, runs: 3 },
  figures: {
    'node.engine.rtf': 0.05,
    'node.engine.first_segment_s': 2.4,
    'node.engine.peak_mb': 1249,
    'node.pipeline.rtf': 0.112,
    'node.pipeline.first_segment_s': 13.5,
    'node.pipeline.peak_mb': 1058,
    'chromium.engine.rtf': 0.066,
    'chromium.engine.first_segment_s': 3.4,
    'chromium.engine.peak_mb': 748,
    'chromium.pipeline.rtf': 0.15,
    'chromium.pipeline.first_segment_s': 18.1,
    'chromium.pipeline.peak_mb': 748,
    'node.whispercpp-native.rtf': 0.3,
  },
  ratios: {
    'node.speedup': 2.24,
    'node.speedup_whispercpp': 6,
    'node.first_segment_sooner': 5.625,
    'chromium.speedup': 2.2727,
    'chromium.first_segment_sooner': 5.3235,
  },
});
const diarizationNodeOnly = result({
  name: 'diarization',
  bench: 'tools/bench/diarization.ts',
  command: 'tsx tools/bench/diarization.ts --node-only',
  measured_at: '2026-11-27T11:00:00.000Z',
  settings: { recording_s: 601, runs: 1 },
  figures: {
    'node.seconds': 14.4,
    'node.rtf': 0.024,
    'node.s_per_minute': 1.43,
    'node.peak_mb': 562,
  },
});
const media = (host: string, seconds: number, at: string, peak: number, speed: number) =>
  result({
    name: `media-${host}-${seconds}s`,
    bench: `tools/bench/media-${host === 'node' ? 'node' : 'browser'}.ts`,
    measured_at: at,
    settings: { recording_s: seconds, runs: 1 },
    figures: { [`${host}.peak_mb`]: peak, [`${host}.total_x_realtime`]: speed },
  });
const longTranscription = result({
  name: 'transcribe-chromium-mono-36000s',
  bench: 'tools/bench/transcribe-long-browser.ts',
  measured_at: '2026-11-27T08:00:00.000Z',
  settings: { recording_s: 36000, runs: 1, model: 'murmur-test/whisper-synth', tokens: 3.5 },
  figures: {
    'chromium.first_hour_peak_mb': 702,
    'chromium.later_hours_peak_mb': 715,
    'chromium.total_x_realtime': 12.4,
  },
});
const longTranscriptionNode = result({
  name: 'transcribe-node-mono-36000s',
  bench: 'tools/bench/transcribe-long-node.ts',
  measured_at: '2026-11-27T09:10:00.000Z',
  settings: { recording_s: 36000, runs: 1, model: 'murmur-test/whisper-synth', tokens: 3.5 },
  figures: {
    'node.first_hour_peak_mb': 781,
    'node.later_hours_peak_mb': 795,
    'node.vm_hwm_mb': 801,
    'node.total_x_realtime': 25.3,
  },
});
const serve = result({
  name: 'serve',
  bench: 'tools/bench/serve.ts',
  measured_at: '2026-11-27T10:30:00.000Z',
  settings: { model: 'murmur-test/whisper-synth', requests: 20, concurrency: '1,2' },
  figures: {
    'node.c1.per_minute': 74.8,
    'node.c1.p50_s': 0.67,
    'node.c1.peak_mb': 583,
    'node.c2.per_minute': 78.5,
    'node.c2.p50_s': 1.28,
    'node.c2.peak_mb': 623,
  },
});

/** The title line, and each of the table's lines split into its trimmed cells. */
function parse(table: string) {
  const [title, blank, ...lines] = table.split('\n');
  expect(blank).toBe('');
  // Columns are padded: every line of the table is as long as the first.
  expect(new Set(lines.map((l) => l.length)).size).toBe(1);
  const cells = lines.map((l) =>
    l
      .slice(2, -2)
      .split(' | ')
      .map((c) => c.trim()),
  );
  expect(cells[0]).toEqual(['figure', 'Node', 'Chromium', 'measured by']);
  expect(cells[1]!.every((c) => /^-+$/.test(c))).toBe(true);
  return { title, rows: cells.slice(2) };
}

const TITLE =
  'Benchmark summary (bench-results/*.json; medians where the benchmark takes several runs; Node peaks are VmHWM, Chromium peaks the renderer)';
const NOT_BASE =
  'not measured: no result from tools/bench/asr.ts --model murmur-bench/whisper-base yet (npm run bench)';

describe('the summary table of npm run bench', () => {
  it('shows each figure the result files hold, and why the others are not measured', () => {
    const dir = resultsDir([
      asrTiny,
      diarizationNodeOnly,
      media('node', 3600, '2026-11-27T09:30:00.000Z', 609, 76.4),
      media('chromium', 3600, '2026-11-27T09:40:00.000Z', 727, 21.3),
      // Left from an earlier `npm run bench`, before this one's start.
      media('node', 7200, '2026-11-26T08:00:00.000Z', 849, 70.2),
      longTranscription,
      longTranscriptionNode,
      serve,
    ]);
    writeFileSync(join(dir, 'run.json'), JSON.stringify({ started_at: '2026-11-27T09:00:00Z' }));
    const { title, rows } = parse(summaryTable(readBenchResults(dir), readRunStart(dir)));
    expect(title).toBe(TITLE);
    const asrFrom = 'asr.ts: 121-s recording, median of 3 runs each, 2026-11-27 10:00';
    expect(rows).toEqual([
      [
        'engine against the pipeline, whisper-tiny: speed (real-time factors)',
        '2.24x faster (0.050 against 0.112)',
        '2.27x faster (0.066 against 0.150)',
        asrFrom,
      ],
      [
        'engine against whisper.cpp (native in Node, WASM in Chromium), whisper-tiny: speed (real-time factors)',
        '6.00x faster (0.050 against 0.300)',
        'not measured: not in its last run',
        asrFrom,
      ],
      [
        'first segment, whisper-tiny: engine (pipeline)',
        '2.40 s (13.50 s): 5.6x sooner',
        '3.40 s (18.10 s): 5.3x sooner',
        asrFrom,
      ],
      [
        'peak memory, recognition, whisper-tiny: engine / pipeline',
        '1249 MB / 1058 MB',
        '748 MB / 748 MB',
        asrFrom,
      ],
      [
        'engine against the pipeline, whisper-base: speed (real-time factors)',
        'not measured',
        'not measured',
        NOT_BASE,
      ],
      [
        'engine against whisper.cpp (native in Node, WASM in Chromium), whisper-base: speed (real-time factors)',
        'not measured',
        'not measured',
        NOT_BASE,
      ],
      ['first segment, whisper-base: engine (pipeline)', 'not measured', 'not measured', NOT_BASE],
      [
        'peak memory, recognition, whisper-base: engine / pipeline',
        'not measured',
        'not measured',
        NOT_BASE,
      ],
      [
        'speaker stage: seconds per minute of audio (peak memory)',
        '1.43 s (562 MB)',
        'not measured: not in its last run (--node-only)',
        'diarization.ts: 601-s conversation, one run, 2026-11-27 11:00',
      ],
      [
        "speaker stage's time / recognition's, whisper-tiny (real-time factors)",
        '0.48x (0.024 / 0.050)',
        'not measured: not in its last run (--node-only)',
        'diarization.ts, asr.ts: 601-s conversation, one run; recognition median of 3 runs, 2026-11-27 11:00, 2026-11-27 10:00',
      ],
      [
        "speaker stage's time / recognition's, whisper-base (real-time factors)",
        'not measured',
        'not measured',
        'not measured: no recognition result for whisper-base',
      ],
      [
        'media and speech stages, 1 h stereo mp3: peak memory (speed)',
        '609 MB (76.4x real time)',
        '727 MB (21.3x real time)',
        'media-node.ts, media-browser.ts: one run each, 2026-11-27 09:30, 2026-11-27 09:40',
      ],
      [
        'media and speech stages, 2 h stereo mp3: peak memory (speed)',
        '849 MB (70.2x real time)',
        'not measured: no media-browser.ts run',
        'media-node.ts: one run each, 2026-11-26 08:00 (earlier run)',
      ],
      [
        'media and speech stages, 10 h mono mp3: peak memory (speed)',
        'not measured',
        'not measured',
        'not measured: no result from tools/bench/media.ts yet (npm run bench)',
      ],
      [
        'whole transcription, 10 h mono mp3, test-size Whisper: peak memory, first hour / later hours (speed)',
        '781 MB / 795 MB (25.3x real time)',
        '702 MB / 715 MB (12.4x real time)',
        'transcribe-long-node.ts, transcribe-long-browser.ts: one run each, murmur-test/whisper-synth, 2026-11-27 09:10, 2026-11-27 08:00 (earlier run)',
      ],
      [
        'HTTP service: requests a minute (p50 latency, peak memory) by concurrency',
        '1: 74.8 (0.67 s, 583 MB); 2: 78.5 (1.28 s, 623 MB)',
        'n/a: the service runs in Node',
        'serve.ts: 20 requests a level, murmur-test/whisper-synth, 2026-11-27 10:30',
      ],
    ]);
  });

  it('shows every figure as not measured, with its reason, before any benchmark has run', () => {
    const dir = join(tmpdir(), 'murmur-bench-results-none');
    const { title, rows } = parse(summaryTable(readBenchResults(dir), readRunStart(dir)));
    expect(title).toBe(TITLE);
    const none = (bench: string) =>
      `not measured: no result from tools/bench/${bench} yet (npm run bench)`;
    expect(rows.map((r) => [r[1], r[2], r[3]])).toEqual([
      ...Array(4).fill([
        'not measured',
        'not measured',
        none('asr.ts --model murmur-bench/whisper-tiny'),
      ]),
      ...Array(4).fill(['not measured', 'not measured', NOT_BASE]),
      ...Array(3).fill(['not measured', 'not measured', none('diarization.ts')]),
      ...Array(3).fill(['not measured', 'not measured', none('media.ts')]),
      [
        'not measured: no result from tools/bench/transcribe-long-node.ts yet (npm run bench:long)',
        'not measured: no result from tools/bench/transcribe-long-browser.ts yet (npm run bench:long)',
        'not measured: no result from tools/bench/transcribe-long-browser.ts or transcribe-long-node.ts yet (npm run bench:long)',
      ],
      ['not measured', 'n/a: the service runs in Node', none('serve.ts')],
    ]);
  });

  it('reads back what a benchmark wrote, with its script and options', () => {
    const dir = resultsDir([]);
    writeRunStart(dir);
    writeBenchResult(
      join(REPO, 'tools', 'bench', 'serve.ts'),
      {
        name: 'serve',
        settings: { requests: 4 },
        figures: { 'node.c1.per_minute': 60 },
        ratios: {},
        units: { 'node.c1.per_minute': 'requests / min' },
      },
      dir,
    );
    const read = readBenchResults(dir);
    expect([...read.keys()]).toEqual(['serve']);
    const serveRead = read.get('serve')!;
    expect(serveRead.bench).toBe('tools/bench/serve.ts');
    expect(serveRead.command.startsWith('tsx tools/bench/serve.ts')).toBe(true);
    expect(serveRead.figures).toEqual({ 'node.c1.per_minute': 60 });
    expect(new Date(serveRead.measured_at) >= readRunStart(dir)!).toBe(true);
  });
});
