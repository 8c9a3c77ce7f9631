/**
 * How each sentence of a transcript was said: its sentiment from its words (a lexicon of its
 * segment's language), and a summary of the time said with each sentiment, for the whole file
 * and for each speaker. Emotion from the voice is not read here: it needs the audio.
 */
import { isLanguageCode, languageNameOf } from '../contract/languages';
import {
  SENTIMENTS,
  type EmotionSummary,
  type Segment,
  type SentenceEmotion,
  type SentimentShares,
} from '../contract/response';
import { sentenceSentiment } from './sentence-sentiment';
import type { SentimentLexicon } from './sentiment-lexicon';
import { transcriptSentences } from './sentences';

/** The lexicon of a language, or `null` where Murmur has none. */
export type SentimentLexicons = (language: string) => SentimentLexicon | null;

export interface FoundEmotions {
  emotions: SentenceEmotion[];
  summary: EmotionSummary;
  /** Which sentences have no sentiment and why; `null` when every sentence has one. */
  note: string | null;
}

export function findEmotions(
  segments: readonly Segment[],
  lexicons: SentimentLexicons,
): FoundEmotions {
  const unread = new Set<string>();
  const emotions = transcriptSentences(segments).map((sentence): SentenceEmotion => {
    const segment = segments[sentence.segment]!;
    const lexicon = lexicons(segment.language);
    const read = lexicon === null ? null : sentenceSentiment(sentence.text, lexicon);
    if (read === null) unread.add(segment.language);
    return {
      text: sentence.text,
      sentiment: read?.sentiment ?? null,
      confidence: read?.confidence ?? null,
      emotion: null,
      emotion_confidence: null,
      time_begin: sentence.time_begin,
      time_end: sentence.time_end,
      channel: segment.channel,
      speaker: segment.speaker,
    };
  });
  return { emotions, summary: emotionSummary(emotions), note: unreadNote(unread) };
}

function unreadNote(languages: ReadonlySet<string>): string | null {
  if (languages.size === 0) return null;
  const names = [...languages].map((code) =>
    isLanguageCode(code) ? capitalised(languageNameOf(code)) : code,
  );
  const list =
    names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
  return `No sentiment for sentences in ${list}: Murmur reads sentiment in English, French, German and Spanish.`;
}

function capitalised(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** Shares of time by sentiment, over the sentences that have one. */
function shares(sentences: readonly SentenceEmotion[]): SentimentShares {
  const seconds = { positive: 0, negative: 0, neutral: 0, mixed: 0 };
  let total = 0;
  for (const s of sentences) {
    if (s.sentiment === null) continue;
    const length = Math.max(0, s.time_end - s.time_begin);
    seconds[s.sentiment] += length;
    total += length;
  }
  const share = (x: number) => (total === 0 ? 0 : Math.round((x / total) * 1000) / 1000);
  const result: SentimentShares = {
    seconds: Math.round(total * 1000) / 1000,
    positive: 0,
    negative: 0,
    neutral: 0,
    mixed: 0,
  };
  for (const sentiment of SENTIMENTS) result[sentiment] = share(seconds[sentiment]);
  return result;
}

export function emotionSummary(emotions: readonly SentenceEmotion[]): EmotionSummary {
  const bySpeaker = new Map<string, SentenceEmotion[]>();
  for (const e of emotions) {
    const key = `${e.speaker}\u0000${e.channel}`;
    const list = bySpeaker.get(key);
    if (list === undefined) bySpeaker.set(key, [e]);
    else list.push(e);
  }
  return {
    file: shares(emotions),
    speakers: [...bySpeaker.values()].map((said) => ({
      speaker: said[0]!.speaker,
      channel: said[0]!.channel,
      ...shares(said),
    })),
  };
}
