import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { Language } from '@panel247/contract/constants';
import type { FastifyInstance } from 'fastify';
import { notFoundEnvelope } from './error-handler.ts';

/** Vite names every file under assets/ by its content's hash: a changed file is a new address. */
const HASHED_FOLDER = 'assets';

export interface WebAppOptions {
  /** The built web app (apps/web/dist); without its index.html the panel answers 503. */
  dist: string;
  basePath: string;
  defaultLanguage: Language;
}

/**
 * Serves the built SPA; unknown non-API paths get index.html so client routes work on reload.
 * Text files go out as the Brotli or gzip copies the build wrote beside them, and the hashed
 * ones are cached for a year: a returning visitor fetches only index.html.
 */
export async function registerWebApp(app: FastifyInstance, options: WebAppOptions) {
  const indexFile = path.join(options.dist, 'index.html');
  const hasWeb = existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: options.dist,
      prefix: '/',
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders(reply, file) {
        if (path.relative(options.dist, file).split(path.sep)[0] === HASHED_FOLDER) {
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith(options.basePath)) return notFoundEnvelope(request, reply, options.defaultLanguage);
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply.code(404).send();
    if (!hasWeb) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built: run `npm run build` (or `npm start`, which builds it).');
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(readFileSync(indexFile));
  });
}
