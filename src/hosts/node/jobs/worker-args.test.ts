import { describe, expect, it } from 'vitest';
import { parseWorkerArgs, WORKER_DEFAULTS } from './worker-args';

describe('murmur worker options', () => {
  it('reads the queue, the store, the models and the recovery times', () => {
    expect(
      parseWorkerArgs([
        '--redis',
        'redis://10.0.0.5:6379',
        '--store=/mnt/murmur',
        '--models',
        '/srv/models',
        '--lock-seconds',
        '10',
        '--stalled-check-seconds',
        '5',
        '--max-stalls',
        '0',
        '--max-channels',
        '8',
        '--metrics',
        '0.0.0.0:9464',
        '--audio-in-memory-seconds',
        '120',
        '--yt-dlp',
        '/opt/yt-dlp/bin/yt-dlp',
      ]),
    ).toMatchObject({
      redis: 'redis://10.0.0.5:6379',
      store: '/mnt/murmur',
      models: '/srv/models',
      lockSeconds: 10,
      stalledCheckSeconds: 5,
      maxStalls: 0,
      maxChannels: 8,
      metrics: '0.0.0.0:9464',
      audioInMemorySeconds: 120,
      ytDlp: '/opt/yt-dlp/bin/yt-dlp',
      maxDurationMinutes: WORKER_DEFAULTS.maxDurationMinutes,
    });
    expect(WORKER_DEFAULTS.ytDlp).toBe('yt-dlp');
  });

  it('refuses a worker without its queue or store, and options it does not have', () => {
    expect(() => parseWorkerArgs(['--redis', 'redis://h:1'])).toThrow(
      /needs --redis URL .* --store DIR/,
    );
    expect(() => parseWorkerArgs(['--store', '/s'])).toThrow(/needs --redis URL/);
    expect(() => parseWorkerArgs(['--redis', 'h:1', '--store', '/s'])).toThrow(
      /--redis must be a redis:\/\/ or rediss:\/\/ URL/,
    );
    expect(() => parseWorkerArgs(['--lock-seconds', '0'])).toThrow(
      '--lock-seconds must be a whole number of at least 1; got "0".',
    );
    expect(() => parseWorkerArgs(['--audio-in-memory-seconds', '-1'])).toThrow(
      '--audio-in-memory-seconds must be a whole number of at least 0; got "-1".',
    );
    expect(() => parseWorkerArgs(['--metrics', '9464'])).toThrow(
      '--metrics must be HOST:PORT (e.g. 0.0.0.0:9464); got "9464".',
    );
    expect(() => parseWorkerArgs(['--concurrency', '2'])).toThrow('Unknown option --concurrency.');
  });
});
