/**
 * A media file of more than 2 GiB through the media and speech stages in Node: an 8-channel,
 * 192 kHz, 32-bit WAV (6.1 MB a second; 2.15 GB for 350 s), generated into `.cache/bench/`.
 * ffmpeg reads it through WORKERFS a window at a time, so the process's peak memory stays far
 * below the file's size. Prints one JSON line.
 * usage: tsx tools/bench/large-file.ts [--seconds 350]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { prepareAudio } from '../../src/engine/pipeline';
import { mediaRequest, testEnginePorts } from '../testing/ffmpeg-fixtures';
import { diskFile } from '../../src/hosts/node';
import { CACHE, peakRssMb, sharedMedia } from './bench-media';

const arg = process.argv.indexOf('--seconds');
const seconds = arg > 0 ? Number(process.argv[arg + 1]) : 350;
mkdirSync(CACHE, { recursive: true });
const path = join(CACHE, `large-8ch-192k-${seconds}s.wav`);
if (!existsSync(path)) {
  console.error(`Generating ${path} ...`);
  // Two talkers on the first two channels, copies and silence on the others.
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-stream_loop',
    '-1',
    '-i',
    sharedMedia('speech/jfk.wav'),
    '-stream_loop',
    '-1',
    '-i',
    sharedMedia('diarization/dev00.wav'),
    '-filter_complex',
    '[0:a][1:a]amerge=inputs=2,aresample=192000,pan=7.1|c0=c0|c1=c1|c2=c0|c3=c1[a]',
    '-map',
    '[a]',
    '-t',
    String(seconds),
    '-c:a',
    'pcm_s32le',
    '-rf64',
    'auto',
    path,
  ]);
}
const bytes = statSync(path).size;
const file = await diskFile(path);
if (file === null) throw new Error(`missing ${path}`);
const started = performance.now();
const audio = await prepareAudio(mediaRequest({ kind: 'file', file }), testEnginePorts());
console.log(
  JSON.stringify({
    host: 'node',
    file: `${file.name} (${(bytes / 2 ** 30).toFixed(2)} GiB)`,
    duration_s: audio.file.duration,
    channels: audio.file.nb_channels,
    sample_rate: audio.file.sample_rate,
    total_s: +((performance.now() - started) / 1000).toFixed(1),
    peak_rss_mb: Math.round(peakRssMb()),
    billing: audio.billing.map((b) => `${b.channel}:${b.reason}`).join(' '),
  }),
);
