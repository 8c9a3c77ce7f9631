import { expect, test } from '@playwright/test';
import type { TranslationReply } from './harness/translation-protocol';
import { parallelRows, rowSequence, rowsText } from '../tools/testing/parallel';
import { wordErrorRate } from '../tools/testing/wer';

/**
 * The browser host's translator port (the one the app's worker uses) in a module worker:
 * onnxruntime-web on WASM with the 8-bit test model from the local model host.
 */
test('translates segments in the browser through the browser engine port', async ({
  page,
  baseURL,
}) => {
  const rows = parallelRows();
  const sequences = [0, 1, 2, 3].map((i) => rowSequence(7000 + i, 4 + i, rows.length));
  await page.goto('/e2e/harness/translation.html');
  await page.waitForFunction(() => 'translationHarness' in window);
  const reply = (await page.evaluate((run) => window.translationHarness.run(run), {
    modelHost: `${baseURL}/hub/`,
    translationModel: 'murmur-test/m2m100-synth',
    texts: sequences.map((s) => rowsText(rows, s, 'en')),
    from: 'en',
    to: 'fr',
  })) as TranslationReply;
  if (reply.type === 'error') throw new Error(reply.data.message);
  expect(reply.data.crossOriginIsolated).toBe(true);
  expect(reply.data.translations).toHaveLength(4);
  const reference = sequences.map((s) => rowsText(rows, s, 'fr')).join(' ');
  expect(wordErrorRate(reference, reply.data.translations.join(' '))).toBeLessThanOrEqual(0.15);
});
