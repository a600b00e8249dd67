import type { FastifyInstance } from 'fastify';
import type { AltchaVerifier } from './altcha.verifier.ts';

/**
 * The ALTCHA widget fetches its challenge with a plain GET and expects the bare challenge JSON,
 * so this one answer is not an envelope (and is exempt from the CSRF header rule).
 */
export function registerCaptchaRoutes(app: FastifyInstance, basePath: string, altcha: AltchaVerifier | undefined) {
  app.get(`${basePath}captcha/challenge/`, async (_request, reply) => {
    if (!altcha) return reply.code(404).send({ error: 'captcha disabled' });
    reply.header('cache-control', 'no-store');
    return altcha.createChallenge();
  });
}
