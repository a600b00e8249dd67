import { readFileSync } from 'node:fs';
import { DEFAULT_LOGO_MINI_PATH, DEFAULT_LOGO_PATH } from '@panel247/contract/config';
import type { FastifyInstance } from 'fastify';
import { repoPath } from '../paths.ts';

/** The default logos, used by brands that have none, served outside the API (plain images). */
export function registerDefaultLogos(app: FastifyInstance) {
  const logo = readFileSync(repoPath('apps/server/assets/default-logo.svg'));
  const mini = readFileSync(repoPath('apps/server/assets/default-logo-mini.svg'));
  for (const [path, body] of [
    [DEFAULT_LOGO_PATH, logo],
    [DEFAULT_LOGO_MINI_PATH, mini],
  ] as const) {
    app.get(path, (_request, reply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(body),
    );
  }
}
