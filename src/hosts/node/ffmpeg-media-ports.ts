import type { MediaPorts, ModelFiles } from '../../engine/ports';
import { nodeFfmpeg, type NodeFfmpegOptions } from './ffmpeg-core';
import { nodeOnnxRuntime } from './onnx-runtime';

/**
 * The media stage's ports in Node: ffmpeg.wasm's core in-process, onnxruntime-node, Node's
 * fetch (no cross-origin rules apply), and the given model files.
 */
export function nodeMediaPorts(models: ModelFiles, options: NodeFfmpegOptions = {}): MediaPorts {
  return {
    ffmpeg: nodeFfmpeg(options),
    onnx: nodeOnnxRuntime(),
    models,
    fetch: (url, init) => fetch(url, init),
    clock: () => performance.now() / 1000,
    crossOriginFetch: false,
  };
}
