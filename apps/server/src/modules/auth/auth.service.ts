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
    // Counted before anything is checked, so parallel guesses cannot all pass a limit that only
    // a finished check would have raised. An attempt refused by one rule is not left on the other.
    await this.limiter.take(perIp, request.ip, 'auth.too_many_attempts');
    try {
      await this.limiter.take(perAccount, accountKey, 'auth.too_many_attempts');
    } catch (error) {
      await this.limiter.giveBack(perIp, request.ip);
      throw error;
    }

    // Only a wrong password stays counted: a refused captcha never reached the password, and a
    // success clears the account's count and is no failure of the address.
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

      await this.limiter.reset(perAccount, accountKey);
      await this.sessions.start(request, reply, user.id, user.last_login_at);
      await userRepository.recordLogin(this.db, user.id, this.now(), request.ip);
      authEvent(log, 'auth.login', params.domainName, params.username, request.ip);

      const domainID = await this.permissions.visibleResourceIdByReference(
        { userId: user.id, accountId: user.account_id },
        params.domainName,
      );
      return domainID === undefined ? {} : { domainID };
    } finally {
      if (verdict !== 'wrong') await this.limiter.giveBack(perIp, request.ip);
      if (verdict === 'unchecked') await this.limiter.giveBack(perAccount, accountKey);
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
    // Counted first for the same reason as at login; only a wrong current password stays counted.
    await this.limiter.take(this.limits.perAccount, accountKey, 'auth.too_many_attempts');
    let wrong = false;
    try {
      const user = await userRepository.findById(this.db, actor.userId);
      if (!user || !(await verifyPassword(user.password_hash, params.actualPassword))) {
        wrong = true;
        authEvent(request.log, 'auth.password_change_refused', actor.domainName, actor.username, request.ip);
        throw FieldErrors.one('actualPassword', 'auth.wrong_password');
      }
    } finally {
      if (!wrong) await this.limiter.giveBack(this.limits.perAccount, accountKey);
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
