import { z } from 'zod';
import { PERMISSION_KEYS, PERMISSION_LEVELS, type PermissionKey, type PermissionLevel } from './constants.ts';
import { email, idParam, password } from './fields.ts';
import { listPageFields, listTotal } from './list-query.ts';
import { PASSWORD_MIN_LENGTH } from './user.ts';

/**
 * An account's own users, managed by those of its users who hold the account's right to manage
 * users (`manageUsers` in the permission list): who they are, their invitations, what each may
 * see and do on each resource, and their access (disabled, second factor, sessions).
 */

/** A new user's name: what they type at login (a-z, 0-9, '.', '_', '-'). */
export const ACCOUNT_USERNAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** How long an invitation's link works, by default (PANEL_USER_INVITATION_HOURS). */
export const INVITATION_DEFAULT_HOURS = 72;

/** Where an invitation stands: accepted ones are no longer invitations (null). */
export const INVITATION_STATES = ['pending', 'expired', 'cancelled'] as const;
export type InvitationState = (typeof INVITATION_STATES)[number];

export const accountUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  /** Where invitations and security notices go ('' when none is known). */
  email: z.string(),
  /** Unix seconds of the last login; null: never logged in. */
  lastLoginAt: z.number().int().nullable(),
  lastLoginIp: z.string(),
  /** A TOTP app or a passkey (or both) guards their login. */
  twoFactor: z.boolean(),
  disabled: z.boolean(),
  /** Holds the account's right to manage users. */
  manageUsers: z.boolean(),
  /** Their password is not set yet: the invitation's state. Null once they have one. */
  invitation: z.enum(INVITATION_STATES).nullable(),
  /** The caller: their own right to manage users and their access cannot be changed here. */
  self: z.boolean(),
});
export type AccountUser = z.infer<typeof accountUserSchema>;

export const ACCOUNT_USERS_SORT = ['username', 'lastLogin'] as const;

export const accountUsersListParamsSchema = z.object(listPageFields(ACCOUNT_USERS_SORT));
export type AccountUsersListParams = z.infer<typeof accountUsersListParamsSchema>;
export const accountUsersListDataSchema = z.object({ users: z.array(accountUserSchema), total: listTotal });
export type AccountUsersListData = z.infer<typeof accountUsersListDataSchema>;

export const accountUserParamsSchema = z.object({ id: idParam });
export const accountUserDataSchema = z.object({ user: accountUserSchema });
export type AccountUserData = z.infer<typeof accountUserDataSchema>;

export const accountUserCreateParamsSchema = z.object({
  username: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .regex(ACCOUNT_USERNAME_PATTERN, { error: 'users.username_format' }),
  email,
});
export type AccountUserCreateParams = z.infer<typeof accountUserCreateParamsSchema>;
export const accountUserCreateDataSchema = z.object({ id: z.number().int() });

/** Granting or taking the right to manage users (never one's own). */
export const accountUserManagerParamsSchema = z.object({
  id: idParam,
  manageUsers: z.preprocess(
    (value) => (value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value),
    z.boolean({ error: 'validation.invalid' }),
  ),
});

const level = z.enum(PERMISSION_LEVELS, { error: 'validation.invalid' });

/** Every permission key at a level. */
export const permissionLevelsSchema = z.object(
  Object.fromEntries(PERMISSION_KEYS.map((key) => [key, level])) as Record<PermissionKey, typeof level>,
);

/**
 * One resource of the editor's in a user's permission editor: the user's levels there, and the
 * most the editor may give on each key (their own level; a key already above it may be kept or
 * lowered, never raised).
 */
export const userResourcePermissionsSchema = z.object({
  id: z.number().int(),
  reference: z.string(),
  hasDomain: z.boolean(),
  hasService: z.boolean(),
  hasMail: z.boolean(),
  levels: permissionLevelsSchema,
  max: permissionLevelsSchema,
});
export type UserResourcePermissions = z.infer<typeof userResourcePermissionsSchema>;

export const accountUserPermissionsParamsSchema = z.object({
  id: idParam,
  ...listPageFields(['reference']),
});
export type AccountUserPermissionsParams = z.infer<typeof accountUserPermissionsParamsSchema>;
export const accountUserPermissionsDataSchema = z.object({
  resources: z.array(userResourcePermissionsSchema),
  total: listTotal,
});
export type AccountUserPermissionsData = z.infer<typeof accountUserPermissionsDataSchema>;

/** A user's levels on one resource: every key, as the editor shows them. */
export const accountUserPermissionsSetParamsSchema = z.object({
  id: idParam,
  resource: idParam,
  levels: z.preprocess((value) => (typeof value === 'string' ? safeJson(value) : value), permissionLevelsSchema),
});
export type AccountUserPermissionsSetParams = z.infer<typeof accountUserPermissionsSetParamsSchema>;

/** "Same as another user": the other user's levels on every resource the editor sees, within the editor's. */
export const accountUserPermissionsCopyParamsSchema = z.object({ id: idParam, from: idParam });
export const accountUserPermissionsCopyDataSchema = z.object({
  /** Resources whose levels changed. */
  changed: z.number().int(),
  /** Keys held lower than the other user's, because the editor holds them lower. */
  limited: z.number().int(),
});
export type AccountUserPermissionsCopyData = z.infer<typeof accountUserPermissionsCopyDataSchema>;

/** The invitation's link carries its token (256 random bits, base64url). */
export const invitationTokenSchema = z
  .string({ error: 'users.invitation_invalid' })
  .regex(/^[A-Za-z0-9_-]{43}$/, { error: 'users.invitation_invalid' });

export const invitationCheckParamsSchema = z.object({ token: invitationTokenSchema });
export const invitationCheckDataSchema = z.object({
  domainName: z.string(),
  username: z.string(),
  /** Unix seconds: the link works until then. */
  expiresAt: z.number().int(),
});
export type InvitationCheckData = z.infer<typeof invitationCheckDataSchema>;

export const invitationAcceptParamsSchema = z.object({
  token: invitationTokenSchema,
  password: password(PASSWORD_MIN_LENGTH),
});
export type InvitationAcceptParams = z.infer<typeof invitationAcceptParamsSchema>;
export const invitationAcceptDataSchema = z.object({ domainName: z.string(), username: z.string() });
export type InvitationAcceptData = z.infer<typeof invitationAcceptDataSchema>;

function safeJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

const RANK: Record<PermissionLevel, number> = { disabled: 0, read: 1, write: 2 };

/** The lower of two levels. */
export function lowerLevel(a: PermissionLevel, b: PermissionLevel): PermissionLevel {
  return RANK[a] <= RANK[b] ? a : b;
}

/** The higher of two levels. */
export function higherLevel(a: PermissionLevel, b: PermissionLevel): PermissionLevel {
  return RANK[a] >= RANK[b] ? a : b;
}

/**
 * Whether an editor who holds `editor` on a key may set it to `wanted` where the user holds
 * `current`: keeping or lowering is always allowed, raising only up to the editor's own level.
 */
export function mayGrantLevel(editor: PermissionLevel, current: PermissionLevel, wanted: PermissionLevel): boolean {
  return RANK[wanted] <= Math.max(RANK[editor], RANK[current]);
}
