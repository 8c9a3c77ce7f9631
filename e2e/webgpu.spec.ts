import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { spokenFile } from './fixtures/speech-files';
import { useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

/**
 * Runs only in the `webgpu` project: Chromium with --enable-unsafe-webgpu, whose software
 * adapter (SwiftShader) exercises the WebGPU path for correctness, not speed.
 */
async function transcribe(page: Page, baseURL: string, file: string, useGpu: boolean) {
  await useLocalModels(page, baseURL, useGpu);
  const app = new AppPage(page);
  await app.goto();
  await app.chooseFile(file);
  await app.submit();
  await app.expectResult(240_000);
  const ranOn = await app.byId('result.summary').innerText();
  return { text: (await app.byId('result.segment-text').allInnerTexts()).join(' '), ranOn };
}

test('the full pipeline runs on WebGPU as on WASM', async ({ browser, baseURL }, info) => {
  test.setTimeout(480_000);
  mkdirSync(info.outputDir, { recursive: true });
  const speech = spokenFile(
    info.outputDir,
    'short',
    [{ language: 'en', seed: 301, words: 5 }],
    0.3,
  );

  // navigator.gpu exists only in secure contexts: ask from the app's own page.
  const probe = await browser.newPage();
  await probe.goto(baseURL!);
  const hasAdapter = await probe.evaluate(async () => {
    const gpu = (navigator as unknown as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
    return (await gpu?.requestAdapter()) != null;
  });
  expect(hasAdapter).toBe(true);

  const wasm = await transcribe(await browser.newPage(), baseURL!, speech.path, false);
  expect(wasm.ranOn).toContain('CPU (WASM)');
  const gpu = await transcribe(await browser.newPage(), baseURL!, speech.path, true);
  expect(gpu.ranOn).toContain('GPU (WebGPU)');
  expect(wasm.text.length).toBeGreaterThan(0);
  expect(gpu.text).toBe(wasm.text);
});
