import type { BrowserEngineSettings } from '../../src/hosts/browser/engine-ports';

/** The harnesses' engine: the test models that the preview server serves at /hub/, on WASM. */
export const TEST_MODELS: BrowserEngineSettings = {
  modelHost: '/hub/',
  whisperModel: 'murmur-test/whisper-synth',
  vadModel: 'murmur-test/silero-vad',
  device: async () => 'wasm',
};
