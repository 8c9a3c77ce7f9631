import type { NetworkRecord } from '../../core/network-note';
import { watchNetwork } from '../../worker/network-watch';

/**
 * The requests of the transcription worker and of the workers it starts (voice activity
 * detection, ffmpeg), kept until a transcription reports them to the page with its result.
 * What a worker fetches ahead (the decoder, the VAD model, while the person sets options) is
 * reported with the next transcription: nothing is ever dropped unreported.
 */
const own = watchNetwork();
const others: NetworkRecord[] = [];

/** Requests another worker of this one recorded (it sends them as they happen). */
export function heardFromWorker(records: readonly NetworkRecord[]): void {
  others.push(...records);
}

/** Every request recorded since the last call. */
export function takeNetwork(): NetworkRecord[] {
  return [...own.take(), ...others.splice(0)];
}
