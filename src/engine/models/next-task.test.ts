import { describe, expect, it } from 'vitest';
import { nextTask } from './next-task';

/** A message from elsewhere (another worker's reply), posted now; `handled` once it is in. */
function messageFromElsewhere() {
  const state = { handled: false };
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    state.handled = true;
    channel.port1.close();
  };
  channel.port2.postMessage('decoded audio');
  return state;
}

describe('a task of its own between model calls', () => {
  it('lets a message that came meanwhile be handled, which awaited promises never do', async () => {
    const starved = messageFromElsewhere();
    // A loop of calls that each resolve at once (onnxruntime-web's runs on the CPU).
    for (let call = 0; call < 1000; call++) await Promise.resolve();
    expect(starved.handled).toBe(false);
    await nextTask();
    expect(starved.handled).toBe(true);

    const message = messageFromElsewhere();
    await nextTask();
    expect(message.handled).toBe(true);
  });
});
