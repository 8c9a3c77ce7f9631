/**
 * The headline figures of a benchmark run, kept as a small JSON file in `bench-results/` (not
 * committed) for `summary.ts`. A benchmark's later run of the same name replaces the file, so
 * the summary shows each benchmark's last run as a whole, never figures of two sittings mixed.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO } from './bench-media';

export const RESULTS = join(REPO, 'bench-results');

export interface BenchResult {
  /** The file's name without `.json`: `asr-whisper-tiny`, `media-node-3600s`, ... */
  name: string;
  /** The script that measured it, relative to the repository: `tools/bench/asr.ts`. */
  bench: string;
  /** The command line it ran with (its options), so that a figure it left out can be told. */
  command: string;
  measured_at: string;
  /** How the figures were taken: model, recording's length, runs, ... */
  settings: Record<string, string | number>;
  /** Keyed `host.what` where a figure belongs to a host (`node.engine.rtf`). */
  figures: Record<string, number>;
  /** One ratio per key, each a plain factor (`node.speedup`: 2.24 = 2.24x). */
  ratios: Record<string, number>;
  /** The unit of each figure's key (`s`, `MB`, `x real time`, ...); none for a plain number. */
  units: Record<string, string>;
}

/** Writes `bench-results/<name>.json`; `script` is the benchmark's `import.meta.filename`. */
export function writeBenchResult(
  script: string,
  result: Omit<BenchResult, 'bench' | 'command' | 'measured_at'>,
  dir = RESULTS,
): string {
  const bench = relative(REPO, script);
  const full: BenchResult = {
    name: result.name,
    bench,
    command: ['tsx', bench, ...process.argv.slice(2)].join(' '),
    measured_at: new Date().toISOString(),
    settings: result.settings,
    figures: result.figures,
    ratios: result.ratios,
    units: result.units,
  };
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${result.name}.json`);
  writeFileSync(path, `${JSON.stringify(full, null, 2)}\n`);
  return path;
}

/** Every result file in `dir` (none when it does not exist), keyed by name. */
export function readBenchResults(dir = RESULTS): Map<string, BenchResult> {
  const out = new Map<string, BenchResult>();
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return out;
  }
  for (const file of files.filter((f) => f.endsWith('.json') && f !== RUN_FILE)) {
    const result = JSON.parse(readFileSync(join(dir, file), 'utf8')) as BenchResult;
    out.set(result.name, result);
  }
  return out;
}

/** Written by the preflight: when this `npm run bench` started. */
export const RUN_FILE = 'run.json';

export function writeRunStart(dir = RESULTS): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, RUN_FILE),
    `${JSON.stringify({ started_at: new Date().toISOString() })}\n`,
  );
}

export function readRunStart(dir = RESULTS): Date | null {
  try {
    const run = JSON.parse(readFileSync(join(dir, RUN_FILE), 'utf8')) as { started_at: string };
    return new Date(run.started_at);
  } catch {
    return null;
  }
}
