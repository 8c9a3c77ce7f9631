import { ServiceError } from '../core/contract/errors';
import { TRANSLATION_TARGETS, type TranslationTargetCode } from '../core/contract/languages';
import type { MediaFile, TranscriptionRequest } from '../core/contract/request';
import { translationChoiceOf } from '../core/model-catalog';
import { modelLanguageCode } from '../core/translation/model-language';

/**
 * Refuses, before any work, what this build cannot do rather than returning something else.
 * `translationModel`: the id of the host's translation model; null where the host has none
 * (then only english, through Whisper's own translate task, is a target). `speakerModels`:
 * whether the host has speaker models (diarization is refused without). `emotionModels`: whether
 * it can run an emotion model (a request naming one is refused without).
 */
export function refuseUnsupported<F extends MediaFile>(
  request: TranscriptionRequest<F>,
  translationModel: string | null,
  speakerModels = false,
  emotionModels = false,
): void {
  const target = request.target_translation_language;
  if (request.toggle_direct_translate && target !== null) refuseTarget(target, translationModel);
  if (request.toggle_diarization && !speakerModels) {
    throw new ServiceError(
      'not_supported',
      'Telling speakers apart needs speaker models, and none are set up here. Turn toggle_diarization off to transcribe.',
      [{ field: 'toggle_diarization', message: 'No speaker models are set up here.' }],
    );
  }
  if (request.emotion_model !== null && !emotionModels) {
    throw new ServiceError(
      'not_supported',
      'Telling emotion from the voice needs an emotion model runtime, and none is set up here. Leave emotion_model out to read sentiment alone.',
      [{ field: 'emotion_model', message: 'No emotion models can run here.' }],
    );
  }
}

function refuseTarget(target: TranslationTargetCode, translationModel: string | null): void {
  const name = TRANSLATION_TARGETS[target];
  if (translationModel === null) {
    if (target === 'en') return;
    throw new ServiceError(
      'not_supported',
      `Translation into ${name} needs a translation model, and none is set up here; only english is a target. Turn translation off or choose english.`,
      [
        {
          field: 'target_translation_language',
          message: 'Only english is a translation target without a translation model.',
        },
      ],
    );
  }
  if (modelLanguageCode(translationChoiceOf(translationModel), target) !== null) return;
  throw new ServiceError(
    'not_supported',
    `The translation model ${translationModel} cannot translate into ${name}. Choose another target language or another translation model.`,
    [
      {
        field: 'target_translation_language',
        message: `${name} is not a language of the translation model ${translationModel}.`,
      },
    ],
  );
}
