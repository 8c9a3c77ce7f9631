import { curl, type CurlAnswer } from '../../server/testing/curl';
import type { JobView } from '../job-queue';

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
  };
}

export const finished = (view: JobView) =>
  view.status === 'done' || view.status === 'error' || view.status === 'cancelled';
