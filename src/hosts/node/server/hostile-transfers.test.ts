import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixtureDir } from '../../../../tools/testing/ffmpeg-fixtures';
import { curl } from '../../../../tools/testing/server/curl';
import {
  AUDIO,
  entries,
  errorOf,
  post,
  sleep,
  stall,
  startHostileServe,
} from '../../../../tools/testing/server/hostile-serve';
import { startMediaHost } from '../../../../tools/testing/server/media-host';
import { rawExchange, uploadHead } from '../../../../tools/testing/server/raw-socket';
import type { ServeProcess } from '../../../../tools/testing/server/serve-process';

describe('murmur serve under hostile input', () => {
  const fixtures = new FixtureDir();
  const uploads = fixtures.path('uploads');
  let server: ServeProcess;
  let host: Awaited<ReturnType<typeof startMediaHost>>;

  beforeAll(async () => {
    host = await startMediaHost();
    server = await startHostileServe(uploads);
  }, 180_000);
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
    await host.close();
    fixtures.remove();
  });

  it('answers 70 KB of headers with 431 and the error body', async () => {
    const answer = await curl(['-H', `x-filler: ${'a'.repeat(70_000)}`, `${server.url}/health`]);
    const body = errorOf(answer.status, answer.body, 431, 'headers_too_large');
    expect(body.message).toBe(
      'The request headers are larger than this service reads (16 KB in all).',
    );
    expect(body.path).toBe('/health');
  });

  it('answers headers that stall with 408 and the error body', async () => {
    const answer = await rawExchange(server.url, (socket) => {
      socket.write(`POST ${AUDIO} HTTP/1.1\r\nhost: 127.0.0.1\r\n`);
    });
    expect(errorOf(answer.status, answer.body, 408, 'request_timeout').message).toBe(
      'The request headers did not arrive within 2 s, so the connection was closed.',
    );
  });

  it('answers a body that stalls after 4 bytes with 408, and holds nothing of it after', async () => {
    const answer = await stall(server);
    expect(errorOf(answer.status, answer.body, 408, 'request_timeout').message).toBe(
      'The upload stalled: nothing arrived for 2 s, so the request was given up.',
    );
    expect((await curl([`${server.url}/health`])).json()).toMatchObject({
      running: 0,
      waiting: 0,
      uploads: { reading: 0, bytes: 0 },
    });
    expect(entries(uploads).filter((e) => String(e).includes('request-'))).toEqual([]);
  });

  it('gives up a body that trickles a byte a second once it passes the total time (408)', async () => {
    const answer = await rawExchange(server.url, async (socket) => {
      socket.write(uploadHead(AUDIO, 'b1', 100_000));
      socket.write(
        '--b1\r\ncontent-disposition: form-data; name="audio"; filename="a.wav"\r\n\r\n',
      );
      while (!socket.destroyed && !socket.readableEnded) {
        await sleep(1000);
        if (!socket.destroyed) socket.write('R');
      }
    });
    expect(errorOf(answer.status, answer.body, 408, 'request_timeout').message).toBe(
      'The upload took longer than 6 s, so the request was given up.',
    );
  });

  it('streams audio_url to disk under the upload limit (413), whatever its length', async () => {
    const before = await server.rssKb();
    const endless = await post(server, [`audio_url=${host.url('/endless.wav')}`]);
    expect(errorOf(endless.status, endless.body, 413, 'payload_too_large').message).toBe(
      'The media at audio_url is larger than this service accepts (2 MB).',
    );
    const huge = await post(server, [`audio_url=${host.url('/huge.wav')}`]);
    expect(errorOf(huge.status, huge.body, 413, 'payload_too_large').message).toBe(
      'The media at audio_url is larger than this service accepts (2 MB).',
    );
    expect((await server.rssKb()) - before).toBeLessThan(100 * 1024);
  });

  it('answers a media URL cut short, or one that trickles, with 502 naming why', async () => {
    const cut = await post(server, [`audio_url=${host.url('/cut.wav')}`]);
    expect(errorOf(cut.status, cut.body, 502, 'url_fetch_failed').message).toBe(
      'The media at audio_url could not be fetched: the connection was closed before the whole file arrived.',
    );
    const trickle = await post(server, [`audio_url=${host.url('/trickle.wav')}`]);
    expect(errorOf(trickle.status, trickle.body, 502, 'url_fetch_failed').message).toBe(
      'The media at audio_url could not be fetched: it took longer than 6 s in all.',
    );
  });
});
