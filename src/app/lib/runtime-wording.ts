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

/** A megabyte figure as the page writes it: whole above 10, one decimal below. */
function mb(value: number): string {
  return value >= 10 ? `${Math.round(value)}` : `${Math.round(value * 10) / 10}`;
}

/**
 * What Make available offline fetches, said before it starts: "Fetches 48 MB: the decoder
 * (32 MB), the speech runtime (14 MB) and the voice activity model (2.3 MB)." A model of a
 * size the catalogue does not know makes the total a lower bound.
 */
export function offlinePlanSentence(
  runtimes: readonly { name: RuntimeName; bytes: number }[],
  models: readonly Pick<ManagedModel, 'label' | 'approxMb'>[],
): string {
  const parts = [
    ...runtimes.map((r) => `${RUNTIME_LABELS[r.name]} (${size(r.bytes)} MB)`),
    ...models.map(
      (m) =>
        `the ${m.label.toLowerCase()} model (${m.approxMb === null ? 'size not known' : `${mb(m.approxMb)} MB`})`,
    ),
  ];
  const totalMb =
    runtimes.reduce((sum, r) => sum + size(r.bytes), 0) +
    models.reduce((sum, m) => sum + (m.approxMb ?? 0), 0);
  const atLeast = models.some((m) => m.approxMb === null) ? 'at least ' : '';
  const list =
    parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
  return `Fetches ${atLeast}${mb(totalMb)} MB: ${list}.`;
}
