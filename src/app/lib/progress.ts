import type { Progress, Stage } from '../../worker/protocol';

/** Progress as the status line shows it: a title that agrees with the detail under it. */
export interface ShownProgress extends Progress {
  title: string;
  /** Where the title comes in the line of a job; the line only moves forward. */
  rank: number;
}

const TITLES: Record<Stage, [string, number]> = {
  validate: ['Checking the request', 0],
  models: ['Loading models', 1],
  decode: ['Decoding media', 2],
  vad: ['Finding speech', 3],
  recognise: ['Recognising speech', 5],
  align: ['Timing the script', 5.5],
  diarize: ['Telling speakers apart', 6],
  attribute: ['Telling speakers apart', 6],
  translate: ['Translating', 7],
  assemble: ['Putting the result together', 8],
};

/**
 * The status after a progress report. Stages overlap (speech is found while the media is
 * decoded), so a report from a stage behind the one shown is not shown: the line never goes
 * back. The recognition model may still be downloading once decoding has begun: that is the
 * step before recognition, titled as such.
 */
export function advanceProgress(shown: ShownProgress | null, report: Progress): ShownProgress {
  let [title, rank] = TITLES[report.stage];
  if (report.stage === 'models' && shown !== null && shown.rank >= TITLES.decode[1]) {
    [title, rank] = ['Loading the recognition model', 4];
  }
  if (report.stage === 'vad' && /^Reducing noise/.test(report.detail)) title = 'Reducing noise';
  // The translation stage waits for its model when the download outlasts recognition.
  if (report.stage === 'translate' && /^(Downloading|Loading)/.test(report.detail)) {
    title = 'Loading the translation model';
  }
  // So does the diarization stage for the speaker models.
  if (report.stage === 'diarize' && /^(Downloading|Loading)/.test(report.detail)) {
    title = 'Loading the speaker models';
  }
  if (shown !== null && rank < shown.rank) return shown;
  // A report that says no more than its title ("Checking the request") is shown once.
  return { ...report, detail: report.detail === title ? '' : report.detail, title, rank };
}
