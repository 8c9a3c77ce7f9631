import { DEFAULT_EMBEDDING_MODEL, EMBEDDING_CHOICES } from '../../core/model-catalog';
import type { VoiceThresholds } from '../../core/voices/recognise';

/** Test builds: thresholds the browser tests set, so that a near voice is offered on purpose. */
let testThresholds: VoiceThresholds | null = null;

export function setTestVoiceThresholds(thresholds: VoiceThresholds | null): void {
  if (import.meta.env.MURMUR_TEST_HOOKS) testThresholds = thresholds;
}

/**
 * How close a speaker must be to a stored voice of `model` to be named by it, or offered its
 * name: the model's measured thresholds, or the default model's for a model Murmur does not
 * list.
 */
export function voiceThresholdsFor(model: string): VoiceThresholds {
  if (testThresholds) return testThresholds;
  const choice =
    EMBEDDING_CHOICES.find((c) => c.id === model) ??
    EMBEDDING_CHOICES.find((c) => c.id === DEFAULT_EMBEDDING_MODEL)!;
  return choice.voiceThresholds;
}
