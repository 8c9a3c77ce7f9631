import { SILERO_VAD, TRANSLATION_CHOICES, WHISPER_CHOICES } from '../../core/model-catalog';
import type { EngineSettings, ModelRole } from '../../worker/protocol';

/** A model the Models settings can download ahead, show and delete. */
export interface ManagedModel {
  role: ModelRole;
  label: string;
  id: string;
  /** What the browser downloads, in MB, where known (a custom model's size is not). */
  approxMb: number | null;
}

/** The Silero VAD file the browser downloads, rounded up. */
const VAD_MB = 2.3;

/** The models the current settings use, each with what it costs to download. */
export function managedModels(settings: EngineSettings): ManagedModel[] {
  const translation = settings.translationModel ?? TRANSLATION_CHOICES[0]!.id;
  return [
    {
      role: 'recognition',
      label: 'Recognition',
      id: settings.whisperModel,
      approxMb:
        WHISPER_CHOICES.find((c) => c.id === settings.whisperModel)?.approxDownloadMb ?? null,
    },
    { role: 'vad', label: 'Voice activity', id: SILERO_VAD.id, approxMb: VAD_MB },
    {
      role: 'translation',
      label: 'Translation',
      id: translation,
      approxMb: TRANSLATION_CHOICES.find((c) => c.id === translation)?.approxDownloadMb ?? null,
    },
  ];
}

/** The address prefix of a model's files on a host in the hub's layout. */
export function modelPrefix(host: string, id: string): string {
  return `${host.endsWith('/') ? host : `${host}/`}${id}/resolve/`;
}
