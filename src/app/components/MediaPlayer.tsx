import { useEffect, useMemo, useRef } from 'react';
import type { Segment } from '../../core/contract/response';
import { readableCues } from '../../core/format/readable-cues';
import { renderReadableVtt } from '../../core/format/readable-subtitles';
import { registerPlayer, seekTo } from '../lib/player';
import { useAppStore } from '../store/app-store';

function useObjectUrl(blob: Blob | null): string | null {
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : null), [blob]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

/**
 * Plays the transcribed media; a video shows the corrected transcript as readable captions,
 * drawn by the browser's own track rendering. Choosing a segment or a word moves playback to
 * it, and the playhead drives the word highlight.
 */
export function MediaPlayer({
  media,
  segments,
  duration,
}: {
  media: File;
  segments: readonly Segment[];
  /** The media's length in seconds, past which no caption stays up. */
  duration: number;
}) {
  const seekRequest = useAppStore((s) => s.seekRequest);
  const limits = useAppStore((s) => s.cueLimits);
  const setPlayhead = useAppStore((s) => s.setPlayhead);
  const element = useRef<HTMLMediaElement | null>(null);
  const isVideo = media.type.startsWith('video/') || /\.(mp4|m4v|mov|mkv|webm)$/i.test(media.name);
  const src = useObjectUrl(media);
  const captions = useMemo(
    () =>
      isVideo
        ? new Blob([renderReadableVtt(readableCues(segments, limits, duration))], {
            type: 'text/vtt',
          })
        : null,
    [isVideo, segments, limits, duration],
  );
  const captionsUrl = useObjectUrl(captions);

  useEffect(() => {
    if (seekRequest) seekTo(seekRequest.time, true);
  }, [seekRequest]);

  // timeupdate fires only a few times a second: while playing, follow every frame instead.
  useEffect(() => {
    let frame = 0;
    const follow = () => {
      const player = element.current;
      if (!player) return;
      setPlayhead(player.currentTime);
      if (!player.paused) frame = requestAnimationFrame(follow);
    };
    const player = element.current;
    const start = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(follow);
    };
    player?.addEventListener('play', start);
    player?.addEventListener('seeked', start);
    player?.addEventListener('timeupdate', start);
    return () => {
      cancelAnimationFrame(frame);
      player?.removeEventListener('play', start);
      player?.removeEventListener('seeked', start);
      player?.removeEventListener('timeupdate', start);
    };
  }, [src, setPlayhead]);

  const attach = (node: HTMLMediaElement | null) => {
    element.current = node;
    registerPlayer(node);
  };

  if (!src) return null;
  // Named by what it plays: the file's own name, or the recording made here.
  const name = `Player: ${media.name}`;
  return isVideo ? (
    <video
      ref={attach}
      src={src}
      controls
      aria-label={name}
      className="aspect-video w-full rounded-xl bg-black"
      data-testid="result.player"
    >
      {captionsUrl && (
        // A new URL is a new track element: browsers do not reload a track whose src changes.
        <track
          key={captionsUrl}
          kind="captions"
          src={captionsUrl}
          srcLang={segments[0]?.language ?? 'en'}
          label="Transcript"
          default
        />
      )}
    </video>
  ) : (
    <audio
      ref={attach}
      src={src}
      controls
      aria-label={name}
      className="w-full"
      data-testid="result.player"
    />
  );
}
