import type { FastifyInstance } from 'fastify';
import { AccountSuspendedError } from '../../errors.ts';
import { clientCallOf } from '../../http/client-call-of.ts';
import { escapeHtml } from '../../http/index-page.ts';
import { requestLanguage } from '../../http/request-context.ts';
import { translate } from '../../i18n/messages.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { SignonTokens } from '../signon/signon-tokens.ts';

/**
 * `GET {base}user/login/link/?token=…`: the provider's one-time login link (see
 * ProvisioningService.loginLink). A link a browser opens, so a plain GET without the CSRF header:
 * the token, 32 random bytes that work once within a minute, is what authorises it. It starts the
 * session and sends the browser to the panel (303). A link that cannot log in answers 403 with a
 * short page saying why in the panel's language — used, expired or unknown (which of them is not
 * told), or the account suspended with its reason — and a way to the login page. The page is the
 * server's, not the web app's: the login route's scripts stay within their budget.
 */
export function registerLoginLinkRoute(
  app: FastifyInstance,
  basePath: string,
  defaultLanguage: Parameters<typeof requestLanguage>[1],
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
    } catch (error) {
      const language = requestLanguage(request, defaultLanguage);
      const why =
        error instanceof AccountSuspendedError
          ? translate(language, error.messageKey, error.params)
          : translate(language, 'auth.link_invalid');
      return reply
        .code(403)
        .type('text/html; charset=utf-8')
        .send(refusedPage(language, why, translate(language, 'auth.link_to_login')));
    }
  });
}

function refusedPage(language: string, why: string, toLogin: string): string {
  return [
    '<!DOCTYPE html>',
    `<html lang="${escapeHtml(language)}"><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">',
    `<title>${escapeHtml(why)}</title></head>`,
    `<body><main><p role="alert">${escapeHtml(why)}</p><p><a href="/login/">${escapeHtml(toLogin)}</a></p></main></body></html>`,
  ].join('\n');
}
