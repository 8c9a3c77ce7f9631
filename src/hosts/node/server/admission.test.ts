import { describe, expect, it } from 'vitest';
import { Admission } from './admission';

describe('Admission', () => {
  it('admits concurrency + queue requests and refuses the next', () => {
    const admission = new Admission(1, 1);
    expect(admission.enter()).not.toBeNull();
    expect(admission.enter()).not.toBeNull();
    expect(admission.enter()).toBeNull();
  });

  it('runs one at a time and hands the slot to the next in line', async () => {
    const admission = new Admission(1, 2);
    const a = admission.enter()!;
    const b = admission.enter()!;
    expect(await a.start()).toBe(0);
    let bStarted = false;
    const bSlot = b.start().then((slot) => ((bStarted = true), slot));
    await Promise.resolve();
    expect(bStarted).toBe(false);
    expect(admission.load).toEqual({ running: 1, waiting: 1 });
    a.leave();
    expect(await bSlot).toBe(0);
    expect(admission.load).toEqual({ running: 1, waiting: 0 });
    b.leave();
    b.leave();
    expect(admission.load).toEqual({ running: 0, waiting: 0 });
    expect(admission.enter()).not.toBeNull();
  });

  it('gives distinct slots to requests that run at once', async () => {
    const admission = new Admission(2, 0);
    const slots = await Promise.all([admission.enter()!.start(), admission.enter()!.start()]);
    expect(slots.sort()).toEqual([0, 1]);
  });

  it('drops a waiting request whose client went away, and frees its place', async () => {
    const admission = new Admission(1, 1);
    const a = admission.enter()!;
    await a.start();
    const b = admission.enter()!;
    const controller = new AbortController();
    const waiting = b.start(controller.signal);
    controller.abort(new Error('client gone'));
    await expect(waiting).rejects.toThrow('client gone');
    b.leave();
    a.leave();
    expect(admission.load).toEqual({ running: 0, waiting: 0 });
    const c = admission.enter()!;
    expect(await c.start()).toBe(0);
  });

  it('tells a refused client to come back after the work ahead of it', async () => {
    const admission = new Admission(1, 0);
    const a = admission.enter()!;
    await a.start();
    expect(admission.retryAfterSeconds()).toBeGreaterThanOrEqual(1);
  });

  it('counts a running job as running, never as a negative wait', async () => {
    const admission = new Admission(1, 8);
    const slot = await admission.jobSlot();
    expect(admission.load).toEqual({ running: 1, waiting: 0 });
    admission.jobLeft(slot, 1);
    expect(admission.load).toEqual({ running: 0, waiting: 0 });
  });

  it('admits only the queue while a job holds the one slot', async () => {
    const admission = new Admission(1, 8);
    const slot = await admission.jobSlot();
    const tickets = Array.from({ length: 20 }, () => admission.enter());
    expect(tickets.filter((t) => t !== null)).toHaveLength(8);
    expect(admission.hasRoom()).toBe(false);
    expect(admission.load).toEqual({ running: 1, waiting: 8 });
    // The job's end hands the slot to the first request in line, and frees a place.
    const first = tickets[0]!.start();
    admission.jobLeft(slot, 1);
    expect(await first).toBe(0);
    expect(admission.load).toEqual({ running: 1, waiting: 7 });
    expect(admission.hasRoom()).toBe(true);
    for (const ticket of tickets) ticket?.leave();
    expect(admission.load).toEqual({ running: 0, waiting: 0 });
  });

  it('gives a job waiting for a slot its turn after the requests before it', async () => {
    const admission = new Admission(1, 1);
    const a = admission.enter()!;
    await a.start();
    let jobStarted = false;
    const job = admission.jobSlot().then((slot) => ((jobStarted = true), slot));
    a.leave();
    expect(await job).toBe(0);
    expect(jobStarted).toBe(true);
    expect(admission.load).toEqual({ running: 1, waiting: 0 });
  });
});
