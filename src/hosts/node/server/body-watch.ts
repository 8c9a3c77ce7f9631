import type { IncomingMessage } from 'node:http';
import { ServiceError } from '../../../core/contract/errors';
import type { UploadShare } from './upload-budget';

export interface BodyLimits {
  /** The longest the client may send nothing. */
  idleSeconds: number;
  /** The longest the whole body may take. */
  totalSeconds: number;
  /** The most bytes the body may hold. */
  maxBytes: number;
  /** Where each byte is also counted, with the uploads being read at the same time. */
  share?: UploadShare;
}

const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));

/**
 * Watches a request body as it streams in: a signal that aborts, with the service's error as
 * its reason, when the client sends nothing for `idleSeconds`, takes longer than
 * `totalSeconds` in all, sends more than `maxBytes`, or more than `share` has room for. A client that trickles a byte now and
 * then is caught by the total; one that stalls, by the idle time. Start it once the body is
 * piped to its reader: a 'data' listener added earlier would start the flow too soon.
 */
export function watchBody(raw: IncomingMessage, limits: BodyLimits) {
  const controller = new AbortController();
  let bytes = 0;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const fail = (error: ServiceError) => {
    if (!controller.signal.aborted) controller.abort(error);
    stop();
  };
  const restartIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(
      () =>
        fail(
          new ServiceError(
            'request_timeout',
            `The upload stalled: nothing arrived for ${limits.idleSeconds} s, so the request was given up.`,
          ),
        ),
      limits.idleSeconds * 1000,
    );
  };
  const total = setTimeout(
    () =>
      fail(
        new ServiceError(
          'request_timeout',
          `The upload took longer than ${limits.totalSeconds} s, so the request was given up.`,
        ),
      ),
    limits.totalSeconds * 1000,
  );
  const onData = (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > limits.maxBytes) {
      fail(
        new ServiceError(
          'payload_too_large',
          `The request body is larger than this service accepts (${mb(limits.maxBytes)} MB in all).`,
        ),
      );
      return;
    }
    const refused = limits.share?.take(chunk.length) ?? null;
    if (refused !== null) {
      fail(refused);
      return;
    }
    restartIdle();
  };
  function stop() {
    clearTimeout(idle);
    clearTimeout(total);
    raw.off('data', onData);
    raw.off('end', stop);
  }
  raw.on('data', onData);
  raw.on('end', stop);
  restartIdle();
  return { signal: controller.signal, stop };
}
