import type { FastifyRequest } from 'fastify';
import { forLog } from '../../http/request-context.ts';
import { noteSecurityEvent } from '../activity/activity-notes.ts';

/**
 * One log line per login, failure and security change, with the values made safe to log; the
 * same event goes to the user's activity log when the call ends (failed or not).
 */
export function authEvent(request: FastifyRequest, event: string, domain: string, username: string) {
  request.log.info({ event, domain: forLog(domain), user: forLog(username), ip: forLog(request.ip) }, event);
  noteSecurityEvent(request, { event, domainName: domain, username });
}
