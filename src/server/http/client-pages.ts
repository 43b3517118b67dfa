import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminApiBase } from '../../contract/headers.js';
import type { AppContext } from '../app-context.js';
import { errors } from '../errors.js';
import { STORAGE_URL_PREFIX } from '../uploads/storage.js';
import { requestLanguage } from './dispatch.js';
import { envelopeOf, sendEnvelope } from './envelope.js';
import { cookieLanguage, loadFirstPainter, withFirstPaint, withSiteName } from './first-paint.js';
import { pageHtml, pagePath, standalonePageAt } from './page-preload.js';

/**
 * The built client: its hashed assets, and every other address that is not the API's, answered with the
 * app's page (standalone pages with their first view inside). API addresses nobody answers are a 404 envelope.
 */
export async function registerClientPages(
  server: FastifyInstance,
  app: AppContext,
  clientDir: string | undefined,
): Promise<void> {
  const indexHtml =
    clientDir && existsSync(join(clientDir, 'index.html')) ? readFileSync(join(clientDir, 'index.html')) : undefined;
  const htmlFor = clientDir && indexHtml ? pageHtml(clientDir, indexHtml) : undefined;
  const firstPaint =
    clientDir && indexHtml ? await loadFirstPainter(clientDir, (error) => server.log.error(error)) : undefined;
  if (clientDir && indexHtml) {
    // Hashed file names: a file never changes, so browsers keep it a year without asking again. The
    // build wrote each text asset beside itself as `.br` and `.gz`; the one the browser accepts is sent.
    await server.register(fastifyStatic, {
      root: join(clientDir, 'assets'),
      prefix: '/assets/',
      immutable: true,
      maxAge: '1y',
      preCompressed: true,
      setHeaders: (response) => response.setHeader('vary', 'accept-encoding'),
    });
  }

  const apiPrefixes = [`${adminApiBase(app.settings.adminEntrance)}/`, '/api/', '/index.php/', STORAGE_URL_PREFIX];
  server.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const isApi = apiPrefixes.some((prefix) => path.startsWith(prefix));
    if (!isApi && htmlFor && (request.method === 'GET' || request.method === 'HEAD')) {
      // SPA routes (/, /chidaoadminstator/..., /user/..., /404 ...) are resolved by the client router.
      // The page is in the language of the browser's cookie, else of its Accept-Language: caches keep one answer per both.
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', 'cookie, accept-language');
      const language = cookieLanguage(request);
      // the page is answered without the name when the database cannot say it (the page's code asks again)
      const named = app.config.get('site_name').then(
        (name) => String(name ?? ''),
        () => '',
      );
      return named.then(async (siteName) => {
        const html = withSiteName(htmlFor(path, language).toString('utf8'), siteName);
        const page = firstPaint && standalonePageAt(path);
        if (!page || !firstPaint) return reply.send(html);
        const mark = request.url.indexOf('?');
        const view = await firstPaint(
          page,
          pagePath(path),
          mark < 0 ? '' : request.url.slice(mark),
          language,
          siteName,
        );
        return reply.send(view ? withFirstPaint(html, view, language) : html);
      });
    }
    const { t } = requestLanguage(app, request);
    return sendEnvelope(reply, envelopeOf(errors.notFound(path), t, Math.floor(Date.now() / 1000)), 404);
  });
}
