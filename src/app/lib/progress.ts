import type { EngineSettings, Progress, Stage } from '../../worker/protocol';

/** Progress as the status line shows it: a title that agrees with the detail under it. */
export interface ShownProgress extends Progress {
  title: string;
  /** Where the title comes in the line of a job; the line only moves forward. */
  rank: number;
  /** The furthest rank the stages themselves (not a model's loading) have reached. */
  line: number;
  /** Models whose download has reported its end: they hold the status no longer. */
  loaded: readonly string[];
}

/** The model a loading report is about ("Downloading murmur-test/whisper-synth: 12.6 MB"). */
function modelOf(report: Progress): string | null {
  if (report.stage !== 'models') return null;
  return /^(?:Downloading|Loading) ([^\s:]+)/.exec(report.detail)?.[1] ?? null;
}

/** The models a job's settings name, to title a download by what it is for. */
export type JobModels = Pick<
  EngineSettings,
  'whisperModel' | 'translationModel' | 'segmentationModel' | 'embeddingModel'
>;

/**
 * What a download that goes on once decoding has begun is for. The translation and speaker
 * models load beside the recognition model, under the same stage, so the model's name tells
 * them apart; a name the settings do not give keeps the plain title.
 */
function loadingTitle(model: string | null, models: JobModels | undefined): string {
  if (models === undefined || model === null || model === models.whisperModel) {
    return 'Loading the recognition model';
  }
  if (model === models.translationModel) return 'Loading the translation model';
  if (model === models.segmentationModel || model === models.embeddingModel) {
    return 'Loading the speaker models';
  }
  return 'Loading models';
}

const TITLES: Record<Stage, [string, number]> = {
  validate: ['Checking the request', 0],
  download: ['Downloading the media', 0.5],
  models: ['Loading models', 1],
  decode: ['Decoding media', 2],
  vad: ['Finding speech', 3],
  recognise: ['Recognising speech', 5],
  align: ['Timing the script', 5.5],
  diarize: ['Telling speakers apart', 6],
  attribute: ['Telling speakers apart', 6],
  translate: ['Translating', 7],
  assemble: ['Putting the result together', 8],
  chapterize: ['Finding chapters', 9],
  summarize: ['Summarising', 10],
  emotion: ['Reading sentiment', 11],
};

/**
 * The status after a progress report. Stages overlap (speech is found while the media is
 * decoded), so a report from a stage behind the one shown is not shown: the line never goes
 * back. The recognition model may still be downloading once decoding has begun: that is the
 * step before recognition, titled as such, until its download ends; the stage the job is at
 * then shows again with its next report, and that model's reports no longer do.
 */
export function advanceProgress(
  shown: ShownProgress | null,
  report: Progress,
  models?: JobModels,
): ShownProgress {
  const model = modelOf(report);
  const loaded = shown?.loaded ?? [];
  if (shown !== null && model !== null && loaded.includes(model)) return shown;
  const shownModel = shown === null ? null : modelOf(shown);
  // The download shown has ended: the stages' own line is what holds the status now.
  const floor =
    shown !== null && shownModel !== null && loaded.includes(shownModel) ? shown.line : shown?.rank;
  let [title, rank] = TITLES[report.stage];
  if (report.stage === 'models' && shown !== null && shown.rank >= TITLES.decode[1]) {
    [title, rank] = [loadingTitle(model, models), 4];
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
  if (floor !== undefined && rank < floor) return shown!;
  const line = report.stage === 'models' ? (shown?.line ?? 0) : Math.max(rank, shown?.line ?? 0);
  const ended = model !== null && report.fraction === 1 ? [...loaded, model] : loaded;
  // A report that says no more than its title ("Checking the request") is shown once.
  return {
    ...report,
    detail: report.detail === title ? '' : report.detail,
    title,
    rank,
    line,
    loaded: ended,
  };
}

/**
 * The bytes, speed and time left of a model download's progress detail ("Downloading org/m:
 * 12.3 of 40.1 MB · 2.1 MB/s · about 13 s left" gives what follows the colon); null otherwise.
 */
export function downloadTransfer(detail: string): string | null {
  const match = /^Downloading [^:]+: (.+)$/.exec(detail);
  return match ? match[1]! : null;
}
