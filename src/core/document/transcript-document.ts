import {
  SPEAKER_NOT_ACTIVATED,
  type Chapter,
  type PredictionRaw,
  type Segment,
  type Summarization,
  type TranscriptionResponse,
} from '../contract/response';
import { sharesText } from '../format/sentiment-shares';
import { clockTime } from '../format/timecode';

/**
 * A transcript laid out for reading: paragraphs of one speaker's turn, with times where the
 * reader asked for them, pauses and overlapping speech marked. Every document format (Markdown,
 * HTML, DOCX) is rendered from this one layout, so they say the same thing.
 */

/** Where times are shown. */
export type TimestampRule =
  | { at: 'none' }
  | { at: 'segment' }
  | { at: 'speaker-change' }
  | { at: 'interval'; seconds: number };

export interface DocumentOptions {
  title: string;
  timestamps: TimestampRule;
  /** Each turn begins with its speaker's name (when the segments carry speakers). */
  speakerNames: boolean;
  /** A silence longer than this many seconds is marked; null: none are. */
  pauseSeconds: number | null;
  /** A turn that starts before the previous speaker's ends is marked. */
  markOverlaps: boolean;
  /** The sentiment section (shares and negative moments), when the result has sentiment. */
  sentiment: boolean;
}

export const DEFAULT_DOCUMENT_OPTIONS: Omit<DocumentOptions, 'title'> = {
  timestamps: { at: 'speaker-change' },
  speakerNames: true,
  pauseSeconds: 5,
  markOverlaps: true,
  sentiment: true,
};

/**
 * A stretch of text, with the time shown before it (null: none). `notSaid`: a line of a script
 * that nobody said (an aligned result's `not_said` segment): it is shown marked as such, and
 * never with a time, since its time is only where it stands in the text, not when it was heard.
 */
export interface TextRun {
  time: number | null;
  text: string;
  notSaid: boolean;
}

export interface Turn {
  kind: 'turn';
  /** The speaker's name, or null when names are off or the segments carry no speakers. */
  speaker: string | null;
  /** The speaker's label (for a colour), whether or not the name is shown. */
  speakerKey: string;
  /** Short language code of the turn's first segment. */
  language: string;
  direction: 'ltr' | 'rtl';
  /** It starts before the previous turn of another speaker ends. */
  overlaps: boolean;
  begin: number;
  end: number;
  runs: TextRun[];
}

export interface Pause {
  kind: 'pause';
  begin: number;
  seconds: number;
}

/** Where a chapter begins: its headline, as a heading over its turns. */
export interface ChapterHeading {
  kind: 'chapter';
  headline: string;
  begin: number;
}

export type Block = Turn | Pause | ChapterHeading;

/** The summary the document opens with: paragraphs, or points (bullet_points). */
export interface DocumentSummary {
  points: boolean;
  paragraphs: string[];
}

export const SUMMARY_HEADING = 'Summary';
export const TRANSCRIPT_HEADING = 'Transcript';
export const SENTIMENT_HEADING = 'Sentiment';
export const NEGATIVE_MOMENTS_HEADING = 'Negative moments';

/**
 * How the result's sentences sounded: the shares of time by sentiment (the whole file, then
 * each speaker: "Tom: 75% positive · 25% negative"), and the sentences that sound negative
 * ("[0:42] Tom: the train was late").
 */
export interface DocumentSentiment {
  shares: string[];
  negativeMoments: string[];
}

/**
 * Whether the transcript needs a heading of its own: after a summary or the sentiment, unless a
 * chapter's heading opens it.
 */
export function transcriptHeading(doc: TranscriptDocument): string | null {
  const opened = doc.summary !== null || doc.sentiment !== null;
  return opened && doc.blocks[0]?.kind !== 'chapter' ? TRANSCRIPT_HEADING : null;
}

/** A result's sentiment as a document tells it; null when it has none. */
function documentSentiment(raw: PredictionRaw): DocumentSentiment | null {
  if (!raw.emotions || !raw.emotions_summary) return null;
  const speakers = raw.emotions_summary.speakers.filter((s) => s.speaker !== SPEAKER_NOT_ACTIVATED);
  const who = (speaker: string) => (speaker === SPEAKER_NOT_ACTIVATED ? '' : `${speaker}: `);
  return {
    shares: [
      `Whole file: ${sharesText(raw.emotions_summary.file)}`,
      ...speakers.map((s) => `${s.speaker}: ${sharesText(s)}`),
    ],
    negativeMoments: raw.emotions
      .filter((e) => e.sentiment === 'negative')
      .map((e) => `[${clockTime(e.time_begin)}] ${who(e.speaker)}${e.text}`),
  };
}

/** A result's summary as a document opens with it; null when the result has none. */
function documentSummary(summarization: Summarization | undefined): DocumentSummary | null {
  if (!summarization || summarization.sentences.length === 0) return null;
  if (summarization.type === 'bullet_points') {
    return { points: true, paragraphs: summarization.sentences.map((s) => s.text) };
  }
  return { points: false, paragraphs: summarization.text.split('\n\n') };
}

/** The chapter a segment belongs to: the last that starts at or before it (-1: none). */
function chapterAt(chapters: readonly Chapter[], time: number): number {
  let c = -1;
  while (c + 1 < chapters.length && chapters[c + 1]!.time_begin <= time + 1e-3) c += 1;
  return chapters.length > 0 ? Math.max(0, c) : -1;
}

export interface TranscriptDocument {
  title: string;
  /** The language most of the text is in (the document's own). */
  language: string;
  direction: 'ltr' | 'rtl';
  summary: DocumentSummary | null;
  sentiment: DocumentSentiment | null;
  blocks: Block[];
}

/** Languages written right to left, by their short codes (Whisper's set). */
const RIGHT_TO_LEFT = new Set(['ar', 'he', 'fa', 'ur', 'yi', 'ps', 'sd', 'ug', 'dv']);

export function directionOf(language: string): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr';
}

/** Languages written without spaces between words: their segments join with none. */
const UNSPACED = new Set(['zh', 'ja', 'th', 'lo', 'km', 'my', 'bo', 'yue']);

/** What goes between two stretches of a turn's text. */
export function joinerOf(language: string): string {
  return UNSPACED.has(language) ? '' : ' ';
}

/**
 * What goes between two runs of a turn: the language's joiner, but a line nobody said stands
 * apart with a space even where the language uses none (Markdown's italics only open and close
 * beside a space there).
 */
export function runJoiner(language: string, before: TextRun, after: TextRun): string {
  return before.notSaid || after.notSaid ? ' ' : joinerOf(language);
}

/** A turn's runs, each rendered, with what goes between them. */
export function joinRuns(
  turn: Pick<Turn, 'language' | 'runs'>,
  render: (run: TextRun) => string,
): string {
  return turn.runs
    .map((run, i) => (i > 0 ? runJoiner(turn.language, turn.runs[i - 1]!, run) : '') + render(run))
    .join('');
}

/** Speakers are told apart only when diarization labelled the segments. */
function hasSpeakers(segments: readonly Segment[]): boolean {
  return segments.some((s) => s.speaker !== 'speaker_not_activated');
}

function prominentLanguage(segments: readonly Segment[]): string {
  const seconds = new Map<string, number>();
  for (const s of segments) {
    seconds.set(s.language, (seconds.get(s.language) ?? 0) + (s.time_end - s.time_begin));
  }
  let best = segments[0]?.language ?? 'en';
  for (const [language, total] of seconds) if (total > (seconds.get(best) ?? 0)) best = language;
  return best;
}

/** A turn's owner: its speaker when there are speakers, else its channel. */
function owner(segment: Segment, speakers: boolean): string {
  return speakers ? `${segment.channel}|${segment.speaker}` : segment.channel;
}

export function transcriptDocument(
  response: TranscriptionResponse,
  options: DocumentOptions,
): TranscriptDocument {
  const segments = [...response.prediction_raw.transcription]
    .filter((s) => s.transcription.trim() !== '')
    .sort((a, b) => a.time_begin - b.time_begin);
  const speakers = hasSpeakers(segments);
  const blocks: Block[] = [];
  let turn: Turn | null = null;
  // Whether the current turn has shown a time yet: a turn that opens with a line nobody said
  // shows its time at its first line that was said.
  let turnTimed = false;
  let lastShown = -Infinity;
  // The silence before the first words is not a pause in the conversation.
  let latestEnd = segments[0]?.time_begin ?? 0;
  const rule = options.timestamps;
  const chapters = response.prediction_raw.chapters ?? [];
  let chapter = -1;
  // The turn before, across a chapter's heading: speech over it is still marked.
  let lastTurn: Turn | null = null;

  for (const segment of segments) {
    const notSaid = segment.not_said === true;
    // A chapter opens with its headline, and its first turn with a time.
    const here = notSaid ? chapter : chapterAt(chapters, segment.time_begin);
    const opensChapter = here > chapter;
    if (opensChapter) {
      chapter = here;
      blocks.push({
        kind: 'chapter',
        headline: chapters[here]!.headline,
        begin: segment.time_begin,
      });
      turn = null;
    }
    // A line nobody said was not heard: no silence ends at it, and it overlaps nobody.
    const gap = notSaid ? 0 : segment.time_begin - latestEnd;
    const pause = options.pauseSeconds !== null && gap > options.pauseSeconds;
    const sameOwner = turn !== null && owner(segment, speakers) === turn.speakerKey;
    if (pause) {
      blocks.push({ kind: 'pause', begin: latestEnd, seconds: gap });
    }
    const newTurn = turn === null || !sameOwner || pause || rule.at === 'segment';
    if (newTurn) turnTimed = false;
    const due =
      rule.at === 'segment' ||
      (rule.at === 'speaker-change' && !turnTimed) ||
      (rule.at === 'interval' && segment.time_begin - lastShown >= rule.seconds);
    const time = due && !notSaid ? segment.time_begin : null;
    if (time !== null) {
      lastShown = time;
      turnTimed = true;
    }
    const run: TextRun = { time, text: segment.transcription.trim(), notSaid };
    if (newTurn) {
      const previous = lastTurn as Turn | null;
      turn = {
        kind: 'turn',
        speaker: options.speakerNames && speakers ? segment.speaker : null,
        speakerKey: owner(segment, speakers),
        language: segment.language,
        direction: directionOf(segment.language),
        overlaps:
          options.markOverlaps &&
          !notSaid &&
          previous !== null &&
          previous.speakerKey !== owner(segment, speakers) &&
          segment.time_begin < previous.end,
        begin: segment.time_begin,
        end: segment.time_end,
        runs: [run],
      };
      blocks.push(turn);
      lastTurn = turn;
    } else if (turn) {
      turn.end = Math.max(turn.end, segment.time_end);
      turn.runs.push(run);
    }
    if (!notSaid) latestEnd = Math.max(latestEnd, segment.time_end);
  }
  const language = prominentLanguage(segments);
  return {
    title: options.title,
    language,
    direction: directionOf(language),
    summary: documentSummary(response.prediction_raw.summarization),
    sentiment: options.sentiment ? documentSentiment(response.prediction_raw) : null,
    blocks,
  };
}

export { clockTime } from '../format/timecode';

/** The words a pause marker says. */
export function pauseText(seconds: number): string {
  return `(pause, ${Math.round(seconds)} s)`;
}

export const OVERLAP_TEXT = '(speaking over the previous speaker)';

/** The label of a line nobody said: the editor's badge and the VTT's NOTE say the same. */
export const NOT_SAID_LABEL = 'Not said';

/** A line nobody said as a document shows it: labelled in words, not by its look alone. */
export function notSaidText(text: string): string {
  return `(${NOT_SAID_LABEL}: ${text})`;
}
