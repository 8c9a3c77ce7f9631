import { ServiceError } from '../core/contract/errors';
import type { MediaFile, TranscriptionRequest } from '../core/contract/request';

/** Refuses, before any work, what this build cannot do rather than returning something else. */
export function refuseUnsupported<F extends MediaFile>(request: TranscriptionRequest<F>): void {
  const target = request.target_translation_language;
  if (request.toggle_direct_translate && target !== null && target !== 'en') {
    throw new ServiceError(
      'not_supported',
      `Translation into "${target}" is not supported yet; only english is. Turn translation off or choose english.`,
      [
        {
          field: 'target_translation_language',
          message: 'Only english is supported as a translation target for now.',
        },
      ],
    );
  }
  if (request.toggle_diarization) {
    throw new ServiceError(
      'not_supported',
      'Speaker diarization is not available yet. Turn toggle_diarization off to transcribe.',
      [{ field: 'toggle_diarization', message: 'Diarization is not available yet.' }],
    );
  }
}
