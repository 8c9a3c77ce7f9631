import { pcmFloats, type Pcm } from '../audio/pcm';

/** A stretch of the file copied into a stream: [fileStart, fileEnd) placed at streamStart. */
export interface StreamPiece {
  fileStart: number;
  fileEnd: number;
  streamStart: number;
}

/** Audio the recogniser reads as one: speech pieces joined with their long pauses shortened. */
export interface SpeechStream {
  pieces: StreamPiece[];
  /** Seconds of audio in the stream. */
  length: number;
}

export interface StreamOptions {
  /** Seconds of context kept around each speech region (VAD edges are tight). */
  padding: number;
  /** Pauses longer than this are shortened to it: the decoder still sees a pause. */
  keptPause: number;
  /** Pauses at least this long start a new stream (Infinity: one stream for the file). */
  splitPause: number;
}

/**
 * Lays speech regions out as streams for recognition, so no model time is spent on long
 * silences. Times inside a stream map back to the file with `fileTime`.
 */
export function speechStreams(
  regions: readonly { start: number; end: number }[],
  duration: number,
  options: StreamOptions,
): SpeechStream[] {
  const padded = regions
    .map((r) => ({
      start: Math.max(0, r.start - options.padding),
      end: Math.min(duration, r.end + options.padding),
    }))
    .filter((r) => r.end > r.start)
    .sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const r of padded) {
    const last = merged.at(-1);
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else merged.push({ ...r });
  }
  const streams: SpeechStream[] = [];
  let current: SpeechStream | null = null;
  let previousEnd = 0;
  const addPiece = (stream: SpeechStream, from: number, to: number) => {
    stream.pieces.push({ fileStart: from, fileEnd: to, streamStart: stream.length });
    stream.length += to - from;
  };
  for (const r of merged) {
    const pause = r.start - previousEnd;
    if (current === null || pause >= options.splitPause) {
      current = { pieces: [], length: 0 };
      streams.push(current);
      addPiece(current, r.start, r.end);
    } else if (pause <= options.keptPause) {
      // A short pause stays as it is: the last piece grows over it.
      const last = current.pieces.at(-1)!;
      current.length += r.end - last.fileEnd;
      last.fileEnd = r.end;
    } else {
      // A long pause is shortened to its last `keptPause` seconds.
      addPiece(current, r.start - options.keptPause, r.end);
    }
    previousEnd = r.end;
  }
  return streams;
}

/** The file time of a time inside a stream. */
export function fileTime(stream: SpeechStream, t: number): number {
  const { pieces } = stream;
  if (pieces.length === 0) return t;
  let piece = pieces[0]!;
  for (const p of pieces) {
    if (p.streamStart <= t) piece = p;
    else break;
  }
  return Math.min(piece.fileEnd, piece.fileStart + Math.max(0, t - piece.streamStart));
}

/**
 * Seconds of `[from, to)` of a stream that are not a shortened pause: speech regions with their
 * padding and the short pauses between them. Every piece after a stream's first begins with a
 * long pause shortened to `keptPause` seconds. Pieces are only ever added after the stream's
 * end, so the figure for a stretch already laid out is the same however much of the channel was
 * known when it is asked.
 */
export function unpausedSeconds(
  stream: SpeechStream,
  from: number,
  to: number,
  keptPause: number,
): number {
  let pause = 0;
  for (const p of stream.pieces.slice(1)) {
    pause += Math.max(0, Math.min(to, p.streamStart + keptPause) - Math.max(from, p.streamStart));
  }
  return Math.max(0, to - from - pause);
}

/** The stream's audio, copied out of the file's samples. */
export function streamSamples(stream: SpeechStream, samples: Pcm, rate: number): Float32Array {
  return streamSlice(stream, samples, rate, 0, Math.round(stream.length * rate));
}

/**
 * Samples `from`..`to` of the stream's audio (counted in the stream), copied out of the file's
 * samples: the same as `streamSamples(...).subarray(from, to)`, but only that stretch is read
 * and held, so a stream hours long is never copied whole.
 */
export function streamSlice(
  stream: SpeechStream,
  samples: Pcm,
  rate: number,
  from: number,
  to: number,
): Float32Array {
  const length = Math.round(stream.length * rate);
  const start = Math.max(0, Math.min(from, length));
  const out = new Float32Array(Math.max(0, Math.min(to, length) - start));
  // Pieces are laid out in order; where rounding lets one overlap the next, the later wins.
  for (const p of stream.pieces) {
    const fileFrom = Math.round(p.fileStart * rate);
    const fileTo = Math.min(samples.length, Math.round(p.fileEnd * rate));
    const at = Math.round(p.streamStart * rate);
    const copied = Math.min(fileTo, fileFrom + (length - at)) - fileFrom;
    const lo = Math.max(at, start);
    const hi = Math.min(at + copied, start + out.length);
    if (lo >= hi) continue;
    out.set(pcmFloats(samples, fileFrom + (lo - at), fileFrom + (hi - at)), lo - start);
  }
  return out;
}

/** A stream's audio, read a stretch at a time (see `streamSlice`). */
export interface StreamAudio {
  /** Samples in the stream. */
  readonly length: number;
  /** Samples `from`..`to` of the stream (clipped to its length). */
  read(from: number, to: number): Float32Array;
}

/** The stream's audio as it stands, read from the file's samples when asked. */
export function streamAudio(stream: SpeechStream, samples: Pcm, rate: number): StreamAudio {
  return {
    length: Math.round(stream.length * rate),
    read: (from, to) => streamSlice(stream, samples, rate, from, to),
  };
}
