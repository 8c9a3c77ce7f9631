import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { TranscriptionResponse } from '../../../core/contract/response';
import type { DeliveryOutcome } from '../../../core/webhook/delivery';
import type { JobEvent, QueueHealth } from './job-queue';

/**
 * What `/metrics` tells, in Prometheus' format: the jobs' states and the queue's depth (read
 * from the queue when scraped, so the same from every server on one Redis), and what this
 * process did itself: job events, job and stage durations, webhook outcomes. Each process has
 * its own registry, so that tests and several servers in one process do not mix their numbers.
 */
export class JobMetrics {
  readonly registry = new Registry();
  private readonly events: Counter<'event'>;
  private readonly jobSeconds: Histogram<'status'>;
  private readonly stageSeconds: Histogram<'stage'>;
  private readonly webhooks: Counter<'outcome'>;

  /** `health`: the queue's own report, read at each scrape for the gauges. */
  constructor(health?: () => Promise<QueueHealth>) {
    const registers = [this.registry];
    this.events = new Counter({
      name: 'murmur_job_events_total',
      help: 'Job events seen by this process (queued, processing, done, error, cancelled, retrying).',
      labelNames: ['event'],
      registers,
    });
    const buckets = [0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];
    this.jobSeconds = new Histogram({
      name: 'murmur_job_duration_seconds',
      help: 'Time from a job (or synchronous request) getting an engine to its end, by how it ended.',
      labelNames: ['status'],
      buckets,
      registers,
    });
    this.stageSeconds = new Histogram({
      name: 'murmur_stage_duration_seconds',
      help: "Seconds each pipeline stage took, from the response's metadata.",
      labelNames: ['stage'],
      buckets,
      registers,
    });
    this.webhooks = new Counter({
      name: 'murmur_webhook_deliveries_total',
      help: 'Webhook deliveries by outcome (delivered, or failed after every try).',
      labelNames: ['outcome'],
      registers,
    });
    if (!health) return;
    new Gauge({
      name: 'murmur_jobs',
      help: 'Jobs now queued and processing.',
      labelNames: ['state'],
      registers,
      async collect() {
        const jobs = (await health()).detail.jobs as Record<string, number> | undefined;
        this.set({ state: 'queued' }, jobs?.queued ?? 0);
        this.set({ state: 'processing' }, jobs?.processing ?? 0);
      },
    });
    new Gauge({
      name: 'murmur_queue_depth',
      help: 'Jobs waiting for a worker (or an engine, in memory).',
      registers,
      async collect() {
        const jobs = (await health()).detail.jobs as Record<string, number> | undefined;
        this.set(jobs?.queued ?? 0);
      },
    });
    new Gauge({
      name: 'murmur_queue_up',
      help: 'Whether the queue (Redis) answers: 1 or 0.',
      registers,
      async collect() {
        this.set((await health()).ok ? 1 : 0);
      },
    });
  }

  jobEvent(event: JobEvent): void {
    this.events.inc({ event: event.event });
  }

  /**
   * A step of a synchronous request that this process runs itself (no queue between): counted
   * with the jobs' events, as it is when the request is a job on a queue in Redis.
   */
  requestEvent(event: JobEvent['event']): void {
    this.events.inc({ event });
  }

  /** A job's end after `seconds` with an engine, and its stages' times when it has a result. */
  jobEnded(status: string, seconds: number, response?: TranscriptionResponse): void {
    this.jobSeconds.observe({ status }, seconds);
    if (!response) return;
    for (const [name, value] of Object.entries(response.prediction_raw.metadata)) {
      if (!name.endsWith('_time') || name === 'total_transcription_time') continue;
      if (typeof value === 'number' && value > 0) {
        this.stageSeconds.observe({ stage: name.slice(0, -'_time'.length) }, value);
      }
    }
  }

  webhook(outcome: DeliveryOutcome): void {
    this.webhooks.inc({ outcome: outcome.delivered ? 'delivered' : 'failed' });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
