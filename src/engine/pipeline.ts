import type { MediaLimits } from '../core/audio/media-limits';
import type { MediaFile, TranscriptionRequest } from '../core/contract/request';
import {
  SPEAKER_NOT_ACTIVATED,
  type Segment,
  type TranscriptionResponse,
} from '../core/contract/response';
import type { ProvisionalSegment } from '../core/assemble/provisional-segment';
import { toResponseSegment } from '../core/assemble/response';
import type { EnginePorts } from './ports';
import { stageContexts, type StageContext, type StageProgress } from './stage-context';
import type { SpeakerTurn } from '../core/assemble/speakers';
import { scriptLengthProblem, type Script } from '../core/alignment/script';
import { ServiceError } from '../core/contract/errors';
import { planRequest, recognitionTask } from './request-plan';
import * as alignment from './stages/alignment';
import * as assemble from './stages/assemble';
import * as attribution from './stages/attribution';
import * as diarization from './stages/diarization';
import * as media from './stages/media';
import * as models from './stages/models';
import * as recognition from './stages/recognition';
import * as speech from './stages/speech';
import * as translation from './stages/translation';
import * as understanding from './stages/understanding';
import type { DecodedAudioHeld, DecodedMedia } from './streams/decoded-media';
import type { SpeechAudio } from './streams/speech-audio';
import { stageSettings, type StageSettings, type StageSettingsOverrides } from './stage-settings';
import { refuseUnsupported } from './unsupported';
import type { SpeakerRecognition } from '../core/voices/recognise';
import type { SpeakerVoice, Voice } from '../core/voices/voice';

export interface PipelineOptions {
  signal?: AbortSignal;
  onProgress?: StageProgress;
  /** Each segment as soon as it is decoded (before speakers are known). */
  onSegment?: (segment: Segment) => void;
  /**
   * The text of the window being decoded, before its checks: each call replaces the one before,
   * and the window's segments replace it (an empty list follows them). Never in the response.
   */
  onProvisional?: (segments: ProvisionalSegment[]) => void;
  /** The speaker turns found (diarization on), labelled as in the response. */
  onSpeakerTurns?: (turns: SpeakerTurn[]) => void;
  /**
   * The speakers found (diarization on), each under its label with its embedding, and those
   * the stored `voices` recognised: what a host needs to remember a voice or offer a name.
   * Embeddings are personal data: they never enter the response.
   */
  onSpeakers?: (found: { speakers: SpeakerVoice[]; recognitions: SpeakerRecognition[] }) => void;
  /**
   * Stored voices: a speaker one of them recognises carries the voice's name in the response
   * (segments, speaker mapping) instead of `speaker_N`. None by default.
   */
  voices?: readonly Voice[];
  /** What the host lets this request cost (duration, channels); none by default. */
  limits?: MediaLimits;
  /**
   * What this run changes of the stages' default settings, stage by stage (a server's
   * `media.compactFromSeconds`, from which audio is kept 16-bit in its scratch file; a
   * benchmark's value). Each stage is given its own part.
   */
  settings?: StageSettingsOverrides;
  /**
   * Told what the run's decoded audio holds in memory as it changes (after each decoded window,
   * and 0 once the samples are let go at the run's end): the engine's own account, for hosts
   * that report what their transcriptions cost.
   */
  onDecodedAudio?: (held: DecodedAudioHeld) => void;
  /**
   * The text that was said, when the user has it: its words replace what recognition heard,
   * each timed to the media (the alignment stage).
   */
  script?: Script;
}

/**
 * Runs a validated request through the line of stages, each named in `core/stages.ts`:
 * models (the recogniser, and the translation and speaker models beside it) -> media (read,
 * probe, decode) -> speech (voice activity, channels compared and billed, noise reduction) ->
 * recognition -> alignment (when the user gave the text that was said) -> diarization and
 * attribution (when asked for: speaker turns, then segments given their speakers, a segment
 * split where its speaker changes) -> translation (when asked for) -> assemble -> chapters,
 * a summary and each sentence's sentiment (when asked for: they read the finished transcript). What the request asks beyond
 * recognition is planned once, first.
 * Stages overlap where the data allows: the models load while the media is decoded, speech is
 * found while the next piece decodes, and recognition starts on speech that is settled while
 * the rest is still being found.
 */
export async function runPipeline<F extends MediaFile>(
  request: TranscriptionRequest<F>,
  ports: EnginePorts,
  options: PipelineOptions = {},
): Promise<TranscriptionResponse> {
  const started = ports.clock();
  const { signal } = options;
  refuseUnsupported(
    request,
    ports.translator?.modelId ?? null,
    ports.speakers !== undefined,
    ports.emotionModels !== undefined,
  );
  const plan = planRequest(request, ports);
  const settings = stageSettings(options.settings);
  const stage = stageContexts(ports, signal, options.onProgress);
  const translating = stage('translate');
  const diarizing = stage('diarize');

  const loading = models.run({ plan, translating, diarizing }, stage('models'));
  const decoded = await media.run(
    {
      ...request,
      settings: settings.media,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.onDecodedAudio ? { onHeldBytes: options.onDecodedAudio } : {}),
    },
    stage('decode'),
  );
  try {
    return await recogniseDecoded(decoded, {
      request,
      ports,
      options,
      settings,
      plan,
      stage,
      loading,
      translating,
      diarizing,
      started,
    });
  } finally {
    // The decoded audio's scratch file, if it has one: nothing reads the samples after this.
    decoded.release();
  }
}

/** What the stages after the media stage share with those before. */
interface PipelineRun<F extends MediaFile> {
  request: TranscriptionRequest<F>;
  ports: EnginePorts;
  options: PipelineOptions;
  settings: StageSettings;
  plan: ReturnType<typeof planRequest>;
  stage: ReturnType<typeof stageContexts>;
  loading: ReturnType<typeof models.run>;
  translating: StageContext;
  diarizing: StageContext;
  started: number;
}

/** The stages after the media stage, on its decoded audio. */
async function recogniseDecoded<F extends MediaFile>(
  decoded: DecodedMedia,
  run: PipelineRun<F>,
): Promise<TranscriptionResponse> {
  const { request, ports, options, settings, plan, stage, loading, translating, diarizing } = run;
  const found = speech.run(
    {
      media: decoded,
      noiseReduction: request.toggle_noise_reduction,
      settings: settings.speech,
    },
    stage('vad'),
  );
  let speechAudio: SpeechAudio | null = null;
  const recognised = recognition.run(
    {
      channels: found.channels,
      keptChannels: () => speechAudio?.channels.length ?? null,
      recogniser: loading.recogniser,
      languageBehaviour: request.language_behaviour,
      language: request.language,
      task: recognitionTask(plan),
      hint: request.transcription_hint,
      settings: settings.recognition,
      // With a script, what recognition hears only places the script's words: it is not shown.
      onSegment: (s) => {
        if (!options.script) options.onSegment?.(toResponseSegment(s, SPEAKER_NOT_ACTIVATED));
      },
      ...(options.onProvisional && !options.script ? { onProvisional: options.onProvisional } : {}),
    },
    stage('recognise'),
  );
  recognised.catch(() => {});
  speechAudio = await found.done;
  if (options.script) {
    // Refused before the script is matched against anything: matching costs its length times
    // the media's, and a script far longer than the media cannot have been said in it.
    const tooLong = scriptLengthProblem(options.script, speechAudio.file.duration);
    if (tooLong) throw new ServiceError('invalid_request', tooLong.message, [tooLong]);
  }
  let { segments: heard, seconds: inferenceTime } = await recognised;
  if (options.script) {
    const aligned = await alignment.run(
      {
        script: options.script,
        heard,
        channels: speechAudio.channels,
        recogniser: await loading.recogniser,
        language: request.language,
        settings: settings.alignment,
      },
      stage('align'),
    );
    heard = aligned.segments;
    inferenceTime += aligned.seconds;
    for (const s of heard) options.onSegment?.(toResponseSegment(s, SPEAKER_NOT_ACTIVATED));
  }

  let recognisedSegments = heard;
  let diarizationTime = 0;
  if (loading.speakers !== null) {
    const diarized = await diarization.run(
      {
        channels: speechAudio.channels,
        models: loading.speakers.loaded,
        counts: {
          num: request.diarization.num_speakers,
          min: request.diarization.min_speakers,
          max: request.diarization.max_speakers,
        },
        onWaitForModel: loading.speakers.onWaitForModel,
        settings: settings.diarization,
      },
      diarizing,
    );
    diarizationTime = diarized.seconds;
    const attributed = attribution.run(
      {
        segments: heard,
        turns: diarized.turns,
        speakers: diarized.speakers,
        embeddingModel: diarized.embeddingModel,
        voices: options.voices ?? [],
        voiceThresholds: diarized.voiceThresholds,
      },
      stage('attribute'),
    );
    recognisedSegments = attributed.segments;
    options.onSpeakerTurns?.(attributed.turns);
    options.onSpeakers?.({
      speakers: attributed.speakers,
      recognitions: attributed.recognitions,
    });
  }

  const { segments, seconds: translationTime } =
    plan.target !== null && loading.translator !== null
      ? await translation.run(
          {
            segments: recognisedSegments,
            target: plan.target,
            translator: loading.translator.loaded,
            onWaitForModel: loading.translator.onWaitForModel,
            settings: settings.translation,
          },
          translating,
        )
      : { segments: recognisedSegments, seconds: 0 };

  const assembled = assemble.run(
    {
      speech: speechAudio,
      segments,
      spoken: recognisedSegments,
      outputFormat: request.output_format,
      timings: {
        inference_time: inferenceTime,
        diarization_time: diarizationTime,
        translation_time: translationTime,
        total_transcription_time: ports.clock() - run.started,
      },
    },
    stage('assemble'),
  );
  // Chapters and summaries read the finished transcript; every segment has been shown by now.
  const understood = await understanding.run(
    {
      response: assembled,
      chapters: request.toggle_chapterization,
      summary: request.toggle_summarization ? request.summarization_type : null,
      settings: settings.chapters,
    },
    stage('chapterize'),
    stage('summarize'),
  );
  return understanding.runEmotions(
    {
      response: understood,
      asked: request.toggle_emotion_recognition,
      emotionModel: request.emotion_model,
      channels: speechAudio.channels,
    },
    stage('emotion'),
  );
}

/**
 * The media and speech stages alone, awaited: what recognition would be given. For tests and
 * tools that look at the audio. With `spill`, long audio goes to the host's scratch file as in
 * a transcription; `release` lets go of it once the samples are no longer read.
 */
export async function prepareAudio<F extends MediaFile>(
  request: Pick<TranscriptionRequest<F>, 'media' | 'endpoint' | 'toggle_noise_reduction'>,
  ports: EnginePorts,
  options: {
    signal?: AbortSignal;
    onProgress?: StageProgress;
    windowSeconds?: number;
    /** As `PipelineOptions.settings` (the media and speech settings are used). */
    settings?: StageSettingsOverrides;
    spill?: boolean;
  } = {},
): Promise<SpeechAudio & { release(): void }> {
  const stage = stageContexts(ports, options.signal, options.onProgress);
  const settings = stageSettings(options.settings);
  const { windowSeconds } = options;
  const decoded = await media.run(
    {
      ...request,
      settings: settings.media,
      spill: options.spill === true,
      ...(windowSeconds ? { windowSeconds } : {}),
    },
    stage('decode'),
  );
  try {
    const audio = await speech.run(
      {
        media: decoded,
        noiseReduction: request.toggle_noise_reduction,
        settings: settings.speech,
      },
      stage('vad'),
    ).done;
    return { ...audio, release: () => decoded.release() };
  } catch (thrown) {
    decoded.release();
    throw thrown;
  }
}
