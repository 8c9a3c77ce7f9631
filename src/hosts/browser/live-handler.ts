import { toWireError } from '../../worker/envelope';
import type { FromWorker, ToWorker } from '../../worker/protocol';

type LiveMessage = Extract<
  ToWorker,
  { type: 'listen' | 'listen-audio' | 'listen-end' | 'listen-cancel' }
>;

/** The transcription worker's live transcriptions. */
export function receiveLive(message: LiveMessage, post: (message: FromWorker) => void): void {
  if (message.type !== 'listen') return;
  post({
    id: message.id,
    type: 'error',
    data: toWireError(new Error('Live captions are not available yet.')),
  });
}
