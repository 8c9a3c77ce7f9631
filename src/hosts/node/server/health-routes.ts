import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from '../../../core/contract/openapi';
import type { ServerState } from './server-settings';

const ICON = new URL('../../../../public/icon.svg', import.meta.url);

/** `/health`, `/metrics`, and the interface's documents: `/openapi.json` and the `/docs` page. */
export async function healthRoutes(app: FastifyInstance, state: ServerState) {
  const { settings, admission, uploadBudget, metrics, jobs } = state;
  await app.register(swagger, {
    mode: 'static',
    specification: { document: openApiDocument(settings.version) as never },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // The service's own mark in the page's top bar.
    logo: { type: 'image/svg+xml', content: readFileSync(ICON), href: '/docs', target: '_self' },
  });

  app.get('/health', async (_request, reply) => {
    const { running, waiting } = admission.load;
    const queue = await jobs.queue.health();
    return reply.code(queue.ok ? 200 : 503).send({
      status: queue.ok ? 'ok' : 'unavailable',
      running,
      waiting,
      uploads: { ...uploadBudget.load, max_bytes: uploadBudget.maxBytes },
      concurrency: settings.concurrency,
      queue: settings.queue,
      page_links: {
        available: settings.pageLinks?.version != null,
        yt_dlp: settings.pageLinks?.version ?? null,
      },
      ...queue.detail,
    });
  });

  app.get('/metrics', async (_request, reply) =>
    reply.header('content-type', metrics.contentType).send(await metrics.text()),
  );

  app.get('/openapi.json', async (_request, reply) => reply.send(app.swagger()));
}
