import { describe, expect, it } from 'vitest';
import {
  contentRangeStart,
  contentRangeTotal,
  fileIdentity,
  mergeIdentity,
  normaliseEtag,
  sameFile,
} from './file-identity';
import { groupedDigits, integrityFailure, integrityVerdict } from './integrity';
import { rangeHeader, resumeStep } from './range-plan';
import { isTransientStatus, MODEL_DOWNLOAD_RETRIES, retryPause } from './retry-schedule';
import { durationText, TransferMeter, transferDetail } from './transfer-meter';

const SHA = 'a'.repeat(64);
const headers = (h: Record<string, string>) => new Headers(h);

describe('fileIdentity', () => {
  it('reads the hub’s size and sha256 of a large file', () => {
    const id = fileIdentity(
      302,
      headers({ 'x-linked-size': '1234', 'x-linked-etag': `"${SHA.toUpperCase()}"`, etag: '"x"' }),
    );
    expect(id).toEqual({ size: 1234, sha256: SHA, validator: SHA.toUpperCase() });
  });

  it('takes a git object id (40 hex digits) as a validator, not as a checksum', () => {
    const id = fileIdentity(200, headers({ etag: `W/"${'b'.repeat(40)}"`, 'content-length': '9' }));
    expect(id).toEqual({ size: 9, sha256: null, validator: 'b'.repeat(40) });
  });

  it('reads the whole size from Content-Range on 206, never the part’s Content-Length', () => {
    const id = fileIdentity(
      206,
      headers({ 'content-range': 'bytes 100-199/5000', 'content-length': '100' }),
    );
    expect(id.size).toBe(5000);
  });

  it('does not take a compressed length for the size, and falls back to Last-Modified', () => {
    const id = fileIdentity(
      200,
      headers({
        'content-length': '10',
        'content-encoding': 'gzip',
        'last-modified': 'Tue, 01 Jul 2025 10:00:00 GMT',
      }),
    );
    expect(id).toEqual({ size: null, sha256: null, validator: 'Tue, 01 Jul 2025 10:00:00 GMT' });
  });

  it('parses Content-Range and entity tags, and refuses what is not one', () => {
    expect(contentRangeStart('bytes 100-199/5000')).toBe(100);
    expect(contentRangeStart('bytes */5000')).toBeNull();
    expect(contentRangeTotal('bytes */5000')).toBe(5000);
    expect(contentRangeTotal('bytes 0-1/*')).toBeNull();
    expect(contentRangeTotal('items 0-1/3')).toBeNull();
    expect(normaliseEtag('W/"abc"')).toBe('abc');
    expect(normaliseEtag('""')).toBeNull();
    expect(fileIdentity(200, headers({ 'x-linked-size': '-3' })).size).toBeNull();
  });

  it('merges a redirect’s statements with its target’s, the redirect’s first', () => {
    const hub = { size: 10, sha256: SHA, validator: SHA };
    const storage = { size: 11, sha256: null, validator: 'cdn' };
    expect(mergeIdentity(hub, storage)).toEqual(hub);
    expect(mergeIdentity({ size: null, sha256: null, validator: null }, storage)).toEqual(storage);
  });

  it('tells files apart only by what both answers state', () => {
    expect(
      sameFile(
        { size: 1, sha256: null, validator: 'a' },
        { size: null, sha256: null, validator: 'a' },
      ),
    ).toBe(true);
    expect(
      sameFile(
        { size: 1, sha256: null, validator: 'a' },
        { size: 1, sha256: null, validator: 'b' },
      ),
    ).toBe(false);
    expect(
      sameFile(
        { size: 1, sha256: null, validator: null },
        { size: 2, sha256: null, validator: null },
      ),
    ).toBe(false);
  });
});

describe('resumeStep', () => {
  const identity = { size: 1000, sha256: null, validator: 'v1' };
  const kept = { identity, received: 400 };
  const answer = (status: number, h: Record<string, string>, validator = 'v1') => ({
    status,
    headers: headers(h),
    identity: { ...fileIdentity(status, headers(h)), validator },
  });

  it('asks for the rest of a file of which some bytes are kept', () => {
    expect(rangeHeader(0)).toBeNull();
    expect(rangeHeader(400)).toBe('bytes=400-');
  });

  it('appends a 206 that starts where the kept part ends', () => {
    expect(resumeStep(kept, answer(206, { 'content-range': 'bytes 400-999/1000' }))).toEqual({
      kind: 'append',
    });
  });

  it('appends a 206 whose start is hidden (a host that does not expose Content-Range)', () => {
    expect(resumeStep(kept, answer(206, {}))).toEqual({ kind: 'append' });
  });

  it('skips the kept bytes of a host that answers the range with the whole file', () => {
    expect(resumeStep(kept, answer(200, { 'content-length': '1000' }))).toEqual({
      kind: 'skip',
      bytes: 400,
    });
  });

  it('finds a kept part that is already whole complete (416)', () => {
    const whole = { identity, received: 1000 };
    expect(resumeStep(whole, answer(416, { 'content-range': 'bytes */1000' }))).toEqual({
      kind: 'complete',
    });
  });

  it('starts again when the file changed or the range is not the one asked', () => {
    expect(
      resumeStep(kept, answer(206, { 'content-range': 'bytes 400-999/1000' }, 'v2')).kind,
    ).toBe('changed');
    expect(resumeStep(kept, answer(206, { 'content-range': 'bytes 0-999/1000' })).kind).toBe(
      'changed',
    );
    expect(resumeStep(kept, answer(206, { 'content-range': 'bytes 400-1199/1200' })).kind).toBe(
      'changed',
    );
    expect(resumeStep(kept, answer(416, { 'content-range': 'bytes */1000' })).kind).toBe('changed');
  });
});

describe('retryPause', () => {
  it('doubles the pause after each failure in a row, then gives up', () => {
    const pauses = [1, 2, 3, 4, 5].map((n) => retryPause(MODEL_DOWNLOAD_RETRIES, n));
    expect(pauses).toEqual([1000, 2000, 4000, 8000, null]);
  });

  it('holds the pause at its ceiling and refuses counts that are not failures', () => {
    const policy = { tries: 20, firstPauseMs: 1000, maxPauseMs: 5000 };
    expect(retryPause(policy, 10)).toBe(5000);
    expect(retryPause(policy, 0)).toBeNull();
    expect(retryPause(policy, 1.5)).toBeNull();
  });

  it('tries again after "not now" statuses, not after "not here"', () => {
    expect([429, 500, 502, 503, 504].every(isTransientStatus)).toBe(true);
    expect([400, 401, 403, 404, 416].some(isTransientStatus)).toBe(false);
  });
});

describe('integrityVerdict', () => {
  const announced = { size: 5, sha256: SHA, validator: SHA };

  it('accepts a file of the announced size and sha256', () => {
    expect(integrityVerdict(announced, 5, SHA)).toEqual({ ok: true });
    // Nothing announced: nothing to hold it to.
    expect(integrityVerdict({ size: null, sha256: null, validator: null }, 3, null)).toEqual({
      ok: true,
    });
    // A sha256 that could not be computed is not held against the file.
    expect(integrityVerdict(announced, 5, null)).toEqual({ ok: true });
  });

  it('refuses a file of another size, and says so in words', () => {
    const verdict = integrityVerdict({ ...announced, size: 1_234_567 }, 1_233_567, SHA);
    expect(verdict).toEqual({
      ok: false,
      problem: 'size',
      expected: 1_234_567,
      received: 1_233_567,
    });
    expect(
      integrityFailure('onnx/model.onnx', verdict as Exclude<typeof verdict, { ok: true }>),
    ).toBe(
      'its file onnx/model.onnx arrived with 1,233,567 bytes where the host announced 1,234,567, so it was damaged on the way and was not kept',
    );
  });

  it('refuses a file of another sha256, and says so in words', () => {
    const verdict = integrityVerdict(announced, 5, 'b'.repeat(64));
    expect(verdict.ok).toBe(false);
    expect(integrityFailure('model.onnx', verdict as Exclude<typeof verdict, { ok: true }>)).toBe(
      'its file model.onnx arrived with a sha256 checksum (bbbbbbbbbbbb…) other than the one the host announced (aaaaaaaaaaaa…), so it was damaged on the way and was not kept',
    );
  });

  it('groups digits by thousands', () => {
    expect([0, 999, 1000, 15_361_923].map(groupedDigits)).toEqual([
      '0',
      '999',
      '1,000',
      '15,361,923',
    ]);
  });
});

describe('TransferMeter', () => {
  it('measures the speed of the last seconds and the time left', () => {
    const meter = new TransferMeter(5);
    meter.record(0, 0);
    expect(meter.bytesPerSecond()).toBeNull();
    meter.record(1, 2e6);
    meter.record(2, 4e6);
    expect(meter.bytesPerSecond()).toBeCloseTo(2e6);
    expect(meter.secondsLeft(10e6)).toBeCloseTo(3);
    // The connection slows: the old samples leave the window.
    for (let t = 3; t <= 12; t++) meter.record(t, 4e6 + (t - 2) * 0.5e6);
    expect(meter.bytesPerSecond()).toBeCloseTo(0.5e6);
  });

  it('tells no speed or time while it cannot', () => {
    const meter = new TransferMeter();
    meter.record(0, 100);
    meter.record(0.1, 200);
    expect(meter.bytesPerSecond()).toBeNull();
    expect(meter.secondsLeft(1000)).toBeNull();
    meter.record(1, 300);
    expect(meter.secondsLeft(null)).toBeNull();
    // A stalled download: no time left can be told.
    const stalled = new TransferMeter();
    stalled.record(0, 200);
    stalled.record(2, 200);
    expect(stalled.bytesPerSecond()).toBe(0);
    expect(stalled.secondsLeft(1000)).toBeNull();
  });

  it('starts again when the count goes back (a file fetched again from its start)', () => {
    const meter = new TransferMeter();
    meter.record(0, 0);
    meter.record(1, 5e6);
    meter.record(2, 100);
    expect(meter.bytesPerSecond()).toBeNull();
  });
});

describe('transferDetail', () => {
  it('says bytes, speed and time left', () => {
    expect(transferDetail(12.34e6, 40.1e6, 2.1e6, 13.2)).toBe(
      '12.3 of 40.1 MB · 2.1 MB/s · about 13 s left',
    );
    expect(transferDetail(1e6, 300e6, 1e6, 299)).toBe(
      '1.0 of 300.0 MB · 1.0 MB/s · about 5 min left',
    );
  });

  it('leaves out what is not known, and the time left once done', () => {
    expect(transferDetail(2e6, null, null, null)).toBe('2.0 MB');
    expect(transferDetail(40e6, 40e6, 3e6, 0)).toBe('40.0 of 40.0 MB · 3.0 MB/s');
  });

  it('says durations as a person does', () => {
    expect([0.2, 59, 61, 3599, 4800].map(durationText)).toEqual([
      '1 s',
      '59 s',
      '1 min',
      '1 h',
      '1 h 20 min',
    ]);
  });
});
