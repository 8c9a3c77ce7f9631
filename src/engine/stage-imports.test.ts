import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The messages of the import rule for `code` linted as the file at `filePath`. */
async function importErrors(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

const importing = (from: string) => `import * as other from '${from}';\nexport { other };\n`;

describe('imports between stages', () => {
  const recognitionFile = 'src/engine/stages/recognition/x.ts';

  it('refuses another stage, by its folder or through stages/', async () => {
    for (const from of ['../speech/index', '../speech', '../../stages/diarization/index']) {
      const errors = await importErrors(importing(from), recognitionFile);
      expect(errors, from).toHaveLength(1);
      expect(errors[0]).toContain('stages talk through src/engine/streams/ and the pipeline');
    }
  });

  it('lets a stage import the streams, its own files and the engine around it', async () => {
    for (const from of [
      '../../streams/growing-channel',
      './window-cursor',
      '../../stage-settings',
      '../../../core/units',
    ]) {
      expect(await importErrors(importing(from), recognitionFile), from).toEqual([]);
    }
  });

  it('covers every stage folder, each refusing every other', async () => {
    const stages = readdirSync(new URL('stages/', import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(stages).toEqual(expect.arrayContaining(['models', 'attribution', 'assemble']));
    for (const stage of stages) {
      const other = stages.find((s) => s !== stage)!;
      const errors = await importErrors(
        importing(`../${other}/index`),
        `src/engine/stages/${stage}/x.ts`,
      );
      expect(errors, `${stage} -> ${other}`).toHaveLength(1);
    }
  });

  it("keeps the engine's own rules in stage files", async () => {
    expect(await importErrors(importing('react'), recognitionFile)).toEqual([
      expect.stringContaining('engine/ has no UI.'),
    ]);
    expect(await importErrors(importing('../../../hosts/node/cli'), recognitionFile)).toEqual([
      expect.stringContaining('may not import from hosts/'),
    ]);
  });
});

describe('imports of live captions', () => {
  const liveFile = 'src/engine/live/live-transcriber.ts';

  it("refuses a recognition file other than its index, or any stage's inner file", async () => {
    for (const from of [
      '../stages/recognition/decode-window',
      '../stages/recognition/earlier-text',
      '../stages/recognition/window-segments',
      '../../engine/stages/recognition/repeat-guard',
      '../stages/speech/vad-scoring',
    ]) {
      const errors = await importErrors(importing(from), liveFile);
      expect(errors, from).toHaveLength(1);
      expect(errors[0]).toContain('live/ reaches a stage only through its index.ts');
    }
  });

  it("lets live/ import recognition's index, the engine around it and core", async () => {
    for (const from of [
      '../stages/recognition',
      '../stages/recognition/index',
      '../stage-settings',
      '../models/silero-vad',
      '../../core/live/live-speech',
    ]) {
      expect(await importErrors(importing(from), liveFile), from).toEqual([]);
    }
  });

  it("keeps the engine's own rules in live/", async () => {
    expect(await importErrors(importing('react'), liveFile)).toEqual([
      expect.stringContaining('engine/ has no UI.'),
    ]);
    expect(await importErrors(importing('../../hosts/node/cli'), liveFile)).toEqual([
      expect.stringContaining('may not import from hosts/'),
    ]);
  });
});
