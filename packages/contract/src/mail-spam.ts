import { z } from 'zod';
import { idParam, integerOr, textAsTyped } from './fields.ts';
import { hasControlCharacters } from './text-rules.ts';

/**
 * Spam filtering of a mail service: rspamd scores each message at delivery, for the mailboxes
 * that have it on, and the mailbox's Sieve filter moves it to Junk or only tags it (`X-Spam: Yes`)
 * once its score reaches the mailbox's threshold. The service's allow list (never filtered) and
 * block list (always spam) name senders: an address, or a domain and its subdomains.
 */

/** off: delivered unscanned; junk: spam goes to the Junk folder; tag: spam stays in the inbox, tagged. */
export const SPAM_MODES = ['off', 'junk', 'tag'] as const;
export type SpamMode = (typeof SPAM_MODES)[number];
export const SPAM_LISTS = ['allow', 'block'] as const;
/** The length a sender is taken as typed up to (the add call's params; the web form's field). */
export const SPAM_SENDER_TYPED_MAX = 300;
export type SpamList = (typeof SPAM_LISTS)[number];

/**
 * The score from which a message is spam, in rspamd's points: its "add header" action is at 6,
 * its "reject" at 15 (where GTUBE lands), so a threshold above 15 lets most spam through.
 */
export const SPAM_THRESHOLD_MIN = 1;
export const SPAM_THRESHOLD_MAX = 15;
export const SPAM_THRESHOLD_DEFAULT = 6;
/** The folder spam is moved to (made on first use): the name mail clients show as Junk. */
export const SPAM_FOLDER = 'Junk';
/** How far back, and how many, the mail settings show of what was filtered. */
export const SPAM_FILTERED_DAYS = 7;
export const SPAM_FILTERED_MAX = 50;

const LOCAL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** A sender as a list keeps it: an address (local@domain) or a domain, lower case. */
export function isSpamSender(value: string): boolean {
  if (value.length > 254) return false;
  const at = value.lastIndexOf('@');
  if (at === -1) return DOMAIN.test(value);
  return at > 0 && at <= 64 && LOCAL.test(value.slice(0, at)) && DOMAIN.test(value.slice(at + 1));
}

/** The problem of a sender as typed, if any (control characters checked before trimming could hide them). */
export function spamSenderProblem(typed: string): string | undefined {
  if (hasControlCharacters(typed)) return 'validation.control_chars';
  const sender = typed.trim().toLowerCase();
  if (sender === '') return 'validation.required';
  return isSpamSender(sender) ? undefined : 'mail.error.spam_sender';
}

const mode = z.enum(SPAM_MODES, { error: 'validation.invalid' });

/** A mailbox's spam filtering. */
export const mailboxSpamSchema = z.object({
  id: z.number().int(),
  /** The mailbox's local part. */
  user: z.string(),
  mode,
  threshold: z.number().int(),
});
export type MailboxSpam = z.infer<typeof mailboxSpamSchema>;

export const spamSenderSchema = z.object({
  id: z.number().int(),
  list: z.enum(SPAM_LISTS),
  sender: z.string(),
  createdAt: z.number().int(),
});
export type SpamSender = z.infer<typeof spamSenderSchema>;

/** A message the filter marked as spam, as the mail server has it now. */
export const spamFilteredSchema = z.object({
  /** The mailbox's local part. */
  user: z.string(),
  /** The folder it is in now: Junk, or the inbox for a tag-only mailbox (or wherever its owner moved it). */
  folder: z.string(),
  /** When it arrived (Unix seconds). */
  received: z.number().int(),
  from: z.string(),
  subject: z.string(),
  /** rspamd's score, or '' for a sender on the block list. */
  score: z.string(),
});
export type SpamFiltered = z.infer<typeof spamFilteredSchema>;

export const spamParamsSchema = z.object({ id: idParam });
export const spamDataSchema = z.object({
  mailboxes: z.array(mailboxSpamSchema),
  senders: z.array(spamSenderSchema),
  /** The plan's limit on the two lists' entries together; null: none. */
  maxSenders: z.number().int().nullable(),
  /** The last SPAM_FILTERED_DAYS days' spam of the filtering mailboxes, newest first; null: the mail server did not answer. */
  filtered: z.array(spamFilteredSchema).nullable(),
});
export type SpamData = z.infer<typeof spamDataSchema>;

export const mailboxSpamSaveParamsSchema = z.object({
  id: idParam,
  accountId: idParam,
  mode,
  threshold: integerOr(SPAM_THRESHOLD_DEFAULT, 'mail.error.spam_threshold', {
    min: SPAM_THRESHOLD_MIN,
    max: SPAM_THRESHOLD_MAX,
  }),
});
export type MailboxSpamSaveParams = z.input<typeof mailboxSpamSaveParamsSchema>;
export const mailboxSpamDataSchema = z.object({ mailbox: mailboxSpamSchema });
export type MailboxSpamData = z.infer<typeof mailboxSpamDataSchema>;

export const spamSenderAddParamsSchema = z.object({
  id: idParam,
  list: z.enum(SPAM_LISTS, { error: 'validation.invalid' }),
  /** As typed: the service runs spamSenderProblem and answers its own message. */
  sender: textAsTyped(SPAM_SENDER_TYPED_MAX),
});
export type SpamSenderAddParams = z.input<typeof spamSenderAddParamsSchema>;
export const spamSenderParamsSchema = z.object({ id: idParam, senderId: idParam });
export const spamSenderDataSchema = z.object({ sender: spamSenderSchema });
export type SpamSenderData = z.infer<typeof spamSenderDataSchema>;
