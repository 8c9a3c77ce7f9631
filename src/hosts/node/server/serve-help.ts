import { optionTable, paragraph, usage } from '../help-layout';
import { SERVE_DEFAULTS } from './serve-args';

/** The text of `murmur serve --help`. */
export function serveHelp(): string {
  const d = SERVE_DEFAULTS;
  return [
    ...usage(
      'serve',
      '[--host H] [--port P] [--models DIR|URL] [--model ID] [--translation-model ID] [--segmentation-model ID] [--embedding-model ID] [--max-upload-mb N] [--max-duration-minutes N] [--max-channels N] [--idle-timeout-seconds N] [--request-timeout-seconds N] [--shutdown-grace-seconds N] [--upload-dir DIR] [--concurrency N] [--queue N] [--max-queued N] [--keep-results-hours H] [--no-auth] [--allow-private-urls] [--redis URL --store DIR [--attempts N]] [--audio-in-memory-seconds N] [--voices FILE.json]',
    ),
    '',
    ...paragraph(
      'Serves the transcription service over HTTP: POST /audio/text/audio-transcription/ and /video/text/video-transcription/ (the multipart form fields of "murmur transcribe --help"), GET /health, GET /openapi.json and a readable description at /docs. Jobs that outlive the connection: POST /v2/transcription (the same fields) answers 202 with the job\'s id; GET /v2/transcription/ID its state and result; DELETE cancels it.',
    ),
    '',
    ...paragraph(
      'Callers send x-service-key, one of the keys in MURMUR_SERVICE_KEYS (comma-separated); without keys the server does not start unless --no-auth is given. SIGTERM or SIGINT: answer new requests 503, give those in flight the grace period, cancel what remains, exit. One JSON log line per request on stdout.',
    ),
    '',
    'Options:',
    ...optionTable([
      ['--host H', `Address to listen on. Default: ${d.host}.`],
      ['--port P', `Port (0: any free one). Default: ${d.port}.`],
      [
        '--models DIR|URL',
        "Where models are loaded from: a model host URL in the hub's layout, or a folder of <model id>/<file>. Default: the hub.",
      ],
      ['--model ID', `The recognition model, loaded once, at start. Default: ${d.model}.`],
      [
        '--translation-model ID',
        `The translation model, loaded on the first request to translate. Default: ${d.translationModel}.`,
      ],
      [
        '--segmentation-model ID',
        `The speaker-segmentation model, loaded on the first request for speakers. Default: ${d.segmentationModel}.`,
      ],
      [
        '--embedding-model ID',
        `The speaker-embedding model, loaded on the first request for speakers. Default: ${d.embeddingModel}.`,
      ],
      ['--max-upload-mb N', `Largest media file accepted (413 beyond). Default: ${d.maxUploadMb}.`],
      [
        '--max-duration-minutes N',
        `Longest media accepted (413 beyond). Default: ${d.maxDurationMinutes}.`,
      ],
      ['--max-channels N', `Most audio channels accepted (413 beyond). Default: ${d.maxChannels}.`],
      [
        '--idle-timeout-seconds N',
        `Longest silence of a client or media URL (408/502). Default: ${d.idleTimeoutSeconds}.`,
      ],
      [
        '--request-timeout-seconds N',
        `Longest upload or media download (408/502). Default: ${d.requestTimeoutSeconds}.`,
      ],
      [
        '--shutdown-grace-seconds N',
        `Time given to requests in flight after SIGTERM. Default: ${d.shutdownGraceSeconds}.`,
      ],
      [
        '--upload-dir DIR',
        'Folder the server owns for uploads. Default: murmur-serve in the temp folder.',
      ],
      [
        '--audio-in-memory-seconds N',
        `Decoded audio this long or longer goes to a scratch file rather than memory (0: all of it). Default: ${d.audioInMemorySeconds}.`,
      ],
      ['--concurrency N', `Transcriptions at once. Default: ${d.concurrency}.`],
      ['--queue N', `Requests that may wait for one (429 beyond). Default: ${d.queue}.`],
      ['--max-queued N', `Async jobs that may wait (429 beyond). Default: ${d.maxQueued}.`],
      [
        '--keep-results-hours H',
        `How long a finished job's result is kept. Default: ${d.keepResultsHours}.`,
      ],
      ['--no-auth', 'Ask for no service key.'],
      [
        '--voices FILE.json',
        'Name the speakers of every request with toggle_diarization on by these voices (see murmur voices --help), read once at start. Responses and webhooks carry only the names.',
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
        '--redis URL',
        'Queue every transcription in this Redis, for workers anywhere (murmur worker); the server then loads no models.',
      ],
      ['--store DIR', "With --redis: the folder every server and worker mounts, for jobs' files."],
      [
        '--attempts N',
        `With --redis: runs of a job before it ends in error. Default: ${d.attempts}.`,
      ],
      ['--help', 'This text.'],
    ]),
    '',
    ...paragraph(
      'Exit status: 0 once stopped by SIGTERM or SIGINT; 2 a problem with the options or the environment (service keys, webhook secret); 1 any other failure, or a second signal.',
    ),
    '',
  ].join('\n');
}
