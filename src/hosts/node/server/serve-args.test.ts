import { describe, expect, it } from 'vitest';
import { parseServeArgs, SERVE_DEFAULTS } from './serve-args';

describe('murmur serve options', () => {
  it('has limits, time-outs and the address guard on by default', () => {
    expect(SERVE_DEFAULTS).toMatchObject({
      maxDurationMinutes: 120,
      maxChannels: 2,
      idleTimeoutSeconds: 30,
      requestTimeoutSeconds: 300,
      shutdownGraceSeconds: 30,
      uploadDir: null,
      allowPrivateUrls: false,
      ytDlp: 'yt-dlp',
    });
  });

  it('reads each limit and switch', () => {
    expect(
      parseServeArgs([
        '--max-duration-minutes',
        '10',
        '--max-channels=8',
        '--idle-timeout-seconds',
        '5',
        '--request-timeout-seconds',
        '60',
        '--shutdown-grace-seconds',
        '0',
        '--upload-dir',
        '/srv/uploads',
        '--allow-private-urls',
        '--yt-dlp',
        '/opt/yt-dlp/bin/yt-dlp',
      ]),
    ).toMatchObject({
      maxDurationMinutes: 10,
      maxChannels: 8,
      idleTimeoutSeconds: 5,
      requestTimeoutSeconds: 60,
      shutdownGraceSeconds: 0,
      uploadDir: '/srv/uploads',
      allowPrivateUrls: true,
      ytDlp: '/opt/yt-dlp/bin/yt-dlp',
    });
  });

  it('refuses a limit that is not a whole number, naming it', () => {
    expect(() => parseServeArgs(['--max-duration-minutes', '0'])).toThrow(
      '--max-duration-minutes must be a whole number of at least 1; got "0".',
    );
    expect(() => parseServeArgs(['--idle-timeout-seconds', '2.5'])).toThrow(
      '--idle-timeout-seconds must be a whole number of at least 1; got "2.5".',
    );
  });

  it("reads the async jobs' options, and refuses half a queue setup", () => {
    expect(SERVE_DEFAULTS).toMatchObject({ maxQueued: 100, keepResultsHours: 24, redis: null });
    expect(
      parseServeArgs([
        '--max-queued=3',
        '--keep-results-hours',
        '0.5',
        '--redis',
        'redis://10.0.0.5:6379',
        '--store',
        '/mnt/murmur',
        '--attempts',
        '2',
      ]),
    ).toMatchObject({
      maxQueued: 3,
      keepResultsHours: 0.5,
      redis: 'redis://10.0.0.5:6379',
      store: '/mnt/murmur',
      attempts: 2,
    });
    expect(() => parseServeArgs(['--keep-results-hours', '0'])).toThrow(
      '--keep-results-hours must be a number above 0; got "0".',
    );
    expect(() => parseServeArgs(['--redis', 'http://10.0.0.5'])).toThrow(
      '--redis must be a redis:// or rediss:// URL; got "http://10.0.0.5".',
    );
    expect(() => parseServeArgs(['--redis', 'redis://10.0.0.5'])).toThrow(
      /--redis and --store go together/,
    );
    expect(() => parseServeArgs(['--attempts', '2'])).toThrow(/--attempts needs --redis/);
  });

  it("reads the operator's voices file, and refuses it where workers run the transcriptions", () => {
    expect(SERVE_DEFAULTS.voices).toBeNull();
    expect(parseServeArgs(['--voices', 'team.json']).voices).toBe('team.json');
    expect(() =>
      parseServeArgs(['--redis', 'redis://10.0.0.5', '--store', '/srv', '--voices', 'team.json']),
    ).toThrow(
      "--voices with --redis is the workers' option: give it to murmur worker, which runs the transcriptions.",
    );
  });

  it('reads how long decoded audio may be and stay in memory, 600 s by default', () => {
    expect(SERVE_DEFAULTS.audioInMemorySeconds).toBe(600);
    expect(parseServeArgs(['--audio-in-memory-seconds', '60'])).toMatchObject({
      audioInMemorySeconds: 60,
    });
    expect(parseServeArgs(['--audio-in-memory-seconds=0'])).toMatchObject({
      audioInMemorySeconds: 0,
    });
    expect(() => parseServeArgs(['--audio-in-memory-seconds', '1.5'])).toThrow(
      '--audio-in-memory-seconds must be a whole number of at least 0; got "1.5".',
    );
  });
});
