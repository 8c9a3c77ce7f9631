/** Who holds a transcription slot: a synchronous request (through its place) or an async job. */
type Holder = 'request' | 'job';

/**
 * Who may run now, who waits, and who is turned away: `concurrency` transcriptions at once,
 * `queue` more waiting for a free one, and nobody beyond (they get 429 at once rather than an
 * open connection with no end in sight). A synchronous request holds a place from the moment it
 * is admitted (once its upload has arrived: a client that sends slowly costs a socket, not a
 * place) until it leaves, whatever way it leaves. An async job of the embedded queue waits in
 * that queue (`--max-queued`), not here; once it has a slot it takes a place too, since it is
 * one of the `concurrency` transcriptions running.
 */
export class Admission {
  private readonly free: number[];
  private readonly waiters: { resolve: (slot: number) => void }[] = [];
  /** Places of synchronous requests, and how many of them hold a slot. */
  private places = 0;
  private placesRunning = 0;
  /** Slots held by async jobs. */
  private jobsRunning = 0;
  private meanSeconds = 10;
  private finished = 0;

  constructor(
    readonly concurrency: number,
    readonly queue: number,
  ) {
    this.free = Array.from({ length: concurrency }, (_, i) => concurrency - 1 - i);
  }

  /** Transcriptions running (requests and jobs), and admitted requests waiting for a slot. */
  get load(): { running: number; waiting: number } {
    return {
      running: this.placesRunning + this.jobsRunning,
      waiting: this.places - this.placesRunning,
    };
  }

  private get taken(): number {
    return this.places + this.jobsRunning;
  }

  /** Whether a request would be admitted now (its upload is read only if so). */
  hasRoom(): boolean {
    return this.taken < this.concurrency + this.queue;
  }

  /** A place for one request, or null when every running and waiting place is taken. */
  enter(): Ticket | null {
    if (!this.hasRoom()) return null;
    this.places++;
    return new Ticket(this);
  }

  /**
   * Seconds after which a refused client may try again: the time the work ahead of it takes,
   * from the mean of the transcriptions so far.
   */
  retryAfterSeconds(): number {
    const ahead = this.taken / this.concurrency;
    return Math.max(1, Math.ceil(this.meanSeconds * Math.max(1, ahead)));
  }

  /** Waits for a free slot for an async job; give it back with `jobLeft`. */
  jobSlot(signal?: AbortSignal): Promise<number> {
    return this.waitForSlot('job', signal);
  }

  /** A job's slot given back after `seconds` of work. */
  jobLeft(slot: number, seconds: number): void {
    this.releaseSlot('job', slot, seconds);
  }

  /** @internal */
  waitForSlot(holder: Holder, signal?: AbortSignal): Promise<number> {
    const grant = (slot: number) => {
      if (holder === 'job') this.jobsRunning++;
      else this.placesRunning++;
      return slot;
    };
    const slot = this.free.pop();
    if (slot !== undefined) return Promise.resolve(grant(slot));
    return new Promise<number>((resolve, reject) => {
      const waiter = {
        resolve: (s: number) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(grant(s));
        },
      };
      const onAbort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at !== -1) this.waiters.splice(at, 1);
        reject(signal?.reason as Error);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** @internal A place given back. */
  releasePlace(): void {
    this.places--;
  }

  /** @internal A slot given back, after `seconds` of work (null: none was done). */
  releaseSlot(holder: Holder, slot: number, seconds: number | null): void {
    if (seconds !== null) {
      this.finished++;
      this.meanSeconds += (seconds - this.meanSeconds) / Math.min(this.finished, 20);
    }
    if (holder === 'job') this.jobsRunning--;
    else this.placesRunning--;
    const next = this.waiters.shift();
    if (next) next.resolve(slot);
    else this.free.push(slot);
  }
}

/** One admitted request's place. */
export class Ticket {
  private slot: number | null = null;
  private started = 0;
  private left = false;

  constructor(private readonly admission: Admission) {}

  /** Waits for a free transcription slot and returns its index. */
  async start(signal?: AbortSignal): Promise<number> {
    const slot = await this.admission.waitForSlot('request', signal);
    if (this.left) {
      // It left while waiting for the slot it has just been given: hand the slot on.
      this.admission.releaseSlot('request', slot, null);
      throw new Error('The request left before its turn.');
    }
    this.slot = slot;
    this.started = performance.now();
    return slot;
  }

  /** Gives the place (and the slot, if it has one) back; safe to call more than once. */
  leave(): void {
    if (this.left) return;
    this.left = true;
    if (this.slot !== null) {
      this.admission.releaseSlot('request', this.slot, (performance.now() - this.started) / 1000);
      this.slot = null;
    }
    this.admission.releasePlace();
  }
}
