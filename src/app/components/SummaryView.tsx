import type { Summarization, SummarySentence } from '../../core/contract/response';
import { clock } from '../lib/time';
import { PlayableText } from './PlayableText';

/** The summary's paragraphs, each with the sentences it is made of (its text joins them). */
function paragraphs(summary: Summarization): SummarySentence[][] {
  const groups: SummarySentence[][] = [];
  let next = 0;
  for (const paragraph of summary.text.split('\n\n')) {
    const group: SummarySentence[] = [];
    while (next < summary.sentences.length && group.map((s) => s.text).join(' ') !== paragraph) {
      group.push(summary.sentences[next]!);
      next += 1;
    }
    groups.push(group);
  }
  return groups;
}

/** The summary: paragraphs, a few sentences, or points, each sentence from the transcript. */
export function SummaryView({ summary, playable }: { summary: Summarization; playable: boolean }) {
  return (
    <section
      aria-labelledby="summary-title"
      className="space-y-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
      data-testid="result.summarization"
    >
      <h3 id="summary-title" className="text-base font-semibold text-slate-900">
        Summary
      </h3>
      {summary.sentences.length === 0 ? (
        <p className="text-sm text-slate-600">Nothing was said to summarise.</p>
      ) : summary.type === 'bullet_points' ? (
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800">
          {summary.sentences.map((s, i) => (
            <li key={`${i}:${s.time_begin}`}>
              <span className="mr-2 font-mono text-xs tabular-nums text-slate-600">
                {clock(s.time_begin)}
              </span>
              <PlayableText text={s.text} from={s.time_begin} playable={playable} />
            </li>
          ))}
        </ul>
      ) : (
        paragraphs(summary).map((group, p) => (
          <p key={p} className="text-sm leading-relaxed text-slate-800">
            {group.map((s, i) => (
              <span key={`${i}:${s.time_begin}`}>
                {i > 0 && ' '}
                <PlayableText text={s.text} from={s.time_begin} playable={playable} />
              </span>
            ))}
          </p>
        ))
      )}
    </section>
  );
}
