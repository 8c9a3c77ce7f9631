import { describe, expect, it } from 'vitest';
import { applyCaptionUpdate, NO_CAPTIONS } from '../../src/core/live/captions';
import { liveStopped, receiveLive } from '../../src/hosts/browser/live-handler';
import { testEnginePorts } from './ffmpeg-fixtures';
import { spokenPhrases } from './live-runs';
import type { FromWorker, ToWorker } from '../../src/worker/protocol';

// The browser worker's live handler run on the Node host's engine with the test models (the
// hosts do not import each other's code; the tools may).

type LiveMessage = Extract<
  ToWorker,
  { type: 'listen' | 'listen-audio' | 'listen-end' | 'listen-cancel' }
>;

/** The handler run as the worker runs it, its posts recorded. */
function worker() {
  const posted: FromWorker[] = [];
  const send = (message: LiveMessage) =>
    receiveLive(message, (m) => posted.push(m), testEnginePorts);
  const listen = (id: number, channels = 1) =>
    send({
      id,
      type: 'listen',
      data: { channels, languageBehaviour: 'manual', language: 'en', hint: '' },
    });
  const audio = (id: number, channels: Float32Array[]) =>
    send({ id, type: 'listen-audio', data: { channels } });
  const waitFor = async (done: () => boolean) => {
    while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  return { posted, send, listen, audio, waitFor };
}

/** Quarter seconds of the samples, sent as the page sends them. */
function* quarters(samples: Float32Array): Generator<Float32Array> {
  for (let at = 0; at < samples.length; at += 4000) yield samples.slice(at, at + 4000);
}

describe('the worker side of live captions', () => {
  it('posts merged caption updates, then listened after the end', async () => {
    const { samples, texts } = spokenPhrases(4500, 2, 7, 0.8);
    const w = worker();
    w.listen(7);
    let sent = 0;
    for (const quarter of quarters(samples)) {
      w.audio(7, [quarter]);
      sent++;
      // A little slower than real time would be, so that updates come while audio does.
      if (sent % 4 === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    w.send({ id: 7, type: 'listen-end', data: null });
    await w.waitFor(() => w.posted.some((m) => m.type === 'listened' || m.type === 'error'));
    const types = w.posted.map((m) => m.type);
    expect(types.at(-1)).toBe('listened');
    expect(new Set(types)).toEqual(new Set(['captions', 'listened']));
    expect(w.posted.every((m) => m.id === 7)).toBe(true);
    let captions = NO_CAPTIONS;
    for (const m of w.posted)
      if (m.type === 'captions') captions = applyCaptionUpdate(captions, m.data);
    expect(captions.settled.length).toBeGreaterThanOrEqual(texts.length);
    expect(captions.provisional).toEqual([null]);
    await liveStopped();
  }, 90_000);

  it('posts nothing more once cancelled, and lets a transcription wait for it to stop', async () => {
    const { samples } = spokenPhrases(4600, 2, 7, 0.8);
    const w = worker();
    w.listen(8);
    for (const quarter of quarters(samples)) w.audio(8, [quarter]);
    // The worker is busy with the audio: a decode is in hand when the cancel comes.
    await w.waitFor(() => w.posted.length > 0);
    w.send({ id: 8, type: 'listen-cancel', data: null });
    const count = w.posted.length;
    let stopped = false;
    const waiting = liveStopped().then(() => (stopped = true));
    // Audio and an end for the cancelled one change nothing.
    w.audio(8, [samples.slice(0, 4000)]);
    w.send({ id: 8, type: 'listen-end', data: null });
    await waiting;
    expect(stopped).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(w.posted.length).toBe(count);
  }, 90_000);

  it('answers audio of the wrong shape with an error', async () => {
    const w = worker();
    w.listen(9, 2);
    w.audio(9, [new Float32Array(4000)]);
    expect(w.posted).toEqual([
      {
        id: 9,
        type: 'error',
        data: {
          code: 'internal_error',
          name: 'ServiceError',
          message: 'Internal failure: Live audio has 2 channels; 1 were sent.',
          problems: [],
        },
      },
    ]);
    await liveStopped();
  });
});
