import { readBlocks, type RecordingMeta } from './recording-storage';
import { recordingFileName, wavBlob } from './wav-file';

/** A stored recording as a WAV file; its length is what its blocks hold, whatever the meta says. */
export async function recordingFile(meta: RecordingMeta): Promise<File> {
  const stored = await readBlocks(meta.id);
  const blob = wavBlob(stored, meta.channels, meta.sampleRate);
  return new File([blob], recordingFileName(meta.startedAt), { type: 'audio/wav' });
}
