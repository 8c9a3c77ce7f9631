// An engine thread that misbehaves on request, by the media file's name: `crash.wav` ends the
// thread, `hang.wav` never answers (nor heeds its cancellation); any other is answered at once
// with a stand-in response that names the thread.
import { parentPort, threadId } from 'node:worker_threads';

parentPort.on('message', (call) => {
  if (call.type !== 'run') return;
  const name = call.data.request.media.file.name;
  if (name === 'crash.wav') process.exit(7);
  if (name === 'hang.wav') return;
  parentPort.postMessage({ id: call.id, type: 'result', data: { threadId } });
});
parentPort.postMessage({ id: 0, type: 'ready', data: null });
