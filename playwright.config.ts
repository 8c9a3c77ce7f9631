import { defineConfig } from '@playwright/test';
import { MICROPHONE_WAV } from './e2e/fixtures/recording-audio';

// MURMUR_E2E_PORT lets two checkouts run their browser tests side by side.
const port = Number(process.env.MURMUR_E2E_PORT ?? 4174);

const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Playwright drives Debian's Chromium (its own browser downloads are not available here). The
 * built app is served by `vite preview`, which sends the cross-origin isolation headers.
 */
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  reporter: [['list']],
  outputDir: 'test-results/e2e',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    acceptDownloads: true,
    launchOptions: { executablePath, args: chromiumArgs },
  },
  projects: [
    {
      name: 'laptop',
      testIgnore: [/webgpu\.spec\.ts/, /recording\.spec\.ts/],
      use: { viewport: { width: 1366, height: 900 } },
    },
    {
      // A software WebGPU adapter (SwiftShader) appears only with this flag.
      name: 'webgpu',
      testMatch: /webgpu\.spec\.ts/,
      use: {
        viewport: { width: 1366, height: 900 },
        launchOptions: { executablePath, args: [...chromiumArgs, '--enable-unsafe-webgpu'] },
      },
    },
    {
      name: 'recording-setup',
      testMatch: /recording\.setup\.ts/,
    },
    {
      // A fake microphone that plays generated speech (%noloop: once, from when it opens), and
      // permission prompts answered yes.
      name: 'recording',
      testMatch: /recording\.spec\.ts/,
      dependencies: ['recording-setup'],
      use: {
        viewport: { width: 1366, height: 900 },
        launchOptions: {
          executablePath,
          args: [
            ...chromiumArgs,
            '--use-fake-ui-for-media-stream',
            '--use-fake-device-for-media-stream',
            `--use-file-for-fake-audio-capture=${MICROPHONE_WAV}%noloop`,
            '--autoplay-policy=no-user-gesture-required',
          ],
        },
      },
    },
  ],
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
