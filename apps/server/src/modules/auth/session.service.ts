import { hash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { SecondFactorSetupRequiredError, SessionLostError } from '../../errors.ts';
import type { EventBus } from '../realtime/event-bus.ts';
import type { Actor } from './actor.ts';
import type { ClientCall } from './client-call.ts';
import { passkeyRepository } from './passkey.repository.ts';
import { secondFactorMissing as mustSetUp } from './second-factor-rule.ts';
import { sessionRepository } from './session.repository.ts';
import { twoFactorRepository } from './two-factor.repository.ts';

const COOKIE = 'p247_sid';
// Under HTTPS the __Host- prefix pins the cookie to this host, path / and Secure.
const SECURE_COOKIE = '__Host-p247_sid';

export interface SessionPolicy {
  idleSeconds: number;
  absoluteSeconds: number;
  /** How long a looked-up session may be reused without asking the database (0: never). */
  cacheSeconds?: number;
}

type SessionRow = NonNullable<Awaited<ReturnType<typeof sessionRepository.findWithUser>>>;

const CACHE_LIMIT = 10_000;

/** Every session-bound call hashes its token: the one-shot hash costs a third of a Hash object. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/**
 * Server-side sessions: a 256-bit random token in an HttpOnly cookie, its sha256 in the table.
 * Idle and absolute timeouts are checked on every call; last_seen_at is written at most once per
 * `touchEvery` seconds, so a busy session does not cost a write per request.
 *
 * A looked-up session is reused for a few seconds (`cacheSeconds`) instead of querying the
 * database on every call — that query was most of a small call's cost. An ended session leaves
 * the cache at once through the `session.ended` event, which reaches every instance on
 * PostgreSQL; only a session ended by the CLI on SQLite (another process) may live on for at most
 * `cacheSeconds`.
 */
export class SessionService {
  private readonly touchEvery: number;
  private readonly cache = new Map<string, { row: SessionRow; until: number; epoch: number }>();

  constructor(
    private readonly db: Db,
    private readonly policy: SessionPolicy,
    private readonly events: EventBus,
    private readonly now: () => number,
  ) {
    this.touchEvery = Math.max(1, Math.min(60, Math.floor(policy.idleSeconds / 4)));
    events.subscribe((event) => {
      if (event.type === 'session.ended') for (const id of event.sessionIds) this.cache.delete(id);
    });
  }

  private async lookup(id: string, now: number): Promise<SessionRow | undefined> {
    const cached = this.cache.get(id);
    // Only while no ended-session event can have been missed since the entry was cached.
    const epoch = this.events.epoch;
    if (cached && cached.until > now && cached.epoch === epoch) return cached.row;
    const row = await sessionRepository.findWithUser(this.db, id);
    // A user who must still set up a second factor is looked up afresh, so that turning it on
    // opens the panel at once.
    if (!row || !this.policy.cacheSeconds || epoch === undefined || mustSetUp(row)) {
      this.cache.delete(id);
      return row;
    }
    if (this.cache.size >= CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(id, { row, until: now + this.policy.cacheSeconds, epoch });
    return row;
  }

  cookieName(call: Pick<ClientCall, 'secure'>): string {
    return call.secure ? SECURE_COOKIE : COOKIE;
  }

  private token(call: ClientCall): string | undefined {
    const value = call.cookie(this.cookieName(call));
    return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
  }

  async authenticate(call: ClientCall): Promise<Actor> {
    const token = this.token(call);
    if (!token) throw new SessionLostError();
    const id = hashToken(token);
    const now = this.now();
    const row = await this.lookup(id, now);
    if (!row) throw new SessionLostError();
    if (now - row.last_seen_at > this.policy.idleSeconds || now - row.created_at > this.policy.absoluteSeconds) {
      await this.endSessions([id]);
      throw new SessionLostError();
    }
    if (now - row.last_seen_at >= this.touchEvery) {
      await sessionRepository.touch(this.db, id, now, call.ip);
      row.last_seen_at = now;
    }
    const mustSetUpSecondFactor = mustSetUp(row);
    // A route opts in with `beforeSecondFactor` (user info, logout, the set-up calls).
    if (mustSetUpSecondFactor && !call.beforeSecondFactor) {
      throw new SecondFactorSetupRequiredError();
    }
    return {
      userId: row.user_id,
      accountId: row.account_id,
      brandId: row.brand_id,
      username: row.username,
      domainName: row.domain_name,
      sessionId: id,
      sessionCreatedAt: row.created_at,
      previousLoginAt: row.previous_login_at,
      mustSetUpSecondFactor,
    };
  }

  /** Starts a new session (a new id at every login) and sets its cookie. */
  async start(call: ClientCall, userId: number, previousLoginAt: number | null): Promise<void> {
    const old = this.token(call);
    if (old) await this.endSessions([hashToken(old)]);
    const token = randomBytes(32).toString('base64url');
    await sessionRepository.insert(this.db, {
      id: hashToken(token),
      userId,
      now: this.now(),
      ip: call.ip,
      userAgent: call.userAgent,
      previousLoginAt,
    });
    call.setCookie(this.cookieName(call), token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: call.secure,
      maxAge: this.policy.absoluteSeconds,
    });
  }

  clearCookie(call: ClientCall) {
    call.clearCookie(this.cookieName(call), { path: '/', secure: call.secure });
  }

  /** A user's sessions still within both timeouts (an expired one waits for the purge, unusable). */
  async activeOfUser(userId: number) {
    const now = this.now();
    const rows = await sessionRepository.listOfUser(this.db, userId);
    return rows.filter(
      (row) => now - row.last_seen_at <= this.policy.idleSeconds && now - row.created_at <= this.policy.absoluteSeconds,
    );
  }

  async endSessions(ids: string[]): Promise<void> {
    for (const id of ids) {
      this.cache.delete(id);
      await sessionRepository.delete(this.db, id);
    }
    if (ids.length > 0) await this.events.publish({ type: 'session.ended', sessionIds: ids });
  }

  async endAllOfUser(userId: number): Promise<void> {
    const ids = await sessionRepository.deleteAllOfUser(this.db, userId);
    for (const id of ids) this.cache.delete(id);
    if (ids.length > 0) await this.events.publish({ type: 'session.ended', sessionIds: ids });
  }

  async purgeExpired(): Promise<number> {
    const now = this.now();
    // Pending logins that never got their code go with the expired sessions.
    await twoFactorRepository.purgeChallenges(this.db, now);
    await passkeyRepository.purgeChallenges(this.db, now);
    return sessionRepository.deleteExpired(this.db, now - this.policy.idleSeconds, now - this.policy.absoluteSeconds);
  }
}
