/**
 * The diarization benchmark's run on any host's engine ports: the whole pipeline on a file with
 * toggle_diarization on, as a host runs a request, and the diarization stage's settings given
 * through the pipeline. The speaker models are loaded beforehand and timed in each call; the
 * recogniser is held to a real model's pace (`forced-decoding.ts`), so that recognition, which
 * runs before diarization, costs little. The figure is the stage's own time, as the response's
 * `diarization_time` reports it.
 */
import { requestWithDefaults, type MediaFile } from '../../src/core/contract/request';
import { runPipeline } from '../../src/engine/pipeline';
import type { EnginePorts, LoadedSpeakerModels, LoadedWhisper } from '../../src/engine/ports';
import type { DiarizationSettings } from '../../src/engine/stage-settings';
import { forcedDecoding } from './forced-decoding';
import { timedSpeakerModels, type SpeakerModelTimes } from './timed-speaker-models';

/** Tokens a second of speech the recogniser gives: about what real speech takes. */
const RECOGNITION_TOKENS_PER_SECOND = 3;

export interface LoadedForDiarization {
  speakers: LoadedSpeakerModels;
  recogniser: LoadedWhisper;
  /** Seconds the speaker models took to load. */
  speakersLoadSeconds: number;
}

/** The speaker models and the recogniser of `ports`, loaded: what the runs share. */
export async function loadForDiarization(ports: EnginePorts): Promise<LoadedForDiarization> {
  if (!ports.speakers) throw new Error('These engine ports have no speaker models.');
  const started = performance.now();
  const speakers = await ports.speakers.load({});
  const speakersLoadSeconds = (performance.now() - started) / 1000;
  return {
    speakers,
    recogniser: forcedDecoding(await ports.recogniser({}), RECOGNITION_TOKENS_PER_SECOND),
    speakersLoadSeconds,
  };
}

export interface DiarizationThroughPipeline {
  /** The stage's seconds (the models already loaded). */
  seconds: number;
  /** Of `seconds`, those spent in each model. */
  times: SpeakerModelTimes;
  /** The speakers the response names. */
  speakers: number;
  turns: { speaker: string; start: number; end: number }[];
}

/** One run of the pipeline on `file`, with the diarization settings given. */
export async function diarizeThroughPipeline<F extends MediaFile>(
  ports: EnginePorts,
  loaded: LoadedForDiarization,
  file: F,
  options: { numSpeakers: number | null; settings: Partial<DiarizationSettings> },
): Promise<DiarizationThroughPipeline> {
  const timed = timedSpeakerModels(loaded.speakers);
  let turns: DiarizationThroughPipeline['turns'] = [];
  const response = await runPipeline(
    requestWithDefaults(
      'audio',
      { kind: 'file', file },
      {
        language_behaviour: 'manual',
        language: 'en',
        toggle_diarization: true,
        diarization: { num_speakers: options.numSpeakers, min_speakers: null, max_speakers: null },
      },
    ),
    {
      ...ports,
      recogniser: async () => loaded.recogniser,
      speakers: { ...ports.speakers!, load: async () => timed.models },
    },
    {
      settings: { diarization: options.settings },
      onSpeakerTurns: (found) =>
        (turns = found.map((t) => ({ speaker: t.speaker, start: t.start, end: t.end }))),
    },
  );
  return {
    seconds: response.prediction_raw.metadata.diarization_time,
    times: timed.times,
    speakers: new Set(response.prediction_raw.speaker_mapping.map((s) => s.speaker)).size,
    turns,
  };
}
