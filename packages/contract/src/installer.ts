import { z } from 'zod';
import { idParam } from './fields.ts';
import { jobStatusSchema } from './job.ts';

/**
 * The application installer (spec 2, "Hosting application"): a catalogue of packages the provider
 * configures, installed into a site's folder with the answers to the package's own inputs.
 */

export const APP_CATEGORIES = [
  'blogs',
  'cms',
  'ecommerce',
  'forums',
  'socialnetworking',
  'educational',
  'erp',
  'video',
  'admanager',
  'galleries',
  'projectman',
  'files',
  'frameworks',
  'wikis',
  'mail',
  'customersupport',
  'others',
  'dbtools',
  'music',
  'polls',
  'libraries',
  'calendars',
  'games',
  'microblogs',
  'rss',
  'guestbooks',
] as const;
export type AppCategory = (typeof APP_CATEGORIES)[number];

export const APP_INPUT_TYPES = ['select', 'textarea', 'checkbox', 'hidden', 'text'] as const;
export type AppInputType = (typeof APP_INPUT_TYPES)[number];

/** Config fields travel as `cfg_<name>` in the install call, so they never collide with its own fields. */
export const APP_CONFIG_PREFIX = 'cfg_';

export const appInputSchema = z.object({
  /** Without the prefix; letters, digits and `_`. */
  name: z.string(),
  /** In the request's language. */
  label: z.string(),
  type: z.enum(APP_INPUT_TYPES),
  /** "handle password": a text input for a password (masked, with the generator); never prefilled. */
  password: z.boolean(),
  /** The initial value (text, textarea, select, hidden); a checkbox's value when ticked is '1'. */
  value: z.string(),
  /** A checkbox's initial state. */
  checked: z.boolean(),
  options: z.array(z.object({ value: z.string(), label: z.string() })),
  isRequired: z.boolean(),
  /** The longest answer the server takes (text, textarea and password inputs). */
  maxLength: z.number().int().positive(),
});
export type AppInput = z.infer<typeof appInputSchema>;

export const appConfigSectionSchema = z.object({ title: z.string(), inputs: z.array(appInputSchema) });
export type AppConfigSection = z.infer<typeof appConfigSectionSchema>;

export const hostingApplicationSchema = z.object({
  id: z.number().int(),
  fullName: z.string(),
  softName: z.string(),
  version: z.string(),
  description: z.string(),
  category: z.enum(APP_CATEGORIES),
  type: z.enum(['php', 'js']),
  /** Bytes of the installed files. */
  size: z.number().int().nonnegative(),
  featured: z.boolean(),
  /** It needs a MySQL database (chosen or created in the installer's step 2). */
  isBBDDApplication: z.boolean(),
  installConfig: z.array(appConfigSectionSchema),
});
export type HostingApplication = z.infer<typeof hostingApplicationSchema>;

export const applicationListDataSchema = z.object({ apps: z.array(hostingApplicationSchema) });
export const applicationParamsSchema = z.object({ appId: idParam });

/**
 * `POST service/{id}/installapp/`: the site, the application, the database (`mysqlID`, 0 or empty
 * for none) and a path under the site's folder ('' installs into the folder itself), plus every
 * config field as `cfg_<name>`. Only the known fields are read; checkboxes are sent only when ticked.
 */
export const installAppParamsSchema = z
  .object({
    id: idParam,
    subdomainID: idParam,
    applicationID: idParam,
    mysqlID: z.union([z.literal(''), z.coerce.number({ error: 'validation.id' }).int().nonnegative()]).default(0),
    subpath: z.string().max(255, { error: 'validation.too_long' }).default(''),
  })
  .catchall(z.unknown());

/** A finished install: where the application answers. */
export const installResultSchema = z.object({ url: z.string(), folder: z.string() });

/** A failure as the installer's error dialog shows it: a name (title) and a message. */
export const jobErrorSchema = z.object({ name: z.string(), message: z.string() });

export const installJobSchema = z.object({
  /** Random, unguessable; also in `system.job`. */
  id: z.string(),
  kind: z.literal('installapp'),
  status: jobStatusSchema,
  /** 0-100. */
  progress: z.number(),
  result: installResultSchema.nullable(),
  error: jobErrorSchema.nullable(),
});
export type InstallJob = z.infer<typeof installJobSchema>;

/** The install call's answer and the job call's (`job/{jobId}/`). */
export const installAppDataSchema = z.object({ job: installJobSchema });

// The calls' shapes as types, so the web can import them without zod.
export type ApplicationListData = z.infer<typeof applicationListDataSchema>;
export type InstallAppParams = z.infer<typeof installAppParamsSchema>;
export type InstallAppData = z.infer<typeof installAppDataSchema>;
