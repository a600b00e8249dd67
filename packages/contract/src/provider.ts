import { z } from 'zod';
import { domainName, email, line, password } from './fields.ts';
import { PASSWORD_MIN_LENGTH } from './user.ts';

/**
 * The provisioning API (`provider/…` under the base path): the provider's systems (billing) create,
 * suspend, change and remove hosting services with a provider token, never a customer's.
 */

/** A plan's or brand's name, or '' for the default one. */
const slugLike = (error: string) =>
  z
    .string()
    .trim()
    .refine((value) => value === '' || /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(value), { error });

/** A hosting service as the provider's systems see it. */
export const providerServiceSchema = z.object({
  id: z.number().int(),
  domain: z.string(),
  plan: z.string(),
  state: z.enum(['active', 'suspended']),
  /** Why it is suspended ('' when active or none given). */
  suspendedReason: z.string(),
});
export type ProviderService = z.infer<typeof providerServiceSchema>;

export const providerPingDataSchema = z.object({ panel: z.literal('Panel247') });

export const providerAccountCreateParamsSchema = z.object({
  domain: domainName,
  username: line(64).refine((value) => /^[a-z0-9._-]{1,64}$/.test(value), { error: 'validation.username' }),
  password: password(PASSWORD_MIN_LENGTH),
  email: z
    .union([z.literal(''), email])
    .optional()
    .default(''),
  /** The plan's name ('' : `default`). */
  plan: slugLike('plan.error.name').optional().default(''),
  /** The brand's slug ('' : the default brand). */
  brand: slugLike('provider.error.brand_slug').optional().default(''),
});
export type ProviderAccountCreateParams = z.infer<typeof providerAccountCreateParamsSchema>;

export const providerAccountDataSchema = z.object({ service: providerServiceSchema, username: z.string() });

const serviceDomain = { domain: domainName };
export const providerServiceParamsSchema = z.object(serviceDomain);
export const providerSuspendParamsSchema = z.object({
  ...serviceDomain,
  reason: z
    .union([z.literal(''), line(200)])
    .optional()
    .default(''),
});
export const providerPlanParamsSchema = z.object({ ...serviceDomain, plan: slugLike('plan.error.name') });
export const providerPasswordParamsSchema = z.object({ ...serviceDomain, password: password(PASSWORD_MIN_LENGTH) });

export const providerServiceDataSchema = z.object({ service: providerServiceSchema });
/**
 * A service's termination: `terminating` while its last backup is made and each daemon's copy
 * removed, `terminated` once nothing of it is left (its last backup kept until `keptUntil`),
 * `failed` when a step kept failing (`error`; the provider's console tries it again).
 */
export const providerTerminationSchema = z.object({
  domain: z.string(),
  state: z.enum(['terminating', 'terminated', 'failed']),
  /** The last backup's restic snapshot ('' until it is made, or when none is kept). */
  lastBackup: z.string(),
  /** Until when (Unix seconds) the last backup is kept; null without one. */
  keptUntil: z.number().int().nullable(),
  error: z.string(),
});
export type ProviderTermination = z.infer<typeof providerTerminationSchema>;
export const providerTerminationDataSchema = z.object({ termination: providerTerminationSchema });
export const providerLoginLinkDataSchema = z.object({ url: z.string(), expiresIn: z.number().int() });

/** One service's usage, in bytes; limits null where its plan has none. */
export const providerUsageSchema = z.object({
  domain: z.string(),
  plan: z.string(),
  diskBytes: z.number().nonnegative(),
  diskLimitBytes: z.number().nonnegative().nullable(),
  webBytes: z.number().nonnegative(),
  databaseBytes: z.number().nonnegative(),
  /** Not metered yet: 0. */
  trafficBytes: z.number().nonnegative(),
  trafficLimitBytes: z.number().nonnegative().nullable(),
  counts: z.record(z.string(), z.object({ used: z.number().int(), limit: z.number().int().nullable() })),
});
export const providerUsageDataSchema = z.object({ services: z.array(providerUsageSchema) });
export const providerServiceUsageDataSchema = z.object({ usage: providerUsageSchema });
export const providerNoParamsSchema = z.object({});
