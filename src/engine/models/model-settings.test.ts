import { describe, expect, it } from 'vitest';
import { DEVICE_SETTINGS, sessionOptionsFor } from './model-settings';

const noSpinning = { extra: { session: { intra_op: { allow_spinning: '0' } } } };

describe('sessionOptionsFor', () => {
  it("keeps the device's options when a caller asks for threads", () => {
    expect(sessionOptionsFor('cpu', { intraOpNumThreads: 2, interOpNumThreads: 1 })).toEqual({
      ...noSpinning,
      intraOpNumThreads: 2,
      interOpNumThreads: 1,
    });
  });

  it("gives the device's own options when the caller adds none", () => {
    expect(sessionOptionsFor('wasm')).toEqual(noSpinning);
    expect(sessionOptionsFor('cpu')).toEqual(noSpinning);
  });

  it('gives none where neither the device nor the caller has any', () => {
    expect(DEVICE_SETTINGS.webgpu.sessionOptions).toBeUndefined();
    expect(sessionOptionsFor('webgpu')).toBeUndefined();
    expect(sessionOptionsFor('webgpu', { logSeverityLevel: 3 })).toEqual({ logSeverityLevel: 3 });
  });

  it("lets a caller's option replace the device's of the same name", () => {
    expect(sessionOptionsFor('cpu', { extra: {} })).toEqual({ extra: {} });
  });
});
