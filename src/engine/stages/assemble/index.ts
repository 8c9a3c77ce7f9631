/**
 * The assemble stage. In: the speech stage's findings (file metadata, channels, billing,
 * timings), the recognised segments, the stage times and the output format. Out: the spec's
 * response, `prediction` rendered in the requested format.
 */
import {
  assembleResponse,
  type RecognisedSegment,
  type StageTimings,
} from '../../../core/assemble/response';
import { transcriptSpeechSeconds } from '../../../core/assemble/speech-duration';
import type { OutputFormat } from '../../../core/contract/request';
import type { TranscriptionResponse } from '../../../core/contract/response';
import type { StageContext } from '../../stage-context';
import type { SpeechAudio } from '../../streams/speech-audio';

export interface AssembleStageInput {
  speech: SpeechAudio;
  segments: readonly RecognisedSegment[];
  /**
   * The segments as recognised or aligned, before any translation: their words' times are the
   * speech the transcript holds (`segments` when left out).
   */
  spoken?: readonly RecognisedSegment[];
  outputFormat: OutputFormat;
  timings: Partial<StageTimings>;
}

export function run(input: AssembleStageInput, context: StageContext): TranscriptionResponse {
  context.progress(null, 'Putting the result together');
  const { speech } = input;
  return assembleResponse({
    segments: input.segments,
    file: speech.file,
    nbSilentChannels: speech.nbSilentChannels,
    totalSpeechDuration: transcriptSpeechSeconds(speech.channels, input.spoken ?? input.segments),
    billing: speech.billing,
    outputFormat: input.outputFormat,
    timings: { ...speech.timings, ...input.timings },
  });
}
