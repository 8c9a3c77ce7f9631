/** A recording as a WAV file: its stored 16-bit PCM blocks behind one RIFF header. */

export function wavHeader(dataBytes: number, channels: number, sampleRate: number): ArrayBuffer {
  const header = new ArrayBuffer(44);
  const view = new DataView(header);
  const text = (at: number, value: string) => {
    for (let i = 0; i < value.length; i++) view.setUint8(at + i, value.charCodeAt(i));
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * channels * 2, true);
  view.setUint16(32, channels * 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, dataBytes, true);
  return header;
}

/** The blocks, interleaved 16-bit PCM in order, as a WAV blob (never copied into one array). */
export function wavBlob(blocks: readonly Int16Array[], channels: number, sampleRate: number): Blob {
  const bytes = blocks.reduce((n, b) => n + b.byteLength, 0);
  const parts: BlobPart[] = [
    wavHeader(bytes, channels, sampleRate),
    ...blocks.map((b) => b.slice()),
  ];
  return new Blob(parts, { type: 'audio/wav' });
}

const two = (n: number) => String(n).padStart(2, '0');

/** "Recording 2026-11-26 14-02.wav": when it started, in the user's time, safe as a file name. */
export function recordingFileName(startedAt: number): string {
  const d = new Date(startedAt);
  const day = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
  return `Recording ${day} ${two(d.getHours())}-${two(d.getMinutes())}.wav`;
}

/** "Recording of 14:02, 12 min": a stored recording as offered back. */
export function recordingTitle(startedAt: number, seconds: number): string {
  const d = new Date(startedAt);
  const span = seconds < 60 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`;
  return `Recording of ${two(d.getHours())}:${two(d.getMinutes())}, ${span}`;
}
