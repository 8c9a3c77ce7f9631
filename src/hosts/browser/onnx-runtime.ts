import * as ort from 'onnxruntime-web/webgpu';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import type { OnnxRuntime, OnnxSession, OnnxTensor } from '../../engine/ports';

/**
 * onnxruntime-web on its WASM backend, for the small sequential models of the media stage
 * (Silero VAD). It is the same onnxruntime module that transformers.js uses, with the same
 * files served by the app itself.
 */
export function browserOnnxRuntime(): OnnxRuntime {
  const wasm = ort.env.wasm;
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
