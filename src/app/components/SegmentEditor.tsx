import { useEffect, useRef, useState } from 'react';
import type { Segment } from '../../core/contract/response';
import { matchedWords } from '../../core/edit/find-replace';
import type { SpeakerNames } from '../../core/edit/speaker-names';
import { languageLabel } from '../lib/language-label';
import { clock } from '../lib/time';
import { useAppStore } from '../store/app-store';
import { SegmentActions } from './SegmentActions';
import { SegmentTextForm } from './SegmentTextForm';
import { SegmentWords } from './SegmentWords';
import { SpeakerField } from './SpeakerField';

interface SegmentEditorProps {
  segment: Segment;
  index: number;
  last: boolean;
  playable: boolean;
  showChannel: boolean;
  labels: readonly string[];
  names: SpeakerNames;
}

/** One segment: its time, speaker and words, each correctable, and what can be done to it. */
export function SegmentEditor({
  segment,
  index,
  last,
  playable,
  showChannel,
  labels,
  names,
}: SegmentEditorProps) {
  const seekTo = useAppStore((s) => s.seekTo);
  const [chosenWord, setChosenWord] = useState<number | null>(null);
  const [editingText, setEditingText] = useState(false);
  const [editingWord, setEditingWord] = useState<number | null>(null);
  const found = useAppStore((s) => (s.findMatch?.segmentIndex === index ? s.findMatch : null));
  const item = useRef<HTMLLIElement>(null);
  // A line of a script that nobody said: marked, and with no time to play from.
  const notSaid = segment.not_said === true;
  useEffect(() => {
    if (found) item.current?.scrollIntoView?.({ block: 'nearest' });
  }, [found]);
  return (
    <li
      ref={item}
      className={`flex gap-3 px-4 py-3 ${found ? 'bg-yellow-50' : notSaid ? 'border-l-4 border-amber-500 bg-amber-50' : ''}`}
      data-found={found ? 'true' : undefined}
      data-not-said={notSaid ? 'true' : undefined}
      data-testid="result.segment"
      data-begin={segment.time_begin}
    >
      {playable && !notSaid ? (
        <button
          type="button"
          onClick={() => seekTo(segment.time_begin)}
          aria-label={`Play from ${clock(segment.time_begin)}`}
          className="w-14 shrink-0 self-start rounded pt-0.5 text-left font-mono text-xs text-indigo-800 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          data-testid="result.segment-time"
        >
          ▶ {clock(segment.time_begin)}
        </button>
      ) : (
        <span className="w-14 shrink-0 pt-0.5 font-mono text-xs text-slate-600">
          {clock(segment.time_begin)}
        </span>
      )}
      <div className="min-w-0 flex-1 space-y-1.5">
        <div className="flex flex-wrap items-center gap-1.5 text-[11px] font-medium">
          <SpeakerField segment={segment} index={index} labels={labels} names={names} />
          {showChannel && (
            <span className="rounded bg-slate-100 px-1.5 py-0.5 text-slate-700">
              {segment.channel}
            </span>
          )}
          <span
            className="rounded bg-slate-100 px-1.5 py-0.5 uppercase text-slate-700"
            data-testid="result.segment-language"
          >
            {segment.language}
          </span>
          {notSaid && (
            <span
              className="rounded bg-amber-100 px-1.5 py-0.5 text-amber-950 ring-1 ring-amber-500"
              data-testid="result.segment-not-said"
            >
              Not said
            </span>
          )}
        </div>
        {editingText ? (
          <SegmentTextForm segment={segment} index={index} onDone={() => setEditingText(false)} />
        ) : (
          <SegmentWords
            segment={segment}
            index={index}
            playable={playable}
            chosen={chosenWord}
            onChoose={setChosenWord}
            editing={editingWord}
            onEdit={setEditingWord}
            found={found ? matchedWords(segment, found) : []}
          />
        )}
        {segment.source_transcription !== undefined && (
          <p className="text-sm text-slate-600" data-testid="result.segment-original">
            <span className="text-xs font-medium uppercase tracking-wide text-slate-600">
              Original ({languageLabel(segment.source_language ?? '')}):
            </span>{' '}
            <span lang={segment.source_language}>{segment.source_transcription.trim()}</span>
          </p>
        )}
        {!editingText && (
          <SegmentActions
            segment={segment}
            index={index}
            last={last}
            chosenWord={chosenWord}
            onEditText={() => setEditingText(true)}
            onEditWord={() => setEditingWord(chosenWord)}
          />
        )}
      </div>
    </li>
  );
}
