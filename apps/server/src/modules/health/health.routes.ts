import type { FastifyInstance } from 'fastify';
import type { HealthService } from './health.service.ts';

/**
 * `GET {base}health/` for load balancers: no session, no CSRF header, and nothing but the state,
 * `{"status":"ok"}` (200) or `{"status":"degraded"}` (503) — no versions, hosts or errors, which
 * would tell a stranger what to attack. While some of the provider's servers are down it adds
 * their number, `"serversDown": 2`, and stays 200: their names are for doctor and `node list`.
 */
export function registerHealthRoute(app: FastifyInstance, basePath: string, health: HealthService) {
  app.get(`${basePath}health/`, async (_request, reply) => {
    const { status, serversDown } = await health.check();
    reply.header('cache-control', 'no-store');
    return reply.code(status === 'ok' ? 200 : 503).send(serversDown > 0 ? { status, serversDown } : { status });
  });
}
