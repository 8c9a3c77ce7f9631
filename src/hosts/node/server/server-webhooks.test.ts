import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptionResponse } from '../../../core/contract/response';
import type { WebhookPayload } from '../../../core/webhook/payload';
import { FixtureDir, sharedMedia } from '../../../../tools/testing/ffmpeg-fixtures';
import { deadUrl, startReceiver } from '../../../../tools/testing/server/receiver';
import { startServe, type ServeProcess } from '../../../../tools/testing/server/serve-process';
import { post } from '../../../../tools/testing/server/service-answers';
import { until } from '../../../../tools/testing/until';

const KEY = 'test-key-1';
const jfk = sharedMedia('speech/jfk.wav');
const withKey = ['-H', `x-service-key: ${KEY}`];

describe('murmur serve, driven with curl', () => {
  let server: ServeProcess;
  const fixtures = new FixtureDir();

  beforeAll(async () => {
    server = await startServe(
      ['--max-upload-mb', '1', '--concurrency', '1', '--queue', '4', '--allow-private-urls'],
      {
        MURMUR_SERVICE_KEYS: `other-key, ${KEY}`,
      },
    );
  }, 180_000);
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
    fixtures.remove();
  });

  it('delivers the result to a webhook with the same prediction', async () => {
    const receiver = await startReceiver();
    try {
      const answer = await post(
        server,
        [`audio=@${jfk}`, 'output_format=vtt', `webhook_url=${receiver.url}`],
        withKey,
      );
      expect(answer.status).toBe(200);
      const [hook] = await receiver.waitFor(1);
      expect(hook!.method).toBe('POST');
      expect(hook!.headers['content-type']).toBe('application/json');
      const delivered = JSON.parse(hook!.body) as WebhookPayload;
      const response = answer.json() as unknown as TranscriptionResponse;
      expect(delivered.request_id).toBe(answer.headers['x-request-id']);
      expect(delivered.payload.prediction).toBe(response.prediction);
      expect(delivered.payload.prediction).toMatch(/^WEBVTT\n\n1\n/);
      expect(delivered.payload).toEqual(response);
    } finally {
      await receiver.close();
    }
  });

  it('succeeds when the webhook cannot be reached, and logs the failed delivery', async () => {
    const url = await deadUrl();
    const answer = await post(server, [`audio=@${jfk}`, `webhook_url=${url}`], withKey);
    expect(answer.status).toBe(200);
    const id = answer.headers['x-request-id'];
    await until(
      () => server.logs().some((l) => l.request_id === id && l.msg === 'webhook'),
      'the webhook outcome',
    );
    const line = server.logs().find((l) => l.request_id === id && l.msg === 'webhook');
    const outcome = line!.webhook as { delivered: boolean; attempts: number; reason: string };
    const written = server.logLines().find((l) => l.includes('"msg":"webhook"'))!;
    expect(written.match(/"request_id"/g)).toHaveLength(1);
    expect(outcome.delivered).toBe(false);
    expect(outcome.attempts).toBe(3);
    expect(outcome.reason).toMatch(/could not be reached/);
  });

  it('retries a webhook that answers 503, then delivers', async () => {
    const receiver = await startReceiver({ answers: [503, 200] });
    try {
      const answer = await post(server, [`audio=@${jfk}`, `webhook_url=${receiver.url}`], withKey);
      expect(answer.status).toBe(200);
      const received = await receiver.waitFor(2);
      expect(received[1]!.body).toBe(received[0]!.body);
    } finally {
      await receiver.close();
    }
  });

  it("does not follow a webhook receiver's redirect, with --allow-private-urls too", async () => {
    const elsewhere = await startReceiver();
    const redirecting = await startReceiver({ redirectTo: elsewhere.url });
    try {
      const answer = await post(
        server,
        [`audio=@${jfk}`, `webhook_url=${redirecting.url}`],
        withKey,
      );
      expect(answer.status).toBe(200);
      const id = answer.headers['x-request-id'];
      await until(
        () => server.logs().some((l) => l.request_id === id && l.msg === 'webhook'),
        'the webhook outcome',
      );
      const line = server.logs().find((l) => l.request_id === id && l.msg === 'webhook');
      expect(line!.webhook).toEqual({
        url: redirecting.url,
        delivered: false,
        attempts: 1,
        status: 307,
        reason: 'The receiver answered 307 Temporary Redirect (a refusal: not tried again).',
      });
      expect(redirecting.received).toHaveLength(1);
      expect(elsewhere.received).toEqual([]);
    } finally {
      await Promise.all([redirecting.close(), elsewhere.close()]);
    }
  });
});
