import type { LanguageBehaviour } from '../../core/contract/request';
import type { LiveListening } from '../../worker/client';
import { saveBlob } from '../lib/download';
import { listMicrophones, startCapture, type Capture } from '../lib/recording/capture';
import { interleave16, peakLevel } from '../lib/recording/pcm16';
import { recordingFile } from '../lib/recording/recording-file';
import { sourceChannels } from '../lib/recording/recording-source';
import {
  deleteRecording,
  listRecordings,
  writeBlock,
  writeMeta,
  type RecordingMeta,
} from '../lib/recording/recording-storage';
import { captionsProblem, endedProblem, startProblem } from '../lib/recording/recording-wording';
import { showRecordingInTitle } from '../lib/recording/tab-title';
import { holdScreenAwake } from '../lib/recording/wake-lock';
import { recordingFileName, wavBlob } from '../lib/recording/wav-file';
import { useAppStore } from './app-store';
import { getClient, submitTranscription } from './transcribe-actions';

const RATE = 16000;
/** Sound is written to storage every this many seconds: what a crash can lose at most. */
const BLOCK_SECONDS = 2;

/** The recording under way. */
interface Session {
  meta: RecordingMeta;
  capture: Capture | null;
  listening: LiveListening | null;
  /** Sound gathered since the last write. */
  pending: Int16Array[];
  pendingFrames: number;
  /** Frames recorded, and frames written to storage. */
  frames: number;
  storedFrames: number;
  nextBlock: number;
  /** Writes run one after another, in order. */
  writes: Promise<void>;
  /** Blocks the storage refused (full, private browsing): kept in memory instead. */
  unsaved: Int16Array[] | null;
  release: (() => void)[];
}

let session: Session | null = null;

function joined(blocks: readonly Int16Array[], length: number): Int16Array {
  const out = new Int16Array(length);
  let at = 0;
  for (const b of blocks) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/** Writes what was gathered since the last write, after the writes before it. */
function flush(current: Session): void {
  if (current.pendingFrames === 0) return;
  const { channels } = current.meta;
  const pcm = joined(current.pending, current.pendingFrames * channels);
  const frames = current.pendingFrames;
  const index = current.nextBlock++;
  current.pending = [];
  current.pendingFrames = 0;
  current.writes = current.writes.then(async () => {
    if (current.unsaved) {
      current.unsaved.push(pcm);
      return;
    }
    try {
      await writeBlock(current.meta.id, index, pcm);
      current.storedFrames += frames;
      await writeMeta({ ...current.meta, seconds: current.storedFrames / RATE });
    } catch {
      current.unsaved = [pcm];
    }
  });
}

function receiveBlock(current: Session, channels: Float32Array[]): void {
  if (session !== current) return;
  const store = useAppStore.getState();
  useAppStore.setState({ levels: channels.map(peakLevel) });
  if (store.recordingPhase !== 'recording') return;
  const frames = channels[0]?.length ?? 0;
  current.pending.push(interleave16(channels));
  current.pendingFrames += frames;
  current.frames += frames;
  // The worker takes its own copy (transferred); the storage keeps the PCM made above.
  current.listening?.push(channels.map((c) => c.slice()));
  useAppStore.setState({ recordedSeconds: current.frames / RATE });
  if (current.pendingFrames >= BLOCK_SECONDS * RATE) flush(current);
}

/** Live captions of the recording, in the form's languages; their failure stops only them. */
function startListening(current: Session): LiveListening | null {
  const store = useAppStore.getState();
  const { values } = store;
  store.startCaptions();
  const fail = (error: Error) => {
    if (session !== current) return;
    current.listening = null;
    useAppStore.getState().failCaptions(captionsProblem(error));
  };
  try {
    getClient().configure(store.settings);
    return getClient().listen(
      {
        channels: current.meta.channels,
        languageBehaviour: values.language_behaviour as LanguageBehaviour,
        language: values.language_behaviour === 'manual' ? values.language : null,
        hint: values.transcription_hint,
      },
      (update) => {
        if (session === current) useAppStore.getState().receiveCaptions(update);
      },
      fail,
    );
  } catch (error) {
    fail(error instanceof Error ? error : new Error(String(error)));
    return null;
  }
}

export async function refreshMicrophones(): Promise<void> {
  const microphones = await listMicrophones().catch(() => []);
  useAppStore.setState({ microphones });
}

export async function startRecording(): Promise<void> {
  const store = useAppStore.getState();
  if (store.recordingPhase !== 'idle') return;
  const source = store.recordingSource;
  useAppStore.setState({
    recordingPhase: 'starting',
    recordingProblem: null,
    levels: [],
    recordedSeconds: 0,
  });
  const current: Session = {
    meta: {
      id: crypto.randomUUID(),
      startedAt: Date.now(),
      channels: sourceChannels(source),
      sampleRate: RATE,
      seconds: 0,
      finished: false,
    },
    capture: null,
    listening: null,
    pending: [],
    pendingFrames: 0,
    frames: 0,
    storedFrames: 0,
    nextBlock: 0,
    writes: Promise.resolve(),
    unsaved: null,
    release: [],
  };
  session = current;
  try {
    current.capture = await startCapture(source, store.microphoneId, {
      onBlock: (block) => receiveBlock(current, block),
      onEnded: (kind) => {
        if (session !== current) return;
        useAppStore.setState({ recordingProblem: endedProblem(kind) });
        void stopRecording();
      },
    });
  } catch (error) {
    session = null;
    useAppStore.setState({ recordingPhase: 'idle', recordingProblem: startProblem(error, source) });
    return;
  }
  current.writes = writeMeta(current.meta).catch(() => {
    current.unsaved = [];
  });
  useAppStore.setState({ recordingPhase: 'recording' });
  current.release.push(showRecordingInTitle());
  const onHide = () => flush(current);
  window.addEventListener('pagehide', onHide);
  current.release.push(() => window.removeEventListener('pagehide', onHide));
  current.listening = startListening(current);
  void refreshMicrophones();
  const release = await holdScreenAwake();
  if (session === current) current.release.push(release);
  else release();
}

export function pauseRecording(): void {
  if (!session || useAppStore.getState().recordingPhase !== 'recording') return;
  flush(session);
  useAppStore.setState({ recordingPhase: 'paused' });
}

export function resumeRecording(): void {
  if (!session || useAppStore.getState().recordingPhase !== 'paused') return;
  useAppStore.setState({ recordingPhase: 'recording' });
}

/** Stops, keeps what was recorded, and transcribes it as a file with the form's options. */
export async function stopRecording(): Promise<void> {
  const current = session;
  const phase = useAppStore.getState().recordingPhase;
  if (!current || (phase !== 'recording' && phase !== 'paused')) return;
  useAppStore.setState({ recordingPhase: 'stopping' });
  await current.capture?.stop();
  // The file's own transcription replaces the live one; the worker does one thing at a time.
  current.listening?.cancel();
  flush(current);
  await current.writes;
  current.meta = { ...current.meta, seconds: current.storedFrames / RATE, finished: true };
  if (!current.unsaved) await writeMeta(current.meta).catch(() => undefined);
  current.release.forEach((release) => release());
  session = null;
  const stored = await recordingFile(current.meta).catch(() => null);
  const file = current.unsaved ? await withUnsaved(stored, current.unsaved, current.meta) : stored;
  useAppStore.setState({ recordingPhase: 'idle', levels: [], lastRecording: file });
  if (file) await transcribeRecording(current.meta, file);
}

/** A recording whose storage failed part-way: what was stored, then what was kept in memory. */
async function withUnsaved(
  stored: File | null,
  unsaved: Int16Array[],
  meta: RecordingMeta,
): Promise<File> {
  const head = stored ? new Int16Array(await stored.slice(44).arrayBuffer()) : new Int16Array(0);
  const blob = wavBlob([head, ...unsaved], meta.channels, meta.sampleRate);
  return new File([blob], recordingFileName(meta.startedAt), { type: 'audio/wav' });
}

/**
 * Puts a recording in the form and transcribes it. Its stored copy is deleted once it is
 * transcribed (the history then holds it, with its media where the history keeps media);
 * until then it stays stored, and is offered back.
 */
async function transcribeRecording(meta: RecordingMeta, file: File): Promise<void> {
  const store = useAppStore.getState();
  store.setFile(file);
  store.hideCaptions();
  await submitTranscription();
  const after = useAppStore.getState();
  if (after.status === 'done' && after.resultMedia === file) {
    await deleteRecording(meta.id).catch(() => undefined);
  }
  await loadStoredRecordings();
}

/** Recordings kept in storage (cut short by a reload or crash, or not yet transcribed). */
export async function loadStoredRecordings(): Promise<void> {
  const all = await listRecordings().catch(() => []);
  const shown = all
    .filter((m) => m.id !== session?.meta.id)
    .sort((a, b) => b.startedAt - a.startedAt);
  useAppStore.setState({ storedRecordings: shown });
}

function stored(id: string): RecordingMeta | undefined {
  return useAppStore.getState().storedRecordings.find((m) => m.id === id);
}

export async function transcribeStored(id: string): Promise<void> {
  const meta = stored(id);
  if (!meta) return;
  const file = await recordingFile(meta);
  useAppStore.setState({ lastRecording: file });
  await transcribeRecording(meta, file);
}

export async function downloadStored(id: string): Promise<void> {
  const meta = stored(id);
  if (!meta) return;
  const file = await recordingFile(meta);
  saveBlob(file, file.name);
}

export function downloadLastRecording(): void {
  const file = useAppStore.getState().lastRecording;
  if (file) saveBlob(file, file.name);
}

/** Deletes a stored recording; the page drops it once the storage has. */
export async function deleteStored(id: string): Promise<void> {
  await deleteRecording(id).catch(() => undefined);
  useAppStore.setState((s) => ({
    storedRecordings: s.storedRecordings.filter((m) => m.id !== id),
  }));
}
