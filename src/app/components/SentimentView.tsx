import { useState } from 'react';
import type { EmotionSummary, SentenceEmotion } from '../../core/contract/response';
import { SPEAKER_NOT_ACTIVATED } from '../../core/contract/response';
import { displayName } from '../../core/edit/speaker-names';
import { useAppStore } from '../store/app-store';
import { currentNames } from '../store/editor-slice';
import { SentimentSentence } from './SentimentSentence';
import { SentimentShareRow } from './SentimentShareRow';

/**
 * How it was said: the share of time said with each sentiment, for the file and by speaker,
 * and every sentence with its sentiment; a filter keeps only the negative moments.
 */
export function SentimentView({
  emotions,
  summary,
  note,
  playable,
}: {
  emotions: readonly SentenceEmotion[];
  summary: EmotionSummary;
  note: string | undefined;
  playable: boolean;
}) {
  const names = useAppStore(currentNames);
  const [negativeOnly, setNegativeOnly] = useState(false);
  const speakers = summary.speakers.filter((s) => s.speaker !== SPEAKER_NOT_ACTIVATED);
  const shown = negativeOnly ? emotions.filter((e) => e.sentiment === 'negative') : emotions;
  const nameOf = (sentence: SentenceEmotion) =>
    sentence.speaker === SPEAKER_NOT_ACTIVATED ? null : displayName(sentence.speaker, names);
  return (
    <section
      aria-labelledby="sentiment-title"
      className="space-y-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
      data-testid="result.sentiment"
    >
      <h3 id="sentiment-title" className="text-base font-semibold text-slate-900">
        Sentiment
      </h3>
      {note && (
        <p className="text-sm text-slate-600" data-testid="result.sentiment-note">
          {note}
        </p>
      )}
      <ul className="space-y-2" aria-label="Share of time by sentiment">
        <SentimentShareRow who="Whole file" shares={summary.file} />
        {speakers.map((s) => (
          <SentimentShareRow
            key={`${s.speaker}|${s.channel}`}
            who={displayName(s.speaker, names)}
            shares={s}
          />
        ))}
      </ul>
      <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
        <input
          type="checkbox"
          checked={negativeOnly}
          onChange={(e) => setNegativeOnly(e.target.checked)}
          data-testid="result.sentiment-negative-only"
        />
        Show negative moments only
      </label>
      {shown.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="result.sentiment-empty">
          {negativeOnly ? 'No sentence sounds negative.' : 'Nothing was said.'}
        </p>
      ) : (
        <ol
          className="max-h-96 space-y-1.5 overflow-y-auto"
          aria-label="Sentences and their sentiment"
        >
          {shown.map((sentence) => (
            <SentimentSentence
              key={`${sentence.time_begin}:${sentence.text}`}
              sentence={sentence}
              speaker={nameOf(sentence)}
              playable={playable}
            />
          ))}
        </ol>
      )}
    </section>
  );
}
