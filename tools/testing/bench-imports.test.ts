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

const HOST_REFUSED = "through src/hosts/node/index.ts, the Node host's public face";
const STAGE_REFUSED = 'tools/ reaches a stage only through its index.ts';

describe("the benchmarks' imports of the product", () => {
  it("refuses the Node host's own files, and the browser host's, in a benchmark", async () => {
    for (const from of [
      '../../src/hosts/node/cli',
      '../../src/hosts/node/media-file',
      '../../src/hosts/node/engine-ports',
      '../../src/hosts/node/onnx-runtime',
      '../../src/hosts/node/server/serve-args',
      '../../src/hosts/node/job-runtime/job-queue',
      '../../src/hosts/browser/engine-ports',
    ]) {
      expect(await importErrors(importing(from), 'tools/bench/x.ts'), from).toEqual([
        expect.stringContaining(HOST_REFUSED),
      ]);
    }
  });

  it("refuses a stage's own files in a benchmark and in a benchmark's test", async () => {
    for (const [file, from] of [
      ['tools/bench/x.ts', '../../src/engine/stages/recognition/decode-window'],
      ['tools/bench/x.ts', '../../src/engine/stages/diarization/clustering'],
      ['tools/bench/x.test.ts', '../../src/engine/stages/media/decode'],
    ]) {
      expect(await importErrors(importing(from!), file!), `${file} -> ${from}`).toEqual([
        expect.stringContaining(STAGE_REFUSED),
      ]);
    }
    expect(
      await importErrors(importing('../../src/hosts/node/cli'), 'tools/bench/x.test.ts'),
    ).toEqual([expect.stringContaining(HOST_REFUSED)]);
  });

  it("lets a benchmark use the host's index, a stage's index, the pipeline and test support", async () => {
    for (const from of [
      '../../src/hosts/node',
      '../../src/hosts/node/index',
      '../../src/engine/stages/diarization',
      '../../src/engine/stages/recognition/index',
      '../../src/engine/pipeline',
      '../../src/core/contract/request',
      '../testing/ffmpeg-fixtures',
    ]) {
      expect(await importErrors(importing(from), 'tools/bench/x.ts'), from).toEqual([]);
    }
  });

  it("refuses the Node host's own files and a stage's own files in an evaluation and a model check", async () => {
    for (const file of ['tools/eval/x.ts', 'tools/models/verify/x.ts']) {
      expect(await importErrors(importing('../../src/hosts/node/cli'), file), file).toEqual([
        expect.stringContaining(HOST_REFUSED),
      ]);
      expect(
        await importErrors(importing('../../src/engine/stages/recognition/decode-window'), file),
        file,
      ).toEqual([expect.stringContaining(STAGE_REFUSED)]);
      expect(await importErrors(importing('../../src/hosts/node'), file), file).toEqual([]);
    }
  });

  it("refuses a stage's own files in test support, which may still use the Node host's", async () => {
    for (const file of ['tools/testing/x.ts', 'tools/testing/server/x.test.ts']) {
      expect(
        await importErrors(
          importing('../../src/engine/stages/recognition/transcribe-channel'),
          file,
        ),
        file,
      ).toEqual([expect.stringContaining(STAGE_REFUSED)]);
      for (const from of [
        '../../src/engine/stages/recognition',
        '../../src/engine/pipeline',
        '../../src/hosts/node/cli',
      ]) {
        expect(await importErrors(importing(from), file), `${file} -> ${from}`).toEqual([]);
      }
    }
  });

  it('keeps the Node host free to import its own files', async () => {
    expect(await importErrors(importing('./media-file'), 'src/hosts/node/x.ts')).toEqual([]);
  });
});
