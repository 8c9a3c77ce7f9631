import { formatBytes } from './history-entry';
import type { ManagedModel } from './managed-models';
import type { RuntimeName, RuntimeProgress } from '../../worker/runtimes';

/** Each runtime as the page names it. */
export const RUNTIME_LABELS: Readonly<Record<RuntimeName, string>> = {
  decoder: 'the decoder',
  speech: 'the speech runtime',
  gpu: 'the GPU runtime',
};

const MB = 1_000_000;

/** Whole megabytes: what has arrived counts down, so "32 of 32" means all of it. */
const received = (bytes: number) => Math.floor(bytes / MB);
const size = (bytes: number) => Math.max(1, Math.round(bytes / MB));

/** "Preparing the decoder: 12 of 32 MB" */
export function runtimeSentence(progress: RuntimeProgress): string {
  const label = RUNTIME_LABELS[progress.runtime];
  return `Preparing ${label}: ${received(progress.received)} of ${size(progress.total)} MB`;
}

/** A model as the offline plan weighs it: what the catalogue says, what this browser holds. */
export interface PlannedModel extends Pick<ManagedModel, 'label' | 'approxMb'> {
  /** Bytes kept in this browser (0 or null: none). */
  cachedBytes?: number | null;
  /** What its files weigh on the host, once looked up. */
  hostedBytes?: number | null;
}

const list = (parts: readonly string[]) =>
  parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;

/**
 * What Make available offline fetches, said before it starts: "Fetches 48 MB: the decoder
 * (32 MB), the speech runtime (14 MB) and the voice activity model (2.3 MB)." A model already
 * in this browser is not fetched again: it is named apart, with the size the browser holds (the
 * size its row shows). A model of a size neither the catalogue nor the host told makes the
 * total a lower bound.
 */
export function offlinePlanSentence(
  runtimes: readonly { name: RuntimeName; bytes: number }[],
  models: readonly PlannedModel[],
): string {
  const kept = models.filter((m) => (m.cachedBytes ?? 0) > 0);
  const fetched = models.filter((m) => !kept.includes(m));
  const modelBytes = (m: PlannedModel) =>
    m.hostedBytes ?? (m.approxMb === null ? null : m.approxMb * MB);
  // Models in the byte format of their rows, so that a size reads the same in both places.
  const parts = [
    ...runtimes.map((r) => `${RUNTIME_LABELS[r.name]} (${size(r.bytes)} MB)`),
    ...fetched.map((m) => {
      const bytes = modelBytes(m);
      return `the ${m.label.toLowerCase()} model (${bytes === null ? 'size not known' : formatBytes(bytes)})`;
    }),
  ];
  const total =
    runtimes.reduce((sum, r) => sum + r.bytes, 0) +
    fetched.reduce((sum, m) => sum + (modelBytes(m) ?? 0), 0);
  const atLeast = fetched.some((m) => modelBytes(m) === null) ? 'at least ' : '';
  const here = list(
    kept.map((m) => `the ${m.label.toLowerCase()} model (${formatBytes(m.cachedBytes!)})`),
  );
  const already = kept.length > 0 ? ` Already in this browser: ${here}.` : '';
  if (parts.length === 0) return `Nothing more to fetch. Already in this browser: ${here}.`;
  return `Fetches ${atLeast}${formatBytes(total)}: ${list(parts)}.${already}`;
}
