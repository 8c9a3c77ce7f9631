import { describe, expect, it } from 'vitest';
import { scratchDir, sentence, spokenFile } from '../../../../tools/testing/speech';
import { prepareAudio } from '../../pipeline';
import { DEFAULT_RECOGNITION_SETTINGS } from '../../stage-settings';
import { run as recognise } from '.';
import { completeChannel } from '../../streams/growing-channel';
import { mediaRequest, testEnginePorts } from '../../../../tools/testing/ffmpeg-fixtures';
import { diskFile } from '../../../hosts/node/media-file';

describe('the recognition stage reports itself', () => {
  it('from the start of its first window, before that window shows any text', async () => {
    const file = spokenFile(
      scratchDir(),
      'first-window',
      [0, 1, 2].map((k) => ({ language: 'en' as const, text: sentence('en', 1500 + k, 8) })),
      1,
    );
    const ports = testEnginePorts();
    const audio = await prepareAudio(
      mediaRequest({ kind: 'file', file: (await diskFile(file.path))! }),
      ports,
    );
    const heard: string[] = [];
    const recognised = await recognise(
      {
        channels: audio.channels.map(completeChannel),
        keptChannels: () => audio.channels.length,
        recogniser: ports.recogniser({}),
        languageBehaviour: 'manual',
        language: 'en',
        task: 'transcribe',
        hint: '',
        settings: DEFAULT_RECOGNITION_SETTINGS,
        onSegment: () => heard.push('segment'),
        onProvisional: (segments) => {
          if (segments.length > 0) heard.push('provisional');
        },
      },
      {
        signal: undefined,
        clock: () => performance.now(),
        ports,
        progress: (fraction, detail) => heard.push(`progress ${fraction} ${detail}`),
      },
    );
    expect(recognised.segments.length).toBeGreaterThan(0);
    const duration = Math.round(audio.channels[0]!.samples.length / 16000);
    expect(heard[0]).toBe(`progress 0 Recognised 0 of ${duration} s`);
    expect(heard.filter((h) => h.startsWith('progress 0 ')).length).toBe(1);
    expect(heard).toContain('provisional');
  });
});
