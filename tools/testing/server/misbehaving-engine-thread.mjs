// An engine thread that misbehaves on request, by the media file's name: `crash.wav` ends the
// thread (after telling 1 MB of decoded audio held, where the caller listens for it), `hang.wav` never answers (nor heeds its cancellation); any other is answered at once
// with a stand-in response that names the thread.
import { parentPort, threadId } from 'node:worker_threads';

parentPort.on('message', (call) => {
  if (call.type !== 'run') return;
  const name = call.data.request.media.file.name;
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
