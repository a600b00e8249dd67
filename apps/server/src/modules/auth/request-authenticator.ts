import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError } from '../../errors.ts';
import type { Authenticator } from '../../http/api-route.ts';
import type { Actor } from './actor.ts';
import type { ApiTokenService } from './api-token.service.ts';
import type { SessionService } from './session.service.ts';

/**
 * Who is calling, for every session-bound route: the API token of an `Authorization` header when
 * there is one (never the cookie then), else the session cookie. A token reaches the same routes
 * through the same guard, except the user's own login settings (everything under `user/` but the
 * user's info): password, second factor, sessions and tokens need the person, not a script.
 */
export class RequestAuthenticator implements Authenticator {
  constructor(
    private readonly sessions: SessionService,
    private readonly tokens: ApiTokenService,
    private readonly basePath: string,
  ) {}

  authenticate(request: FastifyRequest, reply: FastifyReply): Promise<Actor> {
    if (request.headers.authorization === undefined) return this.sessions.authenticate(request, reply);
    const route = request.routeOptions?.url ?? '';
    if (route.startsWith(`${this.basePath}user/`) && route !== `${this.basePath}user/info/`) {
      return Promise.reject(new ForbiddenError('apitokens.session_only'));
    }
    return this.tokens.authenticate(request);
  }
}
