import type { MediaPorts } from '../../engine/ports';
import { browserFfmpeg, type BrowserFfmpegOptions } from './ffmpeg-wasm';
import { workerSpeechDetectors } from './speech-detector';

/**
 * The media stage's ports in the browser worker: ffmpeg.wasm, Silero VAD in a worker of its
 * own (onnxruntime-web), the browser's
 * fetch (cross-origin rules apply) and models from `modelHost`. Make them once per worker and
 * keep them: ffmpeg and the VAD model load on first use and stay loaded.
 */
export function browserMediaPorts(
  modelHost: string,
  options: BrowserFfmpegOptions = {},
): MediaPorts {
  return {
    ffmpeg: browserFfmpeg(options),
    speechDetector: workerSpeechDetectors(modelHost),
    speechDetectionApart: true,
    fetch: (url, init) => fetch(url, { ...init, mode: 'cors', credentials: 'omit' }),
    clock: () => performance.now() / 1000,
    crossOriginFetch: true,
  };
}
