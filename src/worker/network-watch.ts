import type { NetworkRecord } from '../core/network-note';

/**
 * The requests made where this runs (the page or a worker), as the browser records them in its
 * resource timing: every fetch, script, import and WebAssembly file asked for over http(s),
 * whether it was answered by a server, a cache or the service worker. Reads of Cache Storage
 * are no request and are not recorded (a model kept in the browser is read that way).
 */
export interface NetworkWatch {
  /** The requests recorded since the last call (all since the watch began, the first time). */
  take(): NetworkRecord[];
}

/**
 * Starts recording. The browser's buffer of earlier entries (requests made before the watch
 * began, such as the worker's own scripts) is read first; an observer keeps every later one,
 * even once that buffer is full.
 */
export function watchNetwork(onRecords?: (records: NetworkRecord[]) => void): NetworkWatch {
  let held: NetworkRecord[] = [];
  const keep = (entries: PerformanceEntryList) => {
    const records = entries.map((entry) => ({ url: entry.name }));
    if (onRecords) onRecords(records);
    else held.push(...records);
  };
  let observer: PerformanceObserver | null = null;
  if (typeof PerformanceObserver !== 'undefined') {
    observer = new PerformanceObserver((list) => keep(list.getEntries()));
    observer.observe({ type: 'resource', buffered: true });
  }
  return {
    take() {
      // Entries recorded but not yet handed to the observer's callback count now.
      if (observer) keep(observer.takeRecords());
      const taken = held;
      held = [];
      return taken;
    },
  };
}
