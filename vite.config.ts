import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { modelFolderHandler } from './tools/model-host/model-host.mjs';
import { pageHeaderPolicy, SCRIPT_HEADER_POLICY } from './src/core/network-policy.ts';

/**
 * Development and tests: the models made by the project (`.models/`, see tools/models) served
 * at `/hub/` in the hub's layout, so the app loads them exactly as it loads the hub's.
 */
function localModelHost(): Plugin {
  const handler = modelFolderHandler('.models', '/hub/');
  return {
    name: 'murmur-local-model-host',
    configureServer: (server) => void server.middlewares.use(handler),
    configurePreviewServer: (server) => void server.middlewares.use(handler),
  };
}

/**
 * Cross-origin isolation gives the page SharedArrayBuffer, which multi-threaded WASM inference
 * needs; both the dev server and the preview server send it.
 */
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * The network policy's headers (docs/usage.md lists them for any static host): the page's for
 * documents, the scripts' for what starts as a worker straight from its address. The page
 * narrows `connect-src` itself as it opens (src/app/lib/page-policy.ts).
 */
function networkPolicyHeaders(): Plugin {
  const handler =
    (inline: boolean) => (req: IncomingMessage, res: ServerResponse, next: () => void) => {
      // A browser that does not say what it fetches gets what a static host sends by file
      // type, so that no page or worker goes without a policy.
      const dest =
        req.headers['sec-fetch-dest'] ??
        (/\.m?js(\?|$)/.test(req.url ?? '') ? 'worker' : 'document');
      if (dest === 'document' || dest === 'iframe')
        res.setHeader('Content-Security-Policy', pageHeaderPolicy({ inline }));
      else if (dest === 'worker' || dest === 'sharedworker' || dest === 'serviceworker')
        res.setHeader('Content-Security-Policy', SCRIPT_HEADER_POLICY);
      next();
    };
  return {
    name: 'murmur-network-policy',
    // The development server inlines React's refresh script and each stylesheet.
    configureServer: (server) => void server.middlewares.use(handler(true)),
    configurePreviewServer: (server) => void server.middlewares.use(handler(false)),
  };
}

/**
 * The browser tests' harness pages (e2e/harness/: the media stage; recognition benchmarks), built beside the app only
 * when MURMUR_HARNESS=1 (the test:e2e script); the app itself never contains it.
 */
const harnessInput =
  process.env.MURMUR_HARNESS === '1'
    ? {
        input: {
          main: 'index.html',
          mediaHarness: 'e2e/harness/media.html',
          asrHarness: 'e2e/harness/asr.html',
          translationHarness: 'e2e/harness/translation.html',
          diarizationHarness: 'e2e/harness/diarization.html',
          liveHarness: 'e2e/harness/live.html',
        },
      }
    : {};

/**
 * The runtimes' files, fetched only when first needed (see src/hosts/browser/runtime-files.ts):
 * ffmpeg's core (the decoder), onnxruntime's plain WASM build (voice activity, and recognition
 * without a GPU) and its WebGPU build. Their sizes are handed to the app, which says them
 * before anything is fetched.
 */
const RUNTIME_FILES = {
  decoder: ['@ffmpeg/core', '@ffmpeg/core/wasm'],
  speech: [
    'onnxruntime-web/ort-wasm-simd-threaded.mjs',
    'onnxruntime-web/ort-wasm-simd-threaded.wasm',
  ],
  gpu: [
    'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs',
    'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm',
  ],
};
const runtimeBytes = Object.fromEntries(
  Object.entries(RUNTIME_FILES).map(([name, files]) => [
    name,
    files.reduce((sum, file) => sum + statSync(fileURLToPath(import.meta.resolve(file))).size, 0),
  ]),
);

/**
 * The installable app: a manifest, and a service worker that precaches the shell and the
 * page's and workers' code, so that the first visit fetches the page and nothing more. The
 * runtimes (tens of MB each) are not precached: the app fetches the ones this device uses when
 * first needed and keeps them in its own cache (`murmur-runtimes`), which the service worker
 * serves them from, online and offline. Models are not precached either: the app keeps them
 * in Cache Storage as they are used or downloaded ahead under Models. A new version waits for
 * the user to accept it ('prompt'), so a transcription in progress is never cut off by a
 * reload.
 */
const pwa = VitePWA({
  registerType: 'prompt',
  injectRegister: false,
  manifest: {
    id: '/',
    name: 'Murmur — transcription in your browser',
    short_name: 'Murmur',
    description: 'Private speech transcription that runs in your browser.',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: '#4f46e5',
    background_color: '#f1f5f9',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    ],
  },
  workbox: {
    globPatterns: ['**/*.{html,js,mjs,css,wasm,svg,png,webmanifest}'],
    globIgnores: [
      // The runtimes: fetched when needed, only the builds this device uses.
      '**/ffmpeg-core-*',
      '**/ort-wasm-*',
      // Stop words, for chapters and summaries: fetched when first asked for (or made
      // available offline), kept by the rule below.
      '**/stopwords-iso-*.js',
      // Sentiment word lists, one a language: fetched when a transcription first reads
      // sentiment in that language (or made available offline), kept by the rule below.
      '**/AFINN-*.js',
      // The code that reads sentiment, fetched with them.
      '**/sentiment-reading-*.js',
      // The Word writer (the DOCX download): fetched on the first DOCX or made available
      // offline.
      '**/docx-*.js',
      // The browser tests' harness pages (test builds only) are no part of the app.
      'e2e/**',
      '**/*Harness-*.js',
      '**/{asr,media,translation,diarization}.worker-*.js',
    ],
    runtimeCaching: [
      {
        // Served from the app's own cache of runtimes, which only the app writes (it checks
        // that a file arrived whole first); a file not there yet comes from the network.
        urlPattern: /\/assets\/(ffmpeg-core|ort-wasm-simd-threaded)[^/]*\.(js|mjs|wasm)$/,
        handler: 'CacheFirst',
        options: {
          cacheName: 'murmur-runtimes',
          matchOptions: { ignoreVary: true, ignoreSearch: true },
          plugins: [{ cacheWillUpdate: async () => null }],
        },
      },
      {
        urlPattern: /\/assets\/(?:stopwords-iso|AFINN-[a-z]+|sentiment-reading|docx)-[^/]*\.js$/,
        handler: 'CacheFirst',
        options: { cacheName: 'murmur-text' },
      },
    ],
    // The first visit is served by the new worker at once, so it works offline without a reload.
    clientsClaim: true,
    // The app's page for every opening of `/`, whatever its query (a settings link such as
    // `/?models=…&model=…`, a campaign tag): precache matching would otherwise look for that
    // exact URL and find nothing offline. Only `/` falls back: a missing file (a model the host
    // lacks) must stay a 404, not index.html.
    navigateFallback: 'index.html',
    navigateFallbackAllowlist: [/^\/(\?.*)?$/],
    cleanupOutdatedCaches: true,
  },
});

/**
 * docx reads its `buffer` import only to decode an image given as base64 where `atob` is
 * missing: never in a browser (they all have `atob`), and never for Murmur's documents, which
 * hold no images. It is given an empty module on purpose, rather than a Buffer polyfill the
 * page would carry for nothing (and the bundler's notice that it left `buffer` out).
 */
function docxWithoutBuffer(): Plugin {
  const id = '\0docx-unused-buffer';
  return {
    name: 'murmur-docx-without-buffer',
    enforce: 'pre',
    resolveId: (source, importer) =>
      source === 'buffer' && importer?.includes('/node_modules/docx/') ? id : null,
    load: (loaded) => (loaded === id ? 'export default {};' : null),
  };
}

/** The preview server's port: PORT when it is one, else 4173. */
function previewPort(): number {
  const port = Number(process.env.PORT);
  return Number.isInteger(port) && port > 0 && port < 65536 ? port : 4173;
}

/**
 * The bundler's timing report names the transforms that copy the WASM runtimes (tens of MB) as
 * slow on every build, of the page and of its workers; that is expected, and `npm start`
 * stays quiet without it.
 */
const quietChecks = { bundlerTimings: false };

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    localModelHost(),
    docxWithoutBuffer(),
    networkPolicyHeaders(),
    pwa,
  ],
  // The test build lets the browser tests make the worker die on purpose (`crashForTest`).
  define: {
    'import.meta.env.MURMUR_TEST_HOOKS': JSON.stringify(process.env.MURMUR_HARNESS === '1'),
    'import.meta.env.MURMUR_RUNTIME_BYTES': JSON.stringify(runtimeBytes),
  },
  // 'mpa': a missing file is a 404, not index.html with status 200 (which would make a missing
  // model file fail later with a JSON parse error instead of "not found").
  appType: 'mpa',
  server: { headers: isolation },
  // `npm start` serves at 4173 unless PORT names another (`PORT=5000 npm start`); a port given on
  // the command line (`npm start -- --port 5000`) wins over both.
  preview: { headers: isolation, port: previewPort() },
  worker: { format: 'es', rolldownOptions: { checks: quietChecks } },
  optimizeDeps: {
    exclude: ['@ffmpeg/ffmpeg', '@ffmpeg/util', '@huggingface/transformers', 'onnxruntime-web'],
  },
  build: {
    target: 'es2022',
    // Inlined wasm or worker files break ffmpeg.wasm and onnxruntime (they need real URLs).
    assetsInlineLimit: (file) =>
      /\.(wasm|mjs)$/.test(file) || file.includes('worker') || file.includes('ffmpeg-core')
        ? false
        : undefined,
    rolldownOptions: { ...harnessInput, checks: quietChecks },
  },
});
