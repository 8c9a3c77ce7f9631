import { describe, expect, it } from 'vitest';
import type { Stage } from '../core/stages';
import type { EnginePorts } from './ports';
import { stageContexts } from './stage-context';

describe('stage contexts', () => {
  it('pass each stage its own progress, never going back to an earlier stage', () => {
    const heard: string[] = [];
    const ports = { clock: () => 0 } as unknown as EnginePorts;
    const stage = stageContexts(ports, undefined, (name: Stage, _f, detail) =>
      heard.push(`${name}: ${detail}`),
    );
    const [models, decode, vad, recognise] = (
      ['models', 'decode', 'vad', 'recognise'] as const
    ).map((name) => stage(name));
    decode!.progress(0.1, 'a');
    vad!.progress(0.2, 'b');
    decode!.progress(0.3, 'dropped: decoding after speech detection reported');
    models!.progress(0.5, 'c');
    recognise!.progress(0.1, 'd');
    models!.progress(0.9, 'dropped: loading after recognition started');
    vad!.progress(0.4, 'dropped: speech detection after recognition started');
    recognise!.progress(0.2, 'e');
    expect(heard).toEqual(['decode: a', 'vad: b', 'models: c', 'recognise: d', 'recognise: e']);
    expect(decode!.clock).toBe(ports.clock);
  });
});
