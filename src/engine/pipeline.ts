import { assembleResponse, toResponseSegment } from '../core/assemble/response';
import { ServiceError } from '../core/contract/errors';
import type { MediaFile, TranscriptionRequest } from '../core/contract/request';
import { SPEAKER_NOT_ACTIVATED } from '../core/contract/response';
import type { Segment, TranscriptionResponse } from '../core/contract/response';
import type { RecognisedSegment } from '../core/assemble/response';
import type { Stage } from './stages';
import type { LoadedWhisper } from './asr/whisper-model';
import { transcribeChannel } from './asr/transcribe-channel';
import type { GrowingChannel } from './media/growing-channel';
import type { PreparedAudio } from './media/prepared-audio';
import type { Clock, ProgressListener } from './ports';

/** What the pipeline needs from its host, bound to that host's decoder, models and runtime. */
export interface PipelinePorts<F extends MediaFile> {
  prepareAudio(
    request: TranscriptionRequest<F>,
    options: {
      signal?: AbortSignal;
      onProgress?: ProgressListener;
      /** See `PrepareAudioOptions.onGrowingChannel`. */
      onGrowingChannel?: (channel: GrowingChannel) => void;
    },
  ): Promise<PreparedAudio>;
  /** The recogniser, loaded once per model and device and kept for later requests. */
  loadWhisper(options: {
    signal?: AbortSignal;
    onProgress?: ProgressListener;
  }): Promise<LoadedWhisper>;
  clock: Clock;
}

export interface PipelineOptions {
  signal?: AbortSignal;
  onProgress?: (stage: Stage, fraction: number | null, detail: string) => void;
  /** Each segment as soon as it is decoded (before speakers are known). */
  onSegment?: (segment: Segment) => void;
  /** Benchmarks only: see `RecognitionOptions.forcedTokensPerSecond`. */
  forcedTokensPerSecond?: number;
}

/** Refuses, before any work, what this build cannot do rather than returning something else. */
function checkSupported<F extends MediaFile>(request: TranscriptionRequest<F>): void {
  const target = request.target_translation_language;
  if (request.toggle_direct_translate && target !== null && target !== 'en') {
    throw new ServiceError(
      'not_supported',
      `Translation into "${target}" is not supported yet; only english is. Turn translation off or choose english.`,
      [
        {
          field: 'target_translation_language',
          message: 'Only english is supported as a translation target for now.',
        },
      ],
    );
  }
  if (request.toggle_diarization) {
    throw new ServiceError(
      'not_supported',
      'Speaker diarization is not available yet. Turn toggle_diarization off to transcribe.',
      [{ field: 'toggle_diarization', message: 'Diarization is not available yet.' }],
    );
  }
}

/**
 * Runs a validated request: media in, speech found, recognised channel by channel, and the
 * spec's response out. Model loading overlaps media decoding.
 */
export async function runPipeline<F extends MediaFile>(
  request: TranscriptionRequest<F>,
  ports: PipelinePorts<F>,
  options: PipelineOptions = {},
): Promise<TranscriptionResponse> {
  const started = ports.clock();
  const { signal } = options;
  checkSupported(request);
  const progress = options.onProgress ?? (() => {});

  const whisper = ports.loadWhisper({ signal, onProgress: (f, d) => progress('models', f, d) });
  // A failed load is reported when it is awaited, not as an unhandled rejection meanwhile.
  whisper.catch(() => {});

  // Recognition time runs from its first window to its last; when it starts on a growing
  // channel, beside the media stage, the stage times overlap.
  let inferenceStarted: number | null = null;
  const recognition = {
    onWindow: () => {
      inferenceStarted ??= ports.clock();
    },
    languageBehaviour: request.language_behaviour,
    language: request.language,
    task: request.toggle_direct_translate ? ('translate' as const) : ('transcribe' as const),
    hint: request.transcription_hint,
    signal,
    forcedTokensPerSecond: options.forcedTokensPerSecond,
    onSegment: (s: RecognisedSegment) =>
      options.onSegment?.(toResponseSegment(s, SPEAKER_NOT_ACTIVATED)),
  };
  let recognising = false;
  const recogniseProgress = (
    channel: number,
    channels: number,
    fileSeconds: number,
    of: number,
  ) => {
    recognising = true;
    progress(
      'recognise',
      Math.min(1, (channel + fileSeconds / Math.max(of, 1e-9)) / channels),
      `${channels > 1 ? `Channel ${channel + 1} of ${channels}: r` : 'R'}ecognised ${Math.round(fileSeconds)} of ${Math.round(of)} s`,
    );
  };

  // A file of one channel is recognised while its speech is still being found.
  const early: { index: number; segments: Promise<RecognisedSegment[]> }[] = [];
  const startEarly = (channel: GrowingChannel) => {
    const segments = whisper.then((model) =>
      transcribeChannel(model, channel, Infinity, {
        ...recognition,
        onAdvance: (_, fileSeconds) => recogniseProgress(0, 1, fileSeconds, channel.duration),
      }),
    );
    // Awaited below, once the media stage is done; a failure meanwhile is not unhandled.
    segments.catch(() => {});
    early.push({ index: channel.index, segments });
  };
  const audio = await ports.prepareAudio(request, {
    signal,
    onProgress: (f, d) => {
      if (!recognising) progress('decode', f, d);
    },
    onGrowingChannel: startEarly,
  });
  const model = await whisper;
  signal?.throwIfAborted();

  const segments: RecognisedSegment[] = [];
  if (early.length > 0) {
    for (const { index, segments: found } of early) {
      // A channel that turns out silent completes with no speech, and so no segments.
      if (audio.channels.some((c) => c.index === index)) segments.push(...(await found));
    }
  } else {
    for (const [k, channel] of audio.channels.entries()) {
      const channelSegments = await transcribeChannel(model, channel, audio.file.duration, {
        ...recognition,
        onAdvance: (_, fileSeconds) =>
          recogniseProgress(k, audio.channels.length, fileSeconds, audio.file.duration),
      });
      segments.push(...channelSegments);
    }
  }
  const inferenceTime = inferenceStarted === null ? 0 : ports.clock() - inferenceStarted;

  progress('assemble', null, 'Putting the result together');
  return assembleResponse({
    segments,
    speakerTurns: null,
    file: audio.file,
    nbSilentChannels: audio.nbSilentChannels,
    totalSpeechDuration: audio.totalSpeechDuration,
    billing: audio.billing,
    outputFormat: request.output_format,
    timings: {
      ...audio.timings,
      inference_time: inferenceTime,
      total_transcription_time: ports.clock() - started,
    },
  });
}
