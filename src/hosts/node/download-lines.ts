import type { StageProgress } from '../../engine/stage-context';

/**
 * Model downloads as the CLI tells them on stderr: a line when a model starts to download, then
 * at most one a second, and the line that completes it. Other progress is not printed.
 */
export function downloadLines(
  write: (line: string) => void,
  clock: () => number = () => performance.now() / 1000,
): StageProgress {
  const last = new Map<string, { at: number; done: boolean }>();
  return (stage, fraction, detail) => {
    if (!['models', 'translate', 'diarize'].includes(stage) || !detail.startsWith('Downloading ')) {
      return;
    }
    const colon = detail.indexOf(':');
    const model = colon < 0 ? detail : detail.slice(0, colon);
    const now = clock();
    const seen = last.get(model);
    const done = fraction === 1;
    if (seen && (seen.done || (!done && now - seen.at < 1))) return;
    last.set(model, { at: now, done });
    write(`murmur: ${detail}\n`);
  };
}
