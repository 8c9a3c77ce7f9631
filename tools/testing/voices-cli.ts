/**
 * The voices commands run as a user runs them, in this process: `murmur transcribe`, `murmur
 * voices ...` on the test models, and what a response says of the people of a generated
 * conversation.
 */
import { join } from 'node:path';
import type { SpeakerTurn } from '../../src/core/evaluation/rttm';
import type { TranscriptionResponse } from '../../src/core/contract/response';
import { matchingSpeaker } from '../../src/core/voices/enrol';
import { main } from '../../src/hosts/node/index';
import { REPO } from './ffmpeg-fixtures';
import { modelArgs, TEST_DIARIZATION_MODELS } from './diarization-cli';

/** `--models` and the test models' ids, as the CLI takes them. */
export const TEST_MODEL_ARGS = modelArgs({
  models: join(REPO, '.models'),
  ...TEST_DIARIZATION_MODELS,
});

export interface MurmurRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `murmur ...argv`, its exit status and what it printed. */
export async function murmur(...argv: string[]): Promise<MurmurRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** The response's speaker time, as stretches. */
export function responseStretches(response: TranscriptionResponse) {
  return response.prediction_raw.speaker_mapping.map((s) => ({
    speaker: s.speaker,
    start: s.time_begin,
    end: s.time_end,
  }));
}

/** The speaker a response gives most of `person`'s time (their reference turns). */
export function speakerOf(
  response: TranscriptionResponse,
  turns: readonly SpeakerTurn[],
  person: string,
): string {
  return matchingSpeaker(turns, person, responseStretches(response));
}

/**
 * A saved result whose speakers are the reference's people (as a user who renamed every
 * speaker would have it): enough for `murmur voices add` to find a person by their time.
 */
export function namedResult(turns: readonly SpeakerTurn[]): string {
  return JSON.stringify({
    prediction_raw: {
      transcription: [],
      speaker_mapping: turns.map((t) => ({
        speaker: t.speaker,
        channel: 'channel_0',
        time_begin: t.start,
        time_end: t.end,
      })),
    },
  });
}
