import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../core/contract/endpoints';
import type { TranscriptionResponse } from '../../../core/contract/response';
import { DEFAULT_MEDIA_SETTINGS } from '../../../engine/stage-settings';
import { BLOCK_SAMPLES } from '../../../engine/streams/spilled-channels';
import { FixtureDir } from '../../../../tools/testing/ffmpeg-fixtures';
import { curl } from '../../../../tools/testing/server/curl';
import { mp3UnderstatingLength } from '../../../../tools/testing/server/hostile-media';
import { startServe, type ServeProcess } from '../../../../tools/testing/server/serve-process';

const AUDIO: string = ENDPOINTS.audio.path;

/** One series of the server's `/metrics`, as a number (NaN where it is absent). */
async function metric(server: ServeProcess, series: string): Promise<number> {
  const answer = await curl([`${server.url}/metrics`]);
  const line = answer.body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? NaN : Number(line.slice(series.length + 1));
}

/**
 * Transcribes `path` on `server` and reads its account of the decoded audio: the most bytes
 * `/metrics` showed held while the request ran, the run's peak (what the peak histogram gained)
 * and what is held once it is answered.
 */
async function transcribeCounted(server: ServeProcess, path: string) {
  const sum = 'murmur_decoded_audio_peak_bytes_sum';
  const count = 'murmur_decoded_audio_peak_bytes_count';
  const before = { sum: await metric(server, sum), count: await metric(server, count) };
  let answered = false;
  let seen = 0;
  const watching = (async () => {
    while (!answered) {
      seen = Math.max(seen, await metric(server, 'murmur_decoded_audio_bytes'));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const answer = await curl(['-F', `audio=@${path}`, `${server.url}${AUDIO}`]).finally(
    () => (answered = true),
  );
  await watching;
  expect(answer.status).toBe(200);
  const response = JSON.parse(answer.body) as TranscriptionResponse;
  expect(await metric(server, count)).toBe(before.count + 1);
  return {
    seconds: response.prediction_raw.metadata.provided_file_metadata.duration,
    seen,
    peak: (await metric(server, sum)) - before.sum,
    after: await metric(server, 'murmur_decoded_audio_bytes'),
  };
}

// The scratch file's peak, as the media stage states it: one decoded window of floats, the
// samples moved a stretch (4 MB) at a time, and the file's blocks (one being filled and six read
// back, per channel of the stereo file).
const SCRATCH_PEAK_BOUND =
  DEFAULT_MEDIA_SETTINGS.windowOutputBytes + 4 * 1024 * 1024 + 2 * (1 + 6) * BLOCK_SAMPLES * 2;

describe('decoded audio in the accounting of murmur serve', () => {
  const fixtures = new FixtureDir();
  let bounded: ServeProcess;
  let byDefault: ServeProcess;
  let four: string;

  beforeAll(async () => {
    four = mp3UnderstatingLength(fixtures, 'four.mp3', 4);
    bounded = await startServe(['--no-auth', '--audio-in-memory-seconds', '60']);
    byDefault = await startServe(['--no-auth']);
  }, 180_000);
  afterAll(async () => {
    expect(await bounded.stop()).toBe(0);
    expect(await byDefault.stop()).toBe(0);
    fixtures.remove();
  });

  it('keeps an mp3 that understates its length in the scratch file once decoded past --audio-in-memory-seconds, whatever its length', async () => {
    const short = await transcribeCounted(bounded, four);
    // The whole of the audio, where the header states a fraction of it.
    expect(short.seconds).toBeGreaterThan(240);
    expect(short.seen).toBeGreaterThan(0);
    expect(short.seen).toBeLessThanOrEqual(short.peak);
    expect(short.peak).toBeLessThanOrEqual(SCRATCH_PEAK_BOUND);
    // Memory given back once answered.
    expect(short.after).toBe(0);
    // Twice the audio, the same peak: what memory holds does not grow with the length.
    const long = await transcribeCounted(bounded, mp3UnderstatingLength(fixtures, 'eight.mp3', 8));
    expect(long.seconds).toBeGreaterThan(480);
    expect(long.peak).toBe(short.peak);
    expect(long.after).toBe(0);
  }, 300_000);

  it('keeps the same file in memory under the default of 600 s, and counts its floats', async () => {
    const counted = await transcribeCounted(byDefault, four);
    expect(counted.seconds).toBeGreaterThan(240);
    // Every sample of both channels held as floats.
    expect(counted.peak).toBeGreaterThanOrEqual(counted.seconds * 16000 * 2 * 4);
    expect(counted.peak).toBeGreaterThan(SCRATCH_PEAK_BOUND);
    expect(counted.after).toBe(0);
  }, 300_000);
});
