import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FixtureDir } from '../../../../tools/testing/ffmpeg-fixtures';
import { curl } from '../../../../tools/testing/server/curl';
import { entries, errorOf, post, stall } from '../../../../tools/testing/server/hostile-serve';
import { wavHeader } from '../../../../tools/testing/server/hostile-media';
import { startMediaHost } from '../../../../tools/testing/server/media-host';
import { startServe } from '../../../../tools/testing/server/serve-process';
import { until } from '../../../../tools/testing/until';

describe('murmur serve: private addresses, and stopping', () => {
  const fixtures = new FixtureDir();
  const uploads = fixtures.path('uploads');
  afterAll(() => fixtures.remove());

  it('refuses audio_url and webhook_url on loopback without describing what is there', async () => {
    const host = await startMediaHost();
    const server = await startServe(['--no-auth', '--upload-dir', uploads]);
    try {
      const wav = fixtures.write('tiny.wav', wavHeader(8000, new Uint8Array(8000).fill(128)));
      const literal = await post(server, [`audio_url=${host.url('/page.html')}`]);
      expect(errorOf(literal.status, literal.body, 422, 'invalid_request').field_errors).toEqual([
        {
          field: 'audio_url',
          message:
            'audio_url is not a public address (loopback, private or reserved addresses are not fetched).',
        },
      ]);
      const named = await post(server, [`audio_url=http://localhost:${host.port}/page.html`]);
      const body = errorOf(named.status, named.body, 502, 'url_fetch_failed');
      expect(body.message).toBe(
        'The media at audio_url could not be fetched: its host resolves to an address that is not public.',
      );
      const hook = await post(server, [
        `audio=@${wav}`,
        `webhook_url=http://[::ffff:127.0.0.1]:${host.port}/hook`,
      ]);
      expect(errorOf(hook.status, hook.body, 422, 'invalid_request').field_errors[0]?.field).toBe(
        'webhook_url',
      );
    } finally {
      expect(await server.stop()).toBe(0);
      await host.close();
    }
  }, 120_000);

  it('on SIGTERM answers new requests 503, cancels a stalled upload after the grace period, leaves no upload folder', async () => {
    const server = await startServe([
      '--no-auth',
      '--upload-dir',
      uploads,
      '--shutdown-grace-seconds',
      '2',
    ]);
    const stalled = stall(server);
    await until(() => entries(uploads).some((e) => String(e).includes('request-')), 'the upload');
    server.child.kill('SIGTERM');
    await until(() => /SIGTERM/.test(server.stderr()), 'the server to hear SIGTERM');
    const late = await curl([`${server.url}/health`]);
    expect(errorOf(late.status, late.body, 503, 'engine_unavailable').message).toBe(
      'The service is stopping; send the request again (to another instance).',
    );
    const answer = await stalled;
    expect(errorOf(answer.status, answer.body, 503, 'engine_unavailable').message).toBe(
      'The service stopped before this request finished (2 s after it was asked to stop); send it again.',
    );
    expect(await server.exited).toBe(0);
    expect(entries(uploads)).toEqual([]);
  }, 120_000);

  it('sweeps the upload folder of an instance killed with SIGKILL when the next one starts', async () => {
    const killed = await startServe(['--no-auth', '--upload-dir', uploads]);
    void stall(killed).catch(() => undefined);
    await until(() => entries(uploads).some((e) => String(e).includes('request-')), 'the upload');
    killed.child.kill('SIGKILL');
    await killed.exited;
    const left = join(uploads, String(killed.child.pid));
    expect(existsSync(left)).toBe(true);
    mkdirSync(join(uploads, 'not-ours'), { recursive: true });
    const next = await startServe(['--no-auth', '--upload-dir', uploads]);
    try {
      expect(existsSync(left)).toBe(false);
      expect(next.stderr()).toMatch(/removed the upload folders of 1 instance no longer running/);
      // Only the folders named by process ids are the server's to sweep.
      expect(existsSync(join(uploads, 'not-ours'))).toBe(true);
    } finally {
      expect(await next.stop()).toBe(0);
    }
  }, 120_000);
});
