import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptionResponse } from '../../../core/contract/response';
import { startQueueCluster } from '../../../../tools/testing/jobs/queue-cluster';
import { startPageHost } from '../../../../tools/testing/server/page-host';
import { scratchDir, sentence, spokenFile } from '../../../../tools/testing/speech';

describe('a queued job whose audio_url is a web page, run by murmur worker', () => {
  let cluster: Awaited<ReturnType<typeof startQueueCluster>>;
  let host: Awaited<ReturnType<typeof startPageHost>>;
  let dir = '';
  let speech = '';

  beforeAll(async () => {
    dir = scratchDir();
    speech = spokenFile(dir, 'talk', [{ language: 'en', text: sentence('en', 613, 9) }]).path;
    host = await startPageHost(speech);
    // The cluster's server and worker allow private addresses: the pages are on loopback.
    cluster = await startQueueCluster({ workers: 1 });
  }, 120_000);
  afterAll(async () => {
    await cluster?.stop();
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says at start-up that the worker reads links to web pages', () => {
    expect(cluster.workers[0]!.stderr()).toMatch(
      /^murmur worker: links to web pages: read with yt-dlp \d{4}\.\d{2}\.\d{2}$/m,
    );
  });

  it('ends done with the transcript of the recording the page embeds', async () => {
    const { jobs } = cluster;
    const submit = async (form: string) =>
      ((await jobs.submit([form])).json() as { id: string }).id;
    const fileId = await submit(`audio=@${speech}`);
    const pageId = await submit(`audio_url=${host.url('/og-video.html')}`);
    const done = (id: string) => jobs.until(id, (v) => v.status === 'done', 'done', 90_000);
    const file = (await done(fileId)).result as TranscriptionResponse;
    const page = (await done(pageId)).result as TranscriptionResponse;
    expect(page.prediction_raw.transcription.length).toBeGreaterThan(0);
    expect(page.prediction_raw.transcription).toEqual(file.prediction_raw.transcription);
    expect(page.prediction_raw.metadata.source_page).toEqual({
      url: host.url('/og-video.html'),
      title: 'A talk on a page',
    });
  }, 120_000);

  it('ends in error with the sentence for a page without media', async () => {
    const { jobs } = cluster;
    const answer = await jobs.submit([`audio_url=${host.url('/no-media.html')}`]);
    const { id } = answer.json() as { id: string };
    const ended = await jobs.until(id, (v) => v.status === 'error', 'in error', 60_000);
    expect(ended.error).toMatchObject({
      error: 'unsupported_media',
      statusCode: 415,
      message:
        'The page at audio_url holds no media yt-dlp can read. Link to the media file itself.',
    });
  }, 90_000);

  it('says at start-up that a worker whose --yt-dlp runs nothing does not read them', async () => {
    const missing = `${dir}/no-such-yt-dlp`;
    const [bare] = await cluster.addWorkers(1, ['--yt-dlp', missing]);
    expect(bare!.stderr()).toContain(
      `murmur worker: links to web pages: not available (no yt-dlp runs as "${missing}"; install yt-dlp or name it with --yt-dlp PATH)\n`,
    );
  }, 90_000);
});
