import { optionTable, paragraph, usage } from '../help-layout';
import { WORKER_DEFAULTS } from './worker-args';

/** The text of `murmur worker --help`. */
export function workerHelp(): string {
  const d = WORKER_DEFAULTS;
  return [
    ...usage(
      'worker',
      '--redis URL --store DIR [--models DIR|URL] [--model ID] [--translation-model ID] [--segmentation-model ID] [--embedding-model ID] [--max-upload-mb N] [--max-duration-minutes N] [--max-channels N] [--idle-timeout-seconds N] [--request-timeout-seconds N] [--allow-private-urls] [--lock-seconds N] [--stalled-check-seconds N] [--max-stalls N] [--metrics HOST:PORT] [--audio-in-memory-seconds N] [--voices FILE.json]',
    ),
    '',
    ...paragraph(
      'Takes jobs from the queue that "murmur serve --redis" fills, one at a time, with the models loaded once; the job files are read from the store every server and worker mounts. SIGTERM or SIGINT: finish the job in hand, exit. One JSON log line per job event on stdout.',
    ),
    '',
    'Options:',
    ...optionTable([
      ['--redis URL', 'The Redis that holds the queue (redis:// or rediss://). Required.'],
      ['--store DIR', "The folder every server and worker mounts, for jobs' files. Required."],
      [
        '--models DIR|URL',
        "Where models are loaded from: a model host URL in the hub's layout, or a folder of <model id>/<file>. Default: the hub.",
      ],
      ['--model ID', `The recognition model, loaded once, at start. Default: ${d.model}.`],
      [
        '--translation-model ID',
        `The translation model, loaded on the first job to translate. Default: ${d.translationModel}.`,
      ],
      [
        '--segmentation-model ID',
        `The speaker-segmentation model, loaded on the first job for speakers. Default: ${d.segmentationModel}.`,
      ],
      [
        '--embedding-model ID',
        `The speaker-embedding model, loaded on the first job for speakers. Default: ${d.embeddingModel}.`,
      ],
      [
        '--max-upload-mb N',
        `Largest media file a job may fetch from its audio_url. Default: ${d.maxUploadMb}.`,
      ],
      [
        '--max-duration-minutes N',
        `Longest media a job may have. Default: ${d.maxDurationMinutes}.`,
      ],
      ['--max-channels N', `Most audio channels a job may have. Default: ${d.maxChannels}.`],
      [
        '--idle-timeout-seconds N',
        `Longest silence of a media URL. Default: ${d.idleTimeoutSeconds}.`,
      ],
      [
        '--request-timeout-seconds N',
        `Longest media download. Default: ${d.requestTimeoutSeconds}.`,
      ],
      [
        '--voices FILE.json',
        'Name the speakers of every job with toggle_diarization on by these voices (see murmur voices --help), read once at start. Responses and webhooks carry only the names.',
      ],
      [
        '--allow-private-urls',
        'Let audio_url and webhook_url reach loopback and private addresses.',
      ],
      [
        '--yt-dlp PATH',
        'The yt-dlp that reads the media of a web page given as audio_url or video_url (its every connection through the address guard). Default: yt-dlp.',
      ],
      [
        '--lock-seconds N',
        `A worker silent this long is taken for dead. Default: ${d.lockSeconds}.`,
      ],
      [
        '--stalled-check-seconds N',
        `How often dead workers' jobs are looked for. Default: ${d.stalledCheckSeconds}.`,
      ],
      ['--max-stalls N', `Deaths under a job before it ends in error. Default: ${d.maxStalls}.`],
      ['--metrics HOST:PORT', 'Serve GET /metrics (Prometheus) there. Default: none.'],
      [
        '--audio-in-memory-seconds N',
        `Decoded audio this long or longer goes to a scratch file rather than memory (0: all of it). Default: ${d.audioInMemorySeconds}.`,
      ],
      ['--help', 'This text.'],
    ]),
    '',
    ...paragraph(
      'Exit status: 0 once stopped by SIGTERM or SIGINT; 2 a problem with the options or the environment (webhook secret); 1 any other failure (a store or models it cannot use), or a second signal.',
    ),
    '',
  ].join('\n');
}
