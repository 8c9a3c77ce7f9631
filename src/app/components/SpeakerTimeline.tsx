import { useMemo } from 'react';
import type { Segment, SentenceEmotion } from '../../core/contract/response';
import { displayName, speakerLabels } from '../../core/edit/speaker-names';
import { speakerMapping } from '../../core/edit/transcript-edits';
import { speakerLanes, timelineDuration } from '../lib/speaker-lanes';
import { clock, length } from '../lib/time';
import { useAppStore } from '../store/app-store';
import { currentNames } from '../store/editor-slice';
import { SpeakerLaneRow } from './SpeakerLaneRow';
import { SentimentLaneRow } from './SentimentLaneRow';
import { SpeakerNameField } from './SpeakerNameField';
import { TimelineCursor } from './TimelineCursor';

interface SpeakerTimelineProps {
  /** The segments as corrected, their speakers by label. */
  segments: readonly Segment[];
  /** The media's duration in seconds (the timeline spans it). */
  mediaDuration: number;
  playable: boolean;
  /** Each sentence's sentiment, when it was read: a lane of its own under the speakers. */
  emotions?: readonly SentenceEmotion[];
}

/**
 * Who speaks when: a lane a speaker with their turns placed along the recording, the playback
 * position across them, each speaker's name, which can be changed, and the sentiment of what
 * was said when it was read.
 */
export function SpeakerTimeline({
  segments,
  mediaDuration,
  playable,
  emotions,
}: SpeakerTimelineProps) {
  const names = useAppStore(currentNames);
  const seekTo = useAppStore((s) => s.seekTo);
  const lanes = useMemo(() => speakerLanes(speakerMapping(segments)), [segments]);
  const labels = useMemo(() => speakerLabels(segments), [segments]);
  const duration = timelineDuration(lanes, mediaDuration);
  if (lanes.length === 0) return null;
  return (
    <section
      aria-labelledby="timeline-title"
      className="space-y-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
      data-testid="timeline"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h3 id="timeline-title" className="text-base font-semibold text-slate-900">
          Speakers
        </h3>
        <p className="text-xs text-slate-600">
          {lanes.length} {lanes.length === 1 ? 'speaker' : 'speakers'}
          {playable ? ' · choose a turn to play from there' : ''}
        </p>
      </div>
      <div className="space-y-1">
        <div className="relative space-y-1.5" role="group" aria-label="Speaker timeline">
          {lanes.map((lane) => (
            <SpeakerLaneRow
              key={lane.speaker}
              lane={lane}
              name={displayName(lane.speaker, names)}
              duration={duration}
              onSeek={playable ? seekTo : undefined}
            />
          ))}
          {emotions && (
            <SentimentLaneRow
              emotions={emotions}
              duration={duration}
              onSeek={playable ? seekTo : undefined}
            />
          )}
          {playable && <TimelineCursor duration={duration} />}
        </div>
        <div
          aria-hidden="true"
          className="ml-22 flex justify-between text-[11px] text-slate-600 sm:ml-34"
        >
          <span>0:00</span>
          <span>{clock(duration / 2)}</span>
          <span>{length(duration)}</span>
        </div>
      </div>
      <p id="speaker-names-note" className="text-xs text-slate-600">
        A name given here replaces the label everywhere, downloads included.
      </p>
      <ul
        className="flex flex-wrap gap-x-6 gap-y-3"
        aria-label="Speaker names"
        aria-describedby="speaker-names-note"
      >
        {lanes.map((lane) => (
          <SpeakerNameField
            key={lane.speaker}
            label={lane.speaker}
            labels={labels}
            names={names}
            seconds={lane.seconds}
          />
        ))}
      </ul>
    </section>
  );
}
