import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptionResponse } from '../../core/contract/response';
import { TEST_DIARIZATION_MODELS } from '../../../tools/testing/diarization-cli';
import { startServe, type ServeProcess } from '../../../tools/testing/server/serve-process';
import { scratchDir } from '../../../tools/testing/speech';
import { KNOWN_PEOPLE, writePeopleConversation } from '../../../tools/testing/voice-conversations';
import { murmur, namedResult, speakerOf, TEST_MODEL_ARGS } from '../../../tools/testing/voices-cli';

/**
 * `murmur serve --voices`: the operator's voices name the speakers of a request with
 * diarization on; the response and the log carry the names only.
 */
const people = KNOWN_PEOPLE.slice(0, 2);
let dir = '';
let voices = '';
let server: ServeProcess | null = null;

beforeAll(async () => {
  dir = scratchDir();
  voices = join(dir, 'voices.json');
  const first = writePeopleConversation(dir, 'first', people, { seed: 21, seconds: 30 });
  // A result whose speakers were renamed by hand finds its people by their time all the same.
  const result = join(dir, 'first.json');
  writeFileSync(result, namedResult(first.turns));
  for (const person of people) {
    const run = await murmur(
      'voices',
      'add',
      first.media,
      result,
      '--speaker',
      person.name,
      '--name',
      person.name,
      '--voices',
      voices,
      ...TEST_MODEL_ARGS,
    );
    if (run.code !== 0) throw new Error(`murmur voices add: ${run.stderr}`);
  }
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

describe('murmur serve --voices', () => {
  it('names the speakers of a synchronous request with diarization on', async () => {
    server = await startServe([
      '--no-auth',
      '--segmentation-model',
      TEST_DIARIZATION_MODELS.segmentationModel,
      '--embedding-model',
      TEST_DIARIZATION_MODELS.embeddingModel,
      '--voices',
      voices,
    ]);
    expect(server.stderr()).toContain(
      `murmur serve: 2 voices from ${voices} name the speakers of every request with diarization on\n`,
    );
    const second = writePeopleConversation(dir, 'second', [...people].reverse(), {
      seed: 22,
      seconds: 30,
    });
    const form = new FormData();
    form.set('audio', new Blob([readFileSync(second.media)], { type: 'audio/wav' }), 'second.wav');
    form.set('toggle_diarization', 'true');
    const answer = await fetch(`${server.url}/audio/text/audio-transcription/`, {
      method: 'POST',
      body: form,
    });
    expect(answer.status).toBe(200);
    const text = await answer.text();
    const response = JSON.parse(text) as TranscriptionResponse;
    expect(speakerOf(response, second.turns, 'Anna')).toBe('Anna');
    expect(speakerOf(response, second.turns, 'Bruno')).toBe('Bruno');
    // A voice is never part of what the service sends or writes down.
    const kept = readFileSync(voices, 'utf8');
    const number = /"embedding": \[(-?[\d.e-]+),/.exec(kept)![1]!;
    for (const written of [text, JSON.stringify(server.logs()), server.stderr()]) {
      expect(written).not.toContain('embedding');
      expect(written).not.toContain(number);
    }
  }, 300_000);
});
