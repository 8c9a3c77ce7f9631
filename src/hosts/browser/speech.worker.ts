import { startWorker } from '../../worker/life-lock';

// The life lock first; onnxruntime and the VAD model load after it.
startWorker(
  async () => (await import('./speech-handler')).receive,
  import.meta.env.MURMUR_TEST_HOOKS === true,
);
