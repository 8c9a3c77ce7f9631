import { nameProblem, speakerLabels } from '../../core/edit/speaker-names';
import { recogniseSpeakers } from '../../core/voices/recognise';
import { rememberVoice, renameVoice, type SpeakerVoice, type Voice } from '../../core/voices/voice';
import {
  mergeVoices,
  readVoicesFile,
  VoicesFileError,
  voicesFileText,
} from '../../core/voices/voice-file';
import { saveBlob } from '../lib/download';
import { voiceThresholdsFor } from '../lib/voice-thresholds';
import { useAppStore } from './app-store';
import { currentNames, currentSegments } from './editor-slice';
import type { ResultVoices } from '../lib/result-voices';
import { readVoices, writeVoices } from './voices-storage';

let loading: Promise<void> | null = null;

/** Reads the voices remembered by earlier visits (once; later calls wait for that read). */
export function loadVoices(): Promise<void> {
  loading ??= readVoices()
    .then((voices) => useAppStore.setState({ voices }))
    .catch(() => undefined);
  return loading;
}

/**
 * Changes the stored voices (once those of earlier visits are read, so that none is lost):
 * shown at once, kept for later visits when the browser lets it store.
 */
async function changeVoices(change: (voices: Voice[]) => Voice[]): Promise<void> {
  await loadVoices();
  const voices = change(useAppStore.getState().voices);
  useAppStore.setState({ voices });
  await writeVoices(voices).catch(() => undefined);
}

/** Which stored voices a new result's speakers are (of the voices of their own model). */
export async function recogniseSpeakersFound(speakers: SpeakerVoice[]): Promise<ResultVoices> {
  await loadVoices();
  const { voices } = useAppStore.getState();
  const model = speakers[0]?.model;
  const recognitions =
    model === undefined ? [] : recogniseSpeakers(speakers, voices, voiceThresholdsFor(model));
  return { speakers, recognitions };
}

/**
 * The shown result's speakers compared with the stored voices: each sure match is given as a
 * rename (one undo step each, exactly as one typed in), near misses are kept to be offered.
 * Called once, when the result arrives: a result reopened keeps the names it was left with.
 */
export async function recogniseResult(speakers: SpeakerVoice[]): Promise<ResultVoices> {
  const found = await recogniseSpeakersFound(speakers);
  useAppStore.setState({ resultVoices: found });
  for (const r of found.recognitions)
    if (r.sure) useAppStore.getState().renameSpeaker(r.speaker, r.name);
  return found;
}

/**
 * Remembers the shown result's speaker `label` as `name` (strengthening the voice of that name
 * when there is one); a speaker shown by its label takes the name, as one undo step. Returns
 * why not, in a sentence, or null once remembered.
 */
export async function rememberSpeaker(label: string, name: string): Promise<string | null> {
  const state = useAppStore.getState();
  const speaker = state.resultVoices?.speakers.find((s) => s.speaker === label);
  if (!speaker) return 'This speaker’s voice was not kept with the result.';
  if (name.trim() === '') return 'Give the voice a name first.';
  const names = currentNames(state);
  if (!names[label]) {
    const labels = speakerLabels(currentSegments(state) ?? []);
    const problem = nameProblem(label, name, labels, names);
    if (problem) return problem;
    state.renameSpeaker(label, name);
  }
  await changeVoices((voices) => rememberVoice(voices, name, speaker, new Date()));
  return null;
}

/** Renames a stored voice; a sentence when another voice of its model has the name. */
export async function renameStoredVoice(index: number, name: string): Promise<string | null> {
  if (name.trim() === '') return 'Give the voice a name first.';
  await loadVoices();
  const renamed = renameVoice(useAppStore.getState().voices, index, name);
  if (!renamed) return `Another voice is already called “${name.trim()}”. Choose a different name.`;
  await changeVoices(() => renamed);
  return null;
}

/** Deletes a stored voice; it can be put back (`undoVoiceDeletion`) until another goes. */
export function deleteStoredVoice(index: number): Promise<void> {
  return changeVoices((voices) => {
    const voice = voices[index];
    if (voice) useAppStore.setState({ deletedVoice: { voice, index } });
    return voices.filter((_, i) => i !== index);
  });
}

/** Puts the voice deleted last back where it stood. */
export function undoVoiceDeletion(): Promise<void> {
  const deleted = useAppStore.getState().deletedVoice;
  if (!deleted) return Promise.resolve();
  useAppStore.setState({ deletedVoice: null });
  return changeVoices((voices) => {
    const at = Math.min(deleted.index, voices.length);
    return [...voices.slice(0, at), deleted.voice, ...voices.slice(at)];
  });
}

export function deleteAllVoices(): Promise<void> {
  useAppStore.setState({ deletedVoice: null });
  return changeVoices(() => []);
}

/** The voices file, as a download: the same format `murmur voices` and the service read. */
export function exportVoices(): void {
  const text = voicesFileText(useAppStore.getState().voices);
  saveBlob(new Blob([text], { type: 'application/json;charset=utf-8' }), 'voices.json');
}

/**
 * Voices from a file, added to those stored (a name both have takes the file's voice). A file
 * that is not a voices file changes nothing: the sentence why, after the file's name, is
 * thrown.
 */
export async function importVoices(file: File): Promise<number> {
  let imported: Voice[];
  try {
    imported = readVoicesFile(await file.text());
  } catch (thrown) {
    const why = thrown instanceof VoicesFileError ? thrown.message : 'cannot be read.';
    throw new VoicesFileError(`${file.name} ${why}`);
  }
  await changeVoices((voices) => mergeVoices(voices, imported));
  return imported.length;
}
