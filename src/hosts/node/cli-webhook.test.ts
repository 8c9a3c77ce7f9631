import { describe, expect, it } from 'vitest';
import type { TranscriptionResponse } from '../../core/contract/response';
import type { WebhookPayload } from '../../core/webhook/payload';
import { runCli as run } from '../../../tools/testing/cli-run';
import { REPO, sharedMedia, TEST_WHISPER_ID } from '../../../tools/testing/ffmpeg-fixtures';
import { deadUrl, startReceiver } from '../../../tools/testing/server/receiver';
import { verifyWebhook } from './webhook-signature';

const jfk = sharedMedia('speech/jfk.wav');

describe('murmur transcribe with webhook_url', () => {
  const models = ['--models', `${REPO}/.models`, '--model', TEST_WHISPER_ID];

  it('prints the response, POSTs the same to the webhook and tells so on stderr', async () => {
    const receiver = await startReceiver();
    try {
      const { code, stdout, stderr } = await run(
        'transcribe',
        jfk,
        ...models,
        '--output_format',
        'srt',
        '--webhook_url',
        receiver.url,
      );
      expect(code).toBe(0);
      const response = JSON.parse(stdout) as TranscriptionResponse;
      const [hook] = await receiver.waitFor(1);
      const delivered = JSON.parse(hook!.body) as WebhookPayload;
      expect(delivered.request_id).toMatch(/^M-[0-9a-f]{8}$/);
      expect(delivered.payload).toEqual(response);
      expect(stderr).toMatch(/murmur: webhook: delivered \(200\) on try 1/);
    } finally {
      await receiver.close();
    }
  });

  it('signs the delivery with MURMUR_WEBHOOK_SECRET, as the service does', async () => {
    const secret = `whsec_${Buffer.from('a secret of sixteen bytes+').toString('base64')}`;
    const receiver = await startReceiver();
    process.env.MURMUR_WEBHOOK_SECRET = secret;
    try {
      const { code } = await run('transcribe', jfk, ...models, '--webhook_url', receiver.url);
      expect(code).toBe(0);
      const [hook] = await receiver.waitFor(1);
      expect(verifyWebhook(secret, hook!.headers, hook!.body)).toBe(true);
      expect(verifyWebhook(secret, hook!.headers, hook!.body.replace('M-', 'N-'))).toBe(false);

      process.env.MURMUR_WEBHOOK_SECRET = 'not-a-secret';
      const refused = await run('transcribe', jfk, ...models, '--webhook_url', receiver.url);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        'murmur: MURMUR_WEBHOOK_SECRET: The webhook secret must start with whsec_ followed by base64.\n',
      );
    } finally {
      delete process.env.MURMUR_WEBHOOK_SECRET;
      await receiver.close();
    }
  });

  it('still succeeds when the webhook cannot be reached, and says so on stderr', async () => {
    const { code, stdout, stderr } = await run(
      'transcribe',
      jfk,
      ...models,
      '--webhook_url',
      await deadUrl(),
    );
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as TranscriptionResponse).prediction_raw).toBeDefined();
    expect(stderr).toMatch(/webhook: try 1 failed: .*could not be reached/);
    expect(stderr).toMatch(/webhook: not delivered after 3 tries/);
  });

  it("does not follow the receiver's redirect: the result goes nowhere else", async () => {
    const elsewhere = await startReceiver();
    const redirecting = await startReceiver({ redirectTo: elsewhere.url });
    try {
      const { code, stderr } = await run(
        'transcribe',
        jfk,
        ...models,
        '--webhook_url',
        redirecting.url,
      );
      expect(code).toBe(0);
      expect(redirecting.received).toHaveLength(1);
      expect(elsewhere.received).toEqual([]);
      expect(stderr).toContain(
        'murmur: webhook: not delivered after 1 try: The receiver answered 307 Temporary Redirect (a refusal: not tried again).\n',
      );
    } finally {
      await Promise.all([redirecting.close(), elsewhere.close()]);
    }
  });
});
