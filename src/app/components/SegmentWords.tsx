import { Fragment, useRef } from 'react';
import type { Segment } from '../../core/contract/response';
import { clock } from '../lib/time';
import { pausePlayback } from '../lib/player';
import { useAppStore } from '../store/app-store';
import { WordInput } from './WordInput';

interface SegmentWordsProps {
  segment: Segment;
  index: number;
  playable: boolean;
  chosen: number | null;
  onChoose: (word: number) => void;
  editing: number | null;
  onEdit: (word: number | null) => void;
  /** The words of the match that find and replace shows, highlighted. */
  found: readonly number[];
}

/** The word being spoken at `time`, or -1. */
function spokenWord(segment: Segment, time: number): number {
  if (time < segment.time_begin || time > segment.time_end + 0.3) return -1;
  return segment.words.findIndex((w) => time >= w.time_begin && time < w.time_end);
}

/**
 * A segment's words: choosing one plays from it and lets it be corrected (F2 or a double
 * click); the word being spoken is highlighted. One tab stop per segment: the arrow keys move
 * between its words.
 */
export function SegmentWords(props: SegmentWordsProps) {
  const { segment, index, playable, chosen, onChoose, editing, onEdit, found } = props;
  const seekTo = useAppStore((s) => s.seekTo);
  const spoken = useAppStore((s) => spokenWord(segment, s.playhead));
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const words = segment.words;
  if (words.length === 0) {
    return (
      <p
        className="text-sm leading-relaxed break-words text-slate-900"
        data-testid="result.segment-text"
      >
        {segment.transcription.trim()}
      </p>
    );
  }
  const focusable = chosen ?? 0;
  const move = (to: number) => {
    const target = Math.max(0, Math.min(words.length - 1, to));
    onChoose(target);
    buttons.current[target]?.focus();
  };
  return (
    <p
      className="text-sm leading-relaxed [overflow-wrap:anywhere] text-slate-900"
      data-testid="result.segment-text"
    >
      {words.map((word, w) => (
        <Fragment key={w}>
          {w > 0 && ' '}
          {editing === w ? (
            <WordInput
              segmentIndex={index}
              wordIndex={w}
              word={word}
              onDone={() => {
                onEdit(null);
                // Back to the word, so that the keyboard goes on from where it was.
                requestAnimationFrame(() => buttons.current[w]?.focus());
              }}
            />
          ) : (
            <button
              type="button"
              ref={(node) => {
                buttons.current[w] = node;
              }}
              tabIndex={w === focusable ? 0 : -1}
              aria-pressed={chosen === w}
              aria-current={spoken === w ? 'time' : undefined}
              aria-label={
                segment.not_said
                  ? `${word.word.trim()}, not said`
                  : `${word.word.trim()}, at ${clock(word.time_begin)}`
              }
              title={`${word.time_begin.toFixed(2)} s · ${Math.round(word.confidence * 100)}% sure`}
              onClick={(event) => {
                onChoose(w);
                // The second click of a double click plays nothing (see onDoubleClick).
                if (event.detail > 1) return;
                if (playable && !segment.not_said) seekTo(word.time_begin);
              }}
              onDoubleClick={() => {
                // Its first click played the word: a double click is for correcting it, and
                // what it says is to be read, not heard running on.
                pausePlayback();
                onEdit(w);
              }}
              onKeyDown={(e) => {
                if (e.key === 'ArrowRight') move(w + 1);
                else if (e.key === 'ArrowLeft') move(w - 1);
                else if (e.key === 'F2') onEdit(w);
                else return;
                e.preventDefault();
              }}
              className={`rounded px-0.5 text-left focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600 ${
                spoken === w
                  ? 'bg-amber-200 text-slate-950'
                  : found.includes(w)
                    ? 'bg-yellow-200 text-slate-950 underline decoration-2'
                    : chosen === w
                      ? 'bg-indigo-100 text-indigo-950'
                      : 'hover:bg-slate-100'
              }`}
              data-testid="result.word"
              data-found={found.includes(w) ? 'true' : undefined}
              data-begin={word.time_begin}
              data-end={word.time_end}
            >
              {word.word.trim()}
            </button>
          )}
        </Fragment>
      ))}
    </p>
  );
}
