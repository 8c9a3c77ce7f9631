import { spanDuration } from '../../src/core/audio/speech-regions';
import { forEachStretch, isSixteenBit, isStoredPcm, pcmFloats } from '../../src/core/audio/pcm';
import { requestWithDefaults } from '../../src/core/contract/request';
import { prepareAudio } from '../../src/engine/pipeline';
import { browserEnginePorts } from '../../src/hosts/browser/engine-ports';
import { toWireError } from '../../src/worker/envelope';
import type { HarnessReply, HarnessRequest } from './media-protocol';
import { TEST_MODELS } from './test-models';

/** The media and speech stages with the browser host's ports, on the test models at /hub/. */
const ports = browserEnginePorts(TEST_MODELS);

const scope = self as unknown as {
  postMessage(message: HarnessReply): void;
  onmessage: ((event: MessageEvent<HarnessRequest>) => void) | null;
};

scope.onmessage = async (event) => {
  const { id, data } = event.data;
  const progress: string[] = [];
  const started = performance.now();
  try {
    const media = data.file
      ? { kind: 'file' as const, file: data.file }
      : { kind: 'url' as const, url: data.url ?? '' };
    const request = requestWithDefaults(data.endpoint, media, {
      toggle_noise_reduction: data.toggleNoiseReduction,
    });
    const audio = await prepareAudio(request, ports, {
      onProgress: (_stage, _fraction, detail) => {
        if (progress[progress.length - 1] !== detail) progress.push(detail);
      },
      ...(data.windowSeconds ? { windowSeconds: data.windowSeconds } : {}),
      ...(data.compactFromSeconds === null
        ? {}
        : { settings: { media: { compactFromSeconds: data.compactFromSeconds } } }),
      spill: data.spill,
    });
    const channels = audio.channels.map((c) => {
      // Summed where the samples are, in either form: converting a long 16-bit channel to
      // floats, even a minute at a time, would leave garbage at the stage's peak.
      let sum = 0;
      forEachStretch(c.samples, (stretch) => {
        for (let i = 0; i < stretch.length; i++) sum += stretch[i]! * stretch[i]!;
      });
      if (isSixteenBit(c.samples)) sum /= 32768 * 32768;
      return {
        index: c.index,
        length: c.samples.length,
        speechSeconds: spanDuration(c.speech),
        rms: Math.sqrt(sum / Math.max(1, c.samples.length)),
        head: Array.from(pcmFloats(c.samples, 16000, 16010)),
        stored: isStoredPcm(c.samples),
      };
    });
    audio.release();
    scope.postMessage({
      id,
      type: 'result',
      data: {
        file: audio.file,
        nbSilentChannels: audio.nbSilentChannels,
        billing: audio.billing,
        totalSpeechDuration: audio.totalSpeechDuration,
        timings: audio.timings,
        channels,
        progress,
        wallSeconds: (performance.now() - started) / 1000,
      },
    });
  } catch (thrown) {
    scope.postMessage({ id, type: 'error', data: toWireError(thrown) });
  }
};
