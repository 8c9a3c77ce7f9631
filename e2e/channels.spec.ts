import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { TranscriptionResponse } from '../src/core/contract/response';
import { channelPairs, writeWav, type ChannelPair } from '../tools/testing/channel-pairs';
import { scratchDir } from '../tools/testing/speech';
import type { HarnessReply } from './harness/media-protocol';
import { useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

/**
 * Channels told apart in the browser, on the same generated pairs as the Node test: different
 * content stays two channels, copies are billed once.
 */
const repo = new URL('..', import.meta.url).pathname;
const dir = scratchDir();
let pairs: ChannelPair[] = [];

function file(name: string): string {
  const pair = pairs.find((p) => p.name === name);
  if (!pair) throw new Error(`no pair named ${name}`);
  return writeWav(join(dir, `${name.replace(/\W+/g, '-')}.wav`), [pair.left, pair.right]);
}

/** The preview server serves `.models/` at /hub/: make sure Silero VAD is there. */
function stageVad(): void {
  const target = join(repo, '.models', 'murmur-test', 'silero-vad', 'onnx', 'model.onnx');
  if (existsSync(target)) return;
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(join(repo, '..', 'shared', 'models', 'silero-vad', 'silero_vad.onnx'), target);
}

async function prepare(page: Page, path: string): Promise<HarnessReply> {
  await page.getByTestId('harness.file').setInputFiles(path);
  return page.evaluate(() => window.mediaHarness.prepare({}));
}

test.beforeAll(() => {
  stageVad();
  pairs = channelPairs(dir);
});

test.describe('channels told apart in the browser', () => {
  test.setTimeout(180_000);

  test('different content stays two channels, copies are billed once', async ({ page }) => {
    await page.goto('/e2e/harness/media.html');
    await page.waitForFunction(() => 'mediaHarness' in window);
    for (const pair of pairs) {
      const reply = await prepare(page, file(pair.name));
      if (reply.type === 'error') throw new Error(`${pair.name}: ${reply.data.message}`);
      const expected = pair.copy ? ['billed', 'similar'] : ['billed', 'billed'];
      expect(
        reply.data.billing.map((b) => b.reason),
        pair.name,
      ).toEqual(expected);
      expect(reply.data.file.number_similar_channels, pair.name).toBe(pair.copy ? 1 : 0);
    }
  });

  test('two sentences at once give segments on both channels', async ({ page, baseURL }) => {
    await useLocalModels(page, baseURL!);
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(file('two sentences at once'));
    await app.submit();
    await app.expectResult(150_000);
    const saved = readFileSync(await (await app.download('json')).path(), 'utf8');
    const response = JSON.parse(saved) as TranscriptionResponse;
    const { metadata, transcription } = response.prediction_raw;
    expect(metadata.provided_file_metadata.number_similar_channels).toBe(0);
    expect([...new Set(transcription.map((s) => s.channel))].sort()).toEqual([
      'channel_0',
      'channel_1',
    ]);
  });
});
