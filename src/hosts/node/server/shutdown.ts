import type { FastifyInstance } from 'fastify';
import { ServiceError } from '../../../core/contract/errors';
import { sendError } from './send-error';
import type { ServerState } from './server-settings';
import { shared } from './shared-plugin';

/**
 * While the server stops, new requests get 503 (with the error body) rather than a refused
 * connection. `stop()` asks for it: once set, every request is answered so.
 */
export function stopping() {
  let asked = false;
  const plugin = shared(async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request, reply) => {
      if (!asked) return;
      reply.header('connection', 'close');
      return sendError(
        request,
        reply,
        new ServiceError(
          'engine_unavailable',
          'The service is stopping; send the request again (to another instance).',
        ),
      );
    });
  });
  return { plugin, ask: () => void (asked = true) };
}

/**
 * Stops taking requests, gives those in flight the grace period to finish (then cancels them,
 * each answered with the error body), closes the queue and the app, and lets the webhooks go
 * out within what is left of the grace.
 */
export async function stopServer(app: FastifyInstance, state: ServerState, ask: () => void) {
  const { settings, inFlight, jobs, webhooks } = state;
  ask();
  const graceEnds = Date.now() + settings.graceSeconds * 1000;
  const rest = () => Math.max(0, graceEnds - Date.now());
  const within = (work: Promise<unknown>) =>
    Promise.race([work, new Promise((resolve) => setTimeout(resolve, rest()).unref())]);
  // The listener stays open meanwhile, so that new requests get 503 rather than a refusal.
  await within(Promise.allSettled([...inFlight.values()]));
  if (inFlight.size > 0) {
    const cancelled = new ServiceError(
      'engine_unavailable',
      `The service stopped before this request finished (${settings.graceSeconds} s after it was asked to stop); send it again.`,
    );
    for (const controller of inFlight.keys()) controller.abort(cancelled);
    await Promise.allSettled([...inFlight.values()]);
  }
  await jobs.queue.close(rest());
  await app.close();
  await webhooks.settled(rest());
}
