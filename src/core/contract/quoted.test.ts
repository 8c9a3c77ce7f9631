import { describe, expect, it } from 'vitest';
import { quoted, shortened } from './quoted';

describe('quoted', () => {
  it('quotes a short value whole', () => {
    expect(quoted('docx')).toBe('"docx"');
    expect(quoted('x'.repeat(64))).toBe(`"${'x'.repeat(64)}"`);
  });

  it('quotes the start of a long value and says how long it is', () => {
    expect(quoted('x'.repeat(60_000))).toBe(`"${'x'.repeat(64)}…" (60000 characters)`);
    expect(quoted('abcdef', 3)).toBe('"abc…" (6 characters)');
  });

  it('counts and cuts characters, not UTF-16 halves', () => {
    expect(quoted('🎙'.repeat(5), 3)).toBe('"🎙🎙🎙…" (5 characters)');
  });
});

describe('shortened', () => {
  it('keeps a short path and cuts a long one after its start', () => {
    expect(shortened('/v2/transcription/abc')).toBe('/v2/transcription/abc');
    const long = `/v2/transcription/${'a'.repeat(8000)}`;
    expect(shortened(long)).toBe(`${long.slice(0, 128)}…`);
  });
});
