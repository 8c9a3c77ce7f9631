/**
 * Resolves in a later task of the event loop, not in a microtask. onnxruntime-web runs a model
 * on the calling thread and resolves its promise at once, so a decoding loop of model calls
 * awaited one after another never lets the thread's other messages in: the decoded audio that
 * ffmpeg's worker sends back and the speech worker's scores waited until recognition ran out of
 * windows, and then recognition waited for them. A message channel, not `setTimeout(0)`, which
 * browsers hold back at least 4 ms once timers nest.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
