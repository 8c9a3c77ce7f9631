import { assembleResponse, toResponseSegment } from '../core/assemble/response';
import { ServiceError } from '../core/contract/errors';
import type { MediaFile, TranscriptionRequest } from '../core/contract/request';
import { SPEAKER_NOT_ACTIVATED } from '../core/contract/response';
import type { Segment, TranscriptionResponse } from '../core/contract/response';
import type { RecognisedSegment } from '../core/assemble/response';
import type { Stage } from './stages';
import type { LoadedWhisper } from './asr/whisper-model';
import { transcribeChannel } from './asr/transcribe-channel';
import type { PreparedAudio } from './media/prepared-audio';
import type { Clock, ProgressListener } from './ports';

/** What the pipeline needs from its host, bound to that host's decoder, models and runtime. */
export interface PipelinePorts<F extends MediaFile> {
  prepareAudio(
    request: TranscriptionRequest<F>,
    options: { signal?: AbortSignal; onProgress?: ProgressListener },
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
  const audio = await ports.prepareAudio(request, {
    signal,
    onProgress: (f, d) => progress('decode', f, d),
  });
  const model = await whisper;
  signal?.throwIfAborted();

  const inferenceStarted = ports.clock();
  const totalSpeech = Math.max(audio.totalSpeechDuration, 1e-9);
  const segments: RecognisedSegment[] = [];
  let before = 0;
  for (const channel of audio.channels) {
    const channelSegments = await transcribeChannel(model, channel, audio.file.duration, {
      languageBehaviour: request.language_behaviour,
      language: request.language,
      task: request.toggle_direct_translate ? 'translate' : 'transcribe',
      hint: request.transcription_hint,
      signal,
      forcedTokensPerSecond: options.forcedTokensPerSecond,
      onSegment: (s) => options.onSegment?.(toResponseSegment(s, SPEAKER_NOT_ACTIVATED)),
      onAdvance: (seconds) =>
        progress(
          'recognise',
          Math.min(1, (before + seconds) / totalSpeech),
          `Channel ${channel.index}: ${Math.round(before + seconds)} of ${Math.round(totalSpeech)} s of speech`,
        ),
    });
    before += channel.speech.reduce((n, r) => n + (r.end - r.start), 0);
    segments.push(...channelSegments);
  }
  const inferenceTime = ports.clock() - inferenceStarted;

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
