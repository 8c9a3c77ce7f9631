import { useEffect, useMemo, useRef } from 'react';
import type { TranscriptionResponse } from '../../core/contract/response';
import { renderVtt } from '../../core/format/vtt';
import { useAppStore } from '../store/app-store';

function useObjectUrl(blob: Blob | null): string | null {
  const url = useMemo(() => (blob ? URL.createObjectURL(blob) : null), [blob]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

/**
 * Plays the transcribed media; a video shows the result as captions. Choosing a segment
 * moves playback to it.
 */
export function MediaPlayer({ media, result }: { media: File; result: TranscriptionResponse }) {
  const seekRequest = useAppStore((s) => s.seekRequest);
  const element = useRef<HTMLMediaElement | null>(null);
  const isVideo = media.type.startsWith('video/') || /\.(mp4|m4v|mov|mkv|webm)$/i.test(media.name);
  const src = useObjectUrl(media);
  const captions = useMemo(
    () => new Blob([renderVtt(result.prediction_raw.transcription)], { type: 'text/vtt' }),
    [result],
  );
  const captionsUrl = useObjectUrl(isVideo ? captions : null);

  useEffect(() => {
    const player = element.current;
    if (!player || !seekRequest) return;
    player.currentTime = seekRequest.time;
    void player.play().catch(() => undefined);
  }, [seekRequest]);

  if (!src) return null;
  return isVideo ? (
    <video
      ref={(node) => {
        element.current = node;
      }}
      src={src}
      controls
      className="aspect-video w-full rounded-xl bg-black"
      data-testid="result.player"
    >
      {captionsUrl && (
        <track kind="captions" src={captionsUrl} srcLang="en" label="Transcript" default />
      )}
    </video>
  ) : (
    <audio
      ref={(node) => {
        element.current = node;
      }}
      src={src}
      controls
      className="w-full"
      data-testid="result.player"
    />
  );
}
