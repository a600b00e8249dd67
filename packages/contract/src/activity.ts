import { z } from 'zod';
import type { PermissionKey } from './constants.ts';
import { integerOr, optionalInteger, textAsTyped } from './fields.ts';
import { hasControlCharactersBesideTab } from './text-rules.ts';

/**
 * The areas of the activity log, each the permission keys whose changes it holds, and `security`:
 * a user's logins, failed logins and security changes, which belong to no resource.
 */
export const ACTIVITY_AREAS = [
  'domain',
  'hosting',
  'sites',
  'ftp',
  'databases',
  'backups',
  'cron',
  'stats',
  'mail',
  'dns',
  'security',
  /** The account's users: invitations, permissions and access (seen by the users who manage them). */
  'users',
] as const;
export type ActivityArea = (typeof ACTIVITY_AREAS)[number];
/** The areas of a permission key's changes (the others are account-wide). */
type KeyArea = Exclude<ActivityArea, 'security' | 'users'>;

const AREA_OF_KEY: Record<PermissionKey, KeyArea> = {
  domain: 'domain',
  domain_ownercontacts: 'domain',
  domain_contacts: 'domain',
  domain_dns: 'domain',
  domain_gluerecords: 'domain',
  domain_dnssec: 'domain',
  domain_transferblock: 'domain',
  domain_authcode: 'domain',
  domain_others: 'domain',
  service: 'hosting',
  service_parking: 'hosting',
  service_subdomains: 'sites',
  service_redirects: 'sites',
  service_ftp: 'ftp',
  service_ddbb: 'databases',
  service_backups: 'backups',
  service_cron: 'cron',
  service_stats: 'stats',
  service_dnszone: 'dns',
  servicemail: 'mail',
  servicemail_accounts: 'mail',
  servicemail_alias: 'mail',
  servicemail_spam: 'mail',
};

/** The area a change belongs to, from the permission key that allowed it. */
export function activityAreaOf(key: PermissionKey): KeyArea {
  return AREA_OF_KEY[key];
}

/** The permission keys of an area: a filter by area reads these. */
export function permissionKeysOfArea(area: ActivityArea): PermissionKey[] {
  return (Object.keys(AREA_OF_KEY) as PermissionKey[]).filter((key) => AREA_OF_KEY[key] === area);
}

/** One field a change touched; null where it did not exist (a create's before, a delete's after). */
export const activityFieldChangeSchema = z.object({
  field: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
});
export type ActivityFieldChange = z.infer<typeof activityFieldChangeSchema>;

/** How a change reached the panel: its web app, an API token, or the mail server (Postfix's policy requests). */
export const ACTIVITY_VIA = ['web', 'api', 'smtp'] as const;
export type ActivityVia = (typeof ACTIVITY_VIA)[number];

/**
 * One entry. `action` names what was done: for a change, the call's path without its ids
 * (`dns/create`, `toggle/block`); for a security event, the event (`auth.login_failed`).
 * `at` is epoch seconds.
 */
export const activityEntrySchema = z.object({
  id: z.number().int(),
  at: z.number().int(),
  user: z.string(),
  ip: z.string(),
  via: z.enum(ACTIVITY_VIA),
  resource: z.object({ id: z.number().int(), reference: z.string() }).nullable(),
  area: z.enum(ACTIVITY_AREAS),
  action: z.string(),
  target: z.string(),
  changes: z.array(activityFieldChangeSchema),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

/** A filter's text: empty (no filter) or one line. */
function filterText(max: number) {
  return textAsTyped(max).refine((value) => !hasControlCharactersBesideTab(value), {
    error: 'validation.control_chars',
  });
}

/** A calendar day, `YYYY-MM-DD` (read in UTC), or empty. */
const day = filterText(10)
  .refine((value) => value === '' || (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))), {
    error: 'validation.invalid',
  })
  .optional()
  .default('');

/** The filters of the log, shared by the page and the CSV export. */
const activityFilterFields = {
  /** Only one resource's entries (the item's "Activity" page); absent: the whole account. */
  resource: optionalInteger('validation.id', { min: 1 }),
  user: filterText(64).optional().default(''),
  area: z.enum(ACTIVITY_AREAS, { error: 'validation.invalid' }).or(z.literal('')).optional().default(''),
  from: day,
  to: day,
};

export const activityListParamsSchema = z.object({
  ...activityFilterFields,
  page: integerOr(1, 'validation.invalid', { min: 1, max: 1_000_000 }),
  pageSize: integerOr(10, 'validation.invalid', { min: 1, max: 100 }),
});
export type ActivityListParams = z.input<typeof activityListParamsSchema>;
export type ActivityListQuery = z.infer<typeof activityListParamsSchema>;

export const activityExportParamsSchema = z.object(activityFilterFields);
export type ActivityExportQuery = z.infer<typeof activityExportParamsSchema>;

/** One page, newest first; `users`: every name in the entries the reader may see, for the filter. */
export const activityListDataSchema = z.object({
  entries: z.array(activityEntrySchema),
  total: z.number().int(),
  users: z.array(z.string()),
});
export type ActivityListData = z.infer<typeof activityListDataSchema>;

/** The export holds at most this many entries (newest first); a narrower filter gets the rest. */
export const ACTIVITY_EXPORT_MAX = 50_000;
