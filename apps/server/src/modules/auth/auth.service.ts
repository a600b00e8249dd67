import type { LoginData, LoginParams, UserInfoData } from '@panel247/contract/user';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.ts';
import { FieldErrors } from '../../errors.ts';
import { forLog } from '../../http/request-context.ts';
import type { CaptchaVerifier } from '../captcha/captcha.verifier.ts';
import type { PermissionService } from '../permission/permission.service.ts';
import type { LimitRule, RateLimiter } from '../rate-limit/rate-limiter.ts';
import type { Actor } from './actor.ts';
import { hashPassword, verifyPassword } from './password-hasher.ts';
import type { SessionService } from './session.service.ts';
import { userRepository } from './user.repository.ts';

export interface LoginLimits {
  perAccount: LimitRule;
  perIp: LimitRule;
}

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
    private readonly now: () => number,
  ) {}

  async login(request: FastifyRequest, reply: FastifyReply, params: LoginParams): Promise<LoginData> {
    const log = request.log;
    const { perIp, perAccount } = this.limits;
    const accountKey = `${params.domainName}|${params.username.toLowerCase()}`;
    // A place is taken before anything is checked, so parallel guesses cannot all pass a limit
    // that only a finished check would have raised; places of attempts being checked are not
    // failures (six correct logins at once all pass). An attempt refused by one rule is not left
    // on the other.
    await this.limiter.enter(perIp, request.ip, 'auth.too_many_attempts', 'auth.too_many_at_once');
    try {
      await this.limiter.enter(perAccount, accountKey, 'auth.too_many_attempts', 'auth.too_many_at_once');
    } catch (error) {
      await this.limiter.settle(perIp, request.ip, false);
      throw error;
    }

    // Only a wrong password counts as a failure: a refused captcha never reached the password,
    // and a success clears the account's failures.
    let verdict: 'unchecked' | 'wrong' | 'right' = 'unchecked';
    try {
      if (!(await this.captcha.verify(params.recaptcha_response, request.ip))) {
        authEvent(log, 'auth.captcha_failed', params.domainName, params.username, request.ip);
        throw FieldErrors.one('recaptcha_response', 'auth.captcha_failed');
      }

      const user = await userRepository.findForLogin(this.db, params.domainName, params.username);
      const ok = await verifyPassword(user?.password_hash, params.password);
      if (!user || !ok) {
        verdict = 'wrong';
        authEvent(log, 'auth.login_failed', params.domainName, params.username, request.ip);
        throw FieldErrors.one('password', 'auth.invalid_credentials');
      }
      verdict = 'right';

      await this.limiter.clear(perAccount, accountKey);
      await this.sessions.start(request, reply, user.id, user.last_login_at);
      await userRepository.recordLogin(this.db, user.id, this.now(), request.ip);
      authEvent(log, 'auth.login', params.domainName, params.username, request.ip);

      const domainID = await this.permissions.visibleResourceIdByReference(
        { userId: user.id, accountId: user.account_id },
        params.domainName,
      );
      return domainID === undefined ? {} : { domainID };
    } finally {
      await this.limiter.settle(perIp, request.ip, verdict === 'wrong');
      await this.limiter.settle(perAccount, accountKey, verdict === 'wrong');
    }
  }

  info(actor: Actor, request: FastifyRequest, language: UserInfoData['language']): UserInfoData {
    return {
      user: actor.username,
      ip: request.ip,
      tsLastLogin: actor.previousLoginAt ?? actor.sessionCreatedAt,
      domainName: actor.domainName,
      language,
    };
  }

  async logout(actor: Actor, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await this.sessions.endSessions([actor.sessionId]);
    this.sessions.clearCookie(request, reply);
    authEvent(request.log, 'auth.logout', actor.domainName, actor.username, request.ip);
  }

  /** Changes the password and ends every session of the user, this one included. */
  async changePassword(
    actor: Actor,
    request: FastifyRequest,
    reply: FastifyReply,
    params: { actualPassword: string; password: string },
  ): Promise<void> {
    const accountKey = `${actor.domainName}|${actor.username.toLowerCase()}`;
    // A place first for the same reason as at login; only a wrong current password counts.
    await this.limiter.enter(this.limits.perAccount, accountKey, 'auth.too_many_attempts', 'auth.too_many_at_once');
    let wrong = false;
    try {
      const user = await userRepository.findById(this.db, actor.userId);
      if (!user || !(await verifyPassword(user.password_hash, params.actualPassword))) {
        wrong = true;
        authEvent(request.log, 'auth.password_change_refused', actor.domainName, actor.username, request.ip);
        throw FieldErrors.one('actualPassword', 'auth.wrong_password');
      }
    } finally {
      await this.limiter.settle(this.limits.perAccount, accountKey, wrong);
    }
    await userRepository.setPasswordHash(this.db, actor.userId, await hashPassword(params.password), this.now());
    await this.sessions.endAllOfUser(actor.userId);
    this.sessions.clearCookie(request, reply);
    authEvent(request.log, 'auth.password_changed', actor.domainName, actor.username, request.ip);
  }
}

function authEvent(log: FastifyBaseLogger, event: string, domain: string, username: string, ip: string) {
  log.info({ event, domain: forLog(domain), user: forLog(username), ip: forLog(ip) }, event);
}
