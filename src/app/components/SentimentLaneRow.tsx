import type { SentenceEmotion } from '../../core/contract/response';
import { SENTIMENT_LOOKS } from '../lib/sentiment-look';
import { timelinePercent } from '../lib/speaker-lanes';
import { clock } from '../lib/time';

interface SentimentLaneRowProps {
  emotions: readonly SentenceEmotion[];
  duration: number;
  /** Plays from a time; absent when there is no media to play. */
  onSeek?: (seconds: number) => void;
}

/** Narrower than this, a block could not be seen or hit: it is drawn this wide, in pixels. */
const MIN_BLOCK_PX = 6;

/**
 * The sentiment lane under the speakers: each sentence with a sentiment placed by time, its
 * colour and its sign (+, −, ·, ±) together, and its sentiment in words for screen readers and
 * on hover. Each block is a button that plays the sentence when the media is there.
 */
export function SentimentLaneRow({ emotions, duration, onSeek }: SentimentLaneRowProps) {
  const read = emotions.filter((e) => e.sentiment !== null);
  if (read.length === 0) return null;
  return (
    <div
      role="group"
      aria-label={`Sentiment: ${read.length} ${read.length === 1 ? 'sentence' : 'sentences'}`}
      className="flex items-center gap-2"
      data-testid="timeline.sentiment"
    >
      <span className="w-20 shrink-0 truncate text-xs font-medium text-slate-800 sm:w-32">
        Sentiment
      </span>
      <div className="relative h-7 min-w-0 flex-1 rounded-md bg-slate-100">
        {read.map((sentence) => {
          const look = SENTIMENT_LOOKS[sentence.sentiment!];
          const left = timelinePercent(sentence.time_begin, duration);
          const width = timelinePercent(sentence.time_end, duration) - left;
          const style = { left: `${left}%`, width: `max(${MIN_BLOCK_PX}px, ${width}%)` };
          const said = `${look.label}, ${clock(sentence.time_begin)} to ${clock(sentence.time_end)}: ${sentence.text}`;
          const className = `absolute inset-y-1 flex items-center justify-center overflow-hidden rounded text-xs font-bold text-slate-900 ring-1 ${look.fill}`;
          const sign = <span aria-hidden="true">{look.sign}</span>;
          return onSeek ? (
            <button
              key={sentence.time_begin}
              type="button"
              style={style}
              title={said}
              aria-label={`${said}. Play from here`}
              onClick={() => onSeek(sentence.time_begin)}
              className={`${className} hover:brightness-110 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600`}
              data-testid="timeline.sentiment-block"
              data-sentiment={sentence.sentiment}
            >
              {sign}
            </button>
          ) : (
            <span
              key={sentence.time_begin}
              role="img"
              style={style}
              title={said}
              aria-label={said}
              className={className}
              data-testid="timeline.sentiment-block"
              data-sentiment={sentence.sentiment}
            >
              {sign}
            </span>
          );
        })}
      </div>
    </div>
  );
}
