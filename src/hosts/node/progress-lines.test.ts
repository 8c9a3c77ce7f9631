import { describe, expect, it } from 'vitest';
import type { Stage } from '../../core/stages';
import { progressLines } from './progress-lines';

/** `--progress` lines for stages that run side by side, as the engine reports them. */
describe('--progress', () => {
  const events: [Stage, number | null, string][] = [
    ['validate', null, 'Checking the request'],
    ['models', null, 'Downloading org/asr: 0.0 MB'],
    ['models', null, 'Downloading org/asr: 0.1 MB'],
    ['models', 0.48, 'Downloading org/asr: 15.5 of 32.5 MB'],
    ['models', 0.92, 'Downloading org/asr: 29.8 of 32.5 MB'],
    ['models', 0.5, 'Downloading org/vad: 1.0 of 2.0 MB'],
    ['decode', 1, 'Decoding audio: 11 s of 11 s'],
    ['models', 0.93, 'Downloading org/asr: 30.3 of 32.5 MB'],
    ['models', 0.91, 'Downloading org/asr: 30.0 of 32.5 MB'],
    ['vad', 0, 'Finding speech: 0 s of 11 s'],
    ['models', 1, 'Downloading org/asr: 32.5 of 32.5 MB'],
    ['recognise', 0, 'Recognised 0 of 11 s'],
    ['recognise', 0.05, 'Recognised 1 of 11 s'],
    ['recognise', 0.53, 'Recognised 6 of 11 s'],
    ['recognise', 0.5, 'Recognised 5 of 11 s'],
    ['recognise', 1, 'Recognised 11 of 11 s'],
  ];
  const run = (local: boolean) => {
    let text = '';
    const report = progressLines((t) => (text += t), local);
    for (const [stage, fraction, detail] of events) report(stage, fraction, detail);
    return text;
  };

  it('tells each stage and each model once a tenth, only rising', () => {
    expect(run(false)).toBe(
      [
        'murmur: progress: validate: Checking the request',
        'murmur: progress: models: Downloading org/asr: 0.0 MB',
        'murmur: progress: models 48%: Downloading org/asr: 15.5 of 32.5 MB',
        'murmur: progress: models 92%: Downloading org/asr: 29.8 of 32.5 MB',
        'murmur: progress: models 50%: Downloading org/vad: 1.0 of 2.0 MB',
        'murmur: progress: decode 100%: Decoding audio: 11 s of 11 s',
        'murmur: progress: vad 0%: Finding speech: 0 s of 11 s',
        'murmur: progress: models 100%: Downloading org/asr: 32.5 of 32.5 MB',
        'murmur: progress: recognise 0%: Recognised 0 of 11 s',
        'murmur: progress: recognise 53%: Recognised 6 of 11 s',
        'murmur: progress: recognise 100%: Recognised 11 of 11 s',
        '',
      ].join('\n'),
    );
  });

  it('says Loading for models read from a folder, and Downloading still for the media', () => {
    const text = run(true);
    expect(text).toContain('murmur: progress: models 48%: Loading org/asr: 15.5 of 32.5 MB\n');
    expect(text).not.toContain('Downloading');
    let lines = '';
    progressLines((t) => (lines += t), true)('download', null, 'Downloading example.com');
    expect(lines).toBe('murmur: progress: download: Downloading example.com\n');
  });
});
