/**
 * The runtimes the engine runs on, fetched when first needed and kept for offline use: ffmpeg's
 * core (the decoder), onnxruntime's plain WASM build (voice activity always, recognition
 * without a GPU) and its WebGPU build (recognition where the browser hands out a real GPU
 * adapter). The page and the worker both speak of them by these names.
 */
export type RuntimeName = 'decoder' | 'speech' | 'gpu';

/** How far the fetch of one runtime has come. */
export interface RuntimeProgress {
  runtime: RuntimeName;
  /** Bytes received so far. */
  received: number;
  /** Bytes of the whole runtime. */
  total: number;
}

/** Each runtime's size in bytes, measured from its files when the app is built. */
export const RUNTIME_BYTES: Readonly<Record<RuntimeName, number>> = (import.meta.env
  ?.MURMUR_RUNTIME_BYTES as Record<RuntimeName, number> | undefined) ?? {
  decoder: 0,
  speech: 0,
  gpu: 0,
};

/** The runtimes a device needs: the GPU build only where a real adapter is used. */
export function runtimesFor(gpu: boolean): RuntimeName[] {
  return gpu ? ['decoder', 'speech', 'gpu'] : ['decoder', 'speech'];
}

interface GpuLike {
  requestAdapter(): Promise<unknown>;
}

/**
 * Whether the browser hands out a real WebGPU adapter: `navigator.gpu` alone exists on
 * browsers where every request for an adapter fails.
 */
export async function hasGpuAdapter(): Promise<boolean> {
  const gpu = (navigator as unknown as { gpu?: GpuLike }).gpu;
  if (!gpu) return false;
  try {
    return (await gpu.requestAdapter()) !== null;
  } catch {
    return false;
  }
}
