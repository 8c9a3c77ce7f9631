import { networkNote, tallyNetwork, type NetworkRecord } from '../../core/network-note';
import { watchNetwork } from '../../worker/network-watch';

/** The page's own requests, recorded from the moment the app's code runs. */
const page = watchNetwork();

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
  const records = [...page.take(), ...workers];
  return networkNote(tallyNetwork(records, { self: location.origin, ...scope }), scope.webhook);
}
