import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../core/contract/errors';
import type { TranscriptionResponse } from '../../core/contract/response';
import {
  answerOf,
  ffmpegInto,
  fileOf as file,
  oddInputsSpeech,
  textOf as text,
  writeInto,
  type Case,
} from '../../../tools/testing/odd-inputs';
import { scratchDir } from '../../../tools/testing/speech';

/**
 * One catalogue of bad and odd inputs, each with its expected answer through the CLI: the
 * spec's error body with its code, or a valid result. None may hang: every case runs under a
 * deadline of its own, and the media URL that never answers must time out by itself.
 */
let dir = '';
let speech = '';
let base = '';
let server: Server;

const ffmpeg = (name: string, args: string[]) => ffmpegInto(dir, name, args);
const write = (name: string, data: string | Uint8Array) => writeInto(dir, name, data);

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
    name: 'a URL that redirects to an HTML page without media',
    argv: () => ['--audio_url', `${base}/moved.mp3`],
    answer: {
      error: 'unsupported_media',
      status: 415,
      message:
        /^The page at audio_url holds no media yt-dlp can read\. Link to the media file itself\.$/,
    },
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
  speech = oddInputsSpeech(dir);
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
});
