/**
 * The one media player on the page, so that keyboard shortcuts and word clicks can steer it
 * wherever focus is.
 */
let player: HTMLMediaElement | null = null;

export function registerPlayer(element: HTMLMediaElement | null): void {
  player = element;
}

export function hasPlayer(): boolean {
  return player !== null;
}

/** Stops playback where it is (nothing when there is no player). */
export function pausePlayback(): void {
  player?.pause();
}

export function togglePlayback(): void {
  if (!player) return;
  if (player.paused) void player.play().catch(() => undefined);
  else player.pause();
}

export function seekTo(seconds: number, play = false): void {
  if (!player) return;
  const end = Number.isFinite(player.duration) ? player.duration : Infinity;
  player.currentTime = Math.min(Math.max(0, seconds), end);
  if (play) void player.play().catch(() => undefined);
}

export function seekBy(seconds: number): void {
  if (player) seekTo(player.currentTime + seconds);
}

export function playerTime(): number {
  return player?.currentTime ?? 0;
}
