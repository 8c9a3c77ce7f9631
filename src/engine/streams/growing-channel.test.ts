import { describe, expect, it } from 'vitest';
import { ChannelFeed } from './growing-channel';

/** Whether a promise has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
}

describe('a growing channel', () => {
  it('is idle for its writer while no reader is busy with it', async () => {
    const feed = new ChannelFeed(0, new Float32Array(0), 10);
    expect(await settled(feed.idle())).toBe(true);
    const detach = feed.attach();
    const busy = feed.idle();
    expect(await settled(busy)).toBe(false);
    // The reader asks for more: it is done with what it had.
    const more = feed.changed();
    expect(await settled(busy)).toBe(true);
    feed.update(new Float32Array(16000), [{ start: 0, end: 1 }]);
    await more;
    const busyAgain = feed.idle();
    expect(await settled(busyAgain)).toBe(false);
    detach();
    expect(await settled(busyAgain)).toBe(true);
  });

  it('is idle once complete or failed, whatever its reader does', async () => {
    const complete = new ChannelFeed(0, new Float32Array(0), 10);
    complete.attach();
    const waiting = complete.idle();
    complete.finish(new Float32Array(16000), []);
    expect(await settled(waiting)).toBe(true);
    const failed = new ChannelFeed(1, new Float32Array(0), 10);
    failed.attach();
    const alsoWaiting = failed.idle();
    failed.fail(new Error('decoding failed'));
    expect(await settled(alsoWaiting)).toBe(true);
  });
});
