import type { TranscriptionResponse } from '../../core/contract/response';

/** Reads a result saved as JSON (the JSON download) so it can be viewed and exported again. */
export function parseSavedResult(text: string): TranscriptionResponse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error('This file is not JSON. Open a result saved with the JSON download.');
  }
  const raw = (value as { prediction_raw?: { transcription?: unknown; metadata?: unknown } })
    ?.prediction_raw;
  if (
    typeof (value as { prediction?: unknown })?.prediction !== 'string' ||
    !Array.isArray(raw?.transcription) ||
    typeof raw?.metadata !== 'object'
  ) {
    throw new Error(
      'This JSON is not a transcription result (it needs prediction and prediction_raw).',
    );
  }
  return value as TranscriptionResponse;
}
