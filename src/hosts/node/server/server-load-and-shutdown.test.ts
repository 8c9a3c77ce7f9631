import { describe, expect, it } from 'vitest';
import type { TranscriptionResponse } from '../../../core/contract/response';
import { sharedMedia } from '../../../../tools/testing/ffmpeg-fixtures';
import { curl } from '../../../../tools/testing/server/curl';
import { startServe } from '../../../../tools/testing/server/serve-process';
import { expectErrorBody, post } from '../../../../tools/testing/server/service-answers';
import { until } from '../../../../tools/testing/until';

const jfk = sharedMedia('speech/jfk.wav');

describe('murmur serve under load and at shutdown', () => {
  it('refuses to start without keys unless --no-auth is given', async () => {
    await expect(startServe([], { MURMUR_SERVICE_KEYS: '' })).rejects.toThrow(/no service keys/);
  });

  it('serves what fits and answers the rest 429, with --concurrency 1 --queue 1', async () => {
    const server = await startServe(['--no-auth', '--concurrency', '1', '--queue', '1']);
    try {
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => post(server, [`audio=@${jfk}`])),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
      for (const answer of answers.filter((a) => a.status === 429)) {
        expectErrorBody(answer, 429, 'too_many_requests');
        expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);

  it('finishes a request in flight on SIGTERM, refuses new ones, then exits', async () => {
    // A grace period longer than the transcription takes on a busy machine, and an 11-s file:
    // the request is running when SIGTERM comes (health says so just before), and its work
    // stays small on a loaded machine.
    const server = await startServe(['--no-auth', '--shutdown-grace-seconds', '600']);
    const inFlight = post(server, [`audio=@${jfk}`]);
    await until(
      async () => (await curl([`${server.url}/health`])).json().running === 1,
      'the request to start',
    );
    server.child.kill('SIGTERM');
    await until(() => /SIGTERM/.test(server.stderr()), 'the server to hear SIGTERM');
    const late = await post(server, [`audio=@${jfk}`]).catch((e: Error) => e);
    if (!(late instanceof Error)) expectErrorBody(late, 503, 'engine_unavailable');
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(
      (answer.json() as unknown as TranscriptionResponse).prediction_raw.transcription.length,
    ).toBeGreaterThan(0);
    expect(await server.exited).toBe(0);
  }, 300_000);
});
