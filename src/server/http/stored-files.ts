import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AppContext } from '../app-context.js';
import { fileOfUrl, STORAGE_URL_PREFIX } from '../uploads/storage.js';

/** The default avatar (the PNG's bytes) and the uploaded files, read-only. */
export async function registerStoredFiles(server: FastifyInstance, app: AppContext, avatar: Buffer): Promise<void> {
  server.get('/static/images/avatar.png', (_request, reply) =>
    reply.header('cache-control', 'public, max-age=86400').type('image/png').send(avatar),
  );

  // Uploaded files, read-only: plain files inside the storage directory only (no listing, no dot paths).
  const storageDir = resolve(app.settings.storageDir);
  mkdirSync(storageDir, { recursive: true });
  await server.register(fastifyStatic, {
    root: storageDir,
    prefix: STORAGE_URL_PREFIX,
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: 'deny',
    maxAge: '1d',
    allowedPath: (pathname) => {
      const file = fileOfUrl(storageDir, `${STORAGE_URL_PREFIX}${pathname.replace(/^\/+/, '')}`);
      try {
        return file !== undefined && statSync(file).isFile();
      } catch {
        return false;
      }
    },
    setHeaders: (response) => response.setHeader('x-content-type-options', 'nosniff'),
  });
}
