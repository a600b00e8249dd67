import { z } from 'zod';
import { domainName, email, line, password, text } from './fields.ts';

export const PASSWORD_MIN_LENGTH = 10;

export const loginParamsSchema = z.object({
  domainName,
  username: line(64),
  password: password(),
  /** The captcha answer: ALTCHA payload, reCAPTCHA/hCaptcha/Turnstile token; ignored when the captcha is off. */
  recaptcha_response: z.string().max(20_000, { error: 'validation.too_long' }).optional().default(''),
});
export type LoginParams = z.infer<typeof loginParamsSchema>;

export const loginDataSchema = z.object({
  /** The resource whose reference is the login domain, when the user can see it. */
  domainID: z.number().int().optional(),
  /**
   * The password was right and the user has a second factor: nothing is logged in yet. The
   * client posts the code with `loginToken` (single-use, a few minutes) to `user/login/code/`
   * ('totp': the app's code or a recovery code), or a passkey's signature ('passkey': passkeys only).
   */
  secondFactor: z.enum(['totp', 'passkey']).optional(),
  /** The user has passkeys: one answers the second step too (`user/login/passkey/`). */
  passkey: z.literal(true).optional(),
  loginToken: z.string().optional(),
  /** The brand requires two factors and the user has none: setting one up comes first. */
  setupSecondFactor: z.literal(true).optional(),
});
export type LoginData = z.infer<typeof loginDataSchema>;

export const userInfoDataSchema = z.object({
  user: z.string(),
  /** The address the current request comes from. */
  ip: z.string(),
  /** Epoch seconds of the previous successful login (this one on the first login). */
  tsLastLogin: z.number().int(),
  domainName: z.string(),
  language: z.enum(['es', 'en', 'ca']),
});
export type UserInfoData = z.infer<typeof userInfoDataSchema>;

export const changePasswordParamsSchema = z
  .object({
    actualPassword: password(),
    password: password(PASSWORD_MIN_LENGTH),
  })
  .refine((value) => value.actualPassword !== value.password, {
    path: ['password'],
    error: 'validation.password_unchanged',
  });
export type ChangePasswordParams = z.infer<typeof changePasswordParamsSchema>;

/** The login page's forgot-password form: a message to the provider, never an automatic reset. */
export const forgotPasswordParamsSchema = z.object({
  domain: domainName,
  user: line(64),
  name: line(128),
  email,
  contents: text(5000),
  recaptcha_response: z.string().max(20_000, { error: 'validation.too_long' }).optional().default(''),
});
export type ForgotPasswordParams = z.infer<typeof forgotPasswordParamsSchema>;
