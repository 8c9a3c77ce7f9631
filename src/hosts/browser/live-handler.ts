import { toServiceError } from '../../core/contract/errors';
import type { CaptionUpdate } from '../../core/live/captions';
import { LiveTranscriber } from '../../engine/live/live-transcriber';
import type { EnginePorts } from '../../engine/ports';
import { toWireError } from '../../worker/envelope';
import type { FromWorker, ToWorker } from '../../worker/protocol';
import { isRuntimeFault } from '../../worker/runtime-fault';

type LiveMessage = Extract<
  ToWorker,
  { type: 'listen' | 'listen-audio' | 'listen-end' | 'listen-cancel' }
>;

/** Caption updates are sent at most this often (the changes between are merged). */
const UPDATE_INTERVAL_MS = 250;

/** The live transcription running in this worker. */
interface Listening {
  id: number;
  transcriber: LiveTranscriber;
  /** Changes not yet posted, merged. */
  pending: CaptionUpdate | null;
  timer: ReturnType<typeof setTimeout> | null;
  lastPosted: number;
  /** Ended, cancelled or failed: nothing more is posted for it. */
  over: boolean;
}

let current: Listening | null = null;
/** Settles once the models are free of every live transcription started so far. */
let modelsFree: Promise<void> = Promise.resolve();

/**
 * Resolves once no live transcription uses the models: a transcription asked for meanwhile
 * waits for it (the page cancels listening before it transcribes the recording), so that the
 * two never share the recogniser's runs.
 */
export function liveStopped(): Promise<void> {
  return modelsFree;
}

/** Two updates as one: the settled lines of both, the later one's provisional lines. */
function merged(earlier: CaptionUpdate | null, later: CaptionUpdate): CaptionUpdate {
  if (!earlier) return later;
  return { ...later, settled: [...earlier.settled, ...later.settled] };
}

function flush(listening: Listening, post: (message: FromWorker) => void): void {
  if (listening.timer !== null) clearTimeout(listening.timer);
  listening.timer = null;
  if (listening.over || !listening.pending) return;
  post({ id: listening.id, type: 'captions', data: listening.pending });
  listening.pending = null;
  listening.lastPosted = Date.now();
}

function stop(listening: Listening): void {
  listening.over = true;
  if (listening.timer !== null) clearTimeout(listening.timer);
  listening.timer = null;
  listening.pending = null;
  if (current === listening) current = null;
}

function start(
  message: Extract<LiveMessage, { type: 'listen' }>,
  post: (message: FromWorker) => void,
  engine: () => EnginePorts,
): void {
  // One at a time: a page that starts another has let go of the one before.
  if (current) {
    current.transcriber.cancel();
    stop(current);
  }
  const fail = (listening: Listening | null, thrown: unknown) => {
    if (listening?.over) return;
    if (listening) stop(listening);
    const cause = toServiceError(thrown);
    // After a trap or with memory exhausted the runtime is broken: the page replaces the worker.
    if (isRuntimeFault(thrown)) post({ id: message.id, type: 'crashed', data: toWireError(cause) });
    else post({ id: message.id, type: 'error', data: toWireError(cause) });
  };
  let listening: Listening | null = null;
  try {
    const transcriber = new LiveTranscriber(engine(), message.data, (update) => {
      if (!listening || listening.over) return;
      listening.pending = merged(listening.pending, update);
      const wait = UPDATE_INTERVAL_MS - (Date.now() - listening.lastPosted);
      if (wait <= 0) flush(listening, post);
      else listening.timer ??= setTimeout(() => flush(listening!, post), wait);
    });
    listening = {
      id: message.id,
      transcriber,
      pending: null,
      timer: null,
      lastPosted: 0,
      over: false,
    };
    current = listening;
    const running = listening;
    modelsFree = Promise.all([modelsFree, transcriber.finished.catch(() => undefined)]).then(
      () => undefined,
    );
    transcriber.finished.catch((thrown: unknown) => fail(running, thrown));
  } catch (thrown) {
    fail(listening, thrown);
  }
}

/** The transcription worker's live transcriptions (`engine`: the worker's engine ports). */
export function receiveLive(
  message: LiveMessage,
  post: (message: FromWorker) => void,
  engine: () => EnginePorts,
): void {
  if (message.type === 'listen') {
    start(message, post, engine);
    return;
  }
  const listening = current;
  // Messages for a live transcription that is over (or another one) change nothing.
  if (!listening || listening.id !== message.id || listening.over) return;
  switch (message.type) {
    case 'listen-audio':
      try {
        listening.transcriber.push(message.data.channels);
      } catch (thrown) {
        listening.transcriber.cancel();
        stop(listening);
        post({ id: listening.id, type: 'error', data: toWireError(toServiceError(thrown)) });
      }
      break;
    case 'listen-end':
      void listening.transcriber.end().then(
        () => {
          if (listening.over) return;
          flush(listening, post);
          stop(listening);
          post({ id: listening.id, type: 'listened', data: null });
        },
        () => undefined,
      );
      break;
    case 'listen-cancel':
      listening.transcriber.cancel();
      stop(listening);
      break;
  }
}
