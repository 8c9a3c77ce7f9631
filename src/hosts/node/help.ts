import { FIELD_SPECS } from '../../core/contract/fields';
import {
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_SEGMENTATION_MODEL,
  DEFAULT_TRANSLATION_MODEL,
  DEFAULT_WHISPER,
} from '../../core/model-catalog';
import { SERVE_DEFAULTS } from './server/serve-args';

/** The text of `murmur --help`: usage, CLI options, and every request field with its default. */
export function helpText(): string {
  const width = Math.max(...FIELD_SPECS.map((f) => f.name.length)) + 4;
  const fields = FIELD_SPECS.filter((f) => f.kind !== 'file').map((f) => {
    const values = f.values ? ` One of: ${f.values.map((v) => `"${v}"`).join(', ')}.` : '';
    const kind = f.kind === 'boolean' ? ' (true or false)' : '';
    const def = f.default === null ? '' : ` Default: ${f.default === '' ? '(empty)' : f.default}.`;
    const only = f.endpoint ? ` [${f.endpoint} endpoint]` : '';
    return `  --${f.name.padEnd(width)}${f.description}${kind}${values}${def}${only}`;
  });
  return [
    'Usage: murmur transcribe [FILE] [--<field> <value>]... [--endpoint audio|video]',
    '                         [--models DIR|URL] [--model ID] [--translation-model ID]',
    '                         [--segmentation-model ID] [--embedding-model ID] [--subtitles srt|vtt]',
    '',
    'Transcribes FILE (the "audio" field, or "video" with --endpoint video) or a URL, and prints',
    'the response JSON of the transcription service on stdout.',
    '',
    'Options:',
    '  --endpoint audio|video   Which endpoint to call. Default: audio.',
    "  --models DIR|URL         Where models are loaded from: a model host URL in the hub's",
    '                           layout, or a folder of <model id>/<file>. Default: the hub.',
    `  --model ID               The recognition model. Default: ${DEFAULT_WHISPER}.`,
    '  --subtitles srt|vtt      Print subtitles that read well instead of the response JSON:',
    '                           cues built from the word times within the limits below, a new',
    "                           cue at each speaker change. The response's prediction is not",
    '                           changed by this option.',
    '  --line-chars N           Characters a subtitle line may hold. Default: 42.',
    '  --lines N                Lines a cue may hold. Default: 2.',
    '  --reading-speed N        Characters a second a cue may ask to read. Default: 17.',
    '  --min-seconds S          Shortest time a cue stays up, room allowing. Default: 1.',
    '  --max-seconds S          Longest time a cue stays up. Default: 7.',
    '  --gap-seconds S          Gap between cues. Default: 0.08.',
    '  --speaker-names true|false  Start a cue with its speaker. Default: false.',
    '  --translation-model ID   The translation model (toggle_direct_translate; every target,',
    `                           english included). Default: ${DEFAULT_TRANSLATION_MODEL} (MIT);`,
    '                           Xenova/nllb-200-distilled-600M is CC-BY-NC-4.0 (no commercial use).',
    '  --segmentation-model ID  The speaker-segmentation model (toggle_diarization). Default:',
    `                           ${DEFAULT_SEGMENTATION_MODEL} (MIT).`,
    '  --embedding-model ID     The speaker-embedding model (toggle_diarization). Default:',
    `                           ${DEFAULT_EMBEDDING_MODEL} (CC-BY-4.0).`,
    '  --help                   This text.',
    '',
    'Request fields (names as in the service interface; values as text):',
    ...fields,
    '',
    'With webhook_url, the response is then POSTed there as {"request_id", "payload"} (up to 3',
    "tries); the delivery's outcome is told on stderr and does not change the exit status.",
    '',
    'Exit status: 0 success; 2 a problem with the request (the error body names each field);',
    '1 any other failure; 130 or 143 when interrupted by Ctrl-C or SIGTERM (error "cancelled").',
    'On failure the error body JSON is printed on stdout and a sentence on stderr.',
    '',
    'Usage: murmur serve [--host H] [--port P] [--models DIR|URL] [--model ID] [--translation-model ID]',
    '                    [--segmentation-model ID] [--embedding-model ID]',
    '                    [--max-upload-mb N] [--max-duration-minutes N] [--max-channels N]',
    '                    [--idle-timeout-seconds N] [--request-timeout-seconds N]',
    '                    [--shutdown-grace-seconds N] [--upload-dir DIR]',
    '                    [--concurrency N] [--queue N] [--no-auth] [--allow-private-urls]',
    '',
    'Serves the transcription service over HTTP: POST /audio/text/audio-transcription/ and',
    '/video/text/video-transcription/ (multipart form fields as above), GET /health,',
    'GET /openapi.json and a readable description at /docs. Callers send x-service-key, one of',
    'the keys in MURMUR_SERVICE_KEYS (comma-separated); without keys the server does not start',
    'unless --no-auth is given. SIGTERM or SIGINT: answer new requests 503, give those in flight',
    'the grace period, cancel what remains, exit. One JSON log line per request on stdout.',
    '',
    `  --host H                 Address to listen on. Default: ${SERVE_DEFAULTS.host}.`,
    `  --port P                 Port (0: any free one). Default: ${SERVE_DEFAULTS.port}.`,
    '  --models, --model        As for transcribe; loaded once, at start.',
    '  --translation-model ID   As for transcribe; loaded on the first request to translate.',
    `  --max-upload-mb N        Largest media file accepted (413 beyond). Default: ${SERVE_DEFAULTS.maxUploadMb}.`,
    `  --concurrency N          Transcriptions at once. Default: ${SERVE_DEFAULTS.concurrency}.`,
    `  --queue N                Requests that may wait for one (429 beyond). Default: ${SERVE_DEFAULTS.queue}.`,
    `  --max-duration-minutes N Longest media accepted (413 beyond). Default: ${SERVE_DEFAULTS.maxDurationMinutes}.`,
    `  --max-channels N         Most audio channels accepted (413 beyond). Default: ${SERVE_DEFAULTS.maxChannels}.`,
    `  --idle-timeout-seconds N Longest silence of a client or media URL (408/502). Default: ${SERVE_DEFAULTS.idleTimeoutSeconds}.`,
    `  --request-timeout-seconds N  Longest upload or media download (408/502). Default: ${SERVE_DEFAULTS.requestTimeoutSeconds}.`,
    `  --shutdown-grace-seconds N   Time given to requests in flight after SIGTERM. Default: ${SERVE_DEFAULTS.shutdownGraceSeconds}.`,
    '  --upload-dir DIR         Folder the server owns for uploads. Default: murmur-serve in the temp folder.',
    '  --allow-private-urls     Let audio_url and webhook_url reach loopback and private addresses.',
    '  --no-auth                Ask for no service key.',
    '',
  ].join('\n');
}
