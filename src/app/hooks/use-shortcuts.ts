import { useEffect } from 'react';
import { SKIP_SECONDS, segmentStartNear } from '../lib/shortcuts';
import { hasPlayer, playerTime, seekBy, seekTo, togglePlayback } from '../lib/player';
import { useAppStore } from '../store/app-store';
import { currentSegments } from '../store/editor-slice';

function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

/** The result's keyboard shortcuts (listed in the app): off while typing in a field. */
export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (typing(event.target) || event.altKey) return;
      const state = useAppStore.getState();
      const command = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (command && (key === 'z' || key === 'y')) {
        if (key === 'y' || event.shiftKey) state.redo();
        else state.undo();
        event.preventDefault();
        return;
      }
      if (command || !hasPlayer() || !state.singleKeyShortcuts) return;
      if (key === 'k') togglePlayback();
      else if (key === 'j') seekBy(-SKIP_SECONDS);
      else if (key === 'l') seekBy(SKIP_SECONDS);
      else if (key === '[' || key === ']') {
        const starts = (currentSegments(state) ?? []).map((s) => s.time_begin);
        const to = segmentStartNear(starts, playerTime(), key === ']' ? 'next' : 'previous');
        if (to !== null) seekTo(to);
      } else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
