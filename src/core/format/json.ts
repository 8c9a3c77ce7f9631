import type { Segment } from '../contract/response';

/** `prediction` for json: the segments (prediction_raw.transcription) as JSON text. */
export function renderJson(segments: readonly Segment[]): string {
  return JSON.stringify(segments);
}
