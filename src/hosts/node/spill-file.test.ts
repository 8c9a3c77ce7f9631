import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeSpillFiles } from './spill-file';

const folder = mkdtempSync(join(tmpdir(), 'murmur-spill-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("the Node host's scratch files", () => {
  it('reads back what was written where it was written, and leaves no name behind', async () => {
    const file = (await nodeSpillFiles(folder)())!;
    expect(file).not.toBeNull();
    expect(readdirSync(folder)).toEqual([]);
    file.write(Uint8Array.from([1, 2, 3, 4]), 1_000_000);
    file.write(Uint8Array.from([9, 8]), 10);
    const back = new Uint8Array(4);
    file.read(back, 1_000_000);
    expect(back).toEqual(Uint8Array.from([1, 2, 3, 4]));
    const start = new Uint8Array(4);
    file.read(start, 9);
    expect(start).toEqual(Uint8Array.from([0, 9, 8, 0]));
    expect(() => file.read(new Uint8Array(8), 1_000_000)).toThrow(
      "The decoded audio's scratch file ended early.",
    );
    file.close();
    expect(() => file.read(back, 0)).toThrow(
      'The decoded audio was read after its scratch file was closed.',
    );
  });

  it('gives none where the folder cannot be written (the audio then stays in memory)', async () => {
    expect(await nodeSpillFiles(join(folder, 'missing'))()).toBeNull();
  });
});
