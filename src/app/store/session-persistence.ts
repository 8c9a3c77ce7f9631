import { get, set } from 'idb-keyval';
import type { Segment, TranscriptionResponse } from '../../core/contract/response';
import { useAppStore } from './app-store';

const KEY = 'murmur.session';
/** Undo steps kept across a reload: the latest ones, enough to step back a while. */
const KEPT_STEPS = 50;
/** Media larger than this is not kept: copying it into storage would take long and fill it. */
const MEDIA_LIMIT = 256 * 1024 * 1024;

interface SavedSession {
  result: TranscriptionResponse;
  name: string;
  media: File | null;
  history: Segment[][];
  historyIndex: number;
}

/**
 * Keeps the last result, its media and its corrections in IndexedDB (which stores files, and
 * holds far more than localStorage), so that a reload finds the work where it was left.
 */
export function keepSession(): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  useAppStore.subscribe((state, previous) => {
    if (!state.result) return;
    if (
      state.result === previous.result &&
      state.history === previous.history &&
      state.historyIndex === previous.historyIndex
    ) {
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(() => {
      const { result, resultName, resultMedia, history, historyIndex } = useAppStore.getState();
      if (!result) return;
      const first = Math.max(0, history.length - KEPT_STEPS);
      const session: SavedSession = {
        result,
        name: resultName,
        media: resultMedia && resultMedia.size <= MEDIA_LIMIT ? resultMedia : null,
        history: history.slice(first),
        historyIndex: Math.max(0, historyIndex - first),
      };
      set(KEY, session).catch(() => {
        // Storage refused (private browsing, quota): the work still holds for this visit.
      });
    }, 250);
  });
}

/** Brings back the last session's result and corrections, unless a result is already shown. */
export async function restoreSession(): Promise<void> {
  const saved = await get<SavedSession>(KEY).catch(() => undefined);
  const state = useAppStore.getState();
  if (!saved || state.result || state.status === 'running') return;
  state.showResult(saved.result, saved.name, saved.media, {
    history: saved.history,
    historyIndex: saved.historyIndex,
  });
}
