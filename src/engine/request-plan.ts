import type { TranscriptionRequest } from '../core/contract/request';
import type { TranslationTargetCode } from '../core/contract/languages';
import type { EnginePorts } from './ports';

/**
 * What a request asks of the pipeline beyond recognition, decided once before any stage runs:
 * the stages read it instead of each looking at the request and the host's ports again.
 */
export interface RequestPlan {
  /** The language to translate into, or null. */
  target: TranslationTargetCode | null;
  /**
   * How the translation is made: by the host's translation model (every target, english
   * included: the recognised text stays available beside the translation, and one model
   * translates every pair), by Whisper's own translate task where the host has no translation
   * model (english, the only target it has), or not at all.
   */
  translation: 'model' | 'whisper' | null;
  /** Whether speakers are found (the request asks and the host has the speaker models). */
  speakers: boolean;
}

export function planRequest(
  request: Pick<
    TranscriptionRequest,
    'toggle_direct_translate' | 'target_translation_language' | 'toggle_diarization'
  >,
  ports: Pick<EnginePorts, 'translator' | 'speakers'>,
): RequestPlan {
  const target = request.toggle_direct_translate ? request.target_translation_language : null;
  return {
    target,
    translation: target === null ? null : ports.translator ? 'model' : 'whisper',
    speakers: request.toggle_diarization && ports.speakers !== undefined,
  };
}

/** Whisper's task for the request: its own translation only where no translation model serves. */
export function recognitionTask(plan: RequestPlan): 'transcribe' | 'translate' {
  return plan.translation === 'whisper' ? 'translate' : 'transcribe';
}
