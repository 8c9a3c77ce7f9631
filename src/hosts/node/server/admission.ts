/**
 * Who may run now, who waits, and who is turned away: `concurrency` transcriptions at once,
 * `queue` more waiting for a free one, and nobody beyond (they get 429 at once rather than an
 * open connection with no end in sight). A request holds its place from the moment it is
 * admitted (its upload is read while it waits) until it leaves, whatever way it leaves.
 */
export class Admission {
  private readonly free: number[];
  private readonly waiters: { resolve: (slot: number) => void }[] = [];
  private held = 0;
  private running = 0;
  private meanSeconds = 10;
  private finished = 0;

  constructor(
    readonly concurrency: number,
    readonly queue: number,
  ) {
    this.free = Array.from({ length: concurrency }, (_, i) => concurrency - 1 - i);
  }

  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.held - this.running };
  }

  /** A place for one request, or null when every running and waiting place is taken. */
  enter(): Ticket | null {
    if (this.held >= this.concurrency + this.queue) return null;
    this.held++;
    return new Ticket(this);
  }

  /**
   * Seconds after which a refused client may try again: the time the work ahead of it takes,
   * from the mean of the transcriptions so far.
   */
  retryAfterSeconds(): number {
    const ahead = this.held / this.concurrency;
    return Math.max(1, Math.ceil(this.meanSeconds * Math.max(1, ahead)));
  }

  /** @internal */
  waitForSlot(signal?: AbortSignal): Promise<number> {
    const slot = this.free.pop();
    if (slot !== undefined) {
      this.running++;
      return Promise.resolve(slot);
    }
    return new Promise<number>((resolve, reject) => {
      const waiter = {
        resolve: (s: number) => {
          signal?.removeEventListener('abort', onAbort);
          this.running++;
          resolve(s);
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
    this.held--;
  }

  /** @internal A slot given back, after `seconds` of work (null: none was done). */
  releaseSlot(slot: number, seconds: number | null): void {
    if (seconds !== null) {
      this.finished++;
      this.meanSeconds += (seconds - this.meanSeconds) / Math.min(this.finished, 20);
    }
    this.running--;
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
    const slot = await this.admission.waitForSlot(signal);
    if (this.left) {
      // It left while waiting for the slot it has just been given: hand the slot on.
      this.admission.releaseSlot(slot, null);
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
    this.admission.releasePlace();
    if (this.slot !== null) {
      this.admission.releaseSlot(this.slot, (performance.now() - this.started) / 1000);
      this.slot = null;
    }
  }
}
