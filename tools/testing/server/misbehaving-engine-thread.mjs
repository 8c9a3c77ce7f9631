// An engine thread that misbehaves on request, by the media file's name: `crash.wav` ends the
// thread (after telling 1 MB of decoded audio held, where the caller listens for it), `hang.wav` never answers (nor heeds its cancellation); any other is answered at once
// with a stand-in response that names the thread.
import { parentPort, threadId } from 'node:worker_threads';

// `loading.wav` is refused at once while a model goes on loading for 300 ms, as a run refused
// early leaves the recogniser it started; its end is told on the `murmur-test-loads` channel.
let loading = null;
const loads = new BroadcastChannel('murmur-test-loads');

parentPort.on('message', (call) => {
  if (call.type === 'settle') {
    void Promise.resolve(loading).then(() =>
      parentPort.postMessage({ id: 0, type: 'settled', data: null }),
    );
    return;
  }
  if (call.type === 'leave') {
    parentPort.close();
    loads.close();
    return;
  }
  if (call.type !== 'run') return;
  const name = call.data.request.media.file.name;
  if (name === 'loading.wav') {
    loading = new Promise((resolve) => setTimeout(resolve, 300)).then(() => {
      loads.postMessage('loaded');
      loading = null;
    });
    const error = { code: 'invalid_parameter', message: 'Refused before any model was needed.' };
    parentPort.postMessage({ id: call.id, type: 'error', data: error });
    return;
  }
  if (name === 'crash.wav') {
    if (!call.data.events.decodedAudio) process.exit(7);
    const held = { bytes: 1 << 20, peakBytes: 1 << 20 };
    parentPort.postMessage({ id: call.id, type: 'decoded-audio', data: held });
    // Once the message has gone.
    setTimeout(() => process.exit(7), 50);
    return;
  }
  if (name === 'hang.wav') return;
  parentPort.postMessage({ id: call.id, type: 'result', data: { threadId } });
});
parentPort.postMessage({ id: 0, type: 'ready', data: null });
loads.unref();
