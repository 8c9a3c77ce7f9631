/**
 * The script-alignment stage, run in place of recognition's text when the user gives the text
 * that was said. In: what recognition heard (its words place the script roughly), the script,
 * the channels of the speech stage, and the recogniser. Out: one segment per line of the script,
 * its words exactly as written, each timed by forced decoding (`forced-window.ts`), and the
 * stage's own time. Later stages (speakers, translation, the response) take these segments as
 * they take recognised ones.
 */
import type { RecognisedSegment } from '../../../core/assemble/response';
import {
  ONSET_FRAME_SECONDS,
  snapToOnsets,
  soundEnds,
  soundOnsets,
} from '../../../core/alignment/onsets';
import { frameLevelsDb } from '../../../core/audio/levels';
import { nextRun } from '../../../core/alignment/runs';
import { scriptWords, type Script } from '../../../core/alignment/script';
import {
  comparableForm,
  spokenCore,
  spokenForms,
  wholeNumber,
} from '../../../core/alignment/spoken-forms';
import {
  estimateWordTimes,
  type HeardWord,
  type WordEstimate,
} from '../../../core/alignment/word-matching';
import { pcmFloats } from '../../../core/audio/pcm';
import { toSamples, toSeconds } from '../../../core/units';
import type { LoadedWhisper } from '../../ports';
import type { StageContext } from '../../stage-context';
import type { AlignmentSettings } from '../../stage-settings';
import type { ChannelAudio } from '../../streams/speech-audio';
import { forcedWindow, type ForcedWord } from './forced-window';
import { numberWordsFor } from './number-words';

export interface AlignmentStageInput {
  script: Script;
  heard: readonly RecognisedSegment[];
  channels: readonly ChannelAudio[];
  recogniser: LoadedWhisper;
  /** The request's language (manual), or null to use the language recognition heard. */
  language: string | null;
  settings: AlignmentSettings;
}

export interface Aligned {
  segments: RecognisedSegment[];
  seconds: number;
}

export async function run(input: AlignmentStageInput, context: StageContext): Promise<Aligned> {
  const { clock, signal } = context;
  const started = clock();
  const { settings } = input;
  const words = scriptWords(input.script);
  const channel = spokenChannel(input.channels, input.heard);
  if (words.length === 0 || channel === null) return { segments: [], seconds: 0 };
  const model = input.recogniser;
  const duration = toSeconds(channel.samples.length);
  const language = input.language ?? heardLanguage(input.heard) ?? 'en';
  const numberWords = words.some((w) => wholeNumber(spokenCore(w)) !== null)
    ? await numberWordsFor(language)
    : null;
  const forms = words.map((w) => spokenForms(w, numberWords ?? undefined));
  // Only words with something to say are timed: punctuation alone ("—", "…") is not heard.
  const voiced = words.map((_, i) => i).filter((i) => forms[i]!.length > 0);
  const heard: HeardWord[] = input.heard
    .filter((s) => s.channel === channel.index)
    .flatMap((s) => s.words.map((w) => ({ text: w.text, start: w.start, end: w.end })));
  const speech = {
    start: channel.speech[0]?.start ?? 0,
    end: channel.speech.at(-1)?.end ?? duration,
  };
  const speechWithin = (from: number, to: number) =>
    channel.speech.reduce(
      (sum, region) => sum + Math.max(0, Math.min(to, region.end) - Math.max(from, region.start)),
      0,
    );
  const estimates = estimateWordTimes(
    voiced.map((i) => words[i]!),
    heard,
    speech,
    speechWithin,
    (word) => comparableForm(word, numberWords ?? undefined),
  );
  const lineOf = lineIndices(input.script);
  const setting = { model, channel, language, duration, settings, signal };
  // Lines the speaker skipped are not timed against the audio: only the words that were said.
  let said = voiced.map((_, k) => k).filter((k) => !estimates[k]!.unheard);
  let timedSaid = await timeSaid(said, voiced, forms, estimates, lineOf, setting, (done) =>
    context.progress(done / Math.max(1, said.length), `Timed ${done} of ${said.length} words`),
  );
  // A line or a word recognition heard nothing of, that the recogniser, made to read it, finds
  // unlikely wherever it is placed, was not said either (a line skipped, a name left out): made
  // to read it, the recogniser also loses the words after it, so they are timed again without.
  // Only where recognition heard something: a recording it heard nothing of says nothing of
  // what was said.
  const judged = heard.length > 0;
  const lines = judged
    ? unsaidLines(said, voiced, estimates, timedSaid, lineOf)
    : new Set<number>();
  const unsaid = new Set(
    said.filter(
      (k, n) =>
        judged &&
        !estimates[k]!.heard &&
        estimates[k]!.end - estimates[k]!.start < UNSAID_WORD_ROOM_SECONDS &&
        timedSaid[n]!.confidence < UNSAID_WORD_CONFIDENCE,
    ),
  );
  if (lines.size > 0 || unsaid.size > 0) {
    said = said.filter((k) => !lines.has(lineOf[voiced[k]!]!) && !unsaid.has(k));
    timedSaid = await timeSaid(said, voiced, forms, estimates, lineOf, setting, () => {});
  }

  // A word that was not said takes no time, where it stands in the text, with no confidence;
  // punctuation alone stands with the word before it (the one after, first in a line).
  const timed = new Array<ForcedWord | undefined>(words.length);
  said.forEach((k, n) => (timed[voiced[k]!] = timedSaid[n]!));
  const notSaid = new Set<number>(input.script.lines.map((_, l) => l));
  for (const k of said) notSaid.delete(lineOf[voiced[k]!]!);
  return {
    segments: lineSegments(input.script, timed, forms, notSaid, {
      language,
      channel: channel.index,
      speechStart: speech.start,
    }),
    seconds: clock() - started,
  };
}

/** For each script word, the index of its line. */
function lineIndices(script: Script): number[] {
  return script.lines.flatMap((line, l) => line.words.map(() => l));
}

interface TimingSetting {
  model: LoadedWhisper;
  channel: ChannelAudio;
  language: string;
  duration: number;
  settings: AlignmentSettings;
  signal: AbortSignal | undefined;
}

/**
 * Times the voiced words `said` (indices into `voiced`) by forced decoding, then places each
 * word's start at its onset and its end where its sound ends.
 */
async function timeSaid(
  said: readonly number[],
  voiced: readonly number[],
  forms: readonly string[][],
  estimates: readonly WordEstimate[],
  lineOf: readonly number[],
  setting: TimingSetting,
  onProgress: (done: number) => void,
): Promise<ForcedWord[]> {
  if (said.length === 0) return [];
  const { model, channel, settings } = setting;
  const saidLineEnds = new Set(
    said.flatMap((k, n) => {
      const next = said[n + 1];
      const last = next === undefined || lineOf[voiced[next]!] !== lineOf[voiced[k]!];
      return last ? [n] : [];
    }),
  );
  const windowSeconds = toSeconds(model.windowSamples);
  const margin = settings.marginSeconds;
  const budget = Math.max(windowSeconds - 2 * margin, windowSeconds / 2);
  const timedSaid = await timeWords(
    said.map((k) => forms[voiced[k]!]!),
    said.map((k) => estimates[k]!),
    saidLineEnds,
    { ...setting, windowSeconds, budget },
    onProgress,
  );

  // Where the speaker paused before a word, the pause's end is its start (see `onsets.ts`);
  // recognition's time for a word it heard is a second opinion on which pause that is.
  const levels = frameLevelsDb(channel.samples, toSamples(ONSET_FRAME_SECONDS));
  const starts = snapToOnsets(
    timedSaid.map((w) => w.start),
    soundOnsets(levels),
    settings.snapReachSeconds,
    settings.snapReachSeconds,
    said.map((k) => (estimates[k]!.heard ? estimates[k]!.start : null)),
  );
  // A word ends where its sound ends, not where the next one starts after a pause. A start
  // moved to its onset can pass the end forced decoding gave (that end was the next token's
  // start, placed early): the word then runs to the next word's start, less the quiet before it.
  const soundEnd = soundEnds(levels);
  timedSaid.forEach((word, n) => {
    word.start = starts[n]!;
    const next = starts[n + 1];
    let end = next === undefined ? word.end : Math.min(word.end, next);
    if (end <= word.start + ONSET_FRAME_SECONDS && next !== undefined) end = next;
    word.end = soundEnd(word.start, Math.max(word.start, end));
  });
  return timedSaid;
}

/**
 * Below this geometric mean of its words' confidences, a line of which recognition heard no
 * word is taken as not said: a said line the model is made to read scores far above it (0.5 and
 * more on clear speech), a line forced onto a pause or onto other words far below (under 0.01).
 */
const UNSAID_LINE_CONFIDENCE = 0.05;
/**
 * Below this confidence, a word recognition did not hear is taken as not said: a said word the
 * recogniser missed (a short word swallowed by its neighbours) still scores 0.2 and more.
 */
const UNSAID_WORD_CONFIDENCE = 0.02;
/**
 * A word taken as not said has less than this between the heard words around it (what a pause
 * between two words takes): one the recogniser missed had its own sound there, and one at the
 * end of speech has all the time after it.
 */
const UNSAID_WORD_ROOM_SECONDS = 0.3;

/** Lines of two words or more, none heard by recognition, whose forced reading is unlikely. */
function unsaidLines(
  said: readonly number[],
  voiced: readonly number[],
  estimates: readonly WordEstimate[],
  timedSaid: readonly ForcedWord[],
  lineOf: readonly number[],
): Set<number> {
  const lines = new Map<number, { heard: boolean; logs: number[] }>();
  said.forEach((k, n) => {
    const line = lineOf[voiced[k]!]!;
    const entry = lines.get(line) ?? { heard: false, logs: [] };
    entry.heard ||= estimates[k]!.heard;
    entry.logs.push(Math.log(Math.max(1e-12, timedSaid[n]!.confidence)));
    lines.set(line, entry);
  });
  const unsaid = new Set<number>();
  for (const [line, { heard, logs }] of lines) {
    const mean = Math.exp(logs.reduce((s, v) => s + v, 0) / logs.length);
    if (!heard && logs.length >= 2 && mean < UNSAID_LINE_CONFIDENCE) unsaid.add(line);
  }
  return unsaid;
}

/**
 * One segment per script line, in the script's order, with times that never go back: a line
 * starts no earlier than the line before it ends, so that cues never overlap and stay in the
 * text's order. A line not said takes no time, where it stands.
 */
function lineSegments(
  script: Script,
  timed: readonly (ForcedWord | undefined)[],
  forms: readonly string[][],
  notSaid: ReadonlySet<number>,
  where: { language: string; channel: number; speechStart: number },
): RecognisedSegment[] {
  const segments: RecognisedSegment[] = [];
  let floor = where.speechStart;
  let at = 0;
  script.lines.forEach((line, l) => {
    const first = at;
    at += line.words.length;
    const unsaid = notSaid.has(l);
    const lineWords = line.words.map((text, i) => {
      const own = unsaid ? undefined : timed[first + i];
      return {
        text: ` ${text}`,
        start: own?.start ?? NaN,
        end: own?.end ?? NaN,
        confidence: own?.confidence ?? 0,
        voiced: forms[first + i]!.length > 0,
      };
    });
    // Punctuation alone takes the time and confidence of the word before it, or of the next; a
    // word not said takes no time there, with no confidence.
    for (let i = 0; i < lineWords.length; i++) {
      const word = lineWords[i]!;
      if (!Number.isNaN(word.start) || unsaid) continue;
      const before = lineWords
        .slice(0, i)
        .reverse()
        .find((w) => !Number.isNaN(w.start));
      const after = lineWords.slice(i + 1).find((w) => !Number.isNaN(w.start));
      const near = before ?? after;
      if (near === undefined) continue;
      const time = before ? near.end : near.start;
      const confidence = word.voiced ? 0 : near.confidence;
      Object.assign(word, { start: time, end: time, confidence });
    }
    for (const word of lineWords) {
      if (Number.isNaN(word.start))
        Object.assign(word, { start: floor, end: floor, confidence: 0 });
      word.start = Math.max(word.start, floor);
      word.end = Math.max(word.end, word.start);
      floor = word.start;
    }
    const end = Math.max(...lineWords.map((w) => w.end));
    floor = end;
    segments.push({
      text: line.words.join(' '),
      language: where.language,
      start: lineWords[0]!.start,
      end,
      channel: where.channel,
      words: lineWords.map(({ text, start, end, confidence }) => ({
        text,
        start,
        end,
        confidence,
      })),
      ...(unsaid ? { notSaid: true as const } : {}),
    });
  });
  return segments;
}

/**
 * The channel the script is timed against: the one where recognition heard the most words (a
 * script is one text, said in one place), or the first with speech.
 */
function spokenChannel(
  channels: readonly ChannelAudio[],
  heard: readonly RecognisedSegment[],
): ChannelAudio | null {
  let best: ChannelAudio | null = null;
  let most = -1;
  for (const channel of channels) {
    const count = heard
      .filter((s) => s.channel === channel.index)
      .reduce((n, s) => n + s.words.length, 0);
    if (count > most) {
      best = channel;
      most = count;
    }
  }
  return best;
}

/** The language recognition heard most words in. */
function heardLanguage(heard: readonly RecognisedSegment[]): string | null {
  const counts = new Map<string, number>();
  for (const s of heard) counts.set(s.language, (counts.get(s.language) ?? 0) + s.words.length);
  let best: string | null = null;
  for (const [language, n] of counts) if (best === null || n > counts.get(best)!) best = language;
  return best;
}

interface WindowSetting extends TimingSetting {
  windowSeconds: number;
  /** Seconds of first estimates one window takes. */
  budget: number;
}

/**
 * Times words by forced decoding, window after window, as recognition goes. A window after a
 * pause starts in that pause. Any other window after the first starts a little before the last
 * word timed so far and is given that word again ahead of its own, so that all the speech at its head is in its text (a word's end is the
 * least sure of its times, and audio of a word the model is not given draws the next word onto
 * it); that word's times from the earlier window are kept. A window takes the words whose first
 * estimates fit it; words the model left in a segment cut off at the window's end are timed
 * again in the next one.
 */
async function timeWords(
  words: readonly (readonly string[])[],
  estimates: readonly WordEstimate[],
  lineEnds: ReadonlySet<number>,
  setting: WindowSetting,
  onProgress: (done: number) => void,
): Promise<ForcedWord[]> {
  const { model, channel, language, windowSeconds, budget, settings, signal, duration } = setting;
  const timed: ForcedWord[] = [];
  while (timed.length < words.length) {
    signal?.throwIfAborted();
    const from = timed.length;
    const previous = timed[from - 1];
    const next = estimates[from]!.start;
    // After a pause the window starts in it, with nothing of the last word's sound: the model
    // then reads the next words as it reads any speech after silence.
    const afterPause =
      previous !== undefined && next - previous.end >= settings.pauseSeconds
        ? Math.max(previous.end + settings.pauseSeconds / 2, next - settings.marginSeconds)
        : null;
    const overlap = previous !== undefined && afterPause === null ? 1 : 0;
    const start =
      previous === undefined
        ? Math.max(0, Math.min(next - settings.marginSeconds, duration - 0.1))
        : (afterPause ?? Math.max(0, previous.start - settings.leadSeconds));
    const end = Math.min(duration, start + windowSeconds);
    // A window's words fit the decoder's room for tokens, with some for its timestamps.
    let to = nextRun(estimates, lineEnds, from, budget);
    const tokens = (k: number) =>
      Math.max(...words[k]!.map((way) => model.encodeText(` ${way}`).length));
    let count = 0;
    for (let k = from - overlap; k < to; k++) {
      count += tokens(k) + 2;
      if (count > model.maxTargetPositions - 8 && k > from) {
        to = k;
        break;
      }
    }
    const audio = pcmFloats(channel.samples, toSamples(start), toSamples(end));
    const given = words.slice(from - overlap, to);
    const found = await forcedWindow(
      model,
      audio,
      language,
      given.map((ways) => ways.map((way) => model.encodeText(` ${way}`))),
      signal,
      estimates
        .slice(from - overlap, to)
        .map((e) => (e.heard && e.start >= start && e.start < end ? e.start - start : null)),
      settings.guideReachSeconds,
    );
    const settled = Math.max(overlap + 1, found.settled);
    const kept = found.words.slice(overlap, to === words.length ? given.length : settled);
    for (const word of kept) {
      timed.push({ ...word, start: start + word.start, end: start + word.end });
    }
    onProgress(timed.length);
  }
  return timed;
}
