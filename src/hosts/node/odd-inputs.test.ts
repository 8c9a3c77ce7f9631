import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { constants } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../core/contract/errors';
import type { TranscriptionResponse } from '../../core/contract/response';
import { scratchDir, sentence, spokenFile } from '../../../tools/testing/speech';
import { main } from './cli';

/**
 * One catalogue of bad and odd inputs, each with its expected answer through the CLI: the
 * spec's error body with its code, or a valid result. None may hang: every case runs under a
 * deadline of its own, and the media URL that never answers must time out by itself.
 */
const MODELS = join(import.meta.dirname, '..', '..', '..', '.models');
const MODEL = 'murmur-test/whisper-synth';
const BIN = fileURLToPath(new URL('./murmur.mjs', import.meta.url));
const HANG_SECONDS = 45;
let dir = '';
let speech = '';
let base = '';
let server: Server;

function ffmpeg(name: string, args: string[]): string {
  const out = join(dir, name);
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args, out]);
  return out;
}

function write(name: string, data: string | Uint8Array): string {
  const out = join(dir, name);
  execFileSync('tee', [out], { input: data, stdio: ['pipe', 'ignore', 'inherit'] });
  return out;
}

type Answer =
  | { error: string; status: number; message: RegExp }
  | { result: (response: TranscriptionResponse) => void };

interface Case {
  name: string;
  /** The command line after `transcribe`, made once the fixtures exist. */
  argv: () => string[];
  answer: Answer;
}

async function answerOf(argv: string[]): Promise<{ code: number; json: unknown }> {
  let out = '';
  const run = main(
    ['transcribe', ...argv, '--models', MODELS, '--model', MODEL],
    { stdout: (t) => (out += t), stderr: () => undefined },
    { engine: { fetchTimeoutSeconds: 1 } },
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer: it hangs')), HANG_SECONDS * 1000);
  });
  const code = await Promise.race([run, hang]).finally(() => clearTimeout(timer));
  return { code, json: JSON.parse(out) };
}

const text = (r: TranscriptionResponse) =>
  r.prediction_raw.transcription.map((s) => s.transcription).join(' ');
const file = (r: TranscriptionResponse) => r.prediction_raw.metadata.provided_file_metadata;

const cases: Case[] = [
  {
    name: 'zero bytes',
    argv: () => [write('empty.wav', '')],
    answer: { error: 'invalid_request', status: 422, message: /empty \(0 bytes\)/ },
  },
  {
    name: 'a text file',
    argv: () => [write('notes.mp3', 'Meeting notes: nothing recorded today.\n')],
    answer: { error: 'unsupported_media', status: 415, message: /text file/ },
  },
  {
    name: 'an image',
    argv: () => [
      ffmpeg('picture.png', ['-f', 'lavfi', '-i', 'color=red:s=32x32', '-frames:v', '1']),
    ],
    answer: { error: 'unsupported_media', status: 415, message: /PNG image/ },
  },
  {
    name: 'a truncated mp3',
    argv: () => {
      const mp3 = ffmpeg('whole.mp3', ['-i', speech, '-c:a', 'libmp3lame', '-b:a', '64k']);
      return [write('cut.mp3', readFileSync(mp3).subarray(0, 20_000))];
    },
    answer: { error: 'undecodable_media', status: 422, message: /truncated/ },
  },
  {
    name: 'a truncated wav (what is there is transcribed)',
    argv: () => {
      const wav = readFileSync(speech);
      return [write('cut.wav', wav.subarray(0, Math.floor(wav.length / 2)))];
    },
    answer: {
      result: (r) => {
        expect(file(r).duration).toBeGreaterThan(1);
        expect(file(r).duration).toBeLessThan(Number(execFileSync('soxi', ['-D', speech])) / 1.5);
        expect(text(r).length).toBeGreaterThan(0);
      },
    },
  },
  {
    name: 'a video without audio',
    argv: () => [
      ffmpeg('mute.mp4', [
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=64x64:rate=10',
        '-t',
        '1',
        '-c:v',
        'mpeg4',
      ]),
    ],
    answer: { error: 'undecodable_media', status: 422, message: /without an audio track/ },
  },
  {
    name: 'an unknown codec',
    argv: () => {
      const wav = new Uint8Array(readFileSync(speech));
      // The format tag of the fmt chunk names no codec there is.
      wav[20] = 0x34;
      wav[21] = 0x12;
      return [write('unknown-codec.wav', wav)];
    },
    answer: { error: 'undecodable_media', status: 422, message: /codec/ },
  },
  {
    name: 'all silence',
    argv: () => [
      ffmpeg('silence.wav', ['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '3']),
    ],
    answer: {
      result: (r) => {
        expect(r.prediction_raw.transcription).toEqual([]);
        expect(r.prediction_raw.metadata.total_speech_duration).toBe(0);
        expect(file(r).duration).toBe(3);
      },
    },
  },
  {
    name: '1 ms',
    argv: () => [ffmpeg('one-ms.wav', ['-f', 'lavfi', '-i', 'sine=f=440:r=16000', '-t', '0.001'])],
    answer: {
      result: (r) => {
        expect(r.prediction_raw.transcription).toEqual([]);
        expect(file(r).duration).toBe(0.001);
      },
    },
  },
  ...[8000, 192000].map((rate): Case => ({
    name: `${rate / 1000} kHz`,
    argv: () => [ffmpeg(`rate-${rate}.wav`, ['-i', speech, '-ar', String(rate)])],
    answer: {
      result: (r) => {
        expect(file(r).sample_rate).toBe(rate);
        expect(text(r).length).toBeGreaterThan(0);
      },
    },
  })),
  {
    name: '8 channels',
    argv: () => [ffmpeg('eight.wav', ['-i', speech, '-af', 'pan=7.1|c0=c0|c3=c0'])],
    answer: {
      result: (r) => {
        expect(file(r).nb_channels).toBe(8);
        // Channel 3 copies channel 0; the other six are silent.
        expect(file(r).number_similar_channels).toBe(1);
        expect(r.prediction_raw.metadata.nb_silent_channels).toBe(6);
        expect(new Set(r.prediction_raw.transcription.map((s) => s.channel))).toEqual(
          new Set(['channel_0']),
        );
      },
    },
  },
  {
    name: 'a file named with HTML and script',
    argv: () => [
      // A file name cannot hold a slash, so the script element is left open.
      ffmpeg('<img src=x onerror=alert(1)> & <script>alert(2).wav', ['-i', speech]),
      '--output_format',
      'vtt',
    ],
    answer: {
      result: (r) => {
        expect(r.prediction.startsWith('WEBVTT\n')).toBe(true);
        expect(r.prediction_raw.transcription.length).toBeGreaterThan(0);
      },
    },
  },
  {
    name: 'a URL that redirects to an HTML page',
    argv: () => ['--audio_url', `${base}/moved.mp3`],
    answer: { error: 'unsupported_media', status: 415, message: /a web page/ },
  },
  {
    name: 'a URL that never answers',
    argv: () => ['--audio_url', `${base}/silent-server.wav`],
    answer: {
      error: 'url_fetch_failed',
      status: 502,
      message: /the server sent nothing for 1 s, so the request was given up/,
    },
  },
  {
    name: 'a URL that stops sending half-way',
    argv: () => ['--audio_url', `${base}/stalls.wav`],
    answer: { error: 'url_fetch_failed', status: 502, message: /sent nothing for 1 s/ },
  },
];

beforeAll(async () => {
  dir = scratchDir();
  speech = spokenFile(dir, 'speech', [
    { language: 'en', text: sentence('en', 501, 9) },
    { language: 'en', text: sentence('en', 502, 9) },
  ]).path;
  server = createServer((req, res) => {
    if (req.url === '/moved.mp3') {
      res.writeHead(302, { location: '/player' });
      res.end();
    } else if (req.url === '/player') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><body>A player page</body></html>');
    } else if (req.url === '/stalls.wav') {
      res.writeHead(200, { 'content-type': 'audio/wav' });
      res.write(readFileSync(speech).subarray(0, 4096));
    }
    // Anything else: the connection is accepted and nothing is ever sent.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('bad and odd inputs, each with its answer', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const { code, json } = await answerOf(c.argv());
    if ('error' in c.answer) {
      const body = json as ErrorBody;
      expect(body).toMatchObject({ error: c.answer.error, statusCode: c.answer.status });
      expect(body.message).toMatch(c.answer.message);
      expect(code).toBe(c.answer.status < 500 ? 2 : 1);
    } else {
      expect(code).toBe(0);
      c.answer.result(json as TranscriptionResponse);
    }
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('answers `cancelled` when interrupted by %s', async (signal, status) => {
    // Long enough that no machine finishes it before the signal comes.
    const long = ffmpeg('longer.wav', ['-stream_loop', '80', '-i', speech]);
    const child = spawn(process.execPath, [
      BIN,
      'transcribe',
      long,
      '--models',
      MODELS,
      '--model',
      MODEL,
    ]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    // Interrupted while it loads or works: either way the answer is the same.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    child.kill(signal);
    const [code, ended] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('exit', (c, s) => resolve([c, s])),
    );
    // The status a shell sees: a process ended by a signal is 128 + its number.
    expect(code ?? 128 + constants.signals[ended!]).toBe(status);
    const body = JSON.parse(out) as ErrorBody;
    expect(body).toMatchObject({ error: 'cancelled', statusCode: 499 });
    expect(err).toContain('cancelled');
  });
});
