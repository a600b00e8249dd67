import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { EmbeddedMailDriver, type MailFilesSettings } from './embedded.driver.ts';
import type { MailboxAddress, MailDriver } from './mail.driver.ts';
import type { Maildirs } from './maildirs.ts';

const run = promisify(execFile);

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
   * Best effort: a Dovecot that is down has no cache to flush, and the row is already what
   * decides. Arguments travel as an array (no shell); the address was validated before.
   */
  private async flushAuthCache(mailbox: MailboxAddress): Promise<void> {
    const user = `${mailbox.localPart}@${mailbox.domain}`;
    await run('doveadm', ['-c', this.doveadmConfig, 'auth', 'cache', 'flush', user]).catch(() => undefined);
  }
}
