import { randomBytes } from 'node:crypto';
import type { Language } from '@panel247/contract/constants';
import type {
  AuthenticationCredential,
  LoginPasskeyParams,
  Passkey,
  PasskeyListData,
  PasskeyLoginStartData,
  PasskeyLoginStartParams,
  PasskeyOptionsData,
  PasskeyRegisterOptionsParams,
  PasskeyRegisterParams,
  PasskeyRemoveParams,
  PasskeyRenameParams,
} from '@panel247/contract/passkey';
import type { LoginData } from '@panel247/contract/user';
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Db } from '../../db/database.ts';
import { FieldErrors, NotFoundError } from '../../errors.ts';
import type { BrandService } from '../brand/brand.service.ts';
import type { CaptchaVerifier } from '../captcha/captcha.verifier.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';
import type { Actor } from './actor.ts';
import { accountKeyOf, type LoginLimits, limitedAttempt } from './attempt-limits.ts';
import type { AuthService } from './auth.service.ts';
import { authEvent } from './auth-event.ts';
import type { ClientCall } from './client-call.ts';
import { passkeyRepository } from './passkey.repository.ts';
import { type RelyingParty, relyingPartyOf } from './passkey-relying-party.ts';
import { hashToken } from './session.service.ts';
import { twoFactorRepository } from './two-factor.repository.ts';
import type { TwoFactorService } from './two-factor.service.ts';
import { userRepository } from './user.repository.ts';

/** How long a ceremony's challenge waits for the browser's answer (the browser's own timeout too). */
const CEREMONY_SECONDS = 5 * 60;

/** The library's options are plain JSON: handed to the browser as they are. */
function forBrowser(options: { challenge: string }): PasskeyOptionsData['options'] {
  return options as PasskeyOptionsData['options'];
}

function transportsOf(stored: string): AuthenticatorTransport[] {
  return stored ? (stored.split(',') as AuthenticatorTransport[]) : [];
}

/**
 * Passkeys (WebAuthn through `@simplewebauthn/server`): several per user, each named. A passkey
 * answers the login's second step after the password, or replaces password and code when it
 * verifies its user (a PIN or biometrics: two factors in one gesture). Adding one needs the
 * password and, when the user has a second factor, a current one; removing one needs the password
 * and a current factor. Every change is logged and reported to the user's address like the other
 * second-factor changes.
 */
export class PasskeyService {
  constructor(
    private readonly db: Db,
    private readonly auth: AuthService,
    private readonly twoFactor: TwoFactorService,
    private readonly brands: BrandService,
    private readonly captcha: CaptchaVerifier,
    private readonly limiter: RateLimiter,
    private readonly limits: LoginLimits,
    private readonly origins: readonly string[],
    private readonly now: () => number,
  ) {}

  async list(actor: Actor): Promise<PasskeyListData> {
    const rows = await passkeyRepository.listOfUser(this.db, actor.userId);
    return {
      passkeys: rows.map(
        (row): Passkey => ({
          id: row.id,
          name: row.name,
          backedUp: row.backed_up === 1,
          createdAt: row.created_at,
          lastUsedAt: row.last_used_at,
        }),
      ),
    };
  }

  /**
   * Re-authentication first (counted like a login), then options for the browser to create a
   * credential. With a second factor on, the password alone would let whoever holds it and a
   * session add a passkey that then logs in without that factor: a current one is needed too.
   */
  async registerOptions(
    actor: Actor,
    call: ClientCall,
    params: PasskeyRegisterOptionsParams,
  ): Promise<PasskeyOptionsData> {
    const rp = relyingPartyOf(call, this.origins);
    await this.confirmIdentity(actor, call, params);
    const existing = await passkeyRepository.listOfUser(this.db, actor.userId);
    const brand = await this.brands.byId(actor.brandId);
    const label = `${actor.username}@${actor.domainName}`;
    const options = await generateRegistrationOptions({
      rpName: brand.company,
      rpID: rp.id,
      // The user handle: unique across the panel (one authenticator keeps one passkey per handle
      // and relying party), and no name or address in it.
      userID: new TextEncoder().encode(`p247-user-${actor.userId}`),
      userName: label,
      userDisplayName: label,
      timeout: CEREMONY_SECONDS * 1000,
      attestationType: 'none',
      excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row.transports) })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
    await passkeyRepository.putChallenge(
      this.db,
      actor.userId,
      'register',
      options.challenge,
      this.now() + CEREMONY_SECONDS,
    );
    return { options: forBrowser(options) };
  }

  async register(actor: Actor, call: ClientCall, params: PasskeyRegisterParams, language: Language): Promise<Passkey> {
    const rp = relyingPartyOf(call, this.origins);
    const challenge = await passkeyRepository.takeChallenge(this.db, actor.userId, 'register', this.now());
    if (!challenge) throw FieldErrors.one('credential', 'passkey.not_accepted');
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response: params.credential as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: false,
      });
    } catch (error) {
      call.log.info({ event: 'auth.passkey_refused', reason: (error as Error).message }, 'passkey refused');
      throw FieldErrors.one('credential', 'passkey.not_accepted');
    }
    if (!verified.verified) throw FieldErrors.one('credential', 'passkey.not_accepted');
    const { credential, credentialBackedUp } = verified.registrationInfo;
    const now = this.now();
    const id = await passkeyRepository.insert(this.db, {
      userId: actor.userId,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      signCount: credential.counter,
      transports: (params.credential.response.transports ?? []).filter((t) => /^[a-z-]{1,32}$/.test(t)).join(','),
      name: params.name,
      backedUp: credentialBackedUp,
      now,
    });
    if (id === undefined) throw FieldErrors.one('credential', 'passkey.already_registered');
    await twoFactorRepository.factorSetUp(this.db, actor.userId);
    await this.twoFactor.reportChange(actor, call, 'passkey_added', language, { name: params.name });
    return { id, name: params.name, backedUp: credentialBackedUp, createdAt: now, lastUsedAt: null };
  }

  /** A challenge for one of the user's passkeys to sign, to confirm a security change. */
  async reauthOptions(actor: Actor, call: ClientCall): Promise<PasskeyOptionsData> {
    const rp = relyingPartyOf(call, this.origins);
    const options = await this.assertionOptions(actor.userId, rp, 'preferred');
    await passkeyRepository.putChallenge(
      this.db,
      actor.userId,
      'reauth',
      options.challenge,
      this.now() + CEREMONY_SECONDS,
    );
    return { options: forBrowser(options) };
  }

  /**
   * Renaming one of the user's own passkeys (another's, or an unknown id, is a 404). The name only
   * tells the user's passkeys apart: no re-authentication and no notice, unlike adding or removing.
   */
  async rename(actor: Actor, params: PasskeyRenameParams): Promise<void> {
    if (!(await passkeyRepository.rename(this.db, actor.userId, params.id, params.name))) throw new NotFoundError();
  }

  /** Removing a passkey: the password and a current factor (a code, or a passkey's signature). */
  async remove(actor: Actor, call: ClientCall, params: PasskeyRemoveParams, language: Language): Promise<void> {
    const passkey = await passkeyRepository.findOfUser(this.db, actor.userId, params.id);
    if (!passkey) throw new NotFoundError();
    await this.checkPasswordAndFactor(actor, call, params);
    if (!(await passkeyRepository.remove(this.db, actor.userId, params.id))) throw new NotFoundError();
    await this.twoFactor.reportChange(actor, call, 'passkey_removed', language, { name: passkey.name });
  }

  /**
   * Re-authentication for a security change any second factor may confirm (a new passkey, an API
   * token, ending the tokens): the password, and a current factor when the user has one — a passkey's signature over the
   * re-authentication challenge, or a TOTP or recovery code. The password alone stands only for
   * a user without a second factor.
   */
  async confirmIdentity(
    actor: Actor,
    call: ClientCall,
    params: { password: string; code?: string; credential?: AuthenticationCredential },
  ): Promise<void> {
    if (params.credential) return this.checkPasswordAndFactor(actor, call, { ...params, code: '' });
    if (
      !(await this.twoFactor.isEnabled(actor.userId)) &&
      (await passkeyRepository.countOfUser(this.db, actor.userId)) > 0
    ) {
      throw FieldErrors.one('credential', 'passkey.confirm_required');
    }
    return this.twoFactor.confirmIdentity(actor, call, params);
  }

  /** The password and a current factor (a passkey's signature, else a code), in the login's limits. */
  private checkPasswordAndFactor(
    actor: Actor,
    call: ClientCall,
    params: { password: string; code: string; credential?: AuthenticationCredential },
  ): Promise<void> {
    const { credential } = params;
    if (!credential) {
      return this.twoFactor.checkPasswordThen(actor, call, params.password, {
        field: 'code',
        messageKey: 'twofactor.wrong_code',
        check: () => this.twoFactor.codeMatches(actor.userId, params.code),
      });
    }
    const rp = relyingPartyOf(call, this.origins);
    return this.twoFactor.checkPasswordThen(actor, call, params.password, {
      field: 'credential',
      messageKey: 'passkey.not_accepted',
      check: async () => {
        const challenge = await passkeyRepository.takeChallenge(this.db, actor.userId, 'reauth', this.now());
        return challenge ? this.verifyAssertion(call, actor.userId, credential, challenge, rp, false) : false;
      },
    });
  }

  async loginOptions(call: ClientCall, loginToken: string): Promise<PasskeyOptionsData> {
    const id = hashToken(loginToken);
    const pending = await passkeyRepository.findLogin(this.db, id, this.now());
    if (!pending || pending.passwordless === 1) throw FieldErrors.one('code', 'twofactor.login_expired');
    const rp = relyingPartyOf(call, this.origins);
    const options = await this.assertionOptions(pending.user_id, rp, 'preferred');
    if (!(await passkeyRepository.setLoginChallenge(this.db, id, options.challenge, this.now()))) {
      throw FieldErrors.one('code', 'twofactor.login_expired');
    }
    return { options: forBrowser(options) };
  }

  /**
   * A login with a passkey in place of password and code. The captcha rule is the password's.
   * The options name no credential (the browser offers the passkeys it keeps for this site), so
   * the answer is the same whether the user exists or has passkeys: it tells nothing.
   */
  async loginStart(call: ClientCall, params: PasskeyLoginStartParams): Promise<PasskeyLoginStartData> {
    const { domainName, username } = params;
    if (!(await this.captcha.verify(params.recaptcha_response, call.ip))) {
      authEvent(call, 'auth.captcha_failed', domainName, username);
      throw FieldErrors.one('recaptcha_response', 'auth.captcha_failed');
    }
    const rp = relyingPartyOf(call, this.origins);
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: [],
      userVerification: 'required',
      timeout: CEREMONY_SECONDS * 1000,
    });
    const loginToken = randomBytes(32).toString('base64url');
    const user = await userRepository.findForLogin(this.db, domainName, username);
    if (user) {
      await passkeyRepository.insertPasswordlessLogin(this.db, {
        id: hashToken(loginToken),
        userId: user.id,
        accountKey: accountKeyOf(domainName, username),
        previousLoginAt: user.last_login_at,
        challenge: options.challenge,
        expiresAt: this.now() + CEREMONY_SECONDS,
      });
    }
    return { loginToken, options: forBrowser(options) };
  }

  /**
   * The signed challenge of a pending login (after the password, or passwordless). Each guess
   * counts in the login's windows; the challenge is good for one signature and the login for one
   * session. A passwordless login needs a passkey that verified its user.
   */
  async login(call: ClientCall, params: LoginPasskeyParams): Promise<LoginData> {
    const id = hashToken(params.loginToken);
    const pending = await passkeyRepository.findLogin(this.db, id, this.now());
    const challenge = pending?.passkey_challenge;
    // One message for an unknown user, an expired login and a refused passkey: none tells more.
    if (!pending || !challenge || !(await passkeyRepository.takeLoginChallenge(this.db, id, challenge))) {
      throw FieldErrors.one('credential', 'passkey.not_accepted');
    }
    const { domain_name: domainName, username } = pending;
    const rp = relyingPartyOf(call, this.origins);
    const passwordless = pending.passwordless === 1;
    const ok = await limitedAttempt(this.limiter, this.limits, call.ip, pending.account_key, async () => {
      const value = await this.verifyAssertion(call, pending.user_id, params.credential, challenge, rp, passwordless);
      return { wrong: !value, value };
    });
    if (!ok) {
      authEvent(call, 'auth.second_factor_failed', domainName, username);
      throw FieldErrors.one('credential', 'passkey.not_accepted');
    }
    if (!(await twoFactorRepository.consumeChallenge(this.db, id))) {
      throw FieldErrors.one('credential', 'passkey.not_accepted');
    }
    await this.limiter.clear(this.limits.perAccount, pending.account_key);
    authEvent(call, passwordless ? 'auth.passkey_login' : 'auth.passkey_second_factor', domainName, username);
    return this.auth.finishLogin(call, {
      userId: pending.user_id,
      accountId: pending.account_id,
      previousLoginAt: pending.previous_login_at,
      domainName,
      username,
    });
  }

  private async assertionOptions(userId: number, rp: RelyingParty, userVerification: 'preferred' | 'required') {
    const passkeys = await passkeyRepository.listOfUser(this.db, userId);
    if (passkeys.length === 0) throw FieldErrors.one('credential', 'passkey.none');
    return generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: passkeys.map((row) => ({ id: row.credential_id, transports: transportsOf(row.transports) })),
      userVerification,
      timeout: CEREMONY_SECONDS * 1000,
    });
  }

  /**
   * Checks a signature by one of the user's passkeys over `challenge`, for this origin and relying
   * party, and moves its counter forward. A counter that did not grow (when the authenticator
   * keeps one) means a cloned authenticator or a replay: refused.
   */
  private async verifyAssertion(
    call: ClientCall,
    userId: number,
    credential: AuthenticationCredential,
    challenge: string,
    rp: RelyingParty,
    requireUserVerification: boolean,
  ): Promise<boolean> {
    const passkey = await passkeyRepository.findOfUserByCredential(this.db, userId, credential.id);
    if (!passkey) return false;
    try {
      const result = await verifyAuthenticationResponse({
        response: credential as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification,
        credential: {
          id: passkey.credential_id,
          publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
          counter: passkey.sign_count,
          transports: transportsOf(passkey.transports),
        },
      });
      if (!result.verified) return false;
      return await passkeyRepository.recordUse(
        this.db,
        passkey.id,
        passkey.sign_count,
        result.authenticationInfo.newCounter,
        this.now(),
      );
    } catch (error) {
      call.log.info({ event: 'auth.passkey_refused', reason: (error as Error).message }, 'passkey refused');
      return false;
    }
  }
}
