/**
 * Long audio kept in a scratch file rather than memory gives the same transcript, speakers and
 * billing as audio kept in memory, and the file is closed once the run ends, however it ends.
 * Tests make every file "long" (`compactFromSeconds: 0`), so that short generated speech takes
 * the path that hours of audio take.
 */
import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { TranscriptionResponse } from '../../core/contract/response';
import type { SpillPort } from '../ports';
import { isStoredPcm } from '../../core/audio/pcm';
import { runPipeline } from '../pipeline';
import { stageContexts } from '../stage-context';
import { DEFAULT_MEDIA_SETTINGS } from '../stage-settings';
import { BLOCK_SAMPLES } from './spilled-channels';
import * as media from '../stages/media';
import type { DecodedPiece } from './decoded-media';
import {
  conversation,
  stereoCall,
  writeConversationWav,
} from '../../../tools/testing/conversation';
import { TEST_DIARIZATION_MODELS } from '../../../tools/testing/diarization-cli';
import { FixtureDir, mediaRequest, testEnginePorts } from '../../../tools/testing/ffmpeg-fixtures';
import { mp3UnderstatingLength } from '../../../tools/testing/server/hostile-media';
import { nodeSpillFiles } from '../../hosts/node/spill-file';

const fixtures = new FixtureDir();
afterAll(() => fixtures.remove());

const SPEAKERS = {
  segmentationModel: TEST_DIARIZATION_MODELS.segmentationModel,
  embeddingModel: TEST_DIARIZATION_MODELS.embeddingModel,
};

/** Scratch files in the fixture folder, counted as they open and close. */
function countedSpill() {
  const counts = { opened: 0, closed: 0, written: 0 };
  const files = nodeSpillFiles(fixtures.dir);
  const spill: SpillPort = async () => {
    const file = await files();
    if (file === null) return null;
    counts.opened++;
    return {
      write: (bytes, at) => {
        counts.written += bytes.length;
        file.write(bytes, at);
      },
      read: (into, at) => file.read(into, at),
      close: () => {
        counts.closed++;
        file.close();
      },
    };
  };
  return { counts, spill };
}

/** The response without its timings, which differ from run to run. */
function comparable(response: TranscriptionResponse) {
  const { metadata, transcription } = response.prediction_raw;
  const untimed = Object.fromEntries(
    Object.entries(metadata).filter(([key]) => !key.endsWith('_time')),
  );
  return { prediction: response.prediction, transcription, metadata: untimed };
}

async function transcribe(
  path: string,
  spill: SpillPort | null,
  diarize: boolean,
  denoise = false,
) {
  const ports = { ...testEnginePorts(diarize ? SPEAKERS : {}), spill: spill ?? undefined };
  if (spill === null) delete ports.spill;
  const request = mediaRequest(
    { kind: 'file', file: await fixtures.file(path) },
    { toggle_diarization: diarize, toggle_noise_reduction: denoise },
  );
  return runPipeline(request, ports, { settings: { media: { compactFromSeconds: 0 } } });
}

describe('long audio kept in a scratch file', () => {
  it('gives a conversation the same transcript and speakers as memory, and closes its file', async () => {
    const path = writeConversationWav(
      fixtures.path('conversation.wav'),
      conversation({ speakers: 3, seconds: 40, seed: 11 }),
    );
    const inMemory = await transcribe(path, null, true);
    const { counts, spill } = countedSpill();
    const spilled = await transcribe(path, spill, true);
    expect(counts.opened).toBe(1);
    expect(counts.closed).toBe(1);
    // Every full block of the 16-bit samples went to the file.
    expect(counts.written).toBeGreaterThan(0);
    expect(comparable(spilled)).toEqual(comparable(inMemory));
    expect(spilled.prediction_raw.transcription.length).toBeGreaterThan(3);
    expect(
      new Set(spilled.prediction_raw.transcription.map((s) => s.speaker)).size,
    ).toBeGreaterThan(1);
    // Nothing is left in the folder: the file's name went as soon as it was open.
    expect(readdirSync(fixtures.dir).filter((n) => n.startsWith('murmur-audio-'))).toEqual([]);
  }, 240_000);

  it('gives both channels of a call the same transcript and billing as memory', async () => {
    const path = writeConversationWav(fixtures.path('call.wav'), stereoCall({ seed: 5, turns: 6 }));
    const inMemory = await transcribe(path, null, false);
    const { counts, spill } = countedSpill();
    const spilled = await transcribe(path, spill, false);
    expect(counts).toMatchObject({ opened: 1, closed: 1 });
    expect(comparable(spilled)).toEqual(comparable(inMemory));
    const channels = new Set(spilled.prediction_raw.transcription.map((s) => s.channel));
    expect(channels).toEqual(new Set(['channel_0', 'channel_1']));
  }, 240_000);

  it('denoises a channel into a scratch file of its own, with the same transcript as memory', async () => {
    const path = writeConversationWav(
      fixtures.path('noisy.wav'),
      conversation({ speakers: 2, seconds: 35, seed: 8 }),
    );
    // Pink noise under the talk, 20 dB down.
    const noisy = fixtures.ffmpeg('noisy-mixed.wav', [
      '-i',
      path,
      '-f',
      'lavfi',
      '-i',
      'anoisesrc=color=pink:amplitude=0.05:seed=3:r=16000',
      '-filter_complex',
      '[0:a][1:a]amix=inputs=2:duration=first:normalize=0[a]',
      '-map',
      '[a]',
    ]);
    const inMemory = await transcribe(noisy, null, false, true);
    const { counts, spill } = countedSpill();
    const spilled = await transcribe(noisy, spill, false, true);
    expect(spilled.prediction_raw.metadata.audio_conversion_time).toBeGreaterThan(0);
    // One file for the decoded channel, one for its denoised samples; both closed.
    expect(counts).toMatchObject({ opened: 2, closed: 2 });
    expect(comparable(spilled)).toEqual(comparable(inMemory));
    expect(spilled.prediction_raw.transcription.length).toBeGreaterThan(2);
  }, 240_000);

  it('closes the file of a run that is cancelled', async () => {
    const path = writeConversationWav(
      fixtures.path('cancelled.wav'),
      conversation({ speakers: 2, seconds: 30, seed: 4 }),
    );
    const { counts, spill } = countedSpill();
    const controller = new AbortController();
    const ports = { ...testEnginePorts(), spill };
    const request = mediaRequest({ kind: 'file', file: await fixtures.file(path) });
    const run = runPipeline(request, ports, {
      settings: { media: { compactFromSeconds: 0 } },
      signal: controller.signal,
      onProgress: (stage) => {
        if (stage === 'recognise') controller.abort(new Error('cancelled'));
      },
    });
    await expect(run).rejects.toThrow();
    expect(counts).toMatchObject({ opened: 1, closed: 1 });
  }, 240_000);
});

describe('audio that turns out long once decoded', () => {
  /** The media stage alone on `path`: what it kept, where, and the most it held in memory. */
  async function decodeAll(path: string, spill: SpillPort | null) {
    const ports = { ...testEnginePorts(), ...(spill ? { spill } : {}) };
    if (spill === null) delete ports.spill;
    const stage = stageContexts(ports, undefined, undefined);
    const decoded = await media.run(
      {
        media: { kind: 'file', file: await fixtures.file(path) },
        endpoint: 'audio',
        settings: { ...DEFAULT_MEDIA_SETTINGS, compactFromSeconds: 60 },
      },
      stage('decode'),
    );
    let last: DecodedPiece | null = null;
    for await (const piece of decoded.pieces) last = piece;
    const kept = last!.channels.map((c) => (isStoredPcm(c) ? 'file' : c.constructor.name));
    const seconds = last!.length / 16000;
    const peak = decoded.heldBytesPeak();
    decoded.release();
    return { kept, seconds, peak, stated: decoded.probe.duration! };
  }

  it('goes to the scratch file once decoding passes the threshold, whatever the header said', async () => {
    const four = mp3UnderstatingLength(fixtures, 'four.mp3', 4);
    const eight = mp3UnderstatingLength(fixtures, 'eight.mp3', 8);
    const { counts, spill } = countedSpill();
    const short = await decodeAll(four, spill);
    // The header states under a tenth of the length: the threshold is passed only decoding.
    expect(short.stated).toBeLessThan(30);
    expect(short.seconds).toBeGreaterThan(240);
    expect(short.kept).toEqual(['file', 'file']);
    expect(counts).toMatchObject({ opened: 1, closed: 1 });
    // Every sample went to the file, 16-bit.
    expect(counts.written).toBeGreaterThanOrEqual(Math.floor(short.seconds / 16.384) * 2 * 524288);
    const long = await decodeAll(eight, spill);
    expect(long.seconds).toBeGreaterThan(480);
    // What memory held did not grow with the length: twice the audio, the same peak.
    expect(long.peak).toBe(short.peak);
    // In memory, the samples grow with it (16-bit once known to be long).
    const inMemory = await decodeAll(eight, null);
    expect(inMemory.kept).toEqual(['Int16Array', 'Int16Array']);
    expect(inMemory.peak).toBeGreaterThanOrEqual(long.seconds * 16000 * 2 * 2);
    // The file's peak is one decoded window of floats, the samples moved a stretch (4 MB) at a
    // time, and the scratch file's blocks: one being filled and six read back per channel.
    const blocks = 2 * (1 + 6) * BLOCK_SAMPLES * 2;
    expect(long.peak).toBeLessThanOrEqual(
      DEFAULT_MEDIA_SETTINGS.windowOutputBytes + 4 * 1024 * 1024 + blocks,
    );
    expect(long.peak).toBeLessThan(inMemory.peak);
  }, 120_000);
});
