import { z } from 'zod';
import { idParam, textAsTyped } from './fields.ts';
import { applyingSchema } from './job.ts';
import { listPageFields, listTotal } from './list-query.ts';
import { permissionMapSchema } from './permissions.ts';

/** The web side of a hosting service: overview, PHP version, parking, redirections and sites. */

const usageSchema = z.object({ used: z.number().nonnegative(), limit: z.number().nonnegative() });

/** How many the service has of something its plan counts, and how many it allows (null: no limit). */
const countSchema = z.object({
  used: z.number().int().nonnegative(),
  limit: z.number().int().nonnegative().nullable(),
});

/** (beyond the spec) the service's plan: its name and the counts it limits. */
export const servicePlanSchema = z.object({
  name: z.string(),
  sites: countSchema,
  mailboxes: countSchema,
  aliases: countSchema,
  ftpAccounts: countSchema,
  databases: countSchema,
});
export type ServicePlan = z.infer<typeof servicePlanSchema>;

/**
 * Whether the service's web changes are all on its web server (see applyingSchema): `refused`,
 * the web server refused the files; `reload`, it could not reload.
 */
export const webApplyingSchema = applyingSchema(['refused', 'reload']);
export type WebApplying = z.infer<typeof webApplyingSchema>;

export const hostingServiceSchema = z.object({
  id: z.number().int(),
  frontendDbID: z.number().int(),
  /** Bytes, except BBDD (a number of databases); a limit of 0 is none. */
  usage: z.object({ spaceWeb: usageSchema, traffic: usageSchema, BBDD: usageSchema, spaceBbdd: usageSchema }),
  /** The provider's default version, used while `phpversion` is 'default'. */
  defaultPHPVersion: z.string(),
  /** 'default' or one of `phpVersions`. */
  phpversion: z.string(),
  /** The oldest version offered. */
  phpminversion: z.string(),
  /** The versions this server runs (beyond the spec: the PHP selector offers only these). */
  phpVersions: z.array(z.string()),
  parkingActive: z.boolean(),
  plan: servicePlanSchema,
  permissions: permissionMapSchema,
  /** (beyond the spec) changes not yet on the web server, see webApplyingSchema. */
  applying: webApplyingSchema,
});
export type HostingService = z.infer<typeof hostingServiceSchema>;

export const REDIRECT_TYPES = ['301', '302', 'frame'] as const;
export type RedirectType = (typeof REDIRECT_TYPES)[number];

export const redirectionSchema = z.object({
  id: z.number().int(),
  /** The host and path that redirect, e.g. `shop.example.com/offers`. */
  origin: z.string(),
  url: z.string(),
  redirType: z.enum(REDIRECT_TYPES),
  /** The path without its leading slash ('' is the whole host). */
  recurso: z.string(),
  /** '' is the main domain. */
  subdominio: z.string(),
  iframeTitle: z.string(),
  iframeDescription: z.string(),
  iframeKeywords: z.string(),
  eliminable: z.boolean(),
});
export type Redirection = z.infer<typeof redirectionSchema>;

/** What the panel says of an installed certificate; the private key itself never leaves the server. */
export const certificateInfoSchema = z.object({
  names: z.array(z.string()),
  issuer: z.string(),
  /** Epoch seconds. */
  validFrom: z.number().int(),
  validTo: z.number().int(),
  fingerprint: z.string(),
  keyInstalled: z.boolean(),
});

export const subdomainSchema = z.object({
  id: z.number().int(),
  /** '' is the main domain. */
  subdominio: z.string(),
  referencePunycode: z.string(),
  /** Folder relative to the service home ('' is the home). */
  directorio: z.string(),
  eliminable: z.boolean(),
  ssl: z.object({
    enabled: z.boolean(),
    /** `key` is always '': an installed key is only reported by `info.keyInstalled`. */
    cert: z.object({ cert: z.string(), key: z.string(), ca: z.string() }),
    info: certificateInfoSchema.nullable(),
  }),
});
export type Subdomain = z.infer<typeof subdomainSchema>;

const optionalText = (max: number) => textAsTyped(max).optional().default('');
const pem = optionalText(64 * 1024);
const flag = z.enum(['0', '1'], { error: 'validation.invalid' }).optional().default('0');

export const hostingServiceParamsSchema = z.object({ id: idParam });
export const hostingPhpParamsSchema = z.object({ id: idParam, phpVersion: textAsTyped(16) });

/** The list call; paged and filtered (origin, destination, type) when asked, see list-query.ts. */
export const redirectionListParamsSchema = z.object({
  id: idParam,
  ...listPageFields(['origin', 'url', 'redirType']),
});
export type RedirectionListParams = z.infer<typeof redirectionListParamsSchema>;
export const redirectionParamsSchema = z.object({ id: idParam, rid: idParam });
const redirectionFields = {
  urlRedir: textAsTyped(2048),
  redirType: z.enum(REDIRECT_TYPES, { error: 'validation.invalid' }),
  iframeTitle: optionalText(500),
  iframeDescription: optionalText(500),
  iframeKeywords: optionalText(500),
};
export const redirectionCreateParamsSchema = z.object({
  id: idParam,
  subDomain: optionalText(190),
  recurso: optionalText(255),
  ...redirectionFields,
});
export const redirectionSaveParamsSchema = z.object({ id: idParam, rid: idParam, ...redirectionFields });

/** The list call; paged and filtered (host, folder) when asked, see list-query.ts. */
export const subdomainListParamsSchema = z.object({ id: idParam, ...listPageFields(['host', 'folder']) });
export type SubdomainListParams = z.infer<typeof subdomainListParamsSchema>;
export const subdomainParamsSchema = z.object({ id: idParam, sid: idParam });
const siteFields = { folder: optionalText(255), SSLActive: flag, cert: pem, certkey: pem, certchain: pem };
export const subdomainCreateParamsSchema = z.object({ id: idParam, subDomain: textAsTyped(190), ...siteFields });
export const subdomainSaveParamsSchema = z.object({ id: idParam, sid: idParam, ...siteFields });

export const hostingServiceDataSchema = z.object({ service: hostingServiceSchema });
export const redirectionListDataSchema = z.object({ redirection: z.array(redirectionSchema), total: listTotal });
export const redirectionOneDataSchema = z.object({ redirection: redirectionSchema });
export const subdomainListDataSchema = z.object({ subdomains: z.array(subdomainSchema), total: listTotal });
export const subdomainOneDataSchema = z.object({ subdomain: subdomainSchema });

/** One line of an error log; `source` says which daemon wrote it. Oldest first. */
export const errorLogLineSchema = z.object({ source: z.enum(['nginx', 'php']), line: z.string() });
export type ErrorLogLine = z.infer<typeof errorLogLineSchema>;
export const errorLogDataSchema = z.object({ logs: z.array(errorLogLineSchema) });

/**
 * The site builder works on one site at a time: `selected` is that site ('*' is the main domain,
 * else a subdomain label), or null before the builder was first opened.
 */
export const webConstructorDataSchema = z.object({ selected: z.string().nullable() });
/** `subdomain`: '*' (the root) or a subdomain label of one of the service's sites. */
export const webConstructorLoginParamsSchema = z.object({ id: idParam, subdomain: textAsTyped(190) });
/** The builder's URL with a short-lived HMAC-signed token; the panel opens it in a new tab. */
export const webConstructorLoginDataSchema = z.object({ url: z.string() });

// The calls' shapes as types, so the web can import them without zod.
export type HostingPhpParams = z.infer<typeof hostingPhpParamsSchema>;
export type RedirectionCreateParams = z.infer<typeof redirectionCreateParamsSchema>;
export type RedirectionSaveParams = z.infer<typeof redirectionSaveParamsSchema>;
export type SubdomainCreateParams = z.infer<typeof subdomainCreateParamsSchema>;
export type SubdomainSaveParams = z.infer<typeof subdomainSaveParamsSchema>;
export type WebConstructorLoginParams = z.infer<typeof webConstructorLoginParamsSchema>;
export type HostingServiceData = z.infer<typeof hostingServiceDataSchema>;
export type RedirectionListData = z.infer<typeof redirectionListDataSchema>;
export type RedirectionOneData = z.infer<typeof redirectionOneDataSchema>;
export type SubdomainListData = z.infer<typeof subdomainListDataSchema>;
export type SubdomainOneData = z.infer<typeof subdomainOneDataSchema>;
export type ErrorLogData = z.infer<typeof errorLogDataSchema>;
export type WebConstructorData = z.infer<typeof webConstructorDataSchema>;
export type WebConstructorLoginData = z.infer<typeof webConstructorLoginDataSchema>;
