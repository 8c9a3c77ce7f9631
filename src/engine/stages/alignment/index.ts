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
import { caseVariants, scriptWords, type Script } from '../../../core/alignment/script';
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
  const estimates = estimateWordTimes(words, heard, speech, speechWithin);
  // Lines the speaker skipped are not timed against the audio: only the words that were said.
  const said = words.map((_, i) => i).filter((i) => !estimates[i]!.unheard);
  const lineEnds = new Set<number>();
  let count = 0;
  for (const line of input.script.lines) lineEnds.add((count += line.words.length) - 1);
  const saidLineEnds = new Set(said.flatMap((i, k) => (lineEnds.has(i) ? [k] : [])));
  const windowSeconds = toSeconds(model.windowSamples);
  const margin = settings.marginSeconds;
  const budget = Math.max(windowSeconds - 2 * margin, windowSeconds / 2);
  const language = input.language ?? heardLanguage(input.heard) ?? 'en';
  const timedSaid = await timeWords(
    said.map((i) => words[i]!),
    said.map((i) => estimates[i]!),
    saidLineEnds,
    { model, channel, language, windowSeconds, budget, settings, signal },
    (done) => context.progress(done / said.length, `Timed ${done} of ${said.length} words`),
  );

  // Where the speaker paused before a word, the pause's end is its start (see `onsets.ts`);
  // recognition's time for a word it heard is a second opinion on which pause that is.
  const levels = frameLevelsDb(channel.samples, toSamples(ONSET_FRAME_SECONDS));
  const starts = snapToOnsets(
    timedSaid.map((w) => w.start),
    soundOnsets(levels),
    settings.snapReachSeconds,
    settings.snapReachSeconds,
    said.map((i) => (estimates[i]!.heard ? estimates[i]!.start : null)),
  );
  // A word ends where its sound ends, not where the next one starts after a pause. A start
  // moved to its onset can pass the end forced decoding gave (that end was the next token's
  // start, placed early): the word then runs to the next word's start, less the quiet before it.
  const soundEnd = soundEnds(levels);
  timedSaid.forEach((word, k) => {
    word.start = starts[k]!;
    const next = starts[k + 1];
    let end = next === undefined ? word.end : Math.min(word.end, next);
    if (end <= word.start + ONSET_FRAME_SECONDS && next !== undefined) end = next;
    word.end = soundEnd(word.start, Math.max(word.start, end));
  });
  // A word that was not said takes no time, where it stands in the text, with no confidence.
  const timed: ForcedWord[] = new Array<ForcedWord>(words.length);
  said.forEach((i, k) => (timed[i] = timedSaid[k]!));
  let previousEnd = speech.start;
  for (let i = 0; i < words.length; i++) {
    const word = timed[i];
    if (word) previousEnd = word.end;
    else timed[i] = { start: previousEnd, end: previousEnd, confidence: 0 };
  }

  const segments: RecognisedSegment[] = [];
  let at = 0;
  for (const line of input.script.lines) {
    const lineWords = line.words.map((text, i) => ({ text: ` ${text}`, ...timed[at + i]! }));
    const notSaid = line.words.every((_, i) => estimates[at + i]!.unheard);
    at += line.words.length;
    // Times never go back: a word that the warp placed before its predecessor starts where
    // that one starts.
    for (let i = 1; i < lineWords.length; i++) {
      const previous = lineWords[i - 1]!;
      const word = lineWords[i]!;
      word.start = Math.max(word.start, previous.start);
      word.end = Math.max(word.end, word.start);
    }
    segments.push({
      text: line.words.join(' '),
      language,
      start: lineWords[0]!.start,
      end: Math.max(...lineWords.map((w) => w.end)),
      channel: channel.index,
      words: lineWords,
      ...(notSaid ? { notSaid: true as const } : {}),
    });
  }
  return { segments, seconds: clock() - started };
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

interface WindowSetting {
  model: LoadedWhisper;
  channel: ChannelAudio;
  language: string;
  windowSeconds: number;
  /** Seconds of first estimates one window takes. */
  budget: number;
  settings: AlignmentSettings;
  signal: AbortSignal | undefined;
}

/**
 * Times words by forced decoding, window after window, as recognition goes. Each window after
 * the first starts a little before the last word timed so far and is given that word again
 * ahead of its own, so that all the speech at its head is in its text (a word's end is the
 * least sure of its times, and audio of a word the model is not given draws the next word onto
 * it); that word's times from the earlier window are kept. A window takes the words whose first
 * estimates fit it; words the model left in a segment cut off at the window's end are timed
 * again in the next one.
 */
async function timeWords(
  words: readonly string[],
  estimates: readonly WordEstimate[],
  lineEnds: ReadonlySet<number>,
  setting: WindowSetting,
  onProgress: (done: number) => void,
): Promise<ForcedWord[]> {
  const { model, channel, language, windowSeconds, budget, settings, signal } = setting;
  const duration = toSeconds(channel.samples.length);
  const timed: ForcedWord[] = [];
  while (timed.length < words.length) {
    signal?.throwIfAborted();
    const from = timed.length;
    const overlap = from > 0 ? 1 : 0;
    const start =
      from > 0
        ? Math.max(0, timed[from - 1]!.start - settings.leadSeconds)
        : Math.max(0, Math.min(estimates[0]!.start - settings.marginSeconds, duration - 0.1));
    const end = Math.min(duration, start + windowSeconds);
    const to = nextRun(estimates, lineEnds, from, budget);
    const audio = pcmFloats(channel.samples, toSamples(start), toSamples(end));
    const given = words.slice(from - overlap, to);
    const found = await forcedWindow(
      model,
      audio,
      language,
      given.map((w) => caseVariants(w).map((way) => model.encodeText(` ${way}`))),
      signal,
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
