import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { z } from 'zod';
import { EmbeddedMailDriver, type MailFilesSettings } from './embedded.driver.ts';
import type { MailboxAddress, MailDriver, SpamMarked } from './mail.driver.ts';
import type { Maildirs } from './maildirs.ts';

const run = promisify(execFile);

/** What `doveadm -f json fetch` answers for SPAM_FIELDS: one object per message, every value a string. */
const fetchedSchema = z.array(
  z.object({
    mailbox: z.string(),
    'date.received.unixtime': z.string(),
    'hdr.from.utf8': z.string(),
    'hdr.subject.utf8': z.string(),
    'hdr.x-spam-score': z.string(),
  }),
);
const SPAM_FIELDS = 'mailbox date.received.unixtime hdr.from.utf8 hdr.subject.utf8 hdr.x-spam-score';
/** doveadm processes reading the marked messages at once. */
const SPAM_READS_AT_ONCE = 4;

/**
 * Dovecot (with Postfix delivering through its LMTP): the maildirs as in the embedded driver, plus
 * `doveadm` against the running Dovecot's config. With an auth cache, Dovecot would accept an old
 * password, or a deleted mailbox, until the cache entry expires: every such change flushes it.
 */
export class DovecotMailDriver extends EmbeddedMailDriver {
  override readonly kind: MailDriver['kind'] = 'dovecot';

  constructor(
    maildirs: Maildirs,
    settings: MailFilesSettings,
    private readonly doveadmConfig: string,
  ) {
    super(maildirs, settings);
  }

  override async passwordChanged(mailbox: MailboxAddress): Promise<void> {
    await this.flushAuthCache(mailbox);
  }

  /** The quota rule comes with the user lookup, which the auth cache keeps too. */
  override async quotaChanged(mailbox: MailboxAddress): Promise<void> {
    await this.flushAuthCache(mailbox);
  }

  /** Its cached login dropped first (the views already name no server for it), then its sessions kicked. */
  override async servedElsewhere(mailbox: MailboxAddress): Promise<void> {
    await this.flushAuthCache(mailbox);
    const user = `${mailbox.localPart}@${mailbox.domain}`;
    await run('doveadm', ['-c', this.doveadmConfig, 'kick', user]).catch(() => undefined);
  }

  override async mailboxDeleted(mailbox: MailboxAddress, now: number): Promise<void> {
    await this.flushAuthCache(mailbox);
    await super.mailboxDeleted(mailbox, now);
  }

  /**
   * Every folder's messages with the filter's `X-Spam: Yes` (the sender's own are dropped at
   * delivery: spam-sieve-script.ts) that arrived within the days, asked of Dovecot mailbox by
   * mailbox. Dovecot decodes the From and Subject (RFC 2047) into UTF-8.
   */
  override async spamMarked(mailboxes: MailboxAddress[], sinceDays: number): Promise<SpamMarked[]> {
    const found: SpamMarked[] = [];
    // a few doveadm processes at a time, one mailbox each (a wildcard user would also read the
    // mailboxes that do not filter, where a sender's own X-Spam header was never removed)
    for (let start = 0; start < mailboxes.length; start += SPAM_READS_AT_ONCE) {
      const batch = mailboxes.slice(start, start + SPAM_READS_AT_ONCE);
      for (const marked of await Promise.all(batch.map((mailbox) => this.spamMarkedIn(mailbox, sinceDays))))
        found.push(...marked);
    }
    return found.sort((a, b) => b.received - a.received);
  }

  private async spamMarkedIn(mailbox: MailboxAddress, sinceDays: number): Promise<SpamMarked[]> {
    const user = `${mailbox.localPart}@${mailbox.domain}`;
    const query = ['mailbox', '*', 'header', 'X-Spam', 'Yes', 'since', `${Math.trunc(sinceDays)}d`];
    const fetch = ['-c', this.doveadmConfig, '-f', 'json', 'fetch', '-u', user, SPAM_FIELDS, ...query];
    const { stdout } = await run('doveadm', fetch, { maxBuffer: 16 * 1024 * 1024 });
    return fetchedSchema.parse(JSON.parse(stdout || '[]')).map((message) => ({
      localPart: mailbox.localPart,
      folder: message.mailbox,
      received: Number(message['date.received.unixtime']),
      from: message['hdr.from.utf8'],
      subject: message['hdr.subject.utf8'],
      score: message['hdr.x-spam-score'],
    }));
  }

  /**
   * Best effort: a Dovecot that is down has no cache to flush, and the row is already what
   * decides. Arguments travel as an array (no shell); the address was validated before.
   */
  private async flushAuthCache(mailbox: MailboxAddress): Promise<void> {
    const user = `${mailbox.localPart}@${mailbox.domain}`;
    await run('doveadm', ['-c', this.doveadmConfig, 'auth', 'cache', 'flush', user]).catch(() => undefined);
  }
}
