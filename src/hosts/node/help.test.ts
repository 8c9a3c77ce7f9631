import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { main } from './cli';
import { HELP_WIDTH } from './help-layout';

/** Each help as it is meant to read, kept beside the tests: a change to one shows in review. */
const expected = (name: string) =>
  readFileSync(new URL(`../../../tools/testing/help/${name}.txt`, import.meta.url), 'utf8');

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr };
}

const COMMANDS = ['transcribe', 'align', 'export', 'check', 'serve', 'worker', 'voices'];

describe('murmur COMMAND --help', () => {
  it.each(COMMANDS)('murmur %s --help prints its own text, exactly', async (command) => {
    const text = expected(command);
    expect(text.startsWith(`Usage: murmur ${command} `)).toBe(true);
    for (const argv of [
      [command, '--help'],
      [command, '-h'],
      ['help', command],
    ]) {
      const { code, stdout, stderr } = await run(...argv);
      expect(stdout, argv.join(' ')).toBe(text);
      expect(stderr).toBe('');
      expect(code).toBe(0);
    }
  });

  it.each(['add', 'list', 'remove'])(
    'murmur voices %s --help prints its own text, exactly',
    async (command) => {
      const text = expected(`voices-${command}`);
      expect(text.startsWith(`Usage: murmur voices ${command} `)).toBe(true);
      for (const flag of ['--help', '-h']) {
        const { code, stdout, stderr } = await run('voices', command, flag);
        expect(stdout).toBe(text);
        expect(stderr).toBe('');
        expect(code).toBe(0);
      }
      for (const line of text.split('\n'))
        expect(line.length, line).toBeLessThanOrEqual(HELP_WIDTH);
    },
  );

  it('murmur --help, -h and help print the overview of the commands, exactly', async () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const { code, stdout, stderr } = await run(...argv);
      expect(stdout).toBe(expected('murmur'));
      expect(stderr).toBe('');
      expect(code).toBe(0);
    }
  });

  it('no two commands share a help, and every line fits a terminal of 80 columns', async () => {
    const texts = [expected('murmur'), ...COMMANDS.map(expected)];
    expect(new Set(texts).size).toBe(texts.length);
    for (const text of texts) {
      for (const line of text.split('\n'))
        expect(line.length, line).toBeLessThanOrEqual(HELP_WIDTH);
    }
  });

  it('--help after other arguments still prints the help and runs nothing', async () => {
    expect((await run('transcribe', 'talk.wav', '--language', 'french', '--help')).stdout).toBe(
      expected('transcribe'),
    );
    expect((await run('align', 'talk.wav', '--help')).stdout).toBe(expected('align'));
    expect((await run('serve', '--port', '9', '--help')).stdout).toBe(expected('serve'));
  });
});

describe('a command line that cannot be run', () => {
  it('a bare murmur prints the overview on stderr and exits 2, as a process too', async () => {
    const bare = await run();
    expect(bare).toEqual({ code: 2, stdout: '', stderr: expected('murmur') });

    const bin = fileURLToPath(new URL('./murmur.mjs', import.meta.url));
    const child = await promisify(execFile)(process.execPath, [bin]).catch(
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect('code' in child && child.code).toBe(2);
    expect(child.stdout).toBe('');
    expect(child.stderr).toBe(expected('murmur'));
  });

  it.each([
    [
      'trancribe',
      'murmur: Unknown command "trancribe". Did you mean transcribe? See "murmur --help".\n',
    ],
    [
      'Transcribe',
      'murmur: Unknown command "Transcribe". Did you mean transcribe? See "murmur --help".\n',
    ],
    ['alig', 'murmur: Unknown command "alig". Did you mean align? See "murmur --help".\n'],
    ['exprot', 'murmur: Unknown command "exprot". Did you mean export? See "murmur --help".\n'],
    ['chekc', 'murmur: Unknown command "chekc". Did you mean check? See "murmur --help".\n'],
    ['serv', 'murmur: Unknown command "serv". Did you mean serve? See "murmur --help".\n'],
    ['wroker', 'murmur: Unknown command "wroker". Did you mean worker? See "murmur --help".\n'],
    ['translate', 'murmur: Unknown command "translate". See "murmur --help".\n'],
    ['talk.wav', 'murmur: Unknown command "talk.wav". See "murmur --help".\n'],
    ['x', 'murmur: Unknown command "x". See "murmur --help".\n'],
  ])(
    'an unknown command "%s" is refused with exit 2, naming the nearest command',
    async (name, sentence) => {
      expect(await run(name, 'talk.wav')).toEqual({ code: 2, stdout: '', stderr: sentence });
    },
  );

  it('help for an unknown command names the nearest one too', async () => {
    expect(await run('help', 'trancribe')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'murmur: Unknown command "trancribe". Did you mean transcribe? See "murmur --help".\n',
    });
  });

  it("a command's own problem points to that command's help", async () => {
    const cases: [string[], string][] = [
      [
        ['serve', '--prot', '80'],
        'murmur: Unknown option --prot. Did you mean --port? See "murmur serve --help".\n',
      ],
      [
        ['worker', '--store', '/tmp'],
        'murmur: worker needs --redis URL (the queue) and --store DIR (the folder servers put jobs\' files in). See "murmur worker --help".\n',
      ],
      [
        ['transcribe', '--endpoint', 'image'],
        'murmur: --endpoint must be audio or video; got "image". See "murmur transcribe --help".\n',
      ],
      [
        ['align', 'talk.wav'],
        'murmur: murmur align needs MEDIA and TEXT (the text that was said). See "murmur align --help".\n',
      ],
    ];
    for (const [argv, sentence] of cases) {
      expect(await run(...argv)).toEqual({ code: 2, stdout: '', stderr: sentence });
    }
  });
});
