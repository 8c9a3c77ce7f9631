import { describe, expect, it } from 'vitest';
import { offlinePlanSentence, runtimeSentence } from './runtime-wording';

describe('runtime wording', () => {
  it('says how much of a runtime has arrived, in whole MB counted down', () => {
    expect(runtimeSentence({ runtime: 'decoder', received: 12_900_000, total: 32_344_223 })).toBe(
      'Preparing the decoder: 12 of 32 MB',
    );
    expect(runtimeSentence({ runtime: 'gpu', received: 0, total: 26_914_834 })).toBe(
      'Preparing the GPU runtime: 0 of 27 MB',
    );
    expect(runtimeSentence({ runtime: 'speech', received: 14_289_219, total: 14_289_219 })).toBe(
      'Preparing the speech runtime: 14 of 14 MB',
    );
  });

  it('says the total of an offline plan before it starts', () => {
    expect(
      offlinePlanSentence(
        [
          { name: 'decoder', bytes: 32_344_223 },
          { name: 'speech', bytes: 14_289_219 },
        ],
        [
          { label: 'Recognition', approxMb: 45 },
          { label: 'Voice activity', approxMb: 2.3 },
        ],
      ),
    ).toBe(
      'Fetches 93.9 MB: the decoder (32 MB), the speech runtime (14 MB), the recognition model (45.0 MB) and the voice activity model (2.3 MB).',
    );
  });

  it('does not count a model already in this browser, and names it with the size it holds', () => {
    expect(
      offlinePlanSentence(
        [
          { name: 'decoder', bytes: 32_344_223 },
          { name: 'speech', bytes: 14_289_219 },
        ],
        [
          { label: 'Recognition', approxMb: null, cachedBytes: 12_612_345 },
          { label: 'Voice activity', approxMb: 2.3, cachedBytes: 0 },
          { label: 'Embedding', approxMb: 1, hostedBytes: 2_412_000 },
        ],
      ),
    ).toBe(
      'Fetches 51.3 MB: the decoder (32 MB), the speech runtime (14 MB), the voice activity model (2.3 MB) and the embedding model (2.4 MB). Already in this browser: the recognition model (12.6 MB).',
    );
    expect(
      offlinePlanSentence(
        [],
        [
          { label: 'Recognition', approxMb: 45, cachedBytes: 45_100_000 },
          { label: 'Voice activity', approxMb: 2.3, cachedBytes: 2_327_000 },
        ],
      ),
    ).toBe(
      'Nothing more to fetch. Already in this browser: the recognition model (45.1 MB) and the voice activity model (2.3 MB).',
    );
  });

  it('makes the total a lower bound when a model’s size is not known', () => {
    expect(
      offlinePlanSentence(
        [{ name: 'decoder', bytes: 32_344_223 }],
        [{ label: 'Recognition', approxMb: null }],
      ),
    ).toBe(
      'Fetches at least 32.3 MB: the decoder (32 MB) and the recognition model (size not known).',
    );
  });
});
