import { browserEnginePorts } from '../../src/hosts/browser/engine-ports';
import { toWireError } from '../../src/worker/envelope';
import {
  diarizeThroughPipeline,
  loadForDiarization,
} from '../../tools/testing/diarization-through-pipeline';
import type { DiarizationReply, DiarizationRequest } from './diarization-protocol';
import { TEST_MODELS } from './test-models';

/**
 * The pipeline with diarization on, on the browser host's ports as the app's worker loads them:
 * the test recogniser and VAD, and the speaker models asked for.
 */
const scope = self as unknown as {
  postMessage(message: DiarizationReply): void;
  onmessage: ((event: MessageEvent<DiarizationRequest>) => void) | null;
};

scope.onmessage = async (event) => {
  const { id, data: run } = event.data;
  try {
    const ports = browserEnginePorts({
      ...TEST_MODELS,
      modelHost: run.modelHost,
      segmentationModel: run.segmentationModel,
      embeddingModel: run.embeddingModel,
    });
    const media = await (await fetch(run.mediaUrl)).blob();
    const file = new File([media], 'conversation.wav', { type: 'audio/wav' });
    const loaded = await loadForDiarization(ports);
    const out = await diarizeThroughPipeline(ports, loaded, file, {
      numSpeakers: run.numSpeakers,
      settings: run.embeddingBatch === undefined ? {} : { embeddingBatch: run.embeddingBatch },
    });
    scope.postMessage({
      id,
      type: 'result',
      data: {
        turns: out.turns,
        speakers: out.speakers,
        seconds: out.seconds,
        loadSeconds: loaded.speakersLoadSeconds,
        times: out.times,
        crossOriginIsolated: self.crossOriginIsolated,
      },
    });
  } catch (thrown) {
    scope.postMessage({ id, type: 'error', data: toWireError(thrown) });
  }
};
