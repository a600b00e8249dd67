import type { FastifyInstance } from 'fastify';
import type { HealthService } from './health.service.ts';

/**
 * `GET {base}health/` for load balancers: no session, no CSRF header, and nothing but the state,
 * `{"status":"ok"}` (200) or `{"status":"degraded"}` (503) — no versions, hosts or errors, which
 * would tell a stranger what to attack.
 */
export function registerHealthRoute(app: FastifyInstance, basePath: string, health: HealthService) {
  app.get(`${basePath}health/`, async (_request, reply) => {
    const status = await health.check();
    reply.header('cache-control', 'no-store');
    return reply.code(status === 'ok' ? 200 : 503).send({ status });
  });
}
