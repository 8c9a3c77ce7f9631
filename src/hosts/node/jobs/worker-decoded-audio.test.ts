import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../core/contract/endpoints';
import type { TranscriptionResponse } from '../../../core/contract/response';
import { DEFAULT_MEDIA_SETTINGS } from '../../../engine/stage-settings';
import { BLOCK_SAMPLES } from '../../../engine/streams/spilled-channels';
import { FixtureDir } from '../../../../tools/testing/ffmpeg-fixtures';
import { curl } from '../../../../tools/testing/server/curl';
import { mp3UnderstatingLength } from '../../../../tools/testing/server/hostile-media';
import { startQueueCluster } from '../../../../tools/testing/jobs/queue-cluster';

/** One series of a `/metrics` scrape, as a number (NaN where it is absent). */
async function metric(url: string, series: string): Promise<number> {
  const answer = await curl([url]);
  const line = answer.body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? NaN : Number(line.slice(series.length + 1));
}

describe('decoded audio in the accounting of murmur worker', () => {
  const fixtures = new FixtureDir();
  let cluster: Awaited<ReturnType<typeof startQueueCluster>>;
  let metrics: string;

  beforeAll(async () => {
    cluster = await startQueueCluster({ workers: 0 });
    const [worker] = await cluster.addWorkers(1, ['--audio-in-memory-seconds', '60']);
    metrics = worker!.metricsUrl!;
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
    fixtures.remove();
  });

  it('keeps an mp3 that understates its length in the scratch file once decoded past --audio-in-memory-seconds', async () => {
    const four = mp3UnderstatingLength(fixtures, 'four.mp3', 4);
    const answer = await curl([
      '-H',
      'x-service-key: queue-key',
      '-F',
      `audio=@${four}`,
      `${cluster.server.url}${ENDPOINTS.audio.path}`,
    ]);
    expect(answer.status).toBe(200);
    const response = JSON.parse(answer.body) as TranscriptionResponse;
    expect(response.prediction_raw.metadata.provided_file_metadata.duration).toBeGreaterThan(240);
    expect(await metric(metrics, 'murmur_decoded_audio_peak_bytes_count')).toBe(1);
    // Within what the scratch file holds (as the server's test states it), far under the
    // 31 MB of its floats in memory.
    const peak = await metric(metrics, 'murmur_decoded_audio_peak_bytes_sum');
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(
      DEFAULT_MEDIA_SETTINGS.windowOutputBytes + 4 * 1024 * 1024 + 2 * (1 + 6) * BLOCK_SAMPLES * 2,
    );
    expect(await metric(metrics, 'murmur_decoded_audio_bytes')).toBe(0);
  }, 180_000);
});
