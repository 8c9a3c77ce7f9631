import * as ort from 'onnxruntime-web/wasm';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.mjs?url';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import type { OnnxRuntime, OnnxSession, OnnxTensor } from '../../engine/ports';

/**
 * onnxruntime-web's plain WASM build, for the small sequential models of the media stage
 * (Silero VAD), served by the app itself and run in the speech worker (speech.worker.ts). It
 * is an instance of its own, apart from the one transformers.js runs Whisper with: with the
 * WebGPU build's asyncify layer and two threads, each small VAD step was slower. Measured on a
 * 121-s recording in Chromium: VAD 1.5-1.6 s here against 2.2-3.0 s in the shared instance
 * (`npm run bench:asr`, engine profile), for about 100 MB more memory.
 */
export function browserOnnxRuntime(): OnnxRuntime {
  const wasm = ort.env.wasm;
  // One thread: the VAD's operators are too small to share out.
  wasm.numThreads = 1;
  wasm.wasmPaths ??= {
    mjs: new URL(ortMjsUrl, self.location.href).href,
    wasm: new URL(ortWasmUrl, self.location.href).href,
  };
  return {
    async createSession(model: Uint8Array): Promise<OnnxSession> {
      const session = await ort.InferenceSession.create(model, {
        executionProviders: ['wasm'],
        graphOptimizationLevel: 'all',
      });
      return {
        inputNames: session.inputNames,
        outputNames: session.outputNames,
        run: (feeds) =>
          session.run(feeds as Record<string, ort.Tensor>) as Promise<Record<string, OnnxTensor>>,
        release: () => session.release(),
      };
    },
    tensor: (type, data, dims) => new ort.Tensor(type, data as never, dims as number[]),
  };
}
