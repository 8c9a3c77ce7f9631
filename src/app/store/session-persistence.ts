import { del, get, set } from 'idb-keyval';
import type { Segment, TranscriptionResponse } from '../../core/contract/response';
import { useAppStore } from './app-store';
import { editorVersions, type EditorVersion } from './editor-slice';
import type { ResultVoices } from '../lib/result-voices';

const KEY = 'murmur.session';
/** The media apart from the rest: it is written once a result, not at every correction. */
const MEDIA_KEY = 'murmur.session-media';
/** Undo steps kept across a reload: the latest ones, enough to step back a while. */
const KEPT_STEPS = 50;
/** Media larger than this is not kept: copying it into storage would take long and fill it. */
const MEDIA_LIMIT = 256 * 1024 * 1024;

interface SavedSession {
  result: TranscriptionResponse;
  name: string;
  /** Bare lists of segments in sessions saved before speakers could be named. */
  history: (EditorVersion | Segment[])[];
  historyIndex: number;
  /** The history entry the result is kept as (absent in sessions saved before it was linked). */
  entryId?: string | null;
  /** Its speakers' embeddings (absent without speakers, and in older sessions). */
  voices?: ResultVoices | null;
  /** Its Network note and where its recogniser ran, as shown (absent in older sessions). */
  network?: string | null;
  device?: string | null;
}

/**
 * Keeps the last result, its media and its corrections in IndexedDB (which stores files, and
 * holds far more than localStorage), so that a reload finds the work where it was left.
 */
/** The result brought back from storage: its media is there already, not written again. */
let restored: TranscriptionResponse | null = null;

/** A correction's write waiting for the typing to pause. */
let timer: ReturnType<typeof setTimeout> | undefined;
/** Set while a close forgets the session: nothing may write it back meanwhile. */
let closing = false;

export function keepSession(): void {
  useAppStore.subscribe((state, previous) => {
    if (!state.result) return;
    const changed = state.result !== previous.result || state.resultMedia !== previous.resultMedia;
    if (changed && state.result !== restored) {
      const media = state.resultMedia;
      set(MEDIA_KEY, media && media.size <= MEDIA_LIMIT ? media : null).catch(() => {
        // Storage refused or full: the result still comes back, without its player.
      });
    }
    if (
      state.result === previous.result &&
      state.history === previous.history &&
      state.historyIndex === previous.historyIndex &&
      state.resultEntryId === previous.resultEntryId &&
      state.resultVoices === previous.resultVoices &&
      state.network === previous.network &&
      state.device === previous.device
    ) {
      return;
    }
    clearTimeout(timer);
    // A result opened or finished is written at once, so that a reload right after still finds
    // it; corrections come in bursts (typing) and are written once they pause.
    const opened =
      state.result !== previous.result ||
      state.resultEntryId !== previous.resultEntryId ||
      state.resultVoices !== previous.resultVoices ||
      state.network !== previous.network ||
      state.device !== previous.device;
    if (opened) writeSession();
    else timer = setTimeout(writeSession, 250);
  });
}

function writeSession(): void {
  const { result, resultName, history, historyIndex, resultEntryId, resultVoices } =
    useAppStore.getState();
  const { network, device } = useAppStore.getState();
  if (!result || closing) return;
  const first = Math.max(0, history.length - KEPT_STEPS);
  const session: SavedSession = {
    result,
    name: resultName,
    history: history.slice(first),
    historyIndex: Math.max(0, historyIndex - first),
    entryId: resultEntryId,
    voices: resultVoices,
    network,
    device,
  };
  set(KEY, session).catch(() => {
    // Storage refused (private browsing, quota): the work still holds for this visit.
  });
}

/** Brings back the last session's result and corrections, unless a result is already shown. */
export async function restoreSession(): Promise<void> {
  const saved = await get<SavedSession>(KEY).catch(() => undefined);
  const media = await get<File | null>(MEDIA_KEY).catch(() => null);
  const state = useAppStore.getState();
  if (!saved || state.result || state.status === 'running') return;
  restored = saved.result;
  state.showResult(saved.result, saved.name, media ?? null, {
    history: editorVersions(saved.history),
    historyIndex: saved.historyIndex,
  });
  useAppStore.setState({
    resultEntryId: saved.entryId ?? null,
    resultVoices: saved.voices ?? null,
    network: saved.network ?? null,
    device: saved.device ?? null,
  });
}

/**
 * Closes the shown result and forgets it: the page shows no transcript, and neither it nor its
 * media comes back after a reload. The stored copy goes first, so that once the page shows the
 * result closed, a reload cannot bring it back.
 */
export async function closeResult(): Promise<void> {
  clearTimeout(timer);
  closing = true;
  try {
    await del(KEY).catch(() => undefined);
    await del(MEDIA_KEY).catch(() => undefined);
  } finally {
    closing = false;
  }
  useAppStore.setState((s) => ({
    // A job running meanwhile goes on; only what it had shown before is closed.
    status: s.status === 'running' ? s.status : 'idle',
    result: null,
    resultMedia: null,
    resultEntryId: null,
    resultVoices: null,
    history: [],
    historyIndex: 0,
    playhead: 0,
    seekRequest: null,
    notices: [],
  }));
  restored = null;
}
