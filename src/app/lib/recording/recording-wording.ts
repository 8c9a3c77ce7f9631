import type { RecordingSource } from './recording-source';

/** Why recording could not start, in the user's words. */
export function startProblem(error: unknown, source: RecordingSource): string {
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : String(error);
  const what = source === 'tab' ? 'share a tab or screen' : 'use the microphone';
  switch (name) {
    case 'CaptureError':
      return message;
    case 'NotAllowedError':
      return `The browser was not allowed to ${what}, so nothing is recorded. Allow it for this site (in the address bar's site settings) and press Record again.`;
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'No microphone was found. Plug one in (or choose another in the list) and press Record again.';
    case 'NotReadableError':
      return 'The microphone is in use by another program or could not be opened. Close that program and press Record again.';
    default:
      return `Recording could not start: ${message}`;
  }
}

/** A source that stopped on its own: what happened, and that the recording so far is kept. */
export function endedProblem(source: 'microphone' | 'tab'): string {
  return source === 'microphone'
    ? 'The microphone stopped (unplugged or switched off). What was recorded until then is kept.'
    : 'The tab or screen is no longer shared. What was recorded until then is kept.';
}

/** Live captions that failed: the recording itself goes on. */
export function captionsProblem(error: Error): string {
  return `Live captions stopped: ${error.message} The recording goes on, and is transcribed when you press Stop.`;
}

/**
 * Captions that lag behind the recording. Before the first line, the lag is the captions
 * starting: the worker loads the speech model on the first Record (seconds on WASM).
 */
export function behindNotice(seconds: number, started: boolean): string {
  const lag = `Captions are ${Math.round(seconds)} s behind`;
  return started
    ? `${lag}; they will catch up.`
    : `${lag} while they start (the speech model loads first); they will catch up.`;
}

/** Captions lag noticeably past this many seconds. */
export const BEHIND_LIMIT = 2;
