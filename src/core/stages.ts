/**
 * The stages of one transcription, in the order they start, as progress reports name them
 * (the page labels each one).
 */
export const STAGES = [
  'validate',
  'download',
  'models',
  'decode',
  'vad',
  'recognise',
  'align',
  'diarize',
  'attribute',
  'translate',
  'assemble',
  'chapterize',
  'summarize',
  'emotion',
] as const;
export type Stage = (typeof STAGES)[number];

/** Where a stage comes in the line: later stages have larger numbers. */
export function stageOrder(stage: Stage): number {
  return STAGES.indexOf(stage);
}
