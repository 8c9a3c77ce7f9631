import type { MouseEvent } from 'react';
import { speakerColours } from '../lib/speaker-colour';
import { timelinePercent, type SpeakerLane } from '../lib/speaker-lanes';
import { clock, length } from '../lib/time';

interface SpeakerLaneRowProps {
  lane: SpeakerLane;
  name: string;
  duration: number;
  /** Plays from a time; absent when there is no media to play. */
  onSeek?: (seconds: number) => void;
}

/** Narrower than this, a block could not be seen or hit: it is drawn this wide, in pixels. */
const MIN_BLOCK_PX = 6;

/**
 * One speaker's row of the timeline: their name and colour, and the stretches they speak,
 * placed by time. A click anywhere on the row plays from that moment; each stretch is a
 * button, so the keyboard reaches every turn.
 */
export function SpeakerLaneRow({ lane, name, duration, onSeek }: SpeakerLaneRowProps) {
  const colours = speakerColours(lane.speaker);
  const turns = lane.blocks.length;
  const seekAtPointer = (e: MouseEvent<HTMLDivElement>) => {
    if (!onSeek) return;
    const box = e.currentTarget.getBoundingClientRect();
    if (box.width <= 0) return;
    onSeek(((e.clientX - box.left) / box.width) * duration);
  };
  return (
    <div
      role="group"
      aria-label={`${name}: ${turns} ${turns === 1 ? 'turn' : 'turns'}, ${length(lane.seconds)} in all`}
      className="flex items-center gap-2"
      data-testid="timeline.lane"
      data-speaker={lane.speaker}
    >
      <span className="flex w-20 shrink-0 items-center gap-1.5 sm:w-32">
        <span
          aria-hidden="true"
          className={`size-3 shrink-0 rounded-full ring-1 ${colours.fill}`}
        />
        <span className="truncate text-xs font-medium text-slate-800" title={name}>
          {name}
        </span>
      </span>
      {/* The row itself takes pointer clicks; its blocks are the keyboard's way in. */}
      <div
        className={`relative h-7 min-w-0 flex-1 rounded-md bg-slate-100 ${onSeek ? 'cursor-pointer' : ''}`}
        onClick={seekAtPointer}
        data-testid="timeline.track"
      >
        {lane.blocks.map((block) => {
          const left = timelinePercent(block.begin, duration);
          const width = timelinePercent(block.end, duration) - left;
          const style = { left: `${left}%`, width: `max(${MIN_BLOCK_PX}px, ${width}%)` };
          const span = `${name}, ${clock(block.begin)} to ${clock(block.end)}`;
          const className = `absolute inset-y-1 rounded ring-1 ${colours.fill}`;
          return onSeek ? (
            <button
              key={block.begin}
              type="button"
              style={style}
              aria-label={`${span}, play from here`}
              title={`${clock(block.begin)} – ${clock(block.end)}`}
              onClick={(e) => {
                // Play from the turn's start, not from where in it the pointer was.
                e.stopPropagation();
                onSeek(block.begin);
              }}
              className={`${className} hover:brightness-110 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600`}
              data-testid="timeline.block"
            />
          ) : (
            <span
              key={block.begin}
              role="img"
              style={style}
              aria-label={span}
              title={`${clock(block.begin)} – ${clock(block.end)}`}
              className={className}
              data-testid="timeline.block"
            />
          );
        })}
      </div>
    </div>
  );
}
