/** How often, and after what pauses, a download that breaks is tried again. */
export interface RetryPolicy {
  /** Tries in a row that bring no new byte before the download is given up. */
  tries: number;
  /** The pause after the first failure; each further failure in a row doubles it. */
  firstPauseMs: number;
  maxPauseMs: number;
}

/**
 * Model files: five tries in a row without a new byte, pauses of 1, 2, 4 and 8 s between them.
 * A try that brings bytes starts the count again, so a slow connection that keeps breaking
 * still finishes, while a host that is gone is given up within about 15 s.
 */
export const MODEL_DOWNLOAD_RETRIES: RetryPolicy = {
  tries: 5,
  firstPauseMs: 1000,
  maxPauseMs: 16_000,
};

/**
 * The pause before the next try, after `failures` failed tries in a row (1 for the first);
 * null when the tries are spent.
 */
export function retryPause(policy: RetryPolicy, failures: number): number | null {
  if (!Number.isInteger(failures) || failures < 1 || failures >= policy.tries) return null;
  return Math.min(policy.maxPauseMs, policy.firstPauseMs * 2 ** (failures - 1));
}

/** Statuses that say "not now" rather than "not here": worth another try after a pause. */
export function isTransientStatus(status: number): boolean {
  return [408, 425, 429, 500, 502, 503, 504].includes(status);
}
