import { forLog } from '../../http/request-context.ts';
import { noteSecurityEvent } from '../activity/activity-notes.ts';
import type { ClientCall } from './client-call.ts';

/**
 * One log line per login, failure and security change, with the values made safe to log; the
 * same event goes to the user's activity log when the call ends (failed or not).
 */
export function authEvent(call: ClientCall, event: string, domain: string, username: string) {
  call.log.info({ event, domain: forLog(domain), user: forLog(username), ip: forLog(call.ip) }, event);
  noteSecurityEvent(call, { event, domainName: domain, username });
}
