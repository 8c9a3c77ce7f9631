import { SPEAKER_NOT_ACTIVATED, type Segment } from '../contract/response';

/** The limits readable subtitles keep; broadcasters' style guides set the defaults. */
export interface CueLimits {
  /** Characters a line may hold (a single word longer than this gets a line of its own). */
  maxLineChars: number;
  /** Lines a cue may hold. */
  maxLines: number;
  /** Reading speed: characters a second, line breaks counted as one character. */
  maxCharsPerSecond: number;
  /** Seconds a cue stays at least on screen, when the next cue leaves room. */
  minSeconds: number;
  /** Seconds a cue stays at most on screen. */
  maxSeconds: number;
  /** Seconds between the end of a cue and the start of the next. */
  gapSeconds: number;
  /** A pause at least this long between words always ends a cue. */
  breakPauseSeconds: number;
  /** Start a speaker's cue with "name: " (when diarization or the editor named speakers). */
  speakerNames: boolean;
}

export const DEFAULT_CUE_LIMITS: CueLimits = {
  maxLineChars: 42,
  maxLines: 2,
  maxCharsPerSecond: 17,
  minSeconds: 1,
  maxSeconds: 7,
  gapSeconds: 0.08,
  breakPauseSeconds: 1.5,
  speakerNames: false,
};

export interface ReadableCue {
  /** Seconds, at millisecond resolution. */
  begin: number;
  end: number;
  lines: string[];
  /** The words shown, in order, as they were given. */
  words: string[];
  speaker: string;
  /**
   * The speech is faster than the reading speed allows and the cue could not stay up longer
   * (the next cue, or the longest duration, came first): an editor should shorten its text.
   */
  tooFast: boolean;
}

interface TimedWord {
  text: string;
  begin: number;
  end: number;
  /** Speaker and channel: a change starts a new cue. */
  voice: string;
  speaker: string;
}

const SENTENCE_END = /[.?!…。？！]["'”’)\]]*$/;
const CLAUSE_END = /[,;:—–]["'”’)\]]*$/;
/** Words a phrase often starts with: a line or a cue reads better when broken before them. */
const PHRASE_STARTS = new Set(
  (
    'and but or nor so yet because although though while when where which who whom whose that ' +
    'if unless until after before since as than to of in on at for with from by about into ' +
    'over under between through during without et mais ou donc car que qui dont quand si und ' +
    'aber oder denn weil dass wenn y pero o porque que cuando si'
  ).split(' '),
);

/**
 * The words of the segments, in time order, with each segment's voice. A segment without
 * words (text typed by hand) spreads its text's words evenly over its time.
 */
function timedWords(segments: readonly Segment[]): TimedWord[] {
  const words: TimedWord[] = [];
  for (const segment of segments) {
    // A line of a script that nobody said is not shown: it has no time to be shown in.
    if (segment.not_said) continue;
    const voice = `${segment.channel}\u0000${segment.speaker}`;
    const given = segment.words.filter((w) => w.word.trim() !== '');
    if (given.length > 0) {
      for (const w of given) {
        const begin = Math.max(0, w.time_begin);
        const end = Math.max(begin, w.time_end);
        words.push({ text: w.word.trim(), begin, end, voice, speaker: segment.speaker });
      }
      continue;
    }
    const texts = segment.transcription.split(/\s+/).filter((t) => t !== '');
    const begin = Math.max(0, segment.time_begin);
    const step = (Math.max(begin, segment.time_end) - begin) / Math.max(1, texts.length);
    texts.forEach((text, i) =>
      words.push({
        text,
        begin: begin + i * step,
        end: begin + (i + 1) * step,
        voice,
        speaker: segment.speaker,
      }),
    );
  }
  // A stable sort keeps each segment's own order where channels interleave.
  return words.sort((a, b) => a.begin - b.begin);
}

/** How bad a break after word `i` is: 0 at a sentence end or a long pause, larger inside phrases. */
function breakCost(words: readonly TimedWord[], i: number): number {
  const word = words[i] as TimedWord;
  const next = words[i + 1];
  if (next === undefined) return 0;
  const pause = next.begin - word.end;
  if (SENTENCE_END.test(word.text) || pause >= 0.7) return 0;
  if (CLAUSE_END.test(word.text) || pause >= 0.3) return 2;
  if (PHRASE_STARTS.has(next.text.toLowerCase().replace(/^["'“‘([¿¡]+/, ''))) return 4;
  return 8;
}

interface LineLayout {
  /** Where each line starts, counted in words from the cue's first. */
  starts: number[];
  cost: number;
}

/**
 * The best way to lay words `from`..`to` (exclusive) out on at most `maxLines` lines of
 * `maxLineChars`, breaking where phrases end and keeping lines of similar length; null when
 * they do not fit. `prefix` (a speaker's name) starts the first line.
 */
function layoutLines(
  words: readonly TimedWord[],
  breaks: readonly number[],
  lengths: readonly number[],
  from: number,
  to: number,
  prefix: string,
  limits: CueLimits,
): LineLayout | null {
  const n = to - from;
  const lineLength = (a: number, b: number) =>
    (a === 0 ? prefix.length : 0) +
    (lengths[from + b] as number) -
    (lengths[from + a] as number) +
    (b - a - 1);
  const fits = (a: number, b: number) => b - a === 1 || lineLength(a, b) <= limits.maxLineChars;
  // best[l][k]: cheapest layout of the first k words on l lines, and where its last line starts.
  const best: { cost: number; start: number }[][] = [];
  best[0] = [{ cost: 0, start: 0 }];
  for (let l = 1; l <= limits.maxLines; l++) {
    const row: { cost: number; start: number }[] = [];
    for (let k = 1; k <= n; k++) {
      let choice = { cost: Infinity, start: -1 };
      for (let a = k - 1; a >= 0; a--) {
        if (!fits(a, k)) break;
        const before = best[l - 1]?.[a];
        if (before === undefined || !Number.isFinite(before.cost)) continue;
        const slack = limits.maxLineChars - lineLength(a, k);
        const brk = k < n ? (breaks[from + k - 1] as number) : 0;
        const cost = before.cost + brk * 2 + (slack * slack) / (2 * limits.maxLineChars);
        if (cost < choice.cost) choice = { cost, start: a };
      }
      row[k] = choice;
    }
    best[l] = row;
  }
  let lines = -1;
  let cost = Infinity;
  for (let l = 1; l <= limits.maxLines; l++) {
    const c = best[l]?.[n]?.cost ?? Infinity;
    // One line fewer is worth some imbalance: a short cue on one line reads at a glance.
    if (c + l * 6 < cost) {
      cost = c + l * 6;
      lines = l;
    }
  }
  if (lines === -1) return null;
  const starts: number[] = [];
  let k = n;
  for (let l = lines; l >= 1; l--) {
    k = (best[l]?.[k] as { start: number }).start;
    starts.unshift(k);
  }
  return { starts, cost };
}

/** The text of a cue's lines, laid out at `starts`. */
function linesOf(cueWords: readonly TimedWord[], starts: readonly number[], prefix: string) {
  return starts.map((start, l) => {
    const text = cueWords
      .slice(start, starts[l + 1] ?? cueWords.length)
      .map((w) => w.text)
      .join(' ');
    return l === 0 ? `${prefix}${text}` : text;
  });
}

const ms = (seconds: number) => Math.round(seconds * 1000);

/**
 * Subtitle cues that read well, from the words' own times: lines broken at phrase ends, never
 * inside a word; no more lines, characters a line or seconds a cue than the limits allow; each
 * cue up long enough to be read when the speech (and the media's end) leaves room; a gap
 * between cues; a new cue wherever the speaker (or channel) changes.
 */
export function readableCues(
  segments: readonly Segment[],
  limits: CueLimits = DEFAULT_CUE_LIMITS,
  /** The media's length in seconds: no cue stays up past it (the reading time included). */
  mediaDuration = Infinity,
): ReadableCue[] {
  const words = timedWords(segments);
  const n = words.length;
  if (n === 0) return [];
  const namesOn = (w: TimedWord) =>
    limits.speakerNames && w.speaker !== SPEAKER_NOT_ACTIVATED && w.speaker.trim() !== '';
  const prefixOf = (w: TimedWord) => (namesOn(w) ? `${w.speaker.trim()}: ` : '');
  // lengths[k]: characters of the first k words, so that any line's length is one subtraction.
  const lengths = [0];
  for (const w of words) lengths.push((lengths[lengths.length - 1] as number) + w.text.length);
  const breaks = words.map((_, i) => breakCost(words, i));

  // Cheapest split of the first j words into cues, and where its last cue starts.
  const cost = new Array<number>(n + 1).fill(Infinity);
  const from = new Array<number>(n + 1).fill(-1);
  const layouts = new Map<number, LineLayout>();
  cost[0] = 0;
  for (let j = 1; j <= n; j++) {
    for (let i = j - 1; i >= 0; i--) {
      const first = words[i] as TimedWord;
      const last = words[j - 1] as TimedWord;
      if (i < j - 1) {
        const inner = words[i + 1] as TimedWord;
        // Speaker changes and long pauses end a cue.
        if (inner.voice !== first.voice || inner.begin - first.end >= limits.breakPauseSeconds) {
          break;
        }
        if (last.end - first.begin > limits.maxSeconds) break;
        const chars = (lengths[j] as number) - (lengths[i] as number) + (j - i - 1);
        if (chars > limits.maxLines * limits.maxLineChars) break;
      }
      const layout = layoutLines(words, breaks, lengths, i, j, prefixOf(first), limits);
      if (layout === null) {
        if (i < j - 1) break;
        continue;
      }
      // The time the cue could stay up, counted in whole milliseconds as it will be written.
      const next = words[j];
      const roomMs = Math.min(
        ms(limits.maxSeconds),
        (next ? ms(next.begin) - ms(limits.gapSeconds) : Infinity) - ms(first.begin),
      );
      // Characters on screen: a line break takes the place of a space, so the layout does not
      // change the count.
      const chars =
        prefixOf(first).length + (lengths[j] as number) - (lengths[i] as number) + (j - i - 1);
      // A cue too fast to read is taken only when no split of these words avoids one.
      const tooFast = chars * 1000 > limits.maxCharsPerSecond * Math.max(roomMs, 0) ? 1e6 : 0;
      const cueCost = 10 + layout.cost + (breaks[j - 1] as number) * 6 + tooFast;
      if ((cost[i] as number) + cueCost < (cost[j] as number)) {
        cost[j] = (cost[i] as number) + cueCost;
        from[j] = i;
        layouts.set(j, layout);
      }
    }
  }

  const spans: [number, number][] = [];
  for (let j = n; j > 0; j = from[j] as number) spans.unshift([from[j] as number, j]);

  // Times in whole milliseconds, so that the limits hold exactly in the written file.
  const gap = ms(limits.gapSeconds);
  const mediaEnd = mediaDuration > 0 ? ms(mediaDuration) : Infinity;
  const cues: ReadableCue[] = [];
  let previousEnd = -Infinity;
  spans.forEach(([i, j], index) => {
    const first = words[i] as TimedWord;
    const last = words[j - 1] as TimedWord;
    const layout = layouts.get(j) as LineLayout;
    const lines = linesOf(words.slice(i, j), layout.starts, prefixOf(first));
    const chars = lines.join('\n').length;
    const begin = Math.max(ms(first.begin), previousEnd + gap);
    const spoken = ms(last.end);
    const wanted = Math.max(
      spoken,
      begin + ms(limits.minSeconds),
      begin + Math.ceil((chars / limits.maxCharsPerSecond) * 1000),
    );
    const nextSpan = spans[index + 1];
    const nextBegin = nextSpan ? ms((words[nextSpan[0]] as TimedWord).begin) - gap : Infinity;
    const end = Math.max(
      begin + 1,
      Math.min(wanted, nextBegin, begin + ms(limits.maxSeconds), mediaEnd),
    );
    previousEnd = end;
    cues.push({
      begin: begin / 1000,
      end: end / 1000,
      lines,
      words: words.slice(i, j).map((w) => w.text),
      speaker: first.speaker,
      tooFast: chars / ((end - begin) / 1000) > limits.maxCharsPerSecond + 1e-9,
    });
  });
  return cues;
}
