import { browserEnginePorts } from '../../src/hosts/browser/engine-ports';
import { toWireError } from '../../src/worker/envelope';
import type { TranslationReply, TranslationRequest } from './translation-protocol';

/** The browser host's translator port, as the app's worker builds it, timed per segment. */
const scope = self as unknown as {
  postMessage(message: TranslationReply): void;
  onmessage: ((event: MessageEvent<TranslationRequest>) => void) | null;
};

scope.onmessage = async (event) => {
  const { id, data: run } = event.data;
  try {
    const ports = browserEnginePorts({
      modelHost: run.modelHost,
      whisperModel: 'unused',
      translationModel: run.translationModel,
      device: async () => 'wasm',
    });
    const t0 = performance.now();
    const translator = await ports.translator!.load({});
    const loadSeconds = (performance.now() - t0) / 1000;
    const translations: string[] = [];
    const seconds: number[] = [];
    for (const text of run.texts) {
      const t = performance.now();
      const [out] = await translator.translate([text], run.from, run.to);
      seconds.push((performance.now() - t) / 1000);
      translations.push(out ?? '');
    }
    scope.postMessage({
      id,
      type: 'result',
      data: {
        translations,
        loadSeconds,
        seconds,
        crossOriginIsolated: self.crossOriginIsolated,
      },
    });
  } catch (thrown) {
    scope.postMessage({ id, type: 'error', data: toWireError(thrown) });
  }
};
