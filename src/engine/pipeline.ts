import type { MediaLimits } from '../core/audio/media-limits';
import type { MediaFile, TranscriptionRequest } from '../core/contract/request';
import {
  SPEAKER_NOT_ACTIVATED,
  type Segment,
  type TranscriptionResponse,
} from '../core/contract/response';
import { toResponseSegment } from '../core/assemble/response';
import type { EnginePorts } from './ports';
import { stageContexts, type StageProgress } from './stage-context';
import { attributeSpeakers, speakerLabels, type SpeakerTurn } from '../core/assemble/speakers';
import { loadInBackground } from './model-loading';
import * as assemble from './stages/assemble';
import * as diarization from './stages/diarization';
import * as media from './stages/media';
import * as recognition from './stages/recognition';
import * as speech from './stages/speech';
import * as translation from './stages/translation';
import type { SpeechAudio } from './streams/speech-audio';
import { refuseUnsupported } from './unsupported';

export interface PipelineOptions {
  signal?: AbortSignal;
  onProgress?: StageProgress;
  /** Each segment as soon as it is decoded (before speakers are known). */
  onSegment?: (segment: Segment) => void;
  /** The speaker turns found (diarization on), labelled as in the response. */
  onSpeakerTurns?: (turns: SpeakerTurn[]) => void;
  /** What the host lets this request cost (duration, channels); none by default. */
  limits?: MediaLimits;
}

/**
 * Runs a validated request through the line of stages: media (read, probe, decode) -> speech
 * (voice activity, channels compared and billed, noise reduction) -> recognition -> diarization
 * (when asked for: speakers given to segments, a segment split where its speaker changes) ->
 * translation (when asked for) -> assemble.
 * Stages overlap where the data allows: the recogniser loads while the media is decoded, speech
 * is found while the next piece decodes, and recognition starts on speech that is settled
 * while the rest is still being found.
 */
export async function runPipeline<F extends MediaFile>(
  request: TranscriptionRequest<F>,
  ports: EnginePorts,
  options: PipelineOptions = {},
): Promise<TranscriptionResponse> {
  const started = ports.clock();
  const { signal } = options;
  const translator = ports.translator ?? null;
  refuseUnsupported(request, translator?.modelId ?? null, ports.speakers !== undefined);
  const stage = stageContexts(ports, signal, options.onProgress);
  const target = request.toggle_direct_translate ? request.target_translation_language : null;

  const models = stage('models');
  const recogniser = ports.recogniser({
    ...(signal ? { signal } : {}),
    onProgress: models.progress,
  });
  // A failed load is reported when recognition awaits it, not as an unhandled rejection.
  recogniser.catch(() => {});
  // The translation model loads beside the recogniser. Where the host has one, every target,
  // english included, goes through it: the recognised text stays available beside the
  // translation, and one model translates every pair. Without one, Whisper's own translate
  // task serves english (the only target it has).
  const translating = stage('translate');
  const translatorLoad =
    target !== null && translator
      ? loadInBackground(
          (onProgress) => translator.load({ ...(signal ? { signal } : {}), onProgress }),
          models,
          translating,
          'Loading the translation model',
        )
      : null;
  // The speaker models load beside the others in the same way.
  const diarizing = stage('diarize');
  const speakers = ports.speakers;
  const speakersLoad =
    request.toggle_diarization && speakers
      ? loadInBackground(
          (onProgress) => speakers.load({ ...(signal ? { signal } : {}), onProgress }),
          models,
          diarizing,
          'Loading the speaker models',
        )
      : null;

  const decoded = await media.run(
    { ...request, ...(options.limits ? { limits: options.limits } : {}) },
    stage('decode'),
  );
  const found = speech.run(
    { media: decoded, noiseReduction: request.toggle_noise_reduction },
    stage('vad'),
  );
  let speechAudio: SpeechAudio | null = null;
  const recognised = recognition.run(
    {
      channels: found.channels,
      keptChannels: () => speechAudio?.channels.length ?? null,
      recogniser,
      languageBehaviour: request.language_behaviour,
      language: request.language,
      task: target !== null && translatorLoad === null ? 'translate' : 'transcribe',
      hint: request.transcription_hint,
      onSegment: (s) => options.onSegment?.(toResponseSegment(s, SPEAKER_NOT_ACTIVATED)),
    },
    stage('recognise'),
  );
  recognised.catch(() => {});
  speechAudio = await found.done;
  const { segments: heard, seconds: inferenceTime } = await recognised;
  let recognisedSegments = heard;
  let diarizationTime = 0;
  if (speakersLoad !== null) {
    const found = await diarization.run(
      {
        channels: speechAudio.channels,
        models: speakersLoad.loaded,
        counts: {
          num: request.diarization.num_speakers,
          min: request.diarization.min_speakers,
          max: request.diarization.max_speakers,
        },
        onWaitForModel: speakersLoad.onWaitForModel,
      },
      diarizing,
    );
    diarizationTime = found.seconds;
    const attributed = attributeSpeakers(heard, found.turns);
    const labels = speakerLabels(attributed, found.turns);
    const label = (id: string) => labels.get(id) ?? id;
    recognisedSegments = attributed.map((s) => ({ ...s, speaker: label(s.speaker) }));
    options.onSpeakerTurns?.(found.turns.map((t) => ({ ...t, speaker: label(t.speaker) })));
  }
  const { segments, seconds: translationTime } =
    target !== null && translatorLoad !== null
      ? await translation.run(
          {
            segments: recognisedSegments,
            target,
            translator: translatorLoad.loaded,
            onWaitForModel: translatorLoad.onWaitForModel,
          },
          translating,
        )
      : { segments: recognisedSegments, seconds: 0 };

  return assemble.run(
    {
      speech: speechAudio,
      segments,
      outputFormat: request.output_format,
      timings: {
        inference_time: inferenceTime,
        diarization_time: diarizationTime,
        translation_time: translationTime,
        total_transcription_time: ports.clock() - started,
      },
    },
    stage('assemble'),
  );
}

/**
 * The media and speech stages alone, awaited: what recognition would be given. For tests and
 * tools that look at the audio.
 */
export async function prepareAudio<F extends MediaFile>(
  request: Pick<TranscriptionRequest<F>, 'media' | 'endpoint' | 'toggle_noise_reduction'>,
  ports: EnginePorts,
  options: {
    signal?: AbortSignal;
    onProgress?: StageProgress;
    windowSeconds?: number;
    compactFromSeconds?: number;
  } = {},
): Promise<SpeechAudio> {
  const stage = stageContexts(ports, options.signal, options.onProgress);
  const { windowSeconds, compactFromSeconds } = options;
  const decoded = await media.run(
    {
      ...request,
      ...(windowSeconds ? { windowSeconds } : {}),
      ...(compactFromSeconds === undefined ? {} : { compactFromSeconds }),
    },
    stage('decode'),
  );
  return speech.run(
    { media: decoded, noiseReduction: request.toggle_noise_reduction },
    stage('vad'),
  ).done;
}

/**
 * Loads what the first stages run (ffmpeg's core and the VAD model) ahead of the first
 * request, so that a file dropped later starts decoding at once. Both stay loaded.
 */
export async function warmUp(ports: EnginePorts, options: { signal?: AbortSignal } = {}) {
  await Promise.all([ports.ffmpeg.load(), ports.speechDetector(options)]);
}
