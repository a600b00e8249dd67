import { z } from 'zod';
import { LANGUAGES, THEME_COLORS } from './constants.ts';

export const CAPTCHA_PROVIDERS = ['altcha', 'recaptcha', 'hcaptcha', 'turnstile', 'none'] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

export const configGetParamsSchema = z.object({
  /** The page the panel is shown under, when the host alone does not pick the brand. */
  _referer_: z.string().max(2048).optional(),
});

export const configDataSchema = z.object({
  company: z.string(),
  themeConfig: z.object({
    color: z.enum(THEME_COLORS),
    /** URL of the logo; the default logo when the brand has none. */
    logo: z.string(),
    logo_mini: z.string(),
    /** Whether the user may pick another primary colour in preferences. */
    allowColorChange: z.boolean(),
  }),
  defaultLanguage: z.enum(LANGUAGES),
  /** The language this answer's texts are in. */
  language: z.enum(LANGUAGES),
  /** BroadcastChannel name for cross-tab events. */
  channel: z.string(),
  basePath: z.string(),
  captcha: z.object({
    provider: z.enum(['altcha', 'recaptcha', 'hcaptcha', 'turnstile', 'none']),
    /** Site key for the third-party widgets. */
    siteKey: z.string(),
    /** ALTCHA challenge URL (absolute path). */
    challengeUrl: z.string(),
  }),
});
export type ConfigData = z.infer<typeof configDataSchema>;

/** Where the panel serves the default logos of brands that have none (plain images, outside the API). */
export const DEFAULT_LOGO_PATH = '/branding/default-logo.svg';
export const DEFAULT_LOGO_MINI_PATH = '/branding/default-logo-mini.svg';
