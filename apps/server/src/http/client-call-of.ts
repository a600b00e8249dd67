import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ClientCall } from '../modules/auth/client-call.ts';

/** What a route opts into with its config (api-route.ts sets it). */
interface RouteFlags {
  beforeSecondFactor?: boolean;
}

/** A WebSocket's upgrade has no reply to set a cookie on (and never needs one). */
function answerOf(reply: FastifyReply | undefined): FastifyReply {
  if (!reply) throw new Error('this call has no answer to set a cookie on');
  return reply;
}

const calls = new WeakMap<FastifyRequest, ClientCall>();

/**
 * The call a request is, for the services: made once per request, so that the router, the
 * authenticator and the handler share its security events.
 */
export function clientCallOf(request: FastifyRequest, reply?: FastifyReply): ClientCall {
  const known = calls.get(request);
  if (known) return known;
  const call: ClientCall = {
    ip: request.ip,
    userAgent: String(request.headers['user-agent'] ?? '').slice(0, 512),
    secure: request.protocol === 'https',
    host: request.host,
    authorization: request.headers.authorization,
    route: request.routeOptions?.url ?? '',
    beforeSecondFactor: Boolean((request.routeOptions?.config as RouteFlags | undefined)?.beforeSecondFactor),
    log: request.log,
    cookie: (name) => request.cookies[name],
    setCookie: (name, value, options) => void answerOf(reply).setCookie(name, value, options),
    clearCookie: (name, options) => void answerOf(reply).clearCookie(name, options),
    securityEvents: [],
  };
  calls.set(request, call);
  return call;
}
