import { z } from 'zod';
import { line, password } from './fields.ts';
import { reauthFactorFields } from './passkey.ts';

/** What a token may do on one resource: at most what its user may do there. */
export const API_TOKEN_LEVELS = ['read', 'write'] as const;
export type ApiTokenLevel = (typeof API_TOKEN_LEVELS)[number];

export const API_TOKEN_NAME_MAX = 64;
/** The longest a token may live; every token expires. */
export const API_TOKEN_MAX_DAYS = 365;
/** Resources one token may name (a token for everything is the cookie's job). */
export const API_TOKEN_MAX_RESOURCES = 200;
/** A user's live tokens at most: each one is a credential to look after. */
export const API_TOKEN_MAX_PER_USER = 50;

/** The secret is `p247_` and 43 base64url characters (256 random bits). */
export const API_TOKEN_PATTERN = /^p247_[A-Za-z0-9_-]{43}$/;

export const apiTokenScopeEntrySchema = z.object({
  resourceId: z.number().int(),
  /** The resource's name, for the list. */
  reference: z.string(),
  level: z.enum(API_TOKEN_LEVELS),
});
export type ApiTokenScopeEntry = z.infer<typeof apiTokenScopeEntrySchema>;

export const apiTokenItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scope: z.array(apiTokenScopeEntrySchema),
  /** Unix seconds. */
  createdAt: z.number().int(),
  /** Unix seconds; the token is refused from then on. */
  expiresAt: z.number().int(),
  /** Unix seconds of the last call made with it (refreshed at most once a minute); null: never used. */
  lastUsedAt: z.number().int().nullable(),
  /** The address of that call; '' when never used. */
  lastUsedIp: z.string(),
});
export type ApiTokenItem = z.infer<typeof apiTokenItemSchema>;

/** The caller's own tokens, the newest first. */
export const apiTokenListDataSchema = z.object({ tokens: z.array(apiTokenItemSchema) });
export type ApiTokenListData = z.infer<typeof apiTokenListDataSchema>;

/** A resource a new token may name, with the most the user may give it there. */
export const apiTokenResourceSchema = z.object({
  id: z.number().int(),
  reference: z.string(),
  /** `write` where the user may change something on it; else only `read` may be given. */
  level: z.enum(API_TOKEN_LEVELS),
});
export type ApiTokenResource = z.infer<typeof apiTokenResourceSchema>;

/** The resources the user sees, in the permission list's order: what a token's scope may hold. */
export const apiTokenResourcesDataSchema = z.object({ resources: z.array(apiTokenResourceSchema) });
export type ApiTokenResourcesData = z.infer<typeof apiTokenResourcesDataSchema>;

/** A form sends one `scope` entry as a string and several as a list: both become a list. */
const scopeEntries = z.preprocess(
  (value) => (typeof value === 'string' ? [value] : value),
  z
    .array(z.string().regex(/^\d{1,10}:(read|write)$/, { error: 'apitokens.scope_format' }), {
      error: 'apitokens.scope_required',
    })
    .min(1, { error: 'apitokens.scope_required' })
    .max(API_TOKEN_MAX_RESOURCES, { error: 'apitokens.scope_too_large' }),
);

/**
 * A new token: its name, how many days it lives, its scope as `resourceId:level` entries, and the
 * re-authentication (the password, and a current factor when the user has one: a code, or a
 * passkey's signature).
 */
export const apiTokenCreateParamsSchema = z.object({
  name: line(API_TOKEN_NAME_MAX),
  expiresInDays: z.coerce
    .number({ error: 'apitokens.expiry_range' })
    .int({ error: 'apitokens.expiry_range' })
    .min(1, { error: 'apitokens.expiry_range' })
    .max(API_TOKEN_MAX_DAYS, { error: 'apitokens.expiry_range' }),
  scope: scopeEntries,
  password: password(),
  ...reauthFactorFields,
});
export type ApiTokenCreateParams = z.input<typeof apiTokenCreateParamsSchema>;
/** The same, as the server has it once checked (the credential parsed). */
export type ApiTokenCreateParsed = z.infer<typeof apiTokenCreateParamsSchema>;

/** Shown once: only its sha256 is kept. */
export const apiTokenCreatedDataSchema = z.object({ token: z.string(), item: apiTokenItemSchema });
export type ApiTokenCreatedData = z.infer<typeof apiTokenCreatedDataSchema>;

/**
 * Revoking every token of the user at once (a copy may have leaked, a machine was lost): the same
 * re-authentication as creating one.
 */
export const apiTokensRevokeAllParamsSchema = z.object({ password: password(), ...reauthFactorFields });
export type ApiTokensRevokeAllParams = z.infer<typeof apiTokensRevokeAllParamsSchema>;
export type ApiTokensRevokeAllInput = z.input<typeof apiTokensRevokeAllParamsSchema>;

/** How many tokens were revoked (expired ones included: they go from the list too). */
export const apiTokensRevokedDataSchema = z.object({ revoked: z.number().int() });
export type ApiTokensRevokedData = z.infer<typeof apiTokensRevokedDataSchema>;
