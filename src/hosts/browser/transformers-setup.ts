import * as transformers from '@huggingface/transformers';
import { sha256 } from '@noble/hashes/sha2';
import asyncifyMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import asyncifyWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import plainMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.mjs?url';
import plainWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import {
  abortableSleep,
  resilientModelFetch,
  type ModelDownloadPorts,
  type Sha256Hasher,
} from '../../engine/models/model-download';
import type { Device } from '../../engine/models/model-settings';
import { hasGpuAdapter, type RuntimeName } from '../../worker/runtimes';
import { browserPartStore } from './model-parts';

/**
 * onnxruntime-web's builds: the one with WebGPU (its asyncify layer lets the GPU's calls
 * wait), and the plain one, which runs the same CPU kernels faster: the decoder's steps took
 * 3.8-4.0 s instead of 4.6-5.3 s on a 121-s recording in Chromium (`npm run bench:asr`).
 */
const BUILDS = {
  webgpu: { mjs: asyncifyMjsUrl, wasm: asyncifyWasmUrl },
  plain: { mjs: plainMjsUrl, wasm: plainWasmUrl },
} as const;

/** The browser's own fetch, for everything transformers.js fetches that is not a model file. */
const plainFetch = self.fetch.bind(self);

/**
 * How model files are downloaded here: resumed after a break, the part received kept in
 * IndexedDB across reloads. The browser follows the hub's redirects itself, so the size and
 * sha256 are those the final answer states (a mirror that serves files itself states them).
 */
export function browserDownloadPorts(): ModelDownloadPorts {
  return {
    fetch: (url, init) => plainFetch(url, init),
    parts: browserPartStore(),
    sha256: incrementalSha256,
    sleep: abortableSleep,
  };
}

/**
 * Web Crypto digests only a whole buffer; a model file is hashed as it comes instead, so that
 * it is never held twice (@noble/hashes: audited, no dependencies).
 */
function incrementalSha256(): Sha256Hasher {
  const state = sha256.create();
  return {
    update: (bytes) => void state.update(bytes),
    hex: () => Array.from(state.digest(), (b) => b.toString(16).padStart(2, '0')).join(''),
  };
}

/** The build this worker's onnxruntime was started with: the first model load fixes it. */
let build: keyof typeof BUILDS | null = null;

/**
 * transformers.js in the worker: models from the configured host (the hub or a mirror in its
 * layout) kept in the browser's Cache Storage for offline use, and onnxruntime's WASM files
 * served by the app itself (its default is a CDN, which breaks offline use).
 */
export function configureTransformers(
  modelHost: string,
  /** The device about to load a model; decides the runtime build if none is running yet. */
  device: Device = 'webgpu',
  /** onnxruntime's threads (default: as many as the machine has, up to 4). */
  threads?: number,
): typeof transformers {
  const { env } = transformers;
  env.allowLocalModels = false;
  env.allowRemoteModels = true;
  // transformers.js needs an absolute URL (a path like `/hub/` is taken for a local folder).
  const absolute = new URL(modelHost, self.location.href).href;
  env.remoteHost = absolute.endsWith('/') ? absolute : `${absolute}/`;
  env.useBrowserCache = true;
  env.fetch = resilientModelFetch(env.remoteHost, browserDownloadPorts(), plainFetch);
  const wasm = env.backends.onnx.wasm;
  if (wasm) {
    build ??= device === 'webgpu' ? 'webgpu' : 'plain';
    wasm.wasmPaths = {
      mjs: new URL(BUILDS[build].mjs, self.location.href).href,
      wasm: new URL(BUILDS[build].wasm, self.location.href).href,
    };
    // onnxruntime picks min(4, cores / 2) threads; threads need cross-origin isolation.
    wasm.numThreads = self.crossOriginIsolated
      ? (threads ?? Math.max(1, Math.min(4, navigator.hardwareConcurrency)))
      : 1;
  }
  return transformers;
}

/**
 * The device a model can load on in this worker: WebGPU needs the build that has it, so a
 * worker started on WASM stays on WASM (the page restarts the worker when the GPU setting is
 * turned on).
 */
export function usableDevice(device: Device): Device {
  return device === 'webgpu' && build === 'plain' ? 'wasm' : device;
}

/** The runtime a model about to load on `device` runs on: the build already started, if any. */
export function runtimeFor(device: Device): RuntimeName {
  return (build ?? (device === 'webgpu' ? 'webgpu' : 'plain')) === 'webgpu' ? 'gpu' : 'speech';
}

/** WebGPU only when the browser hands out a real adapter. */
export async function pickDevice(): Promise<Device> {
  return (await hasGpuAdapter()) ? 'webgpu' : 'wasm';
}
