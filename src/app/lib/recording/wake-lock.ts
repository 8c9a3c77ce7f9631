/**
 * A screen wake lock while recording: a phone that dims and sleeps would stop the capture.
 * Browsers without the API, or that refuse it (a hidden tab, battery saving), record anyway.
 */
export async function holdScreenAwake(): Promise<() => void> {
  let sentinel: WakeLockSentinel | null = null;
  try {
    sentinel = (await navigator.wakeLock?.request('screen')) ?? null;
  } catch {
    sentinel = null;
  }
  return () => void sentinel?.release().catch(() => undefined);
}
