/**
 * Emotion from the voice: a model's scores for its own labels, read as one of Murmur's
 * emotions, or none when the model is not sure. Models name their classes their own way
 * ("ang", "anger", "ANGRY"); the response always uses the list below.
 */

/** The emotions a response may name. */
export const EMOTIONS = [
  'neutral',
  'calm',
  'happy',
  'sad',
  'angry',
  'fearful',
  'disgusted',
  'surprised',
] as const;
export type Emotion = (typeof EMOTIONS)[number];

export const EMOTION_RULES = {
  /** A sentence shorter than this gets no emotion: too little voice to judge. */
  minSeconds: 1,
  /** The most of a sentence a model hears (its start): longer inputs cost without telling more. */
  maxSeconds: 30,
  /** Below this probability of its best emotion, the model is not sure: no emotion. */
  minConfidence: 0.5,
} as const;

const LABEL_FORMS: Readonly<Record<string, Emotion>> = {
  neu: 'neutral',
  neutral: 'neutral',
  calm: 'calm',
  hap: 'happy',
  happy: 'happy',
  happiness: 'happy',
  joy: 'happy',
  sad: 'sad',
  sadness: 'sad',
  ang: 'angry',
  angry: 'angry',
  anger: 'angry',
  fea: 'fearful',
  fear: 'fearful',
  fearful: 'fearful',
  dis: 'disgusted',
  disgust: 'disgusted',
  disgusted: 'disgusted',
  sur: 'surprised',
  surprise: 'surprised',
  surprised: 'surprised',
  ps: 'surprised',
};

/** Murmur's emotion for a model's label; `null` for a label it has no place for. */
export function emotionOfLabel(label: string): Emotion | null {
  const form = label.trim().toLowerCase();
  return Object.hasOwn(LABEL_FORMS, form) ? LABEL_FORMS[form]! : null;
}

export interface VoiceEmotion {
  emotion: Emotion | null;
  /** The probability of the emotion found (of the best one when none is sure enough). */
  confidence: number;
}

/**
 * The emotion of a model's probabilities over its labels: labels that are one emotion add up,
 * a label Murmur has no place for counts for none, and the best emotion stands only at
 * `EMOTION_RULES.minConfidence` or more.
 */
export function voiceEmotion(
  probabilities: ArrayLike<number>,
  labels: readonly string[],
): VoiceEmotion {
  const byEmotion = new Map<Emotion, number>();
  labels.forEach((label, i) => {
    const emotion = emotionOfLabel(label);
    if (emotion !== null) byEmotion.set(emotion, (byEmotion.get(emotion) ?? 0) + probabilities[i]!);
  });
  let best: Emotion | null = null;
  let score = 0;
  for (const emotion of EMOTIONS) {
    const p = byEmotion.get(emotion) ?? 0;
    if (p > score) [best, score] = [emotion, p];
  }
  const confidence = Math.round(score * 1000) / 1000;
  return { emotion: score >= EMOTION_RULES.minConfidence ? best : null, confidence };
}

/** Probabilities from logits (softmax). */
export function softmax(logits: ArrayLike<number>): Float32Array {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i]!);
  const out = new Float32Array(logits.length);
  let sum = 0;
  for (let i = 0; i < logits.length; i++) {
    out[i] = Math.exp(logits[i]! - max);
    sum += out[i]!;
  }
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / sum;
  return out;
}
