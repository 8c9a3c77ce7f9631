import { describe, expect, it } from 'vitest';
import { SAMPLE_RATE } from '../core/units';
import type { EnginePorts, ScoreOptions, SpeechDetector } from './ports';
import { warmUp } from './warm-up';

/** Ports whose ffmpeg and detector only record what they are asked. */
function recordingPorts() {
  const seen = {
    loads: 0,
    detectors: 0,
    scored: [] as { samples: Float32Array; options: ScoreOptions }[],
  };
  const detector: SpeechDetector = {
    streamWindows: 250,
    warmupWindows: 32,
    runsApart: true,
    probabilities(samples, options = {}) {
      options.signal?.throwIfAborted();
      seen.scored.push({ samples: samples as Float32Array, options });
      return Promise.resolve(new Float32Array(Math.ceil(samples.length / 512)));
    },
  };
  const ports = {
    ffmpeg: { load: () => void seen.loads++ },
    speechDetector: () => {
      seen.detectors++;
      return Promise.resolve(detector);
    },
  } as unknown as EnginePorts;
  return { ports, seen };
}

describe('warmUp', () => {
  it('loads ffmpeg and the detector, then scores generated audio once', async () => {
    const { ports, seen } = recordingPorts();
    await warmUp(ports);
    expect(seen.loads).toBe(1);
    expect(seen.detectors).toBe(1);
    expect(seen.scored).toHaveLength(1);
    const { samples } = seen.scored[0]!;
    expect(samples.length).toBe(16 * SAMPLE_RATE);
    // Not silence (the speech stage skips silent pieces) and within full scale.
    const peak = samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0);
    expect(peak).toBeGreaterThan(0.05);
    expect(peak).toBeLessThanOrEqual(1);
  });

  it('scores the same audio every time', async () => {
    const a = recordingPorts();
    const b = recordingPorts();
    await warmUp(a.ports);
    await warmUp(b.ports);
    expect(a.seen.scored[0]!.samples).toEqual(b.seen.scored[0]!.samples);
  });

  it('passes the signal on, so that a cancelled warm-up stops scoring', async () => {
    const { ports, seen } = recordingPorts();
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    await expect(warmUp(ports, { signal: controller.signal })).rejects.toThrow('stopped');
    expect(seen.scored).toHaveLength(0);
  });
});
