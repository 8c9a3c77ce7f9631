/**
 * Facts of ffmpeg's WebAssembly core that both hosts run it by (the browser through
 * ffmpeg.wasm, Node by loading the same core directly).
 */

/**
 * The core fails (memory access out of bounds, or a hang) after about 160 runs in one
 * instance: it is replaced by a fresh one, with the same mounts, well before that.
 */
export const RUNS_PER_CORE = 100;

/**
 * The name a media file is given inside ffmpeg's file system: a fixed stem, so that no user's
 * file name reaches ffmpeg's command line, and the file's extension when it looks like one,
 * which some demuxers use as a hint.
 */
export function ffmpegInputName(name: string): string {
  const match = /\.([A-Za-z0-9]{1,8})$/.exec(name);
  return `input${match ? `.${match[1]!.toLowerCase()}` : ''}`;
}
