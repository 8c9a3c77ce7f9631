import type { Sentiment } from '../../core/contract/response';

/**
 * How each sentiment is shown: a word and a sign that say it without colour, and colours that
 * help the eye (a light chip with dark text; a saturated fill for bars and blocks).
 */
export interface SentimentLook {
  label: string;
  sign: string;
  chip: string;
  fill: string;
}

export const SENTIMENT_LOOKS: Readonly<Record<Sentiment, SentimentLook>> = {
  positive: {
    label: 'Positive',
    sign: '+',
    chip: 'bg-emerald-100 text-emerald-900',
    fill: 'bg-emerald-500 ring-emerald-700',
  },
  negative: {
    label: 'Negative',
    sign: '−',
    chip: 'bg-rose-100 text-rose-900',
    fill: 'bg-rose-500 ring-rose-700',
  },
  neutral: {
    label: 'Neutral',
    sign: '·',
    chip: 'bg-slate-100 text-slate-800',
    fill: 'bg-slate-300 ring-slate-500',
  },
  mixed: {
    label: 'Mixed',
    sign: '±',
    chip: 'bg-amber-100 text-amber-900',
    fill: 'bg-amber-400 ring-amber-600',
  },
};
