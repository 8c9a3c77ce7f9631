import { curl, type CurlAnswer } from '../server/curl';
import { STAGES } from '../../../src/core/stages';
import type { JobView } from '../../../src/hosts/node';

/** A client of the async endpoints, as curl would be one. */
export function jobClient(base: string, headers: readonly string[] = []) {
  const submit = (form: readonly string[]): Promise<CurlAnswer> =>
    curl([...headers, ...form.flatMap((f) => ['-F', f]), `${base}/v2/transcription`]);
  const get = async (id: string) => curl([...headers, `${base}/v2/transcription/${id}`]);
  const view = async (id: string) => (await get(id)).json() as unknown as JobView;
  return {
    submit,
    get,
    view,
    cancel: (id: string) => curl([...headers, '-X', 'DELETE', `${base}/v2/transcription/${id}`]),
    /** The job's view once `check` holds (polled every 100 ms, for at most `ms`). */
    async until(id: string, check: (view: JobView) => boolean, what: string, ms = 40_000) {
      const end = Date.now() + ms;
      for (;;) {
        const current = await view(id);
        if (check(current)) return current;
        if (Date.now() > end) {
          throw new Error(
            `Timed out waiting for job ${id} to be ${what}: ${JSON.stringify(current).slice(0, 300)}`,
          );
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    /** Every view of the job from now to its end (polled every 50 ms), for its whole story. */
    async story(id: string, ms = 60_000): Promise<JobView[]> {
      const views: JobView[] = [];
      const end = Date.now() + ms;
      while (views.length === 0 || !finished(views.at(-1)!)) {
        if (Date.now() > end) throw new Error(`Timed out watching job ${id}`);
        views.push(await view(id));
        await new Promise((r) => setTimeout(r, 50));
      }
      return views;
    },
  };
}

export const finished = (view: JobView) =>
  view.status === 'done' || view.status === 'error' || view.status === 'cancelled';

/**
 * What in a job's views breaks the rule of its `stage`, the same with or without Redis: none
 * while it waits, one of the pipeline's while it runs (`download` while a link is fetched),
 * its last once done: `assemble`, or the chapters' or summary's stage when they were asked for.
 */
export function stageStoryProblems(views: readonly JobView[]): string[] {
  const problems: string[] = [];
  for (const [i, v] of views.entries()) {
    const where = `view ${i} (${v.status}, ${String(v.stage)}, ${String(v.progress)})`;
    if (v.status === 'queued' && (v.stage !== null || v.progress !== null)) problems.push(where);
    if (v.status === 'processing' && !STAGES.includes(v.stage!)) problems.push(where);
    const last = ['assemble', 'chapterize', 'summarize'];
    if (v.status === 'done' && (!last.includes(v.stage!) || v.progress !== 1)) problems.push(where);
  }
  return problems;
}
