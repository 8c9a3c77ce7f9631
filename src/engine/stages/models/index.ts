/**
 * The model-loading stage. In: the request's plan (which models it needs) and the host's model
 * ports. Out: the recogniser loading, and the translation and speaker models loading beside
 * it, each reported as model loading while the media is decoded and recognised, and under the
 * stage that needs it once that stage has to wait for it. Nothing here is awaited: the first
 * stages run while the models come.
 */
import { loadInBackground, type BackgroundLoad } from '../../model-loading';
import type { LoadedSpeakerModels, LoadedTranslator, LoadedWhisper } from '../../ports';
import type { RequestPlan } from '../../request-plan';
import type { StageContext } from '../../stage-context';

export interface ModelsStageInput {
  plan: RequestPlan;
  /** The contexts of the stages that use the models loaded beside the recogniser. */
  translating: StageContext;
  diarizing: StageContext;
}

export interface LoadingModels {
  recogniser: Promise<LoadedWhisper>;
  /** Null when the request does not translate with a translation model. */
  translator: BackgroundLoad<LoadedTranslator> | null;
  /** Null when the request does not ask for speakers. */
  speakers: BackgroundLoad<LoadedSpeakerModels> | null;
}

export function run(input: ModelsStageInput, context: StageContext): LoadingModels {
  const { signal, ports } = context;
  const { plan, translating, diarizing } = input;
  const recogniser = ports.recogniser({
    ...(signal ? { signal } : {}),
    onProgress: context.progress,
  });
  // A failed load is reported when recognition awaits it, not as an unhandled rejection.
  recogniser.catch(() => {});
  const translator = ports.translator;
  const speakers = ports.speakers;
  return {
    recogniser,
    translator:
      plan.translation === 'model' && translator
        ? loadInBackground(
            (onProgress) => translator.load({ ...(signal ? { signal } : {}), onProgress }),
            context,
            translating,
            'Loading the translation model',
          )
        : null,
    speakers:
      plan.speakers && speakers
        ? loadInBackground(
            (onProgress) => speakers.load({ ...(signal ? { signal } : {}), onProgress }),
            context,
            diarizing,
            'Loading the speaker models',
          )
        : null,
  };
}
