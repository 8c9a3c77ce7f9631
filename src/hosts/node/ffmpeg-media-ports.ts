import { loadSileroVad } from '../../engine/media/silero-vad';
import type { MediaPorts, ModelFiles } from '../../engine/ports';
import { nodeFfmpeg, type NodeFfmpegOptions } from './ffmpeg-core';
import { nodeOnnxRuntime } from './onnx-runtime';

/**
 * The media stage's ports in Node: ffmpeg.wasm's core in-process, onnxruntime-node, Node's
 * fetch (no cross-origin rules apply), and the given model files; VAD runs in-process.
 */
export function nodeMediaPorts(models: ModelFiles, options: NodeFfmpegOptions = {}): MediaPorts {
  const onnx = nodeOnnxRuntime();
  return {
    ffmpeg: nodeFfmpeg(options),
    speechDetector: (o) => loadSileroVad(onnx, models, o),
    speechDetectionApart: false,
    fetch: (url, init) => fetch(url, init),
    clock: () => performance.now() / 1000,
    crossOriginFetch: false,
  };
}
