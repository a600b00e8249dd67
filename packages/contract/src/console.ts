import { z } from 'zod';
import { LANGUAGES, THEME_COLORS } from './constants.ts';
import { email, line, password, text, textAsTyped } from './fields.ts';
import { listPageFields, listTotal } from './list-query.ts';
import {
  providerAccountCreateParamsSchema,
  providerServiceSchema,
  providerSuspendParamsSchema,
  providerTerminationSchema,
} from './provider.ts';

/**
 * The provider's console (`console/…` under the base path, the web app's `/console/`): the
 * provider's staff, users of their own (never a customer's), signed in with a password and a
 * second factor they must set up at their first sign-in, and a session cookie of its own.
 */

const code = z
  .string()
  .trim()
  .refine((value) => value === '' || /^\d{6}$/.test(value), { error: 'console.error.code_format' });

/** A sign-in: the password, then the code (at the first sign-in, of the app just set up). */
export const consoleLoginParamsSchema = z.object({
  username: line(64),
  password: password(),
  code: code.optional().default(''),
});
export type ConsoleLoginParams = z.infer<typeof consoleLoginParamsSchema>;

/**
 * `code`: the password is right, the code is wanted. `setup`: the password is right and the staff
 * user has no second factor yet: the app is set up from `setup` (its secret, the otpauth URI and
 * its QR code), and the sign-in is sent again with its first code. `done`: signed in (the
 * session cookie is set).
 */
export const consoleLoginDataSchema = z.object({
  step: z.enum(['code', 'setup', 'done']),
  setup: z.object({ secret: z.string(), uri: z.string(), qr: z.string() }).optional(),
});
export type ConsoleLoginData = z.infer<typeof consoleLoginDataSchema>;

export const consoleNoParamsSchema = z.object({});
export const consoleInfoDataSchema = z.object({ username: z.string() });

/** A plan's limits as the console edits them: null is no limit; sizes in MiB. */
const limit = z.number().int().min(0).nullable();
export const consolePlanSchema = z.object({
  name: z.string(),
  webSpaceMb: limit,
  trafficMb: limit,
  sites: limit,
  mailboxes: limit,
  mailboxMb: limit,
  aliases: limit,
  ftpAccounts: limit,
  databases: limit,
  databaseSpaceMb: limit,
  backupMb: limit,
  /** The PHP versions offered ([]: every version the server has). */
  phpVersions: z.array(z.string()),
  phpWorkers: z.number().int().min(1),
  /** Scheduled tasks a service may have, and the shortest interval between two runs (minutes). */
  cronTasks: limit,
  cronMinIntervalMinutes: z.number().int().min(1),
  /** SSH keys a service may have for SFTP. */
  sshKeys: limit,
  /** Entries a mail service's spam allow and block lists may hold together. */
  spamSenders: limit,
  /** MiB of access logs a service keeps for its site statistics. */
  statsLogMb: limit,
  /** Hosting services on it. */
  services: z.number().int(),
});
export type ConsolePlan = z.infer<typeof consolePlanSchema>;
export const consolePlansDataSchema = z.object({ plans: z.array(consolePlanSchema) });

/** A limit in a form: '' (or absent) is no limit. */
const limitField = z
  .union([z.literal(''), z.coerce.number({ error: 'validation.invalid' }).int('validation.invalid').min(0)])
  .optional()
  .default('')
  .transform((value) => (value === '' ? null : value));

/** A plan made or changed: `create` says which (a name taken, or unknown, is refused). */
export const consolePlanSaveParamsSchema = z.object({
  create: z.enum(['0', '1']).optional().default('0'),
  name: line(63).refine((value) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(value), {
    error: 'plan.error.name',
  }),
  webSpaceMb: limitField,
  trafficMb: limitField,
  sites: limitField,
  mailboxes: limitField,
  mailboxMb: limitField,
  aliases: limitField,
  ftpAccounts: limitField,
  databases: limitField,
  databaseSpaceMb: limitField,
  backupMb: limitField,
  /** Comma-separated ('' : every version). */
  phpVersions: textAsTyped(200)
    .optional()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((one) => one.trim())
        .filter(Boolean),
    )
    .refine((versions) => versions.every((one) => /^\d\.\d$/.test(one)), { error: 'console.error.php_versions' }),
  phpWorkers: z.coerce.number({ error: 'validation.invalid' }).int('validation.invalid').min(1).max(200),
  cronTasks: limitField,
  cronMinIntervalMinutes: z.coerce
    .number({ error: 'validation.invalid' })
    .int('validation.invalid')
    .min(1, 'validation.invalid')
    .max(1440, 'validation.invalid')
    .optional()
    .default(5),
  sshKeys: limitField,
  spamSenders: limitField,
  statsLogMb: limitField,
});
export type ConsolePlanSaveParams = z.infer<typeof consolePlanSaveParamsSchema>;
export const consolePlanNameParamsSchema = z.object({ name: line(63) });
export const consolePlanDataSchema = z.object({ plan: consolePlanSchema });

/** One hosting service in the console's list: its account and brand, plan, state and disk use. */
export const consoleServiceSchema = providerServiceSchema.extend({
  account: z.string(),
  brand: z.string(),
  /** Its home and databases, in bytes (the last figure measured). */
  diskBytes: z.number().nonnegative(),
  /** Its plan's web space and database space together; null when the plan has no limit. */
  diskLimitBytes: z.number().nonnegative().nullable(),
});
export type ConsoleService = z.infer<typeof consoleServiceSchema>;

export const consoleServicesParamsSchema = z.object(listPageFields(['domain', 'account', 'plan', 'state']));
export const consoleServicesDataSchema = z.object({ services: z.array(consoleServiceSchema), total: listTotal });

export const consoleAccountCreateParamsSchema = providerAccountCreateParamsSchema;
export const consoleServiceDataSchema = z.object({ service: consoleServiceSchema });
export const consoleServiceParamsSchema = z.object({ domain: providerSuspendParamsSchema.shape.domain });
export const consoleSuspendParamsSchema = providerSuspendParamsSchema;
export const consolePlanChangeParamsSchema = z.object({
  domain: providerSuspendParamsSchema.shape.domain,
  plan: line(63),
});
export const consoleTerminationDataSchema = z.object({ termination: providerTerminationSchema });

/** The brands an account can be made in. */
export const consoleBrandsDataSchema = z.object({
  brands: z.array(z.object({ slug: z.string(), name: z.string(), isDefault: z.boolean() })),
});

/** An account with its brand, how many services and users it has. */
export const consoleAccountSchema = z.object({
  id: z.number().int(),
  domain: z.string(),
  brand: z.string(),
  services: z.number().int(),
  users: z.number().int(),
  createdAt: z.number().int(),
});
export const consoleAccountsParamsSchema = z.object(listPageFields(['domain', 'brand']));
export const consoleAccountsDataSchema = z.object({ accounts: z.array(consoleAccountSchema), total: listTotal });

/** An account's users: their last sign-in and second factor (never a secret). */
export const consoleAccountUsersParamsSchema = z.object({ domain: providerSuspendParamsSchema.shape.domain });
export const consoleAccountUsersDataSchema = z.object({
  users: z.array(
    z.object({
      username: z.string(),
      email: z.string(),
      lastLoginAt: z.number().int().nullable(),
      secondFactor: z.boolean(),
      /** Holds the account's right to manage its users. */
      manageUsers: z.boolean(),
      disabled: z.boolean(),
    }),
  ),
});

/** Granting or taking a user's right to manage the account's users (the account keeps one). */
export const consoleUserManagerParamsSchema = z.object({
  domain: providerSuspendParamsSchema.shape.domain,
  username: z.string().regex(/^[a-z0-9._-]{1,64}$/, { error: 'validation.invalid' }),
  manageUsers: z.preprocess(
    (value) => (value === 'true' ? true : value === 'false' ? false : value),
    z.boolean({ error: 'validation.invalid' }),
  ),
});

/** A job of the work log: waiting, running, to retry or failed (its payload is not shown). */
export const consoleJobSchema = z.object({
  id: z.string(),
  kind: z.string(),
  key: z.string().nullable(),
  state: z.enum(['created', 'retry', 'active', 'completed', 'cancelled', 'failed']),
  retries: z.number().int(),
  error: z.string().nullable(),
  createdAt: z.number().int(),
  runAfter: z.number().int(),
});
export const consoleWorkParamsSchema = z.object({
  state: z.enum(['open', 'failed', 'retrying'], { error: 'validation.invalid' }).optional().default('open'),
});
/** The jobs, and the services whose changes have not reached their server yet. */
export const consoleWorkDataSchema = z.object({
  jobs: z.array(consoleJobSchema),
  changes: z.array(
    z.object({
      area: z.string(),
      domain: z.string(),
      pending: z.number().int(),
      since: z.number().int(),
      lastError: z.string().nullable(),
    }),
  ),
});
export const consoleJobParamsSchema = z.object({
  id: z
    .string()
    .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, { error: 'validation.invalid' }),
});
export const consoleJobDataSchema = z.object({ job: consoleJobSchema });

/** The messages the panel sent or could not send (contact, forgotten password, security mail). */
export const consoleOutboxParamsSchema = z.object({
  unsent: z.enum(['0', '1']).optional().default('0'),
});
export const consoleOutboxDataSchema = z.object({
  messages: z.array(
    z.object({
      id: z.number().int(),
      kind: z.string(),
      to: z.string(),
      subject: z.string(),
      createdAt: z.number().int(),
      sentAt: z.number().int().nullable(),
      error: z.string().nullable(),
    }),
  ),
});

/** The activity of every account, newest first. */
export const consoleActivityParamsSchema = z.object({
  page: listPageFields(['at']).page,
  filter: textAsTyped(200).optional().default(''),
});
export const consoleActivityDataSchema = z.object({
  entries: z.array(
    z.object({
      id: z.number().int(),
      at: z.number().int(),
      account: z.string(),
      username: z.string(),
      ip: z.string(),
      via: z.string(),
      reference: z.string().nullable(),
      area: z.string(),
      action: z.string(),
      target: z.string(),
    }),
  ),
  total: z.number().int(),
});

/** The provider's servers, and whether each is heard from. */
export const consoleServersDataSchema = z.object({
  servers: z.array(
    z.object({
      name: z.string(),
      roles: z.array(z.string()),
      host: z.string(),
      state: z.enum(['active', 'draining']),
      up: z.boolean(),
      lastSeenAt: z.number().int().nullable(),
      services: z.number().int(),
    }),
  ),
  down: z.number().int(),
});

/** A logo: '' (none), a path on the panel's host, or an http(s) URL; nothing a page could be tricked with. */
const logoField = z
  .string()
  .trim()
  .max(2048, { error: 'validation.too_long' })
  .refine(
    (value) => {
      if (value === '') return true;
      if (/[\s"'<>\\`]/.test(value)) return false;
      if (/^\/(?!\/)[A-Za-z0-9._~/%-]*$/.test(value)) return true;
      try {
        return ['https:', 'http:'].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { error: 'console.error.logo' },
  );

const flag = z.enum(['0', '1']).transform((value) => value === '1');

/** A brand as the console edits it: its look, its contact and its legal texts. */
export const consoleBrandSchema = z.object({
  slug: z.string(),
  company: z.string(),
  color: z.enum(THEME_COLORS),
  logo: z.string(),
  logoMini: z.string(),
  allowColorChange: z.boolean(),
  defaultLanguage: z.enum(LANGUAGES),
  contactEmail: z.string(),
  require2fa: z.boolean(),
  isDefault: z.boolean(),
  /** Its privacy policy per language ('' title: the panel's default text). */
  legal: z.array(
    z.object({ language: z.enum(LANGUAGES), title: z.string(), body: z.string(), redirectTo: z.string() }),
  ),
});
export type ConsoleBrand = z.infer<typeof consoleBrandSchema>;
export const consoleBrandParamsSchema = z.object({ slug: line(63) });
export const consoleBrandDataSchema = z.object({ brand: consoleBrandSchema });
export const consoleBrandSaveParamsSchema = z.object({
  slug: line(63),
  company: line(255),
  color: z.enum(THEME_COLORS, { error: 'validation.invalid' }),
  logo: logoField.optional().default(''),
  logoMini: logoField.optional().default(''),
  allowColorChange: flag.optional().default(true),
  defaultLanguage: z.enum(LANGUAGES, { error: 'validation.invalid' }),
  contactEmail: z
    .union([z.literal(''), email])
    .optional()
    .default(''),
  require2fa: flag.optional().default(false),
});
export const consoleLegalSaveParamsSchema = z.object({
  slug: line(63),
  language: z.enum(LANGUAGES, { error: 'validation.invalid' }),
  title: line(200),
  body: text(50_000),
  redirectTo: logoField.optional().default(''),
});
