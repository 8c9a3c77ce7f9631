import * as ort from 'onnxruntime-node';
import type { OnnxRuntime, OnnxSession, OnnxTensor } from '../../engine/ports';

/** onnxruntime-node on the CPU. Small sequential models (VAD) run best on one thread. */
export function nodeOnnxRuntime(options: { threads?: number } = {}): OnnxRuntime {
  const threads = options.threads ?? 1;
  return {
    async createSession(model: Uint8Array): Promise<OnnxSession> {
      const session = await ort.InferenceSession.create(model, {
        executionProviders: ['cpu'],
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
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
