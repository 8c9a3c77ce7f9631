import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServe, type ServeProcess } from '../server/serve-process';
import { jobClient } from './job-client';
import { startRedis } from './redis-process';
import { startWorker, type WorkerProcess } from './worker-process';

/** Short enough that a dead worker's job is taken again within seconds, in a test. */
const QUICK_RECOVERY = ['--lock-seconds', '4', '--stalled-check-seconds', '2'];
const METRICS = ['--metrics', '127.0.0.1:0'];

/**
 * A deployment in small: a Redis of its own, a store folder, one `murmur serve --redis` and
 * `workers` `murmur worker` processes, all on this machine.
 */
export async function startQueueCluster(options: { workers: number; serve?: string[] }) {
  const key = 'queue-key';
  const secret = `whsec_${Buffer.from('the webhook key of a test cluster').toString('base64')}`;
  const env = { MURMUR_SERVICE_KEYS: key, MURMUR_WEBHOOK_SECRET: secret };
  // Webhook receivers in tests listen on loopback.
  const redis = await startRedis();
  const store = mkdtempSync(join(tmpdir(), 'murmur-store-'));
  const worker = (extra: readonly string[] = []) =>
    startWorker(
      [
        '--redis',
        redis.url,
        '--store',
        store,
        '--allow-private-urls',
        ...QUICK_RECOVERY,
        ...METRICS,
        ...extra,
      ],
      env,
    );
  const [server, ...workers] = (await Promise.all([
    startServe(
      ['--redis', redis.url, '--store', store, '--allow-private-urls', ...(options.serve ?? [])],
      env,
    ),
    ...Array.from({ length: options.workers }, () => worker()),
  ])) as [ServeProcess, ...WorkerProcess[]];
  const cluster = {
    redis,
    store,
    secret,
    server,
    workers,
    jobs: jobClient(server.url, ['-H', `x-service-key: ${key}`]),
    /** Starts more workers (with options beside the cluster's). */
    async addWorkers(count: number, extra: readonly string[] = []) {
      const started = await Promise.all(Array.from({ length: count }, () => worker(extra)));
      cluster.workers.push(...started);
      return started;
    },
    /** The worker whose log says it took the job. */
    takerOf: (id: string) =>
      cluster.workers.find((w) =>
        w.logs().some((l) => l.job_id === id && l.event === 'processing'),
      ),
    /** Whether a worker logged the job's end as `event`. */
    ended: (id: string, event: string) =>
      cluster.workers.some((w) => w.logs().some((l) => l.job_id === id && l.event === event)),
    async stop() {
      await Promise.all([server.stop(), ...cluster.workers.map((w) => w.stop())]);
      await redis.remove();
      rmSync(store, { recursive: true, force: true });
    },
  };
  return cluster;
}
