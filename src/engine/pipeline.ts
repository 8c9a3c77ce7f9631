import { ServiceError } from '../core/contract/errors';
import type { MediaFile, TranscriptionRequest } from '../core/contract/request';
import type { TranscriptionResponse } from '../core/contract/response';

export interface PipelineOptions {
  signal?: AbortSignal;
  /** Base URL (or folder, in Node) that models are loaded from, in the hub's layout. */
  modelHost?: string;
}

/**
 * Runs a validated request through decoding, recognition and assembly. Until the recognition
 * stages are in place every request ends here with a clear error rather than a made-up result.
 */
export async function runPipeline<F extends MediaFile>(
  request: TranscriptionRequest<F>,
  options: PipelineOptions = {},
): Promise<TranscriptionResponse> {
  options.signal?.throwIfAborted();
  throw new ServiceError(
    'engine_unavailable',
    `The transcription engine is not available in this build; the ${request.endpoint} request was valid but cannot be transcribed yet.`,
  );
}
