import type { FastifyBaseLogger } from 'fastify';
import { forLog } from '../../http/request-context.ts';

/** One log line per login, failure and security change, with the values made safe to log. */
export function authEvent(log: FastifyBaseLogger, event: string, domain: string, username: string, ip: string) {
  log.info({ event, domain: forLog(domain), user: forLog(username), ip: forLog(ip) }, event);
}
