import { lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Voice } from '../../../core/voices/voice';
import { readVoicesAt, updateVoicesAt, writeVoicesAt } from './voices-on-disk';

const voice = (name: string): Voice => ({
  name,
  model: 'emb',
  embedding: [0.6, 0.8],
  seconds: 3,
  recordings: 1,
  created: '2026-03-01T10:00:00.000Z',
  updated: '2026-03-01T10:00:00.000Z',
});

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a voices file changed on disk', () => {
  it('keeps both voices of two commands that add one each at the same time', async () => {
    dir = mkdtempSync(join(tmpdir(), 'murmur-voices-'));
    const path = join(dir, 'voices.json');
    const add = (name: string) =>
      updateVoicesAt(
        path,
        (voices) => ({ voices: [...voices, voice(name)], result: name }),
        'empty',
      );
    await Promise.all(['Anna', 'Bob', 'Chen', 'Dara', 'Emil', 'Fay'].map(add));
    expect((await readVoicesAt(path)).map((v) => v.name).sort()).toEqual([
      'Anna',
      'Bob',
      'Chen',
      'Dara',
      'Emil',
      'Fay',
    ]);
  });

  it('writes through a link to the file it points to, and leaves the link a link', async () => {
    dir = mkdtempSync(join(tmpdir(), 'murmur-voices-'));
    const real = join(dir, 'real.json');
    const link = join(dir, 'link.json');
    await writeVoicesAt(real, [voice('Anna'), voice('Bob')]);
    symlinkSync(real, link);
    await updateVoicesAt(link, (voices) => ({
      voices: voices.filter((v) => v.name !== 'Anna'),
      result: null,
    }));
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect((await readVoicesAt(real)).map((v) => v.name)).toEqual(['Bob']);
    expect(readFileSync(link, 'utf8')).toBe(readFileSync(real, 'utf8'));
  });
});
