import type { FastifyInstance } from 'fastify';
import { clientCallOf } from '../../http/client-call-of.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { SignonTokens } from '../signon/signon-tokens.ts';

/**
 * `GET {base}user/login/link/?token=…`: the provider's one-time login link (see
 * ProvisioningService.loginLink). A link a browser opens, so a plain GET without the CSRF header:
 * the token, 32 random bytes that work once within a minute, is what authorises it. It starts the
 * session and sends the browser to the panel; a used, expired or unknown link lands on the login
 * page with `?login_link=invalid` (the reason is not told).
 */
export function registerLoginLinkRoute(
  app: FastifyInstance,
  basePath: string,
  auth: Pick<AuthService, 'loginByLink'>,
  signon: Pick<SignonTokens, 'take'>,
) {
  app.get(`${basePath}user/login/link/`, async (request, reply) => {
    const token = (request.query as { token?: unknown }).token;
    const call = clientCallOf(request, reply);
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    try {
      const userId =
        typeof token === 'string' && token.length <= 64 ? await signon.take('panel-login', token) : undefined;
      await auth.loginByLink(call, userId);
      return reply.redirect('/', 303);
    } catch {
      return reply.redirect('/?login_link=invalid', 303);
    }
  });
}
