import * as transformers from '@huggingface/transformers';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import type { Device } from '../../engine/asr/model-settings';

/**
 * transformers.js in the worker: models from the configured host (the hub or a mirror in its
 * layout) kept in the browser's Cache Storage for offline use, and onnxruntime's WASM files
 * served by the app itself (its default is a CDN, which breaks offline use).
 */
export function configureTransformers(modelHost: string): typeof transformers {
  const { env } = transformers;
  env.allowLocalModels = false;
  env.allowRemoteModels = true;
  // transformers.js needs an absolute URL (a path like `/hub/` is taken for a local folder).
  const absolute = new URL(modelHost, self.location.href).href;
  env.remoteHost = absolute.endsWith('/') ? absolute : `${absolute}/`;
  env.useBrowserCache = true;
  const wasm = env.backends.onnx.wasm;
  if (wasm) {
    wasm.wasmPaths = {
      mjs: new URL(ortMjsUrl, self.location.href).href,
      wasm: new URL(ortWasmUrl, self.location.href).href,
    };
    // onnxruntime picks min(4, cores / 2) threads; threads need cross-origin isolation.
    wasm.numThreads = self.crossOriginIsolated
      ? Math.max(1, Math.min(4, navigator.hardwareConcurrency))
      : 1;
  }
  return transformers;
}

interface GpuLike {
  requestAdapter(): Promise<unknown>;
}

/**
 * WebGPU only when the browser hands out a real adapter: `navigator.gpu` alone exists on
 * browsers where every request for an adapter fails.
 */
export async function pickDevice(): Promise<Device> {
  const gpu = (navigator as unknown as { gpu?: GpuLike }).gpu;
  if (!gpu) return 'wasm';
  try {
    return (await gpu.requestAdapter()) ? 'webgpu' : 'wasm';
  } catch {
    return 'wasm';
  }
}
