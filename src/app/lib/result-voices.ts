import type { Segment } from '../../core/contract/response';
import { NO_NAMES, renameSpeaker } from '../../core/edit/speaker-names';
import type { SpeakerRecognition } from '../../core/voices/recognise';
import type { SpeakerVoice } from '../../core/voices/voice';
import type { EntryEdits, EntryVersion } from './history-entry';

/**
 * The speakers of a result with their embeddings, and which stored voices they were found to
 * be when the result arrived: kept beside the result (its history entry, the session) and never
 * in it, so that no download, document or webhook carries them.
 */
export interface ResultVoices {
  speakers: SpeakerVoice[];
  recognitions: SpeakerRecognition[];
}

/**
 * The corrections that give a result's speakers the names stored voices are sure of, one undo
 * step a name (as the editor would make them), for a result kept without being shown; none
 * when no voice is sure.
 */
export function namedEdits(
  segments: Segment[],
  recognitions: readonly SpeakerRecognition[],
): EntryEdits | undefined {
  const sure = recognitions.filter((r) => r.sure);
  if (sure.length === 0) return undefined;
  const versions: EntryVersion[] = [{ segments, names: NO_NAMES }];
  for (const r of sure) {
    const names = renameSpeaker(versions.at(-1)!.names, r.speaker, r.name);
    versions.push({ segments, names });
  }
  return { versions, index: versions.length - 1 };
}
