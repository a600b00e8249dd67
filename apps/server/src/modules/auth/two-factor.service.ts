import type { Language } from '@panel247/contract/constants';
import type {
  RecoveryCodesData,
  TwoFactorReauthParams,
  TwoFactorSetupData,
  TwoFactorStatusData,
} from '@panel247/contract/two-factor';
import { RECOVERY_CODE_COUNT } from '@panel247/contract/two-factor-rules';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import { FieldErrors } from '../../errors.ts';
import type { BrandService } from '../brand/brand.service.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';
import type { Actor } from './actor.ts';
import { accountKeyOf, type LoginLimits, limitedAttempt } from './attempt-limits.ts';
import { authEvent } from './auth-event.ts';
import type { ClientCall } from './client-call.ts';
import { passkeyRepository } from './passkey.repository.ts';
import { verifyPassword } from './password-hasher.ts';
import type { RecoveryCodes } from './recovery-codes.ts';
import { secondFactorRequired } from './second-factor-rule.ts';
import type { SecurityMail } from './security-mail.ts';
import { newTotpSecret, totpEnrolment, totpStep } from './totp.ts';
import { twoFactorRepository } from './two-factor.repository.ts';
import { userRepository } from './user.repository.ts';

type SecurityChange = 'enabled' | 'disabled' | 'recovery_codes' | 'passkey_added' | 'passkey_removed';

/**
 * The second login factor: a TOTP app, with one-time recovery codes for a lost phone. Turning it
 * on needs a code from the app (the QR code was read); turning it off or getting new recovery
 * codes needs the password and a current code, inside the login's brute-force windows. Every
 * change is logged and, when the user has an address, e-mailed to them.
 */
export class TwoFactorService {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly recovery: RecoveryCodes,
    private readonly limiter: RateLimiter,
    private readonly limits: LoginLimits,
    private readonly brands: BrandService,
    private readonly mail: SecurityMail,
    private readonly now: () => number,
  ) {}

  async isEnabled(userId: number): Promise<boolean> {
    const totp = await twoFactorRepository.findTotp(this.db, userId);
    return Boolean(totp?.enabled_at);
  }

  /** The brand requires two factors and the user has none yet (neither TOTP nor a passkey). */
  async mustSetUp(userId: number): Promise<boolean> {
    const context = await twoFactorRepository.findContext(this.db, userId);
    if (!context || !secondFactorRequired(context) || (await this.isEnabled(userId))) return false;
    return (await passkeyRepository.countOfUser(this.db, userId)) === 0;
  }

  async status(actor: Actor): Promise<TwoFactorStatusData> {
    const [enabled, left, context] = await Promise.all([
      this.isEnabled(actor.userId),
      twoFactorRepository.recoveryCodesLeft(this.db, actor.userId),
      twoFactorRepository.findContext(this.db, actor.userId),
    ]);
    return {
      enabled,
      recoveryCodesLeft: enabled ? left : 0,
      required: context ? secondFactorRequired(context) : false,
    };
  }

  /** A new secret waiting for its first code; an enabled factor must be turned off first. */
  async setup(actor: Actor): Promise<TwoFactorSetupData> {
    const secret = newTotpSecret();
    if (!(await twoFactorRepository.startEnrolment(this.db, actor.userId, this.box.seal(secret), this.now()))) {
      throw FieldErrors.one('code', 'twofactor.already_enabled');
    }
    const brand = await this.brands.byId(actor.brandId);
    const { uri, qr } = await totpEnrolment(secret, brand.company, `${actor.username}@${actor.domainName}`);
    return { secret, uri, qr };
  }

  /** The first code from the app turns the factor on and gives the recovery codes. */
  async enable(actor: Actor, call: ClientCall, code: string, language: Language): Promise<RecoveryCodesData> {
    const totp = await twoFactorRepository.findTotp(this.db, actor.userId);
    if (!totp || totp.enabled_at)
      throw FieldErrors.one('code', totp ? 'twofactor.already_enabled' : 'twofactor.no_setup');
    const now = this.now();
    const step = totpStep(this.box.open(totp.secret_sealed), code, now, totp.last_step);
    if (step === undefined || !(await twoFactorRepository.acceptStep(this.db, actor.userId, step, now))) {
      throw FieldErrors.one('code', 'twofactor.wrong_code');
    }
    const recoveryCodes = await this.newRecoveryCodes(actor.userId);
    await twoFactorRepository.factorSetUp(this.db, actor.userId);
    await this.reportChange(actor, call, 'enabled', language);
    return { recoveryCodes };
  }

  /**
   * A manager's reset of another user's two-factor login: the TOTP app, its recovery codes and
   * every passkey are gone, and the user sets a factor up again before anything else.
   */
  async resetFactorsOf(userId: number): Promise<void> {
    await this.db.transaction().execute((trx) => twoFactorRepository.resetFactors(trx, userId));
  }

  async disable(actor: Actor, call: ClientCall, params: TwoFactorReauthParams, language: Language) {
    await this.reauthenticate(actor, call, params);
    await twoFactorRepository.removeTotp(this.db, actor.userId);
    await this.reportChange(actor, call, 'disabled', language);
  }

  /** Recovery codes are kept only as hashes: "show again" means new ones, the old ones void. */
  async regenerateRecoveryCodes(
    actor: Actor,
    call: ClientCall,
    params: TwoFactorReauthParams,
    language: Language,
  ): Promise<RecoveryCodesData> {
    await this.reauthenticate(actor, call, params);
    const recoveryCodes = await this.newRecoveryCodes(actor.userId);
    await this.reportChange(actor, call, 'recovery_codes', language);
    return { recoveryCodes };
  }

  /**
   * Checks a code at login or re-authentication: a TOTP code (each time step once) or an unused
   * recovery code (used up by this). Returns what matched, or undefined.
   */
  async checkCode(userId: number, code: string): Promise<'totp' | 'recovery' | undefined> {
    const totp = await twoFactorRepository.findTotp(this.db, userId);
    if (!totp?.enabled_at) return undefined;
    const digits = code.replace(/\s/g, '');
    if (/^\d{6}$/.test(digits)) {
      const step = totpStep(this.box.open(totp.secret_sealed), digits, this.now(), totp.last_step);
      return step !== undefined && (await twoFactorRepository.acceptStep(this.db, userId, step)) ? 'totp' : undefined;
    }
    const normalised = this.recovery.normalise(code);
    if (!normalised) return undefined;
    const used = await twoFactorRepository.useRecoveryCode(this.db, userId, this.recovery.hash(normalised), this.now());
    return used ? 'recovery' : undefined;
  }

  /** The password and a current factor, counted in the login's windows like a login. */
  private async reauthenticate(actor: Actor, call: ClientCall, params: TwoFactorReauthParams) {
    if (!(await this.isEnabled(actor.userId))) throw FieldErrors.one('code', 'twofactor.not_enabled');
    await this.checkPasswordAndCode(actor, call, params.password, params.code);
  }

  /**
   * Re-authentication before a new credential is made: the password, and a current code when the
   * user has a second factor (so the credential is never a way around it).
   */
  async confirmIdentity(actor: Actor, call: ClientCall, params: { password: string; code?: string }) {
    if (!(await this.isEnabled(actor.userId))) {
      // A passkey alone as the second factor: its signature is not taken here, and the password
      // alone must not stand in for it.
      if ((await passkeyRepository.countOfUser(this.db, actor.userId)) > 0) {
        throw FieldErrors.one('code', 'twofactor.passkey_cannot_confirm');
      }
      await this.checkPasswordAndCode(actor, call, params.password, undefined);
      return;
    }
    if (!params.code) throw FieldErrors.one('code', 'twofactor.code_required');
    await this.checkPasswordAndCode(actor, call, params.password, params.code);
  }

  /** `code` undefined: the password alone. */
  private checkPasswordAndCode(actor: Actor, call: ClientCall, password: string, code: string | undefined) {
    return this.checkPasswordThen(
      actor,
      call,
      password,
      code === undefined
        ? undefined
        : { field: 'code', messageKey: 'twofactor.wrong_code', check: () => this.codeMatches(actor.userId, code) },
    );
  }

  /** A current TOTP or recovery code of the user (a recovery code is used up). */
  async codeMatches(userId: number, code: string): Promise<boolean> {
    return (await this.checkCode(userId, code)) !== undefined;
  }

  /**
   * Every re-authentication's core: the password, then — only once it is right, so a wrong
   * password never uses up a recovery code or a passkey's challenge — the second factor, counted
   * in the login's windows like a login. A failure is logged and answered on its field.
   */
  async checkPasswordThen(
    actor: Actor,
    call: ClientCall,
    password: string,
    factor?: { field: string; messageKey: string; check: () => Promise<boolean> },
  ): Promise<void> {
    const problem = await limitedAttempt(
      this.limiter,
      this.limits,
      call.ip,
      accountKeyOf(actor.domainName, actor.username),
      async () => {
        const user = await userRepository.findById(this.db, actor.userId);
        const passwordOk = await verifyPassword(user?.password_hash, password);
        const factorOk = factor === undefined || (passwordOk ? await factor.check() : false);
        const value = !passwordOk ? 'password' : !factorOk ? 'factor' : undefined;
        return { wrong: value !== undefined, value };
      },
    );
    if (problem) {
      authEvent(call, 'auth.reauth_failed', actor.domainName, actor.username);
      if (problem === 'password' || !factor) throw FieldErrors.one('password', 'auth.wrong_password');
      throw FieldErrors.one(factor.field, factor.messageKey);
    }
  }

  private async newRecoveryCodes(userId: number): Promise<string[]> {
    const codes = this.recovery.generate(RECOVERY_CODE_COUNT);
    const hashes = codes.map((code) => this.recovery.hash(this.recovery.normalise(code) as string));
    await twoFactorRepository.replaceRecoveryCodes(this.db, userId, hashes, this.now());
    return codes;
  }

  /** Logs a second-factor change and e-mails it to the user's address, when one is known. */
  async reportChange(
    actor: Actor,
    call: ClientCall,
    change: SecurityChange,
    language: Language,
    extra: Record<string, string> = {},
  ) {
    authEvent(call, `auth.2fa_${change}`, actor.domainName, actor.username);
    await this.mail.send(actor, call, {
      kind: `security_${change}`,
      subjectKey: `twofactor.mail_subject_${change}`,
      bodyKey: `twofactor.mail_body_${change}`,
      language,
      vars: extra,
    });
  }
}
