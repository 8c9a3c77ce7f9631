import { fileURLToPath } from 'node:url';
import { parseSync } from 'subtitle';
import { describe, expect, it } from 'vitest';
import { runCli as run } from '../../../tools/testing/cli-run';
import { sharedMedia } from '../../../tools/testing/ffmpeg-fixtures';

const jfk = sharedMedia('speech/jfk.wav');

describe('murmur transcribe --subtitles', () => {
  it('refuses bad subtitle options with exit 2', async () => {
    for (const argv of [
      ['--subtitles', 'ass'],
      ['--line-chars', 'wide'],
      ['--lines', '0'],
      ['--speaker-names', 'yes'],
    ]) {
      const { code, stderr } = await run('transcribe', jfk, ...argv);
      expect(code).toBe(2);
      expect(stderr).toContain(argv[0]);
    }
  });

  it('prints readable subtitles within the limits given, read by an independent parser', async () => {
    const models = fileURLToPath(new URL('../../../.models', import.meta.url));
    const { code, stdout } = await run(
      'transcribe',
      jfk,
      '--models',
      models,
      '--model',
      'murmur-test/whisper-synth',
      '--subtitles',
      'srt',
      '--line-chars',
      '24',
      '--max-seconds',
      '4',
    );
    expect(code).toBe(0);
    const cues = parseSync(stdout).flatMap((n) => (n.type === 'cue' ? [n.data] : []));
    expect(cues.length).toBeGreaterThan(1);
    for (const cue of cues) {
      const lines = cue.text.split('\n');
      expect(lines.length).toBeLessThanOrEqual(2);
      for (const line of lines) expect(line.length <= 24 || !line.includes(' ')).toBe(true);
      expect(cue.end - cue.start).toBeLessThanOrEqual(4000);
    }
  }, 120_000);
});
