import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';
import { modelFolderHandler } from './tools/model-host/model-host.mjs';

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
        },
      }
    : {};

export default defineConfig({
  plugins: [react(), tailwindcss(), localModelHost()],
  // The test build lets the browser tests make the worker die on purpose (`crashForTest`).
  define: {
    'import.meta.env.MURMUR_TEST_HOOKS': JSON.stringify(process.env.MURMUR_HARNESS === '1'),
  },
  // 'mpa': a missing file is a 404, not index.html with status 200 (which would make a missing
  // model file fail later with a JSON parse error instead of "not found").
  appType: 'mpa',
  server: { headers: isolation },
  preview: { headers: isolation },
  worker: { format: 'es' },
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
    rolldownOptions: { ...harnessInput },
  },
});
