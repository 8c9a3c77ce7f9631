import type { BrowserContext, Request } from '@playwright/test';

/** One response that came over the network, whoever asked: the page, a worker, the service worker. */
export interface FetchedFile {
  url: string;
  /** Body bytes as decoded (before compression, where the server compressed). */
  bytes: number;
  /** Fetched by the service worker (its precache, a route it fetches through). */
  byServiceWorker: boolean;
  /** When it was asked for and when its last byte came (Date.now()). */
  startedAt: number;
  finishedAt: number;
}

/**
 * Every response a browser context receives from the network, counted as it finishes: those
 * of the page, of its workers and of its service worker (Playwright reports the service
 * worker's own fetches with `request.serviceWorker()`). A page request the service worker
 * answered is not counted again: its fetch, if it made one, is.
 */
export class NetworkBytes {
  readonly files: FetchedFile[] = [];
  private readonly pending = new Set<Promise<void>>();
  private lastActivity = Date.now();

  constructor(context: BrowserContext) {
    context.on('request', () => (this.lastActivity = Date.now()));
    context.on('requestfinished', (request) => {
      this.lastActivity = Date.now();
      // A response still arriving as its page closes is not counted.
      const counted = this.count(request).catch(() => undefined);
      this.pending.add(counted);
      void counted.finally(() => this.pending.delete(counted));
    });
  }

  private async count(request: Request): Promise<void> {
    const finishedAt = Date.now();
    const response = await request.response();
    if (!response || response.fromServiceWorker()) return;
    const bytes = await response.body().then(
      (body) => body.byteLength,
      async () => (await request.sizes()).responseBodySize,
    );
    const timing = request.timing();
    this.files.push({
      url: request.url(),
      bytes,
      byServiceWorker: request.serviceWorker() !== null,
      startedAt: timing.startTime > 0 ? timing.startTime : finishedAt,
      finishedAt,
    });
  }

  /** Waits until nothing was asked of the network for `ms`, and everything is counted. */
  async quiet(ms: number): Promise<void> {
    while (Date.now() - this.lastActivity < ms) await new Promise((r) => setTimeout(r, 100));
    await this.settled();
  }

  /** Waits until the responses that finished so far are counted. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  total(from = 0): number {
    return this.files.slice(from).reduce((sum, f) => sum + f.bytes, 0);
  }
}
