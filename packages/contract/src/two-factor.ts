import { z } from 'zod';
import { password } from './fields.ts';
import { TOTP_CODE_PATTERN } from './two-factor-rules.ts';

/** A code from the authenticator app (6 digits) or a recovery code (10 characters, a dash allowed). */
const anyCode = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(32, { error: 'validation.too_long' })
  .regex(/^[0-9A-Za-z -]+$/, { error: 'twofactor.code_format' });

export const loginCodeParamsSchema = z.object({
  loginToken: z.string().regex(/^[A-Za-z0-9_-]{43}$/, { error: 'twofactor.login_expired' }),
  code: anyCode,
});
export type LoginCodeParams = z.infer<typeof loginCodeParamsSchema>;

export const twoFactorStatusDataSchema = z.object({
  enabled: z.boolean(),
  /** Recovery codes not used yet. */
  recoveryCodesLeft: z.number().int(),
  /** The brand requires two factors. */
  required: z.boolean(),
});
export type TwoFactorStatusData = z.infer<typeof twoFactorStatusDataSchema>;

export const twoFactorSetupDataSchema = z.object({
  /** Base32, for typing into an app by hand. */
  secret: z.string(),
  /** The otpauth:// URI the QR code carries. */
  uri: z.string(),
  /** The QR code as an SVG data URL. */
  qr: z.string(),
});
export type TwoFactorSetupData = z.infer<typeof twoFactorSetupDataSchema>;

export const twoFactorEnableParamsSchema = z.object({
  code: z.string().trim().regex(TOTP_CODE_PATTERN, { error: 'twofactor.code_format' }),
});
export type TwoFactorEnableParams = z.infer<typeof twoFactorEnableParamsSchema>;

export const recoveryCodesDataSchema = z.object({
  /** Shown once: only their hashes are kept. */
  recoveryCodes: z.array(z.string()),
});
export type RecoveryCodesData = z.infer<typeof recoveryCodesDataSchema>;

/** Re-authentication for a security change: the password and a current factor. */
export const twoFactorReauthParamsSchema = z.object({
  password: password(),
  code: anyCode,
});
export type TwoFactorReauthParams = z.infer<typeof twoFactorReauthParamsSchema>;
