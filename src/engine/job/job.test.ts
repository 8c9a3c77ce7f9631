import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../core/contract/errors';
import type { DeliveryEvent } from '../../core/webhook/delivery';
import type { WebhookPayload } from '../../core/webhook/payload';
import { runJob, type JobHost } from './job';
import type { EnginePorts } from '../ports';
import { sharedMedia, testEnginePorts } from '../../../tools/testing/ffmpeg-fixtures';
import { diskFile, type DiskFile } from '../../hosts/node/media-file';
import { nodeDeliveryFetch } from '../../hosts/node/webhook-fetch';
import { startReceiver } from '../../../tools/testing/server/receiver';

const jfkPath = sharedMedia('speech/jfk.wav');

async function jfk(): Promise<DiskFile> {
  const file = await diskFile(jfkPath);
  if (!file) throw new Error(`The shared recording ${jfkPath} is missing.`);
  return file;
}

/** An engine that fails as soon as the pipeline asks it for the recogniser. */
function failingEngine(error: Error): EnginePorts {
  const engine = testEnginePorts();
  return { ...engine, recogniser: () => Promise.reject(error) };
}

const job = (requestId = 'req-job') => ({ requestId, now: () => new Date('2026-01-02T03:04:05Z') });

describe('a job, from fields to the answer', () => {
  it('answers the response, with progress from checking the request on and each segment', async () => {
    const stages = new Set<string>();
    const segments: string[] = [];
    const outcome = await runJob(
      { endpoint: 'audio', strings: {}, files: { audio: await jfk() } },
      { engine: async () => testEnginePorts() },
      job(),
      {
        onProgress: (stage) => stages.add(stage),
        onSegment: (segment) => segments.push(segment.transcription),
      },
    );
    if (!outcome.ok) throw new Error(outcome.error.message);
    expect([...stages][0]).toBe('validate');
    expect(stages).toContain('recognise');
    expect(segments.length).toBeGreaterThan(0);
    expect(outcome.response.prediction_raw.transcription.map((p) => p.transcription)).toEqual(
      segments,
    );
    // No webhook asked for: nothing to deliver.
    expect(outcome.deliver).toBeNull();
  });

  it('answers every field problem in the error body, with the endpoint path, and never runs', async () => {
    let asked = false;
    const outcome = await runJob(
      {
        endpoint: 'video',
        strings: { language_behaviour: 'manual', output_format: 'docx' },
        files: {},
      },
      {
        engine: async () => {
          asked = true;
          return testEnginePorts();
        },
      },
      job('req-bad'),
    );
    expect(asked).toBe(false);
    if (outcome.ok) throw new Error('A bad request ran.');
    expect(outcome.body).toMatchObject({
      timestamp: '2026-01-02T03:04:05.000Z',
      path: '/video/text/video-transcription/',
      request_id: 'req-bad',
      statusCode: 422,
      error: 'invalid_request',
    });
    expect(outcome.body.field_errors.map((p) => p.field).sort()).toEqual([
      'language',
      'output_format',
      'video',
    ]);
  });

  it("runs the host's preparation before it asks for an engine, and its refusal is the answer", async () => {
    const order: string[] = [];
    const host: JobHost<DiskFile> = {
      prepare: async (request) => {
        order.push('prepare');
        if (request.webhook_url !== null) {
          throw new ServiceError('invalid_request', 'webhook_url: not here.', [
            { field: 'webhook_url', message: 'not here.' },
          ]);
        }
        return request;
      },
      engine: async () => {
        order.push('engine');
        return testEnginePorts();
      },
    };
    const refused = await runJob(
      {
        endpoint: 'audio',
        strings: { webhook_url: 'https://hooks.example.com/x' },
        files: { audio: await jfk() },
      },
      host,
      job(),
    );
    expect(refused.ok).toBe(false);
    expect(order).toEqual(['prepare']);
    if (!refused.ok) expect(refused.body.field_errors[0]?.field).toBe('webhook_url');
  });

  it('runs once more when the host asks, with its notice, and answers the second failure', async () => {
    const tries: string[] = [];
    const notices: string[] = [];
    const lost = new Error('GPUDevice was lost');
    const host: JobHost<DiskFile> = {
      engine: async () => {
        tries.push('run');
        return failingEngine(tries.length === 1 ? lost : new Error('out of luck'));
      },
      retry: async (thrown) => (thrown === lost ? 'Again on the CPU.' : null),
    };
    const outcome = await runJob(
      { endpoint: 'audio', strings: {}, files: { audio: await jfk() } },
      host,
      job(),
      { onNotice: (notice) => notices.push(notice) },
    );
    expect(tries).toEqual(['run', 'run']);
    expect(notices).toEqual(['Again on the CPU.']);
    if (outcome.ok) throw new Error('A failing engine answered.');
    expect(outcome.error.code).toBe('internal_error');
    expect(outcome.error.message).toContain('out of luck');
    expect(outcome.notices).toEqual(['Again on the CPU.']);
  });

  it("a cancellation by the host answers the host's reason", async () => {
    const controller = new AbortController();
    const stopping = new ServiceError('engine_unavailable', 'The service stopped.');
    const outcome = await runJob(
      { endpoint: 'audio', strings: {}, files: { audio: await jfk() } },
      {
        engine: async () => {
          controller.abort(stopping);
          return failingEngine(new DOMException('aborted', 'AbortError'));
        },
      },
      { ...job(), signal: controller.signal },
    );
    if (outcome.ok) throw new Error('A cancelled job answered.');
    expect(outcome.error).toBe(stopping);
    expect(outcome.body.statusCode).toBe(503);
  });

  it('delivers the response to the webhook with the request id, when the host chooses', async () => {
    const receiver = await startReceiver();
    try {
      const outcome = await runJob(
        {
          endpoint: 'audio',
          strings: { webhook_url: receiver.url },
          files: { audio: await jfk() },
        },
        { engine: async () => testEnginePorts(), webhook: { fetch: nodeDeliveryFetch } },
        job('req-hook'),
      );
      if (!outcome.ok) throw new Error(outcome.error.message);
      // Nothing is sent until the host asks.
      expect(receiver.received).toHaveLength(0);
      const events: DeliveryEvent['kind'][] = [];
      const delivered = await outcome.deliver!((event) => events.push(event.kind));
      expect(delivered).toMatchObject({ delivered: true, status: 200, attempts: 1 });
      expect(events).toEqual(['sending', 'delivered']);
      const payload = JSON.parse(receiver.received[0]!.body) as WebhookPayload;
      expect(payload.request_id).toBe('req-hook');
      expect(payload.payload).toEqual(outcome.response);
    } finally {
      await receiver.close();
    }
  });
});
