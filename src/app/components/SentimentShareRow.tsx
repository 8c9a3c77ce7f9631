import { SENTIMENTS, type SentimentShares } from '../../core/contract/response';
import { sharesText } from '../../core/format/sentiment-shares';
import { SENTIMENT_LOOKS } from '../lib/sentiment-look';
import { length } from '../lib/time';

/**
 * Who (or the whole file), the shares of their time by sentiment in words, and the same shares
 * as a bar whose parts carry the sentiment's sign: the words say it all, the bar helps the eye.
 */
export function SentimentShareRow({ who, shares }: { who: string; shares: SentimentShares }) {
  return (
    <li className="space-y-1" data-testid="result.sentiment-share">
      <p className="text-sm text-slate-800">
        <span className="font-medium">{who}</span>
        <span className="text-slate-600"> ({length(shares.seconds)}): </span>
        {sharesText(shares)}
      </p>
      {shares.seconds > 0 && (
        <div aria-hidden="true" className="flex h-3 overflow-hidden rounded-full bg-slate-100">
          {SENTIMENTS.filter((s) => shares[s] > 0).map((s) => (
            <span
              key={s}
              className={`${SENTIMENT_LOOKS[s].fill} flex items-center justify-center text-[9px] font-bold leading-none text-slate-900`}
              style={{ width: `${shares[s] * 100}%` }}
            >
              {SENTIMENT_LOOKS[s].sign}
            </span>
          ))}
        </div>
      )}
    </li>
  );
}
