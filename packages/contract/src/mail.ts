import { z } from 'zod';
import { idParam, integerOr, optionalInteger, textAsTyped } from './fields.ts';
import { applyingSchema } from './job.ts';
import { listPageFields } from './list-query.ts';
import { type SignonForm, signonFormSchema } from './signon.ts';

export const mailboxSchema = z.object({
  id: z.number().int(),
  /** Local part; the address is user@referencePunycode. */
  user: z.string(),
  /** Bytes. */
  quota: z.number().int(),
  usage: z.number().int(),
  eliminable: z.boolean(),
  /** Whether an autoresponder is on (it may still be outside its dates). */
  autoreply: z.boolean(),
  /** Addresses its mail is forwarded to (none: not forwarded). */
  forward: z.array(z.string()),
});
export type Mailbox = z.infer<typeof mailboxSchema>;

export const aliasSchema = z.object({
  id: z.number().int(),
  /** Local part, possibly empty (every address of the domain). */
  alias: z.string(),
  referencePunycode: z.string(),
  /** Targets, comma-separated. */
  name: z.string(),
  eliminable: z.boolean(),
});
export type Alias = z.infer<typeof aliasSchema>;

const targets = z
  .union([textAsTyped(320), z.array(textAsTyped(320))])
  .transform((value) => (Array.isArray(value) ? value : value.split(',')));

export const mailServiceParamsSchema = z.object({ id: idParam });
export const mailboxParamsSchema = z.object({ id: idParam, accountId: idParam });
export const aliasParamsSchema = z.object({ id: idParam, aliasId: idParam });

export const mailboxCreateParamsSchema = z.object({
  id: idParam,
  name: textAsTyped(64),
  password: textAsTyped(128),
  /** MiB; the plan's default when left out. */
  quota: optionalInteger('mail.error.quota'),
});
export const mailboxPasswordParamsSchema = z.object({ id: idParam, accountId: idParam, password: textAsTyped(128) });
/** A form's checkbox: a boolean, or 'true'/'false'/'1'/'0' from a posted form; absent is false. */
const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'validation.invalid' })
  .optional()
  .transform((value) => value === true || value === 'true' || value === '1');

export const mailboxQuotaParamsSchema = z.object({
  id: idParam,
  accountId: idParam,
  /** MiB, within the plan's maximum. */
  quota: optionalInteger('mail.error.quota'),
});

/**
 * A mailbox's autoresponder and forwarding as the panel keeps them. The mail driver writes them
 * as the mailbox's Sieve script; `foreignScript` names a script the mailbox's owner activated
 * elsewhere (a mail client's filters, over ManageSieve), which saving would switch off.
 */
export const mailboxRulesSchema = z.object({
  autoreply: z.object({
    enabled: z.boolean(),
    subject: z.string(),
    body: z.string(),
    /** 'YYYY-MM-DD' or '' (from now on). */
    start: z.string(),
    /** 'YYYY-MM-DD' or '' (until switched off); the last day it answers. */
    end: z.string(),
    /** The same sender is answered at most once in this many days. */
    days: z.number().int(),
  }),
  forward: z.object({ targets: z.array(z.string()), keepCopy: z.boolean() }),
  foreignScript: z.string().nullable(),
});
export type MailboxRules = z.infer<typeof mailboxRulesSchema>;
export const mailboxRulesDataSchema = z.object({ rules: mailboxRulesSchema });
export type MailboxRulesData = z.infer<typeof mailboxRulesDataSchema>;

export const mailboxRulesSaveParamsSchema = z.object({
  id: idParam,
  accountId: idParam,
  autoreply: flag,
  subject: textAsTyped(1000).optional().default(''),
  body: textAsTyped(20_000).optional().default(''),
  start: textAsTyped(40).optional().default(''),
  end: textAsTyped(40).optional().default(''),
  days: integerOr(1, 'mail.error.autoreply_days'),
  /** Forwarding targets (none: no forwarding). */
  forward: z
    .union([textAsTyped(4000), z.array(textAsTyped(320))])
    .optional()
    .default([])
    .transform((value) => (Array.isArray(value) ? value : value.split(','))),
  /** Keep a copy in the mailbox of what is forwarded. */
  keepCopy: flag,
  /** Switch off a script activated elsewhere (it is kept, not deleted) instead of refusing. */
  replaceForeign: flag,
});
export type MailboxRulesSaveParams = z.input<typeof mailboxRulesSaveParamsSchema>;
/** A save's values as parsed (the mailbox named apart): what the web form sends and the service takes. */
export type MailboxRulesInput = Omit<z.infer<typeof mailboxRulesSaveParamsSchema>, 'id' | 'accountId'>;

export const aliasCreateParamsSchema = z.object({
  id: idParam,
  name: textAsTyped(64).optional().default(''),
  target: targets,
});
export const aliasSaveParamsSchema = z.object({ id: idParam, aliasId: idParam, target: targets });

/**
 * The mail view's list: accounts and aliases in one list sorted by address (an account before an
 * alias of the same address), of one `type` or both, filtered on the address ('alias@domain', or
 * the domain for an alias of every address) and paged on the server. The spec's two list calls
 * stay as they are; this one serves a service with 10,000 addresses one page at a time.
 */
export const MAIL_LIST_TYPES = ['all', 'account', 'alias'] as const;
export type MailListType = (typeof MAIL_LIST_TYPES)[number];
export const mailListParamsSchema = z.object({
  id: idParam,
  type: z.enum(MAIL_LIST_TYPES, { error: 'validation.invalid' }).optional().default('all'),
  ...listPageFields(['name']),
});
export type MailListParams = z.infer<typeof mailListParamsSchema>;
export const mailListRowSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('account'), correo: mailboxSchema }),
  z.object({ type: z.literal('alias'), alias: aliasSchema }),
]);
export type MailListRow = z.infer<typeof mailListRowSchema>;
/** Whether the service's mailbox changes are all on its mail server (see applyingSchema). */
export const mailApplyingSchema = applyingSchema([]);
export type MailApplying = z.infer<typeof mailApplyingSchema>;

export const mailListDataSchema = z.object({
  mail: z.array(mailListRowSchema),
  total: z.number().int(),
  /** (beyond the spec) mailbox changes not yet on the mail server. */
  applying: mailApplyingSchema,
});
/** The answer of "try again" for the mailbox changes. */
export const mailApplyDataSchema = z.object({ applying: mailApplyingSchema });
export type MailListData = z.infer<typeof mailListDataSchema>;
export type MailApplyData = z.infer<typeof mailApplyDataSchema>;

export const mailboxListDataSchema = z.object({ correo: z.array(mailboxSchema) });
export const mailboxDataSchema = z.object({ correo: mailboxSchema });
export const aliasListDataSchema = z.object({ alias: z.array(aliasSchema) });
export const aliasDataSchema = z.object({ alias: aliasSchema });

const connectionPortsSchema = z.object({ plain: z.number().int(), ssl: z.number().int() });
export const connectionDataSchema = z.object({
  plain: z.object({ imap: z.string(), smtp: z.string(), ftp: z.string(), bbdd: z.string() }),
  ssl: z.object({ imap: z.string(), smtp: z.string(), ftp: z.string(), bbdd: z.string() }),
  /** The mail clients' ports, without and with SSL (IMAP, and SMTP submission). */
  ports: z.object({ imap: connectionPortsSchema, smtp: connectionPortsSchema }),
});

/**
 * The field carrying the one-time token. Not `_token`: that is Roundcube's own CSRF field, which
 * Roundcube would check (and fail) against its session. deploy/webmail's plugin reads this one.
 */
export const WEBMAIL_TOKEN_FIELD = '_p247_token';

/**
 * What the browser posts to the brand's WebMail (Roundcube's login form fields plus the token):
 * one of the panel's sign-on forms (see signon.ts), never the password.
 */
export const webmailLoginDataSchema = signonFormSchema.extend({
  fields: z.object({
    _task: z.literal('login'),
    _action: z.literal('login'),
    _user: z.string(),
    [WEBMAIL_TOKEN_FIELD]: z.string(),
  }),
});
export type WebmailLoginData = z.infer<typeof webmailLoginDataSchema> & SignonForm;

// The calls' shapes as types, so the web can import them without zod.
export type MailboxCreateParams = z.infer<typeof mailboxCreateParamsSchema>;
export type MailboxPasswordParams = z.infer<typeof mailboxPasswordParamsSchema>;
export type MailboxQuotaParams = z.input<typeof mailboxQuotaParamsSchema>;
export type AliasCreateParams = z.infer<typeof aliasCreateParamsSchema>;
export type AliasSaveParams = z.infer<typeof aliasSaveParamsSchema>;
export type MailboxListData = z.infer<typeof mailboxListDataSchema>;
export type MailboxData = z.infer<typeof mailboxDataSchema>;
export type AliasListData = z.infer<typeof aliasListDataSchema>;
export type AliasData = z.infer<typeof aliasDataSchema>;
export type ConnectionData = z.infer<typeof connectionDataSchema>;
