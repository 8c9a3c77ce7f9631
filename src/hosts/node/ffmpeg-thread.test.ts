import { afterAll, describe, expect, it } from 'vitest';
import { ServiceError } from '../../core/contract/errors';
import { prepareAudio } from '../../engine/pipeline';
import {
  FixtureDir,
  mediaRequest,
  sharedMedia,
  testEnginePorts,
} from '../../../tools/testing/ffmpeg-fixtures';
import { threadFfmpeg } from './ffmpeg-thread';
import { diskFile } from './media-file';

const fixtures = new FixtureDir();
const thread = threadFfmpeg();
afterAll(async () => {
  await thread.close();
  fixtures.remove();
});

async function prepare(path: string, inThread: boolean) {
  const file = await diskFile(path);
  if (file === null) throw new Error(`missing ${path}`);
  const ports = testEnginePorts();
  return prepareAudio(
    mediaRequest({ kind: 'file', file }),
    inThread ? { ...ports, ffmpeg: thread } : ports,
  );
}

describe('ffmpeg on a worker thread of its own', () => {
  it('decodes to the same samples as in the calling thread', async () => {
    const path = sharedMedia('speech/jfk.wav');
    const [here, there] = [await prepare(path, false), await prepare(path, true)];
    expect(there.file).toEqual(here.file);
    expect(there.channels[0]!.samples).toEqual(here.channels[0]!.samples);
  });

  it('keeps the thread free: timers run while a file decodes', async () => {
    // Nine minutes of stereo noise as MP3: seconds of decoding, none of it on this thread.
    const mp3 = fixtures.ffmpeg('noise.mp3', [
      '-f',
      'lavfi',
      '-i',
      'anoisesrc=r=16000:a=0.1,aformat=channel_layouts=stereo',
      '-t',
      '540',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '32k',
    ]);
    let longest = 0;
    let last = performance.now();
    let decodeMs = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 10);
    try {
      const file = await diskFile(mp3);
      const mount = await thread.mount({ kind: 'file', file: file! });
      const started = performance.now();
      const run = await thread.exec(['-i', mount, '-ac', '1', '-ar', '16000', '-f', 'null', '-']);
      decodeMs = performance.now() - started;
      // The gap still open when the decode ends counts too (a blocked thread ticks not at all).
      longest = Math.max(longest, performance.now() - last);
      expect(run.exitCode).toBe(0);
      await thread.unmount(mount);
    } finally {
      clearInterval(ticker);
    }
    // In the calling thread the longest gap is the whole decode (2.3 s here); on its own
    // thread, tens of ms. A loaded machine delays timers, but not by a third of the decode.
    expect(longest).toBeLessThan(decodeMs / 3);
  });

  it('carries the service error of a file that is not media across the thread', async () => {
    const text = fixtures.write('notes.wav', 'Minutes of the meeting.\n'.repeat(20));
    const failure = await prepare(text, true).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ServiceError);
    expect((failure as ServiceError).status).toBeGreaterThanOrEqual(400);
    expect((failure as ServiceError).status).toBeLessThan(500);
  });
});
