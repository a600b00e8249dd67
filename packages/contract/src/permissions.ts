import { z } from 'zod';
import { PERMISSION_KEYS, PERMISSION_LEVELS } from './constants.ts';

export const permissionLevelSchema = z.enum(PERMISSION_LEVELS);
export const permissionKeySchema = z.enum(PERMISSION_KEYS);

export const permissionEntrySchema = z.object({
  id: z.number().int(),
  reference: z.string(),
  hasDomain: z.boolean(),
  hasService: z.boolean(),
  hasMail: z.boolean(),
});
export type PermissionEntry = z.infer<typeof permissionEntrySchema>;

export const permissionListDataSchema = z.object({
  permissions: z.array(permissionEntrySchema),
  /** (beyond the spec) The user holds the account's right to manage its users (never through an API token). */
  manageUsers: z.boolean().optional(),
});
export type PermissionListData = z.infer<typeof permissionListDataSchema>;

export const permissionMapSchema = z.record(permissionKeySchema, permissionLevelSchema);
export type PermissionMap = z.infer<typeof permissionMapSchema>;

/** `POST /permission/{id}/`: the permission set plus the breadcrumb's expiry information. */
export const permissionSetDataSchema = z.object({
  id: z.number().int(),
  reference: z.string(),
  /** Punycode form of the reference when it is an IDN, else the same text. */
  referencePunycode: z.string(),
  permissions: permissionMapSchema,
  hasDomain: z.boolean(),
  hasService: z.boolean(),
  hasMail: z.boolean(),
  domain: z.object({ expireTS: z.number().int() }).nullable(),
  service: z.object({ expireTS: z.number().int(), isRedirAndParking: z.boolean() }).nullable(),
  mail: z.object({ expireTS: z.number().int() }).nullable(),
  /** The DNS zone belongs to the hosting service and expires with it. */
  dnszone: z.object({ expireTS: z.number().int() }).nullable(),
});
export type PermissionSetData = z.infer<typeof permissionSetDataSchema>;
