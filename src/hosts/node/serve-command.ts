import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from './cli';
import { DecodedAudioAccount } from './job-runtime/decoded-audio-account';
import { jobSettingsOf, operatorVoices } from './job-runtime/job-args';
import { pageLinksLine, pageLinksOf } from './job-runtime/linked-media';
import { VoicesOnDiskError } from './job-runtime/voices-on-disk';
import type { ServerJobsFactory } from './job-runtime/server-jobs';
import { memoryJobs } from './jobs/memory-jobs';
import { RedisJobQueue } from './jobs/redis-queue';
import { storeFolder } from './jobs/redis-names';
import { EngineThread } from './server/engine-thread';
import { buildServer } from './server/server';
import { defaultUploadDir, UploadFolders } from './server/upload-folders';
import { serviceKeys, type ServeArgs } from './server/serve-args';
import { signerFromEnv } from './webhook-signature';

const version = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

/** Resolves on the first SIGTERM or SIGINT; a second one ends the process at once. */
function stopSignal(io: CliIo, graceSeconds: number): Promise<string> {
  return new Promise((resolve) => {
    const first = (signal: string) => {
      process.off('SIGTERM', first);
      process.off('SIGINT', first);
      process.once('SIGTERM', () => process.exit(1));
      process.once('SIGINT', () => process.exit(1));
      io.stderr(
        `murmur serve: ${signal}: finishing the requests in flight, for at most ${graceSeconds} s (again to stop now)\n`,
      );
      resolve(signal);
    };
    process.on('SIGTERM', first);
    process.on('SIGINT', first);
  });
}

/** What the operator's voices do, said at start: how many, from where (never what they hold). */
export function voicesLine(count: number, file: string): string {
  return `${count} voice${count === 1 ? '' : 's'} from ${file} name the speakers of every request with diarization on`;
}

/**
 * `murmur serve`: loads the models once, listens, and runs until SIGTERM or SIGINT, then stops
 * taking requests, finishes those in flight and exits. Returns the exit status.
 */
export async function serve(args: ServeArgs, io: CliIo): Promise<number> {
  const keys = serviceKeys(process.env.MURMUR_SERVICE_KEYS);
  if (args.auth && keys.size === 0) {
    io.stderr(
      'murmur serve: no service keys. Set MURMUR_SERVICE_KEYS=key1,key2 (callers send one in x-service-key), or start with --no-auth on a network you trust.\n',
    );
    return 2;
  }
  let signer: ReturnType<typeof signerFromEnv>;
  try {
    signer = signerFromEnv(process.env.MURMUR_WEBHOOK_SECRET);
  } catch (thrown) {
    io.stderr(`murmur serve: MURMUR_WEBHOOK_SECRET: ${(thrown as Error).message}\n`);
    return 2;
  }
  let voices;
  try {
    voices = await operatorVoices(args);
  } catch (thrown) {
    if (!(thrown instanceof VoicesOnDiskError)) throw thrown;
    io.stderr(`murmur serve: ${thrown.message}\n`);
    return 2;
  }
  // With a queue in Redis every transcription, synchronous or not, runs on a worker: the
  // server loads no models (--models and --model are accepted, and are the workers' business).
  // Otherwise each slot's engine runs on a thread of its own, which loads its models once.
  // With several slots, each slot's recognition model runs on its share of the cores (one
  // thread each, as many slots as cores), not one thread per core each: the slots' threads
  // then took turns on the same cores (2 cores, --concurrency 2: two 4-minute recordings in
  // 102-125 s instead of 124-135 s). One slot keeps the runtime's default, one per core.
  const threads =
    args.concurrency > 1
      ? Math.max(1, Math.floor(availableParallelism() / args.concurrency))
      : undefined;
  const engines =
    args.redis !== null
      ? []
      : Array.from(
          { length: args.concurrency },
          () =>
            new EngineThread({
              models: args.models,
              model: args.model,
              translationModel: args.translationModel,
              segmentationModel: args.segmentationModel,
              embeddingModel: args.embeddingModel,
              ...(threads === undefined ? {} : { threads }),
            }),
        );
  const closeEngines = () => Promise.all(engines.map((engine) => engine.close()));
  if (engines.length > 0) {
    io.stderr(`murmur serve: loading ${args.model} from ${args.models ?? 'the hub'}\n`);
    try {
      // Everything a request needs is loaded before the first one is taken.
      await Promise.all(engines.map((engine) => engine.start()));
    } catch (thrown) {
      await closeEngines();
      io.stderr(
        `murmur serve: the models could not be loaded: ${thrown instanceof Error ? thrown.message : String(thrown)}\n`,
      );
      return 1;
    }
  }
  const uploads = new UploadFolders(args.uploadDir ?? defaultUploadDir());
  try {
    const swept = await uploads.open();
    if (swept.length > 0) {
      io.stderr(
        `murmur serve: removed the upload folders of ${swept.length} instance${swept.length === 1 ? '' : 's'} no longer running, in ${uploads.parent}\n`,
      );
    }
  } catch (thrown) {
    io.stderr(
      `murmur serve: cannot use ${uploads.parent} for uploads: ${thrown instanceof Error ? thrown.message : String(thrown)}\n`,
    );
    return 1;
  }
  // Whether links to web pages are read is found once, and said, before the first request.
  const pageLinks = await pageLinksOf(args.ytDlp);
  io.stderr(`murmur serve: ${pageLinksLine(pageLinks)}\n`);
  const limits = { ...jobSettingsOf(args, engines, voices), pageLinks };
  if (args.voices !== null) io.stderr(`murmur serve: ${voicesLine(voices.length, args.voices)}\n`);
  const webhook = signer ? { webhook: { signer } } : {};
  let jobs: ServerJobsFactory = memoryJobs({
    ...limits,
    ...webhook,
    maxQueued: args.maxQueued,
    keepResultsHours: args.keepResultsHours,
    concurrency: args.concurrency,
    folder: () => uploads.create(),
  });
  if (args.redis !== null && args.store !== null) {
    const store = args.store;
    try {
      await mkdir(join(store, 'jobs'), { recursive: true, mode: 0o700 });
    } catch (thrown) {
      io.stderr(
        `murmur serve: cannot use the store ${store}: ${thrown instanceof Error ? thrown.message : String(thrown)}\n`,
      );
      return 1;
    }
    const queue = new RedisJobQueue({
      url: args.redis,
      maxQueued: args.maxQueued,
      keepResultsHours: args.keepResultsHours,
      attempts: args.attempts,
    });
    jobs = () => ({ queue, folder: (id) => storeFolder(store, id), elsewhere: true });
  }
  const server = await buildServer({
    ...limits,
    ...webhook,
    keys: args.auth ? keys : null,
    graceSeconds: args.shutdownGraceSeconds,
    uploads,
    concurrency: args.concurrency,
    queue: args.queue,
    maxQueued: args.maxQueued,
    keepResultsHours: args.keepResultsHours,
    jobs,
    decodedAudio: new DecodedAudioAccount(),
    version,
    logger: { level: 'info' },
  });
  const stopped = stopSignal(io, args.shutdownGraceSeconds);
  let address: string;
  try {
    address = await server.app.listen({ host: args.host, port: args.port });
  } catch (thrown) {
    io.stderr(
      `murmur serve: cannot listen on ${args.host}:${args.port}: ${thrown instanceof Error ? thrown.message : String(thrown)}\n`,
    );
    return 1;
  }
  io.stderr(
    `murmur serve: listening on ${address} (${args.redis ? `every transcription a job on the queue in ${new URL(args.redis).host}, run by workers` : `${args.concurrency} at once, ${args.queue} waiting; async jobs in memory`}; keys ${args.auth ? 'required' : 'not asked for'}; docs at ${address}/docs)\n`,
  );
  await stopped;
  await server.stop();
  await closeEngines();
  await uploads.close();
  io.stderr('murmur serve: stopped\n');
  return 0;
}
