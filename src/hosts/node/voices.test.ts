import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptionResponse } from '../../core/contract/response';
import { EMBEDDING_CHOICES } from '../../core/model-catalog';
import { unitLength, type Voice } from '../../core/voices/voice';
import { readVoicesFile, voicesFileText } from '../../core/voices/voice-file';
import { scratchDir } from '../../../tools/testing/speech';
import {
  KNOWN_PEOPLE,
  UNKNOWN_PEOPLE,
  writePeopleConversation,
  type PeopleConversation,
} from '../../../tools/testing/voice-conversations';
import { murmur, speakerOf, TEST_MODEL_ARGS } from '../../../tools/testing/voices-cli';

/**
 * Voices from the command line, as a user goes about it: two people enrolled from one generated
 * conversation with `murmur voices add`, then named in another conversation of theirs that a
 * third person, never enrolled, joins.
 */
const [anna, bruno] = KNOWN_PEOPLE as [(typeof KNOWN_PEOPLE)[0], (typeof KNOWN_PEOPLE)[0]];
const stranger = UNKNOWN_PEOPLE[0]!;
let dir = '';
let first: PeopleConversation;
let second: PeopleConversation;
let voices = '';

async function transcribe(media: string, ...more: string[]) {
  const run = await murmur(
    'transcribe',
    media,
    '--toggle_diarization',
    'true',
    ...TEST_MODEL_ARGS,
    ...more,
  );
  if (run.code !== 0) throw new Error(`murmur transcribe exited ${run.code}: ${run.stderr}`);
  return { response: JSON.parse(run.stdout) as TranscriptionResponse, stderr: run.stderr };
}

beforeAll(() => {
  dir = scratchDir();
  voices = join(dir, 'voices.json');
  first = writePeopleConversation(dir, 'first', [anna, bruno], { seed: 11, seconds: 30 });
  second = writePeopleConversation(dir, 'second', [bruno, stranger, anna], {
    seed: 12,
    seconds: 36,
  });
});

describe('murmur voices add, then murmur transcribe --voices', () => {
  it('names two enrolled people in another conversation, and leaves a stranger speaker_N', async () => {
    const { response } = await transcribe(first.media);
    const result = join(dir, 'first.json');
    writeFileSync(result, JSON.stringify(response));
    for (const person of [anna, bruno]) {
      const label = speakerOf(response, first.turns, person.name);
      const run = await murmur(
        'voices',
        'add',
        first.media,
        result,
        '--speaker',
        label,
        '--name',
        person.name,
        '--voices',
        voices,
        ...TEST_MODEL_ARGS,
      );
      expect(run.stderr).toMatch(
        new RegExp(
          `^murmur: remembered ${label} as "${person.name}" \\(\\d+\\.\\d s of speech\\) in ${voices}\\n$`,
        ),
      );
      expect(run.code).toBe(0);
    }
    const kept = readVoicesFile(readFileSync(voices, 'utf8'));
    expect(kept.map((v) => v.name)).toEqual(['Anna', 'Bruno']);
    expect(kept.every((v) => v.model === 'murmur-test/embedding-synth' && v.recordings === 1)).toBe(
      true,
    );

    const { response: named } = await transcribe(second.media, '--voices', voices);
    expect(speakerOf(named, second.turns, 'Anna')).toBe('Anna');
    expect(speakerOf(named, second.turns, 'Bruno')).toBe('Bruno');
    expect(speakerOf(named, second.turns, stranger.name)).toMatch(/^speaker_\d+$/);
    // The names are everywhere the labels were: segments and the speaker mapping alike.
    const speakers = new Set(named.prediction_raw.transcription.map((s) => s.speaker));
    expect([...speakers].sort()).toEqual(
      [...new Set(named.prediction_raw.speaker_mapping.map((s) => s.speaker))].sort(),
    );
    expect(JSON.stringify(named)).not.toContain('embedding');
  }, 600_000);

  it('strengthens a voice enrolled again from another recording', async () => {
    const before = readVoicesFile(readFileSync(voices, 'utf8')).find((v) => v.name === 'Anna')!;
    const { response } = await transcribe(second.media);
    const result = join(dir, 'second.json');
    writeFileSync(result, JSON.stringify(response));
    const label = speakerOf(response, second.turns, 'Anna');
    const run = await murmur(
      'voices',
      'add',
      second.media,
      result,
      '--speaker',
      label,
      '--name',
      'anna',
      '--voices',
      voices,
      ...TEST_MODEL_ARGS,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      new RegExp(
        `^murmur: strengthened the voice "Anna" with ${label} \\(\\d+\\.\\d s more; 2 recordings, \\d+\\.\\d s\\) in ${voices}\\n$`,
      ),
    );
    const after = readVoicesFile(readFileSync(voices, 'utf8')).find((v) => v.name === 'Anna')!;
    expect(after.recordings).toBe(2);
    expect(after.seconds).toBeGreaterThan(before.seconds);
    expect(after.created).toBe(before.created);
  }, 300_000);
});

describe('a near miss', () => {
  it('is told on stderr and not named: the speaker keeps speaker_N', async () => {
    const result = join(dir, 'second.json');
    const label = speakerOf(JSON.parse(readFileSync(result, 'utf8')), second.turns, 'Anna');
    const near = join(dir, 'near.json');
    const add = await murmur(
      'voices',
      'add',
      second.media,
      result,
      '--speaker',
      label,
      '--name',
      'Anna',
      '--voices',
      near,
      ...TEST_MODEL_ARGS,
    );
    expect(add.code).toBe(0);
    // The voice turned away from the speaker's own embedding (this very run's) by a distance
    // between the model's two thresholds.
    const [voice] = readVoicesFile(readFileSync(near, 'utf8')) as [Voice];
    const { match, near: offered } = EMBEDDING_CHOICES.find(
      (c) => c.id === voice.model,
    )!.voiceThresholds;
    const v = voice.embedding;
    const k = v.reduce((least, x, i) => (Math.abs(x) < Math.abs(v[least]!) ? i : least), 0);
    const u = unitLength(v.map((x, i) => (i === k ? 1 : 0) - v[k]! * x));
    const cos = 1 - (match + offered) / 2;
    const turned = unitLength(v.map((x, i) => cos * x + Math.sqrt(1 - cos * cos) * u[i]!));
    writeFileSync(near, voicesFileText([{ ...voice, embedding: turned }]));

    const { response, stderr } = await transcribe(second.media, '--voices', near);
    expect(stderr).toContain(
      `murmur: note: ${label} may be Anna: the voice is close, not close enough to name them.\n`,
    );
    expect(speakerOf(response, second.turns, 'Anna')).toBe(label);
    expect(JSON.stringify(response)).not.toContain('Anna');
  }, 300_000);
});

describe('murmur voices list and remove', () => {
  it('lists each voice on a line of a table, and forgets one by name', async () => {
    const listed = await murmur('voices', 'list', '--voices', voices);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME +SECONDS +RECORDINGS +MODEL +MADE +UPDATED$/);
    expect(lines.slice(1).map((l) => l.split(/ +/)[0])).toEqual(['Anna', 'Bruno']);
    expect(lines[1]).toMatch(
      /^Anna +\d+\.\d +2 +murmur-test\/embedding-synth +\d{4}-\d\d-\d\d \d\d:\d\d +\d{4}-\d\d-\d\d \d\d:\d\d$/,
    );

    const removed = await murmur('voices', 'remove', ' bruno ', '--voices', voices);
    expect(removed).toEqual({
      code: 0,
      stdout: '',
      stderr: `murmur: forgot the voice "Bruno" in ${voices}\n`,
    });
    const again = await murmur('voices', 'remove', 'Bruno', '--voices', voices);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(
      `murmur: No voice called "Bruno" in "${voices}"; its voices are "Anna". See "murmur voices remove --help".\n`,
    );
    expect((await murmur('voices', 'list', '--voices', voices)).stdout).not.toContain('Bruno');
  });
});

describe('murmur voices list of an empty or missing file', () => {
  it('says a file without voices has none, and refuses a file that is not there', async () => {
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, voicesFileText([]));
    expect(await murmur('voices', 'list', '--voices', empty)).toEqual({
      code: 0,
      stdout: `No voices in "${empty}".\n`,
      stderr: '',
    });
    const missing = join(dir, 'nowhere.json');
    expect(await murmur('voices', 'list', '--voices', missing)).toEqual({
      code: 2,
      stdout: '',
      stderr: `murmur: No voices file at "${missing}".\n`,
    });
  });
});
