/**
 * Throughput and recovery of the job queue: a Redis of its own, one `murmur serve --redis` and
 * 1, then 2, `murmur worker` processes on this machine. Submits short recordings as async jobs
 * all at once and reports jobs per minute until the last is done; then, with two workers, kills
 * the one running a long job (SIGKILL) and reports the time until the other takes it up (with
 * the workers' --lock-seconds 4 and --stalled-check-seconds 2; the defaults, 30 and 30, take
 * up to a minute).
 * usage: tsx tools/bench/jobs.ts [--jobs 12] [--workers 1,2]
 */
import { sharedMedia } from '../testing/ffmpeg-fixtures';
import { finished } from '../testing/jobs/job-client';
import { startQueueCluster } from '../testing/jobs/queue-cluster';

const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const count = Number(option('jobs') ?? 12);
const levels = (option('workers') ?? '1,2').split(',').map(Number);

/** Short real recordings, 2.9 to 11 s (mean 6.9 s), sent in turn. */
const FILES = [
  'speech/jfk.wav',
  'speech/LDC93S1.wav',
  'speech/beckett.wav',
  'speech/new-home-in-the-stars-16k.wav',
].map(sharedMedia);
const LONG = sharedMedia('speech/multilingual.mp3');

type Cluster = Awaited<ReturnType<typeof startQueueCluster>>;

async function submit(cluster: Cluster, file: string): Promise<string> {
  const answer = await cluster.jobs.submit([`audio=@${file}`]);
  if (answer.status !== 202) throw new Error(`A job was answered ${answer.status}.`);
  return (answer.json() as { id: string }).id;
}

async function throughput(cluster: Cluster) {
  // The first job of each worker pays for compiling the runtime's kernels: not counted.
  await Promise.all(
    cluster.workers.map(async (_, i) => {
      const id = await submit(cluster, FILES[i % FILES.length]!);
      await cluster.jobs.until(id, finished, 'finished', 120_000);
    }),
  );
  const started = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await submit(cluster, FILES[i % FILES.length]!));
  for (const id of ids) {
    const view = await cluster.jobs.until(id, finished, 'finished', 600_000);
    if (view.status !== 'done') throw new Error(`Job ${id} ended ${view.status}.`);
  }
  return (count / ((performance.now() - started) / 1000)) * 60;
}

/** Seconds from the SIGKILL of a job's worker to another worker's taking the job. */
async function pickUp(cluster: Cluster): Promise<number> {
  const id = await submit(cluster, LONG);
  await cluster.jobs.until(id, (v) => v.status === 'processing' && v.stage !== null, 'running');
  const victim = cluster.takerOf(id)!;
  const survivor = cluster.workers.find((w) => w !== victim)!;
  victim.child.kill('SIGKILL');
  const killed = performance.now();
  await victim.exited;
  const taken = () => survivor.logs().some((l) => l.job_id === id && l.event === 'processing');
  while (!taken()) await new Promise((resolve) => setTimeout(resolve, 20));
  const seconds = (performance.now() - killed) / 1000;
  cluster.workers = [survivor];
  await cluster.jobs.until(id, finished, 'finished', 600_000);
  return seconds;
}

const rows: string[] = [];
let recovery: number | null = null;
for (const workers of levels) {
  const cluster = await startQueueCluster({ workers, serve: ['--max-queued', String(count * 2)] });
  try {
    const perMinute = await throughput(cluster);
    rows.push(`| ${workers} | ${count} | ${perMinute.toFixed(1)} |`);
    if (workers >= 2) recovery = await pickUp(cluster);
  } finally {
    await cluster.stop();
  }
}
console.log('| workers | jobs | jobs per minute |');
console.log('| ------- | ---- | --------------- |');
for (const row of rows) console.log(row);
if (recovery !== null) {
  console.log(`\nSIGKILL to pick-up by the other worker: ${recovery.toFixed(1)} s`);
}
