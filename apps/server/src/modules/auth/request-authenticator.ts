import { ForbiddenError } from '../../errors.ts';
import type { Authenticator } from '../../http/api-route.ts';
import type { Actor } from './actor.ts';
import type { ApiTokenService } from './api-token.service.ts';
import type { ClientCall } from './client-call.ts';
import type { SessionService } from './session.service.ts';

/**
 * Whether a route (under the base path, as registered: `user/passkeys/:id/remove/`) takes the
 * session only: the user's own login settings, everything under `user/` but the user's info.
 * Password, second factor, sessions and tokens need the person, not a script. The OpenAPI
 * document says the same from here.
 */
export function sessionOnly(route: string): boolean {
  return route.startsWith('user/') && route !== 'user/info/';
}

/**
 * Who is calling, for every session-bound route: the API token of an `Authorization` header when
 * there is one (never the cookie then), else the session cookie. A token reaches the same routes
 * through the same guard, except the session-only ones (see sessionOnly).
 */
export class RequestAuthenticator implements Authenticator {
  constructor(
    private readonly sessions: SessionService,
    private readonly tokens: ApiTokenService,
    private readonly basePath: string,
  ) {}

  authenticate(call: ClientCall): Promise<Actor> {
    if (call.authorization === undefined) return this.sessions.authenticate(call);
    const { route } = call;
    if (route.startsWith(this.basePath) && sessionOnly(route.slice(this.basePath.length))) {
      return Promise.reject(new ForbiddenError('apitokens.session_only'));
    }
    return this.tokens.authenticate(call);
  }
}
