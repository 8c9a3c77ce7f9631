import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { areSimilar, compareChannels } from '../../core/audio/channel-similarity';
import type { TranscriptionResponse } from '../../core/contract/response';
import { channelPairs, writeWav, type ChannelPair } from '../../../tools/testing/channel-pairs';
import { scratchDir } from '../../../tools/testing/speech';
import { main } from './cli';

/**
 * Channels told apart on generated speech: different content is never merged (a wrong
 * "similar" would drop a person's words), while copies are still billed once.
 */
const MODELS = join(import.meta.dirname, '..', '..', '..', '.models');
const MODEL = 'murmur-test/whisper-synth';
let dir = '';
let pairs: ChannelPair[] = [];

async function transcribe(file: string): Promise<TranscriptionResponse> {
  let out = '';
  let err = '';
  const code = await main(['transcribe', file, '--models', MODELS, '--model', MODEL], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
  });
  if (code !== 0) throw new Error(`murmur exited ${code}: ${err}`);
  return JSON.parse(out) as TranscriptionResponse;
}

function pair(name: string): ChannelPair {
  const found = pairs.find((p) => p.name === name);
  if (!found) throw new Error(`no pair named ${name}`);
  return found;
}

beforeAll(() => {
  dir = scratchDir();
  pairs = channelPairs(dir);
});

describe('channel similarity on generated speech', () => {
  it.each([
    'two sentences at once',
    'one sentence in two voices',
    'a phone call',
    'a copy delayed 250 ms',
    'a copy 26 dB down',
    'a copy through mp3 at 24 kb/s',
    'a copy through 8 kHz mu-law',
    'a copy with crosstalk 20 dB down',
  ])('judges %s', (name) => {
    const { left, right, copy } = pair(name);
    const comparison = compareChannels(left, right, 16000);
    expect(areSimilar(comparison), JSON.stringify(comparison)).toBe(copy);
  });

  it('keeps both sentences of a file with one on each channel', async () => {
    const { left, right } = pair('two sentences at once');
    const result = await transcribe(writeWav(join(dir, 'two-sentences.wav'), [left, right]));
    const { metadata, transcription } = result.prediction_raw;
    expect(metadata.provided_file_metadata.number_similar_channels).toBe(0);
    expect(metadata.billing?.map((b) => b.reason)).toEqual(['billed', 'billed']);
    const channels = new Set(transcription.map((s) => s.channel));
    expect([...channels].sort()).toEqual(['channel_0', 'channel_1']);
  });

  it('still bills a delayed copy once', async () => {
    const { left, right } = pair('a copy delayed 250 ms');
    const result = await transcribe(writeWav(join(dir, 'copy.wav'), [left, right]));
    const { metadata, transcription } = result.prediction_raw;
    expect(metadata.provided_file_metadata.number_similar_channels).toBe(1);
    expect(metadata.billing?.map((b) => b.reason)).toEqual(['billed', 'similar']);
    expect(transcription.length).toBeGreaterThan(0);
    expect(new Set(transcription.map((s) => s.channel))).toEqual(new Set(['channel_0']));
  });
});
