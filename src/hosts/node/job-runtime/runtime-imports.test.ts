import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The messages of the import rule for `code` linted as the file at `filePath`. */
async function importErrors(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message);
}

const importing = (from: string) => `import * as other from '${from}';\nexport { other };\n`;

describe('imports between the server, the workers and the job runtime', () => {
  it('refuses an import of jobs/ from server/, and of server/ from jobs/', async () => {
    const cases = [
      ['src/hosts/node/server/x.ts', '../jobs/memory-queue'],
      ['src/hosts/node/server/x.ts', '../../node/jobs/redis-queue'],
      ['src/hosts/node/jobs/x.ts', '../server/upload'],
      ['src/hosts/node/jobs/x.ts', '../server/admission'],
    ];
    for (const [file, from] of cases) {
      const errors = await importErrors(importing(from!), file!);
      expect(errors, `${file} -> ${from}`).toHaveLength(1);
      expect(errors[0]).toContain('lives in src/hosts/node/job-runtime/');
    }
  });

  it('lets both import the job runtime and the host around them', async () => {
    for (const file of ['src/hosts/node/server/x.ts', 'src/hosts/node/jobs/x.ts']) {
      for (const from of [
        '../job-runtime/job-queue',
        '../job-runtime/webhook-sender',
        '../media-file',
        '../../../core/contract/errors',
      ]) {
        expect(await importErrors(importing(from), file), `${file} -> ${from}`).toEqual([]);
      }
    }
  });

  it("keeps the host's own rules in server/ and jobs/", async () => {
    for (const file of ['src/hosts/node/server/x.ts', 'src/hosts/node/jobs/x.ts']) {
      expect(await importErrors(importing('react'), file)).toEqual([
        expect.stringContaining('hosts/ has no UI.'),
      ]);
      expect(await importErrors(importing('../../browser/x'), file)).toEqual([
        expect.stringContaining("does not use the browser host's code"),
      ]);
    }
  });
});
