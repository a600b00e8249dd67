import { z } from 'zod';
import { idParam, integerOr, textAsTyped } from './fields.ts';
import { DKIM_ALGORITHMS, DMARC_POLICIES } from './mail-auth-rules.ts';

/**
 * DKIM, SPF and DMARC of a service's mail domain (the mail view's card). Paths are
 * `MAIL_AUTH_API` in routes.ts.
 */

/**
 * What the configured resolvers answer for a record: `found` (this very value), `different`
 * (the name answers with something else), `missing` (no such record), `unknown` (no answer).
 */
export const LOOKUP_STATES = ['found', 'different', 'missing', 'unknown'] as const;
export type LookupState = (typeof LOOKUP_STATES)[number];

/**
 * What receivers would find wrong with the records the name servers answer: two records of the
 * kind (SPF `permerror`, DMARC ignored), a record they cannot parse, or an SPF record costing more
 * than ten DNS lookups with its includes followed (RFC 7208 4.6.4).
 */
export const MAIL_AUTH_PROBLEMS = ['two_records', 'syntax', 'lookups'] as const;
export type MailAuthProblem = (typeof MAIL_AUTH_PROBLEMS)[number];

export const mailAuthRecordSchema = z.object({
  /** Owner name relative to the domain (`s2026…._domainkey`, `_dmarc`, '' for the apex). */
  zona: z.string(),
  /** The full owner name, as another DNS provider's form asks for it. */
  name: z.string(),
  type: z.literal('TXT'),
  value: z.string(),
  /** Whether the zone hosted here holds it (always false for a zone elsewhere). */
  published: z.boolean(),
  lookup: z.enum(LOOKUP_STATES),
  /** SPF and DMARC: what is broken in what the name servers answer (absent: nothing found broken). */
  problem: z.enum(MAIL_AUTH_PROBLEMS).optional(),
  /** With the `lookups` problem: how many DNS lookups the SPF check costs. */
  lookups: z.number().int().optional(),
});
export type MailAuthRecord = z.infer<typeof mailAuthRecordSchema>;

export const DKIM_KEY_STATES = ['pending', 'active', 'retiring'] as const;
export type DkimKeyState = (typeof DKIM_KEY_STATES)[number];

export const dkimKeySchema = z.object({
  selector: z.string(),
  algorithm: z.enum(DKIM_ALGORITHMS),
  /** pending: published, not signing yet; active: signing; retiring: replaced, its record withdrawn at `retireAt`. */
  state: z.enum(DKIM_KEY_STATES),
  createdAt: z.number().int(),
  activatedAt: z.number().int().nullable(),
  retireAt: z.number().int().nullable(),
  record: mailAuthRecordSchema,
});
export type DkimKey = z.infer<typeof dkimKeySchema>;

/** Where a key rotation is: none running, the new selector waiting to resolve, the old one waiting to be withdrawn. */
export const ROTATION_STEPS = ['idle', 'publishing', 'withdrawing'] as const;
export type RotationStep = (typeof ROTATION_STEPS)[number];

export const mailAuthDataSchema = z.object({
  domain: z.string(),
  /** Whether the domain's zone is hosted here (records published at once) or elsewhere (published by hand). */
  hosted: z.boolean(),
  dkim: z.object({ keys: z.array(dkimKeySchema), rotation: z.enum(ROTATION_STEPS) }),
  spf: z.object({ includes: z.array(z.string()), record: mailAuthRecordSchema }),
  dmarc: z.object({
    policy: z.enum(DMARC_POLICIES),
    pct: z.number().int(),
    rua: z.array(z.string()),
    record: mailAuthRecordSchema,
  }),
});
export type MailAuthData = z.infer<typeof mailAuthDataSchema>;

export const mailAuthParamsSchema = z.object({ id: idParam });

/**
 * A list field of a form: repeated fields, or one comma-separated field ('' is the empty list).
 * Left out, it is undefined: the record it feeds stays as it is.
 */
const list = z
  .union([textAsTyped(1000), z.array(textAsTyped(320))])
  .optional()
  .transform((value) => (value === undefined ? undefined : Array.isArray(value) ? value : value.split(',')));

export const mailAuthPolicyParamsSchema = z.object({
  id: idParam,
  dmarcPolicy: textAsTyped(16),
  dmarcPct: integerOr(100, 'mail.auth.error.pct'),
  dmarcRua: list,
  spfIncludes: list,
});
export type MailAuthPolicyParams = z.input<typeof mailAuthPolicyParamsSchema>;
