import type { SentenceEmotion } from '../../core/contract/response';
import { SENTIMENT_LOOKS } from '../lib/sentiment-look';
import { clock } from '../lib/time';
import { PlayableText } from './PlayableText';

/** A sentence with its sentiment as a labelled chip; with the media there, it plays from it. */
export function SentimentSentence({
  sentence,
  speaker,
  playable,
}: {
  sentence: SentenceEmotion;
  /** Its speaker's name, or null when speakers were not told apart. */
  speaker: string | null;
  playable: boolean;
}) {
  const look = sentence.sentiment === null ? null : SENTIMENT_LOOKS[sentence.sentiment];
  return (
    <li
      className="flex items-start gap-2 text-sm text-slate-800"
      data-testid="result.sentiment-sentence"
    >
      <span className="mt-0.5 w-12 shrink-0 font-mono text-xs tabular-nums text-slate-600">
        {clock(sentence.time_begin)}
      </span>
      <span
        className={`mt-0.5 w-24 shrink-0 rounded px-1.5 text-center text-xs font-medium ${look?.chip ?? 'bg-slate-50 text-slate-600'}`}
        data-testid="result.sentiment-label"
      >
        {look ? `${look.sign} ${look.label}` : 'Not read'}
      </span>
      <span className="min-w-0">
        {speaker && <span className="mr-1 text-xs font-medium text-slate-600">{speaker}:</span>}
        <PlayableText text={sentence.text} from={sentence.time_begin} playable={playable} />
        {sentence.emotion && (
          <span
            className="ml-2 whitespace-nowrap rounded bg-violet-100 px-1.5 text-xs font-medium text-violet-900"
            data-testid="result.emotion-label"
          >
            Voice: {sentence.emotion}
          </span>
        )}
      </span>
    </li>
  );
}
