import { spanDuration } from '../../src/core/audio/speech-regions';
import { ServiceError } from '../../src/core/contract/errors';
import {
  requestWithDefaults,
  type MediaFile,
  type TranscriptionRequest,
} from '../../src/core/contract/request';
import { prepareAudio } from '../../src/engine/media/prepare-audio';
import { browserMediaPorts } from '../../src/hosts/browser/ffmpeg-media-ports';
import type { HarnessReply, HarnessRequest } from './media-protocol';

/** The test models served by the preview server at /hub/ (see tools/model-host). */
const ports = browserMediaPorts('/hub/');

function request(data: HarnessRequest): TranscriptionRequest<MediaFile> {
  const media = data.file
    ? { kind: 'file' as const, file: data.file }
    : { kind: 'url' as const, url: data.url ?? '' };
  return requestWithDefaults(data.endpoint, media, {
    toggle_noise_reduction: data.toggleNoiseReduction,
  });
}

const scope = self as unknown as {
  postMessage(message: HarnessReply): void;
  onmessage: ((event: MessageEvent<HarnessRequest>) => void) | null;
};

scope.onmessage = async (event) => {
  const data = event.data;
  const progress: string[] = [];
  const started = performance.now();
  try {
    const audio = await prepareAudio(request(data), ports, {
      vadModelId: 'murmur-test/silero-vad',
      onProgress: (_fraction, detail) => {
        if (progress[progress.length - 1] !== detail) progress.push(detail);
      },
      ...(data.windowSeconds ? { windowSeconds: data.windowSeconds } : {}),
    });
    scope.postMessage({
      id: data.id,
      ok: true,
      summary: {
        file: audio.file,
        nbSilentChannels: audio.nbSilentChannels,
        billing: audio.billing,
        totalSpeechDuration: audio.totalSpeechDuration,
        timings: audio.timings,
        channels: audio.channels.map((c) => {
          let sum = 0;
          for (const s of c.samples) sum += s * s;
          return {
            index: c.index,
            length: c.samples.length,
            speechSeconds: spanDuration(c.speech),
            rms: Math.sqrt(sum / Math.max(1, c.samples.length)),
            head: Array.from(c.samples.subarray(16000, 16010)),
          };
        }),
        progress,
        wallSeconds: (performance.now() - started) / 1000,
      },
    });
  } catch (e) {
    const error = e instanceof Error ? e : new Error(String(e));
    scope.postMessage({
      id: data.id,
      ok: false,
      error: {
        name: error.name,
        code: e instanceof ServiceError ? e.code : null,
        message: error.message,
      },
    });
  }
};
