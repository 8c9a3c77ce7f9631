import { browserEnginePorts } from '../../src/hosts/browser/engine-ports';
import { stageContexts } from '../../src/engine/stage-context';
import * as diarization from '../../src/engine/stages/diarization';
import { DEFAULT_DIARIZATION_SETTINGS } from '../../src/engine/stage-settings';
import { toWireError } from '../../src/worker/envelope';
import { timedSpeakerModels } from '../../tools/testing/timed-speaker-models';
import type { DiarizationReply, DiarizationRequest } from './diarization-protocol';

/** The diarization stage on the browser host's speaker models, as the app's worker loads them. */
const scope = self as unknown as {
  postMessage(message: DiarizationReply): void;
  onmessage: ((event: MessageEvent<DiarizationRequest>) => void) | null;
};

scope.onmessage = async (event) => {
  const { id, data: run } = event.data;
  try {
    const ports = browserEnginePorts({
      modelHost: run.modelHost,
      whisperModel: 'unused',
      segmentationModel: run.segmentationModel,
      embeddingModel: run.embeddingModel,
      device: async () => 'wasm',
    });
    const samples = new Float32Array(await (await fetch(run.samplesUrl)).arrayBuffer());
    const t0 = performance.now();
    const timed = timedSpeakerModels(await ports.speakers!.load({}));
    const loadSeconds = (performance.now() - t0) / 1000;
    const { turns, seconds } = await diarization.run(
      {
        channels: [{ index: 0, samples, speech: run.speech }],
        models: Promise.resolve(timed.models),
        counts: { num: run.numSpeakers, min: null, max: null },
        settings: {
          ...DEFAULT_DIARIZATION_SETTINGS,
          embeddingBatch: run.embeddingBatch ?? DEFAULT_DIARIZATION_SETTINGS.embeddingBatch,
        },
      },
      stageContexts(ports, undefined)('diarize'),
    );
    scope.postMessage({
      id,
      type: 'result',
      data: {
        turns: turns.map((t) => ({ speaker: t.speaker, start: t.start, end: t.end })),
        seconds,
        loadSeconds,
        times: timed.times,
        crossOriginIsolated: self.crossOriginIsolated,
      },
    });
  } catch (thrown) {
    scope.postMessage({ id, type: 'error', data: toWireError(thrown) });
  }
};
