import { z } from 'zod';
import { domainName, line, password } from './fields.ts';
import { PASSKEY_NAME_MAX } from './passkey-rules.ts';

/**
 * Passkeys (WebAuthn). The browser's answers travel as one form field holding the JSON that
 * `@simplewebauthn/browser` returns; the options the server sends are that library's JSON
 * options, passed to the browser as they are.
 */

const base64url = (max: number) =>
  z
    .string()
    .max(max, { error: 'passkey.bad_response' })
    .regex(/^[A-Za-z0-9_-]*$/, { error: 'passkey.bad_response' });

const transports = z.array(z.string().max(32)).max(10).optional();

/** A JSON text (one form field) parsed and then checked against `shape`. */
function jsonField<T extends z.ZodType>(shape: T) {
  return z
    .string({ error: 'passkey.bad_response' })
    .max(64_000, { error: 'passkey.bad_response' })
    .transform((value, ctx) => {
      try {
        return JSON.parse(value) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'passkey.bad_response' });
        return z.NEVER;
      }
    })
    .pipe(shape);
}

const credentialCommon = {
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key', { error: 'passkey.bad_response' }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
};

/** A new credential (`navigator.credentials.create`), as RegistrationResponseJSON. */
export const registrationCredentialSchema = jsonField(
  z.object(
    {
      ...credentialCommon,
      response: z.object({
        clientDataJSON: base64url(8000),
        attestationObject: base64url(32_000),
        authenticatorData: base64url(8000).optional(),
        transports,
        publicKeyAlgorithm: z.number().int().optional(),
        publicKey: base64url(8000).optional(),
      }),
    },
    { error: 'passkey.bad_response' },
  ),
);
export type RegistrationCredential = z.infer<typeof registrationCredentialSchema>;

/** A signed challenge (`navigator.credentials.get`), as AuthenticationResponseJSON. */
export const authenticationCredentialSchema = jsonField(
  z.object(
    {
      ...credentialCommon,
      response: z.object({
        clientDataJSON: base64url(8000),
        authenticatorData: base64url(8000),
        signature: base64url(2000),
        userHandle: base64url(200).optional(),
      }),
    },
    { error: 'passkey.bad_response' },
  ),
);
export type AuthenticationCredential = z.infer<typeof authenticationCredentialSchema>;

/** WebAuthn options for the browser (creation or request), with the challenge to sign. */
export const passkeyOptionsDataSchema = z.object({
  options: z.looseObject({ challenge: z.string() }),
});
export type PasskeyOptionsData = z.infer<typeof passkeyOptionsDataSchema>;

export const passkeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Synced by its provider (a phone's or a password manager's passkey) rather than bound to one device. */
  backedUp: z.boolean(),
  createdAt: z.number().int(),
  lastUsedAt: z.number().int().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyListDataSchema = z.object({ passkeys: z.array(passkeySchema) });
export type PasskeyListData = z.infer<typeof passkeyListDataSchema>;

/**
 * The current second factor confirming a security change, for a user who has one: a TOTP or
 * recovery code, or a passkey's signature over the re-authentication challenge
 * (`user/passkeys/reauth/options/`). Which one is needed is the server's rule, not the schema's.
 */
export const reauthFactorFields = {
  /** A TOTP code or a recovery code. */
  code: z
    .string()
    .trim()
    .max(32, { error: 'validation.too_long' })
    .regex(/^[0-9A-Za-z -]*$/, { error: 'twofactor.code_format' })
    .optional(),
  /** Instead of the code: a passkey's signature over the re-authentication challenge. */
  credential: authenticationCredentialSchema.optional(),
};

/**
 * Adding a passkey starts with the password and, when the user has a second factor, a current one:
 * a session alone cannot add a way in, and a new passkey is never a way around the factor.
 */
export const passkeyRegisterOptionsParamsSchema = z.object({ password: password(), ...reauthFactorFields });
export type PasskeyRegisterOptionsParams = z.infer<typeof passkeyRegisterOptionsParamsSchema>;
/** What the client sends: the credential as its JSON text. */
export type PasskeyRegisterOptionsInput = z.input<typeof passkeyRegisterOptionsParamsSchema>;

export const passkeyRegisterParamsSchema = z.object({
  name: line(PASSKEY_NAME_MAX),
  credential: registrationCredentialSchema,
});
export type PasskeyRegisterParams = z.infer<typeof passkeyRegisterParamsSchema>;
/** What the client sends: the credential as its JSON text. */
export type PasskeyRegisterInput = z.input<typeof passkeyRegisterParamsSchema>;

/** Renaming one of the user's passkeys: a name only tells them apart, so the session is enough. */
export const passkeyRenameParamsSchema = z.object({
  id: z.coerce.number({ error: 'validation.required' }).int().positive(),
  name: line(PASSKEY_NAME_MAX),
});
export type PasskeyRenameParams = z.infer<typeof passkeyRenameParamsSchema>;

/**
 * Removing a passkey: the password and a current factor, either a code (TOTP or recovery) or a
 * passkey's signature over the re-authentication challenge.
 */
export const passkeyRemoveParamsSchema = z
  .object({
    id: z.coerce.number({ error: 'validation.required' }).int().positive(),
    password: password(),
    code: z
      .string()
      .trim()
      .max(32, { error: 'validation.too_long' })
      .regex(/^[0-9A-Za-z -]*$/, { error: 'twofactor.code_format' })
      .optional()
      .default(''),
    credential: authenticationCredentialSchema.optional(),
  })
  .refine((value) => value.code !== '' || value.credential !== undefined, {
    error: 'passkey.factor_required',
    path: ['code'],
  });
export type PasskeyRemoveParams = z.infer<typeof passkeyRemoveParamsSchema>;
export type PasskeyRemoveInput = z.input<typeof passkeyRemoveParamsSchema>;

/** The login's second step answered with a passkey instead of a code. */
export const loginPasskeyOptionsParamsSchema = z.object({
  loginToken: z.string().regex(/^[A-Za-z0-9_-]{43}$/, { error: 'twofactor.login_expired' }),
});

export const loginPasskeyParamsSchema = z.object({
  loginToken: z.string().regex(/^[A-Za-z0-9_-]{43}$/, { error: 'twofactor.login_expired' }),
  credential: authenticationCredentialSchema,
});
export type LoginPasskeyParams = z.infer<typeof loginPasskeyParamsSchema>;
export type LoginPasskeyInput = z.input<typeof loginPasskeyParamsSchema>;

/** A login with a passkey in place of password and code: the same domain, user and captcha. */
export const passkeyLoginStartParamsSchema = z.object({
  domainName,
  username: line(64),
  recaptcha_response: z.string().max(20_000, { error: 'validation.too_long' }).optional().default(''),
});
export type PasskeyLoginStartParams = z.infer<typeof passkeyLoginStartParamsSchema>;
export type PasskeyLoginStartInput = z.input<typeof passkeyLoginStartParamsSchema>;

export const passkeyLoginStartDataSchema = z.object({
  loginToken: z.string(),
  options: z.looseObject({ challenge: z.string() }),
});
export type PasskeyLoginStartData = z.infer<typeof passkeyLoginStartDataSchema>;
