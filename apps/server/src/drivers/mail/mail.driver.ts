import type { WebmailLoginData } from '@panel247/contract/mail';
import type { SyncOptions } from '../sync-options.ts';
import type { MailFolderDrift } from './maildirs.ts';
import type { MailboxFilter } from './sieve-script.ts';

export type { AutoreplyRule, MailboxFilter } from './sieve-script.ts';

/**
 * The mail driver: everything the panel does to the mail system (Dovecot and Postfix) beyond the
 * rows they read. The panel database stays the source of truth: Dovecot and Postfix read mailboxes
 * and aliases through SQL views, so a row the mail service writes is live at once; the driver is
 * told of each change afterwards to do what the rows alone cannot (flush a cache, move the mail).
 * Domains are in punycode and local parts already validated.
 */

/** A mailbox whose Sieve script disagrees with its rules: none written, another text, or one left over. */
export interface FilterDrift {
  /** `domain/local part`, as under the mail root. */
  folder: string;
  problem: 'missing' | 'changed' | 'extra';
  repaired: boolean;
}

/** A message the spam filter marked (`X-Spam: Yes`), as the mailbox holds it now. */
export interface SpamMarked {
  /** The mailbox's local part. */
  localPart: string;
  folder: string;
  /** When it arrived (Unix seconds). */
  received: number;
  from: string;
  subject: string;
  /** '' : its sender was on the block list. */
  score: string;
}

export interface MailboxAddress {
  domain: string;
  localPart: string;
}

export interface MailDriver {
  readonly kind: 'embedded' | 'dovecot';
  /** A mailbox was created. */
  mailboxCreated(mailbox: MailboxAddress): Promise<void>;
  /** Its password changed: from now on only the new one may log in. */
  passwordChanged(mailbox: MailboxAddress): Promise<void>;
  /**
   * Its row is gone: logins stop, and its mail is removed or kept aside for the configured days
   * (then `purgeDeleted` removes it).
   */
  mailboxDeleted(mailbox: MailboxAddress, now: number): Promise<void>;
  /** Removes the kept mail of mailboxes deleted more than the configured days ago; answers how many. */
  purgeDeleted(now: number): Promise<number>;
  /**
   * Compares the mailbox folders with every mailbox the panel has (mail on or off) and repairs
   * them unless `dryRun` (see `Maildirs.sync`).
   */
  sync(mailboxes: MailboxAddress[], options: SyncOptions & { now: number }): Promise<MailFolderDrift[]>;
  /** Its quota changed: the next delivery and login count against the new one. */
  quotaChanged(mailbox: MailboxAddress): Promise<void>;
  /**
   * The mailbox is no longer served here (its mail is moving to another server): its open
   * sessions end and no cached login lets it in again, so nothing is written here after the move's
   * final copy.
   */
  servedElsewhere(mailbox: MailboxAddress): Promise<void>;
  /**
   * The name of the Sieve script active for the mailbox when it is not the panel's (one its owner
   * activated with a mail client's filters), or null.
   */
  foreignFilter(mailbox: MailboxAddress): Promise<string | null>;
  /**
   * Writes the mailbox's autoresponder and forwarding as its active Sieve script, or removes the
   * panel's script when both are off; and its spam filter, which runs before any active script. A script activated elsewhere is switched off (kept, never
   * deleted): the mail service asks the user before.
   */
  filterChanged(mailbox: MailboxAddress, filter: MailboxFilter, now: number): Promise<void>;
  /**
   * Compares the panel's script of the mailbox with what `filter` makes and writes or removes it
   * unless `dryRun`; a script its owner activated elsewhere is theirs, left alone and not drift.
   */
  syncFilter(
    mailbox: MailboxAddress,
    filter: MailboxFilter,
    options: SyncOptions & { now: number },
  ): Promise<FilterDrift | null>;
  /**
   * The messages of these mailboxes (of one domain) the spam filter marked that arrived in the
   * last `sinceDays` days, in any folder, newest first.
   */
  spamMarked(mailboxes: MailboxAddress[], sinceDays: number): Promise<SpamMarked[]>;
  /** Bytes the mailbox holds (0 before its first message). */
  usage(mailbox: MailboxAddress): Promise<number>;
  /**
   * The form that opens the WebMail logged in as the mailbox: posted by the browser to `action`
   * with a one-time token the WebMail redeems server-to-server. Never a password.
   */
  webmailSignon(mailbox: MailboxAddress, token: string, action: string): WebmailLoginData;
}
