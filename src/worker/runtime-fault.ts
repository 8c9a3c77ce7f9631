import { ServiceError } from '../core/contract/errors';

/**
 * Failures after which a worker's model runtime cannot be trusted: a WebAssembly trap, or memory
 * exhausted (Emscripten's `Aborted(OOM)`, a failed `Memory.grow`, an ArrayBuffer that could not
 * be allocated). An Emscripten module that aborted refuses every later call, so the worker is
 * replaced rather than asked again.
 */
export function isRuntimeFault(thrown: unknown): boolean {
  // The engine's own errors say what went wrong in words (a helper worker that died included).
  if (thrown instanceof ServiceError) return false;
  if (typeof WebAssembly !== 'undefined' && thrown instanceof WebAssembly.RuntimeError) return true;
  const text = thrown instanceof Error ? `${thrown.name}: ${thrown.message}` : String(thrown);
  return /RuntimeError|Aborted\(|out of memory|memory access out of bounds|allocation failed|could not allocate memory|Cannot enlarge memory/i.test(
    text,
  );
}

/** The error a request gets when the worker running it died. */
export function workerCrashError(detail: string): ServiceError {
  return new ServiceError(
    'internal_error',
    `The transcription engine stopped (${detail}). It has been restarted: your file and options are kept, so you can run it again.`,
  );
}
