import { startWorker } from '../../worker/life-lock';

// The life lock first; the engine (transformers.js, onnxruntime, ffmpeg) loads after it.
startWorker(
  async () => (await import('./transcription-handler')).receive,
  import.meta.env.MURMUR_TEST_HOOKS === true,
);
