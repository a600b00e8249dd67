import { randomBytes } from 'node:crypto';
import type { ConsoleLoginData, ConsoleLoginParams } from '@panel247/contract/console';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import { AppError, FieldErrors } from '../../errors.ts';
import { type LoginLimits, limitedAttempt } from '../auth/attempt-limits.ts';
import type { ClientCall } from '../auth/client-call.ts';
import { verifyPassword } from '../auth/password-hasher.ts';
import { hashToken } from '../auth/session.service.ts';
import { newTotpSecret, totpEnrolment, totpStep } from '../auth/totp.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';
import { staffRepository } from './staff.repository.ts';

const COOKIE = 'p247_staff';
// Under HTTPS the __Host- prefix pins the cookie to this host, path / and Secure.
const SECURE_COOKIE = '__Host-p247_staff';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** No staff session (or a wrong password): 401, nothing said of which. */
export class StaffAuthError extends AppError {
  readonly httpStatus = 401;
}

/** Who a console call is made by. */
export interface StaffCaller {
  staffId: number;
  username: string;
  sessionId: string;
}

export interface StaffSessionPolicy {
  idleSeconds: number;
  absoluteSeconds: number;
}

/**
 * The provider's staff: users of their own (never a customer's), signed in with a password and a
 * TOTP code, which they must set up at their first sign-in (a console that acts on every account
 * is not left to a password alone). A session is a 256-bit token in its own HttpOnly cookie,
 * `SameSite=Strict`, its sha256 kept; idle and absolute timeouts as customers' sessions.
 * Guesses count in the login's brute-force windows like customers'.
 */
export class StaffAuthService {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly policy: StaffSessionPolicy,
    private readonly limiter: RateLimiter,
    private readonly limits: LoginLimits,
    private readonly issuer: string,
    private readonly now: () => number,
  ) {}

  /** The password, then the code (at the first sign-in, of the app set up from the answer's secret). */
  async login(call: ClientCall, params: ConsoleLoginParams): Promise<ConsoleLoginData> {
    const username = params.username.trim().toLowerCase();
    const staff = await limitedAttempt(this.limiter, this.limits, call.ip, `staff|${username}`, async () => {
      const found = await staffRepository.byUsername(this.db, username);
      // the hash is checked even for an unknown name: the answer's time tells nothing
      const right = await verifyPassword(found?.password_hash, params.password);
      return { wrong: !right || !found, value: right ? found : undefined };
    });
    if (!staff) throw new StaffAuthError('console.error.login');
    if (!staff.totp_sealed) return this.setUp(call, staff, params.code);
    if (params.code === '') return { step: 'code' };
    const step = await this.codeStep(call, staff.id, this.box.open(staff.totp_sealed), params.code);
    if (!(await staffRepository.takeStep(this.db, staff.id, step))) throw FieldErrors.one('code', 'console.error.code');
    await this.start(call, staff.id);
    return { step: 'done' };
  }

  /** No second factor yet: a secret to set up (kept pending), or the first code of it, which enables it. */
  private async setUp(
    call: ClientCall,
    staff: { id: number; username: string; totp_pending_sealed: string | null },
    code: string,
  ): Promise<ConsoleLoginData> {
    if (code === '' || !staff.totp_pending_sealed) {
      const secret = newTotpSecret();
      await staffRepository.update(this.db, staff.id, { totp_pending_sealed: this.box.seal(secret) });
      return { step: 'setup', setup: { secret, ...(await totpEnrolment(secret, this.issuer, staff.username)) } };
    }
    const secret = this.box.open(staff.totp_pending_sealed);
    const step = await this.codeStep(call, staff.id, secret, code);
    await staffRepository.update(this.db, staff.id, {
      totp_sealed: this.box.seal(secret),
      totp_pending_sealed: null,
      totp_last_step: step,
    });
    await this.start(call, staff.id);
    return { step: 'done' };
  }

  /** The code's time step, counted in the brute-force windows; a wrong code is the field's error. */
  private async codeStep(call: ClientCall, staffId: number, secret: string, code: string): Promise<number> {
    const step = await limitedAttempt(this.limiter, this.limits, call.ip, `staff-code|${staffId}`, async () => {
      const found = totpStep(secret, code, this.now(), null);
      return { wrong: found === undefined, value: found };
    });
    if (step === undefined) throw FieldErrors.one('code', 'console.error.code');
    return step;
  }

  private cookieName(call: Pick<ClientCall, 'secure'>): string {
    return call.secure ? SECURE_COOKIE : COOKIE;
  }

  private async start(call: ClientCall, staffId: number): Promise<void> {
    const old = call.cookie(this.cookieName(call));
    if (old && TOKEN.test(old)) await staffRepository.deleteSession(this.db, hashToken(old));
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    await staffRepository.insertSession(this.db, {
      id: hashToken(token),
      staff_id: staffId,
      created_at: now,
      ip: call.ip,
    });
    await staffRepository.update(this.db, staffId, { last_login_at: now });
    call.setCookie(this.cookieName(call), token, {
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      secure: call.secure,
      maxAge: this.policy.absoluteSeconds,
    });
  }

  /** The staff user of a console call's session cookie; 401 without one. */
  async authenticate(call: ClientCall): Promise<StaffCaller> {
    const token = call.cookie(this.cookieName(call));
    if (!token || !TOKEN.test(token)) throw new StaffAuthError('console.error.session');
    const id = hashToken(token);
    const row = await staffRepository.session(this.db, id);
    const now = this.now();
    // a second factor reset since the session began ends it too (the reset deletes sessions; this is the belt)
    if (!row?.totp_sealed) throw new StaffAuthError('console.error.session');
    if (
      now - Number(row.last_seen_at) > this.policy.idleSeconds ||
      now - Number(row.created_at) > this.policy.absoluteSeconds
    ) {
      await staffRepository.deleteSession(this.db, id);
      throw new StaffAuthError('console.error.session');
    }
    if (now - Number(row.last_seen_at) >= 30) await staffRepository.touchSession(this.db, id, now);
    return { staffId: row.staff_id, username: row.username, sessionId: id };
  }

  /** The sessions past either timeout, gone (with the customers' in the `sessions.purge` round). */
  purgeExpired(): Promise<number> {
    const now = this.now();
    return staffRepository.deleteExpiredSessions(
      this.db,
      now - this.policy.idleSeconds,
      now - this.policy.absoluteSeconds,
    );
  }

  async logout(call: ClientCall, staff: StaffCaller): Promise<void> {
    await staffRepository.deleteSession(this.db, staff.sessionId);
    call.clearCookie(this.cookieName(call), { path: '/', secure: call.secure });
  }
}
