import type { Segment, TranscriptionResponse } from '../contract/response';

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
}

export const DEFAULT_DOCUMENT_OPTIONS: Omit<DocumentOptions, 'title'> = {
  timestamps: { at: 'speaker-change' },
  speakerNames: true,
  pauseSeconds: 5,
  markOverlaps: true,
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

export type Block = Turn | Pause;

export interface TranscriptDocument {
  title: string;
  /** The language most of the text is in (the document's own). */
  language: string;
  direction: 'ltr' | 'rtl';
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

  for (const segment of segments) {
    const notSaid = segment.not_said === true;
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
      const previous = turn as Turn | null;
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
    } else if (turn) {
      turn.end = Math.max(turn.end, segment.time_end);
      turn.runs.push(run);
    }
    if (!notSaid) latestEnd = Math.max(latestEnd, segment.time_end);
  }
  const language = prominentLanguage(segments);
  return { title: options.title, language, direction: directionOf(language), blocks };
}

/** `H:MM:SS` past an hour, `M:SS` before, as a reader counts. */
export function clockTime(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor(whole / 60) % 60;
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

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
