import type { CaptionLine, LiveCaptions } from '../../core/live/captions';
import { BEHIND_LIMIT, behindNotice } from '../lib/recording/recording-wording';

interface LiveTranscriptProps {
  captions: LiveCaptions;
  /** Channel names when there are several, to say whose line it is. */
  channelNames: readonly string[] | null;
  problem: string | null;
}

function Line({ line, names }: { line: CaptionLine; names: readonly string[] | null }) {
  return (
    <>
      {names && <span className="font-medium">{names[line.channel] ?? ''}: </span>}
      {line.text.trim()}
    </>
  );
}

/**
 * Captions while recording. Only settled lines sit in the live region, so that a screen reader
 * reads each line once, when it no longer changes; the provisional words follow it, marked.
 */
export function LiveTranscript({ captions, channelNames, problem }: LiveTranscriptProps) {
  const provisional = captions.provisional.filter((l): l is CaptionLine => l !== null);
  return (
    <section
      aria-label="Live transcript"
      data-testid="record.captions"
      className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm"
    >
      <h3 className="mb-1 font-medium text-slate-800">Live transcript</h3>
      <div aria-live="polite" data-testid="record.captions-settled" className="space-y-1">
        {captions.settled.map((line, i) => (
          <p key={i} className="text-slate-900">
            <Line line={line} names={channelNames} />
          </p>
        ))}
      </div>
      {provisional.map((line) => (
        <p
          key={`p${line.channel}`}
          className="mt-1 italic text-slate-600"
          data-testid="record.captions-provisional"
        >
          <span className="sr-only">Provisional: </span>
          <Line line={line} names={channelNames} />
        </p>
      ))}
      {captions.behindSeconds > BEHIND_LIMIT && (
        <p className="mt-2 text-amber-800" data-testid="record.captions-behind">
          {behindNotice(
            captions.behindSeconds,
            captions.settled.length > 0 || provisional.length > 0,
          )}
        </p>
      )}
      {problem && (
        <p className="mt-2 text-amber-800" data-testid="record.captions-problem">
          {problem}
        </p>
      )}
    </section>
  );
}
