import type { FastifyPluginAsync, FastifyPluginOptions } from 'fastify';

/**
 * A plugin whose hooks, handlers and decorations apply to the whole server, not only to routes
 * registered inside it: Fastify's own marker for it (what the `fastify-plugin` package sets),
 * so that the request log, the error answers and the stop's 503 cover every route.
 */
export function shared<Options extends FastifyPluginOptions>(
  plugin: FastifyPluginAsync<Options>,
): FastifyPluginAsync<Options> {
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true });
}
