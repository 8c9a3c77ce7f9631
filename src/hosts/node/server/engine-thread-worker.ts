import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';
import { runPipeline, type PipelineOptions } from '../../../engine/pipeline';
import { warmUp } from '../../../engine/warm-up';
import { fromWireError, toWireError } from '../../../worker/envelope';
import type { EnginePorts } from '../../../engine/ports';
import { nodeEnginePorts } from '../engine-ports';
import type {
  EngineThreadCall,
  EngineThreadData,
  EngineThreadReply,
} from './engine-thread-protocol';

/**
 * One slot's engine on a thread of its own: its models, its ffmpeg and every stage of the
 * pipeline run here, so that the server's thread only carries requests in and answers out.
 * The models load when the thread starts and stay loaded; runs come one at a time.
 */
const port = parentPort;
if (port === null) throw new Error('The engine thread runs as a worker thread.');
const { settings, yieldToCaller, loadFirst } = workerData as EngineThreadData;
// Where the cores are all taken by transcriptions, the server's thread comes first: this
// thread, and the runtime's threads it starts (they inherit it), yield to it (Linux, where a
// thread has a priority of its own; elsewhere it is left as it is).
try {
  const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (yieldToCaller && Number.isInteger(thread)) setPriority(thread, 10);
} catch {
  // No /proc: the thread keeps the process's priority.
}
/**
 * A model's session that is still being created when the thread is ended aborts the whole
 * process ("terminate called after throwing an instance of 'Napi::Error'"): a run refused
 * early leaves the recogniser it started loading. Loads are kept track of, so that the thread
 * can say when none is under way before it is ended.
 */
const loads = new Set<Promise<unknown>>();
function tracked<A extends unknown[], T>(load: (...args: A) => Promise<T>) {
  return (...args: A): Promise<T> => {
    const loading = load(...args);
    loads.add(loading);
    const done = () => void loads.delete(loading);
    loading.then(done, done);
    return loading;
  };
}
// A model's run still under way (a speech detector's, while a refused run's other stages stop)
// aborts the process just the same: every session's calls are kept track of too.
const { InferenceSession } = ort;
const create = InferenceSession.create.bind(InferenceSession);
InferenceSession.create = tracked(create) as typeof InferenceSession.create;
// The factory's type hides the class behind it, whose sessions share one `run`.
const sessions = (InferenceSession as unknown as { prototype: { run: SessionRun } }).prototype;
type SessionRun = (...args: unknown[]) => Promise<unknown>;
const sessionRun = sessions.run;
sessions.run = function (this: unknown, ...args: unknown[]) {
  return tracked(() => sessionRun.apply(this, args))();
};
const ports = nodeEnginePorts(settings);
const { translator, speakers } = ports;
const engine: EnginePorts = {
  ...ports,
  speechDetector: tracked(ports.speechDetector),
  recogniser: tracked(ports.recogniser),
  ...(translator
    ? { translator: { ...translator, load: tracked(translator.load.bind(translator)) } }
    : {}),
  ...(speakers ? { speakers: { ...speakers, load: tracked(speakers.load.bind(speakers)) } } : {}),
};

async function settle() {
  while (loads.size > 0) await Promise.allSettled([...loads]);
  send({ id: 0, type: 'settled', data: null });
}
const send = (reply: EngineThreadReply) => port.postMessage(reply);
const runs = new Map<number, AbortController>();

async function run(call: Extract<EngineThreadCall, { type: 'run' }>) {
  const { id, data } = call;
  const controller = new AbortController();
  runs.set(id, controller);
  const options: PipelineOptions = {
    signal: controller.signal,
    ...(data.limits ? { limits: data.limits } : {}),
    ...(data.script ? { script: data.script } : {}),
    ...(data.settings ? { settings: data.settings } : {}),
    ...(data.voices ? { voices: data.voices } : {}),
    ...(data.events.progress
      ? {
          onProgress: (stage, fraction, detail) =>
            send({ id, type: 'progress', data: { stage, fraction, detail } }),
        }
      : {}),
    ...(data.events.segments
      ? { onSegment: (segment) => send({ id, type: 'segment', data: segment }) }
      : {}),
    ...(data.events.turns
      ? { onSpeakerTurns: (turns) => send({ id, type: 'turns', data: turns }) }
      : {}),
    ...(data.events.speakers
      ? { onSpeakers: (found) => send({ id, type: 'speakers', data: found }) }
      : {}),
    ...(data.events.decodedAudio
      ? { onDecodedAudio: (held) => send({ id, type: 'decoded-audio', data: held }) }
      : {}),
  };
  try {
    send({ id, type: 'result', data: await runPipeline(data.request, engine, options) });
  } catch (thrown) {
    send({ id, type: 'error', data: toWireError(thrown) });
  } finally {
    runs.delete(id);
  }
}

port.on('message', (call: EngineThreadCall) => {
  if (call.type === 'cancel') runs.get(call.id)?.abort(fromWireError(call.data));
  else if (call.type === 'settle') void settle();
  else if (call.type === 'leave') port.close();
  else void run(call);
});

try {
  // Everything a request needs, loaded before the slot takes one.
  if (loadFirst) {
    await warmUp(engine);
    await engine.recogniser({});
  }
  send({ id: 0, type: 'ready', data: null });
} catch (thrown) {
  send({ id: 0, type: 'error', data: toWireError(thrown) });
}
