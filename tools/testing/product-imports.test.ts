import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The messages of the import rules for `code` linted as the file at `filePath`. */
async function importErrors(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId?.endsWith('no-restricted-imports'))
    .map((m) => m.message);
}

const importing = (from: string) => `import * as other from '${from}';\nexport { other };\n`;

const REFUSED = 'Product code does not import tools/';

describe('imports of test support', () => {
  it('refuses test support, or anything of tools/, in a product file of every layer', async () => {
    const cases = [
      ['src/hosts/node/x.ts', '../../../tools/testing/ffmpeg-fixtures'],
      ['src/hosts/node/server/x.ts', '../../../../tools/testing/server/receiver'],
      ['src/hosts/node/jobs/x.ts', '../../../../tools/testing/jobs/queue-cluster'],
      ['src/hosts/node/job-runtime/x.ts', '../../../../tools/testing/speech'],
      ['src/hosts/node/x.mjs', '../../../tools/testing/server/misbehaving-engine-thread.mjs'],
      ['src/engine/x.ts', '../../tools/testing/wav'],
      ['src/engine/stages/recognition/x.ts', '../../../../tools/testing/wer'],
      ['src/engine/live/x.ts', '../../../tools/testing/live-runs'],
      ['src/core/x.ts', '../../tools/testing/conversation'],
      ['src/worker/x.ts', '../../tools/testing/music'],
      ['src/app/x.tsx', '../../tools/testing/speech'],
      ['src/hosts/browser/x.ts', '../../../tools/bench/preflight'],
    ];
    for (const [file, from] of cases) {
      const errors = await importErrors(importing(from!), file!);
      expect(errors, `${file} -> ${from}`).toEqual([expect.stringContaining(REFUSED)]);
    }
  });

  it("keeps each layer's own rule beside it", async () => {
    const errors = await importErrors(
      `${importing('../../tools/testing/wav')}import { x } from '../hosts/node/cli';\nexport { x };\n`,
      'src/engine/x.ts',
    );
    expect(errors).toHaveLength(2);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringContaining(REFUSED),
        expect.stringContaining('may not import from hosts/'),
      ]),
    );
  });

  it('lets tests under src/ import test support', async () => {
    for (const [file, from] of [
      ['src/hosts/node/x.test.ts', '../../../tools/testing/ffmpeg-fixtures'],
      ['src/hosts/node/server/x.test.ts', '../../../../tools/testing/server/receiver'],
      ['src/engine/stages/recognition/x.test.ts', '../../../../tools/testing/speech'],
      ['src/core/x.test.ts', '../../tools/testing/wer'],
    ]) {
      expect(await importErrors(importing(from!), file!), `${file} -> ${from}`).toEqual([]);
    }
  });
});

describe("imports of the engine's tests", () => {
  it('lets a test under src/engine/ run the engine on the Node host', async () => {
    for (const [file, from] of [
      ['src/engine/x.test.ts', '../hosts/node/media-file'],
      ['src/engine/stages/recognition/x.test.ts', '../../../hosts/node/onnx-runtime'],
      ['src/engine/live/x.test.ts', '../../hosts/node/cli'],
    ]) {
      expect(await importErrors(importing(from!), file!), `${file} -> ${from}`).toEqual([]);
    }
  });

  it("keeps the engine's other rules in its tests", async () => {
    const stageTest = 'src/engine/stages/recognition/x.test.ts';
    expect(await importErrors(importing('../speech/index'), stageTest)).toEqual([
      expect.stringContaining('stages talk through src/engine/streams/ and the pipeline'),
    ]);
    expect(await importErrors(importing('react'), stageTest)).toEqual([
      expect.stringContaining('engine/ has no UI.'),
    ]);
    expect(
      await importErrors(
        importing('../stages/recognition/decode-window'),
        'src/engine/live/x.test.ts',
      ),
    ).toEqual([expect.stringContaining('live/ reaches a stage only through its index.ts')]);
    expect(await importErrors(importing('../../worker/x'), 'src/engine/x.test.ts')).toEqual([
      expect.stringContaining('may not import from worker/'),
    ]);
  });
});
