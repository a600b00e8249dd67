import { randomBytes } from 'node:crypto';
import type { LoginCodeParams } from '@panel247/contract/two-factor';
import type { LoginData, LoginParams, UserInfoData } from '@panel247/contract/user';
import type { Db } from '../../db/database.ts';
import { AccountSuspendedError, FieldErrors, ForbiddenError } from '../../errors.ts';
import type { CaptchaVerifier } from '../captcha/captcha.verifier.ts';
import type { PermissionService } from '../permission/permission.service.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';
import type { Actor } from './actor.ts';
import { apiTokenRepository } from './api-token.repository.ts';
import { accountKeyOf, type LoginLimits, limitedAttempt } from './attempt-limits.ts';
import { authEvent } from './auth-event.ts';
import type { ClientCall } from './client-call.ts';
import { passkeyRepository } from './passkey.repository.ts';
import { hashPassword, verifyPassword } from './password-hasher.ts';
import { hashToken, type SessionService } from './session.service.ts';
import { twoFactorRepository } from './two-factor.repository.ts';
import type { TwoFactorService } from './two-factor.service.ts';
import { userRepository } from './user.repository.ts';

export type { LoginLimits } from './attempt-limits.ts';

/** How long the code may follow the password. */
const CHALLENGE_SECONDS = 5 * 60;

/**
 * Login, logout and password change. A failed login says the same thing whether the account
 * exists or not, costs the same time, and counts against both the account and the address.
 */
export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly sessions: SessionService,
    private readonly permissions: PermissionService,
    private readonly captcha: CaptchaVerifier,
    private readonly limiter: RateLimiter,
    private readonly limits: LoginLimits,
    private readonly twoFactor: TwoFactorService,
    private readonly now: () => number,
  ) {}

  async login(call: ClientCall, params: LoginParams): Promise<LoginData> {
    const { perIp, perAccount } = this.limits;
    const accountKey = accountKeyOf(params.domainName, params.username);
    // A place is taken before anything is checked, so parallel guesses cannot all pass a limit
    // that only a finished check would have raised; places of attempts being checked are not
    // failures (six correct logins at once all pass). An attempt refused by one rule is not left
    // on the other.
    await this.limiter.enter(perIp, call.ip, 'auth.too_many_attempts', 'auth.too_many_at_once');
    try {
      await this.limiter.enter(perAccount, accountKey, 'auth.too_many_attempts', 'auth.too_many_at_once');
    } catch (error) {
      await this.limiter.settle(perIp, call.ip, false);
      throw error;
    }

    // Only a wrong password counts as a failure: a refused captcha never reached the password,
    // and a success clears the account's failures.
    let verdict: 'unchecked' | 'wrong' | 'right' = 'unchecked';
    try {
      if (!(await this.captcha.verify(params.recaptcha_response, call.ip))) {
        authEvent(call, 'auth.captcha_failed', params.domainName, params.username);
        throw FieldErrors.one('recaptcha_response', 'auth.captcha_failed');
      }

      const user = await userRepository.findForLogin(this.db, params.domainName, params.username);
      const ok = await verifyPassword(user?.password_hash, params.password);
      if (!user || !ok) {
        verdict = 'wrong';
        authEvent(call, 'auth.login_failed', params.domainName, params.username);
        throw FieldErrors.one('password', 'auth.invalid_credentials');
      }
      verdict = 'right';

      const totp = await this.twoFactor.isEnabled(user.id);
      const passkey = (await passkeyRepository.countOfUser(this.db, user.id)) > 0;
      if (totp || passkey) {
        // No session yet, and the account's failures stay: only the code clears them, or a
        // known password would reopen the window for guessing codes at every login.
        const loginToken = randomBytes(32).toString('base64url');
        await twoFactorRepository.insertChallenge(this.db, {
          id: hashToken(loginToken),
          userId: user.id,
          accountKey,
          previousLoginAt: user.last_login_at,
          expiresAt: this.now() + CHALLENGE_SECONDS,
        });
        authEvent(call, 'auth.second_factor_asked', params.domainName, params.username);
        return { secondFactor: totp ? 'totp' : 'passkey', ...(passkey ? { passkey: true as const } : {}), loginToken };
      }

      await this.limiter.clear(perAccount, accountKey);
      return await this.finishLogin(call, {
        userId: user.id,
        accountId: user.account_id,
        previousLoginAt: user.last_login_at,
        domainName: params.domainName,
        username: params.username,
      });
    } finally {
      await this.limiter.settle(perIp, call.ip, verdict === 'wrong');
      await this.limiter.settle(perAccount, accountKey, verdict === 'wrong');
    }
  }

  /**
   * The login's second step: the code (or a recovery code) with the password step's token. Each
   * guess counts in the same windows as a password, per address and per account; the token is
   * used up by the first right code.
   */
  async loginCode(call: ClientCall, params: LoginCodeParams): Promise<LoginData> {
    const id = hashToken(params.loginToken);
    const challenge = await twoFactorRepository.findChallenge(this.db, id, this.now());
    // A passwordless login (passkey) is finished only by a passkey, never by a code.
    if (!challenge || challenge.passwordless === 1) throw FieldErrors.one('code', 'twofactor.login_expired');
    const { domain_name: domainName, username } = challenge;
    const matched = await limitedAttempt(this.limiter, this.limits, call.ip, challenge.account_key, async () => {
      const value = await this.twoFactor.checkCode(challenge.user_id, params.code);
      return { wrong: value === undefined, value };
    });
    if (!matched) {
      authEvent(call, 'auth.second_factor_failed', domainName, username);
      throw FieldErrors.one('code', 'twofactor.wrong_code');
    }
    if (!(await twoFactorRepository.consumeChallenge(this.db, id))) {
      throw FieldErrors.one('code', 'twofactor.login_expired');
    }
    await this.limiter.clear(this.limits.perAccount, challenge.account_key);
    if (matched === 'recovery') authEvent(call, 'auth.recovery_code_used', domainName, username);
    return this.finishLogin(call, {
      userId: challenge.user_id,
      accountId: challenge.account_id,
      previousLoginAt: challenge.previous_login_at,
      domainName,
      username,
    });
  }

  /** The session of a login whose every factor passed (password and code, or a passkey). */
  async finishLogin(
    call: ClientCall,
    user: { userId: number; accountId: number; previousLoginAt: number | null; domainName: string; username: string },
  ): Promise<LoginData> {
    // every way in ends here: a password, a code, a passkey, the provider's login link
    if (await userRepository.isDisabled(this.db, user.userId)) {
      authEvent(call, 'auth.login_disabled', user.domainName, user.username);
      throw FieldErrors.one('password', 'auth.user_disabled');
    }
    const suspension = await userRepository.suspension(this.db, user.accountId);
    if (suspension.suspended) {
      authEvent(call, 'auth.login_suspended', user.domainName, user.username);
      throw new AccountSuspendedError(suspension.reason);
    }
    await this.sessions.start(call, user.userId, user.previousLoginAt);
    await userRepository.recordLogin(this.db, user.userId, this.now(), call.ip);
    authEvent(call, 'auth.login', user.domainName, user.username);
    const domainID = await this.permissions.visibleResourceIdByReference(
      { userId: user.userId, accountId: user.accountId },
      user.domainName,
    );
    const setUpFirst = await this.twoFactor.mustSetUp(user.userId);
    return { ...(domainID === undefined ? {} : { domainID }), ...(setUpFirst ? { setupSecondFactor: true } : {}) };
  }

  /**
   * A login by the provider's one-time link (its billing system's single sign-on): the user the
   * link was made for, once. The provider vouched for the person; a second factor the brand
   * requires must still be set up first, and a suspended account is still refused.
   */
  async loginByLink(call: ClientCall, userId: number | undefined): Promise<LoginData> {
    const user = userId === undefined ? undefined : await userRepository.findForLinkLogin(this.db, userId);
    if (!user) throw new ForbiddenError('auth.link_invalid');
    authEvent(call, 'auth.login_link', user.domain_name, user.username);
    return this.finishLogin(call, {
      userId: user.id,
      accountId: user.account_id,
      previousLoginAt: user.last_login_at,
      domainName: user.domain_name,
      username: user.username,
    });
  }

  info(actor: Actor, call: ClientCall, language: UserInfoData['language']): UserInfoData {
    return {
      user: actor.username,
      ip: call.ip,
      tsLastLogin: actor.previousLoginAt ?? actor.sessionCreatedAt,
      domainName: actor.domainName,
      language,
    };
  }

  async logout(actor: Actor, call: ClientCall): Promise<void> {
    await this.sessions.endSessions([actor.sessionId]);
    this.sessions.clearCookie(call);
    authEvent(call, 'auth.logout', actor.domainName, actor.username);
  }

  /**
   * Changes the password and ends every session and every API token of the user, this session
   * included. A password is changed mostly because someone else may know it; a token made with it
   * would be the one way in that outlives the change, silently, where a script that stops working
   * says so at once (and a new token is quick to make).
   */
  async changePassword(
    actor: Actor,
    call: ClientCall,
    params: { actualPassword: string; password: string },
  ): Promise<void> {
    const accountKey = accountKeyOf(actor.domainName, actor.username);
    // A place first for the same reason as at login; only a wrong current password counts.
    await this.limiter.enter(this.limits.perAccount, accountKey, 'auth.too_many_attempts', 'auth.too_many_at_once');
    let wrong = false;
    try {
      const user = await userRepository.findById(this.db, actor.userId);
      if (!user || !(await verifyPassword(user.password_hash, params.actualPassword))) {
        wrong = true;
        authEvent(call, 'auth.password_change_refused', actor.domainName, actor.username);
        throw FieldErrors.one('actualPassword', 'auth.wrong_password');
      }
    } finally {
      await this.limiter.settle(this.limits.perAccount, accountKey, wrong);
    }
    await userRepository.setPasswordHash(this.db, actor.userId, await hashPassword(params.password), this.now());
    await this.sessions.endAllOfUser(actor.userId);
    await apiTokenRepository.deleteAllOfUser(this.db, actor.userId);
    this.sessions.clearCookie(call);
    authEvent(call, 'auth.password_changed', actor.domainName, actor.username);
  }
}
