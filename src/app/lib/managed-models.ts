import {
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_SEGMENTATION_MODEL,
  EMBEDDING_CHOICES,
  SEGMENTATION_CHOICES,
  SILERO_VAD,
  TRANSLATION_CHOICES,
  WHISPER_CHOICES,
} from '../../core/model-catalog';
import type { EngineSettings, ModelRole } from '../../worker/protocol';

/** Every model the Models settings show (each a role the worker can download ahead). */
export type ManagedRole = ModelRole;

export const MANAGED_ROLES: readonly ManagedRole[] = [
  'recognition',
  'vad',
  'translation',
  'segmentation',
  'embedding',
];

/** A model the Models settings can download ahead, show and delete. */
export interface ManagedModel {
  role: ManagedRole;
  label: string;
  id: string;
  /** What the browser downloads, in MB, where known (a custom model's size is not). */
  approxMb: number | null;
  /** The model's licence, where the catalogue knows it. */
  licence?: string;
}

/** The Silero VAD file the browser downloads, rounded up. */
const VAD_MB = 2.3;

/** The models the current settings use, each with what it costs to download. */
export function managedModels(settings: EngineSettings): ManagedModel[] {
  const translation = settings.translationModel ?? TRANSLATION_CHOICES[0]!.id;
  const segmentation = settings.segmentationModel ?? DEFAULT_SEGMENTATION_MODEL;
  const embedding = settings.embeddingModel ?? DEFAULT_EMBEDDING_MODEL;
  const segmentationChoice = SEGMENTATION_CHOICES.find((c) => c.id === segmentation);
  const embeddingChoice = EMBEDDING_CHOICES.find((c) => c.id === embedding);
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
      licence: TRANSLATION_CHOICES.find((c) => c.id === translation)?.licence,
    },
    {
      role: 'segmentation',
      label: 'Speaker segmentation',
      id: segmentation,
      approxMb: segmentationChoice?.approxDownloadMb ?? null,
      licence: segmentationChoice?.licence,
    },
    {
      role: 'embedding',
      label: 'Speaker embedding',
      id: embedding,
      approxMb: embeddingChoice?.approxDownloadMb ?? null,
      licence: embeddingChoice?.licence,
    },
  ];
}

/** The address prefix of a model's files on a host in the hub's layout. */
export function modelPrefix(host: string, id: string): string {
  return `${host.endsWith('/') ? host : `${host}/`}${id}/resolve/`;
}
