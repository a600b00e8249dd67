import { hash } from 'node:crypto';
import type { SessionItem, SessionListData, SessionsEndedData } from '@panel247/contract/sessions';
import { ConflictError, NotFoundError } from '../../errors.ts';
import type { Actor } from './actor.ts';
import { authEvent } from './auth-event.ts';
import type { ClientCall } from './client-call.ts';
import type { SessionService } from './session.service.ts';
import { describeUserAgent } from './user-agent.ts';

/**
 * The list's id of a session: one way from the stored hash, so neither the cookie's token nor the
 * hash that finds the session ever leaves the server, and no column is needed to keep it.
 */
export function sessionRef(sessionId: string): string {
  return hash('sha256', `p247-session-ref:${sessionId}`, 'hex').slice(0, 32);
}

/**
 * A user's own sessions: the list, ending one, ending all but this one. Every call starts from
 * the caller's user, so another user's id is simply not in the list (the unknown id's answer).
 * Ending goes through SessionService, whose `session.ended` event closes that session's open
 * pages on every instance.
 */
export class UserSessionsService {
  constructor(private readonly sessions: SessionService) {}

  async list(actor: Actor): Promise<SessionListData> {
    const rows = await this.sessions.activeOfUser(actor.userId);
    const items: SessionItem[] = rows.map((row) => ({
      id: sessionRef(row.id),
      ...describeUserAgent(row.user_agent),
      ip: row.ip,
      createdAt: row.created_at,
      lastSeenAt: row.last_seen_at,
      current: row.id === actor.sessionId,
    }));
    // This one first, then as the repository ordered them (most recently seen first).
    return { sessions: [...items.filter((item) => item.current), ...items.filter((item) => !item.current)] };
  }

  async end(actor: Actor, call: ClientCall, ref: string): Promise<void> {
    const rows = await this.sessions.activeOfUser(actor.userId);
    const target = rows.find((row) => sessionRef(row.id) === ref);
    if (!target) throw new NotFoundError();
    // Logging out ends this one: it also clears the cookie and tells the other tabs.
    if (target.id === actor.sessionId) throw new ConflictError('sessions.current_is_logout');
    await this.sessions.endSessions([target.id]);
    authEvent(call, 'auth.session_ended', actor.domainName, actor.username);
  }

  async endOthers(actor: Actor, call: ClientCall): Promise<SessionsEndedData> {
    const rows = await this.sessions.activeOfUser(actor.userId);
    const others = rows.filter((row) => row.id !== actor.sessionId).map((row) => row.id);
    await this.sessions.endSessions(others);
    authEvent(call, 'auth.other_sessions_ended', actor.domainName, actor.username);
    return { ended: others.length };
  }
}
