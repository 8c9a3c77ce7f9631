import { networkNote, tallyNetwork, type NetworkRecord } from '../../core/network-note';
import { watchNetwork } from '../../worker/network-watch';

/** The page's own requests, recorded from the moment the app's code runs. */
const page = watchNetwork();

/**
 * Addresses the page asks only for their size (HEAD requests of the Models list, nothing
 * downloaded). They are no part of a transcription: one started while the list was still asking
 * (right after the page opened) had them counted as model files downloaded for it.
 */
const sizeQueries = new Set<string>();

/** Notes that `url` is asked for its size only; returns it. */
export function sizeQuery(url: string): string {
  sizeQueries.add(url);
  return url;
}

/** A transcription starts: what the page fetched before (its own loading) is not its. */
export function startNetworkCount(): void {
  page.take();
}

/**
 * The Network note of a transcription that just ended: the page's requests since it started,
 * and those its workers reported.
 */
export function endNetworkCount(
  workers: readonly NetworkRecord[],
  scope: { modelHost: string; media: string | null; webhook: string | null },
): string {
  const records = [...page.take().filter((r) => !sizeQueries.has(r.url)), ...workers];
  return networkNote(tallyNetwork(records, { self: location.origin, ...scope }), scope.webhook);
}
