import { WEBMAIL_TOKEN_FIELD, type WebmailLoginData } from '@panel247/contract/mail';
import type { SyncOptions } from '../sync-options.ts';
import type { FilterDrift, MailboxAddress, MailDriver, SpamMarked } from './mail.driver.ts';
import type { Maildirs, MailFolderDrift } from './maildirs.ts';
import { SieveFiles } from './sieve-files.ts';
import { type MailboxFilter, sieveScript } from './sieve-script.ts';
import { type SpamFilter, spamSieveScript } from './spam-sieve-script.ts';

export interface MailFilesSettings {
  /** What a mailbox deletion does with its mail. */
  deleteMode: 'remove' | 'keep';
  /** How long kept mail stays before `purgeDeleted` removes it. */
  keepDays: number;
}

/**
 * The embedded default: the mail system's files only (the maildirs under the mail root), with no
 * daemon to tell. Also the base of the Dovecot driver, which adds what the daemon needs.
 */
export class EmbeddedMailDriver implements MailDriver {
  readonly kind: MailDriver['kind'] = 'embedded';

  private readonly sieve: SieveFiles;

  constructor(
    protected readonly maildirs: Maildirs,
    protected readonly settings: MailFilesSettings,
  ) {
    this.sieve = new SieveFiles(maildirs);
  }

  async mailboxCreated(_mailbox: MailboxAddress): Promise<void> {}

  async passwordChanged(_mailbox: MailboxAddress): Promise<void> {}

  /** Dovecot reads the quota from the mailbox's row at each delivery: nothing to tell. */
  async quotaChanged(_mailbox: MailboxAddress): Promise<void> {}

  /** No daemon here, so no session to end. */
  async servedElsewhere(_mailbox: MailboxAddress): Promise<void> {}

  foreignFilter(mailbox: MailboxAddress): Promise<string | null> {
    return this.sieve.foreignActive(mailbox.domain, mailbox.localPart);
  }

  /** The scripts are files in the mailbox's home; Pigeonhole compiles them again when they change. */
  async filterChanged(mailbox: MailboxAddress, filter: MailboxFilter, now: number): Promise<void> {
    await this.syncSpam(mailbox, filter.spam, { dryRun: false });
    if (!filter.autoreply && !filter.forward) {
      await this.sieve.remove(mailbox.domain, mailbox.localPart);
      return;
    }
    await this.sieve.activate(mailbox.domain, mailbox.localPart, sieveScript(filter), now);
  }

  async syncFilter(
    mailbox: MailboxAddress,
    filter: MailboxFilter,
    options: SyncOptions & { now: number },
  ): Promise<FilterDrift | null> {
    const { domain, localPart } = mailbox;
    // the spam filter runs before any active script, the panel's or one activated elsewhere
    const spam = await this.syncSpam(mailbox, filter.spam, options);
    if (await this.sieve.foreignActive(domain, localPart)) return spam;
    const wanted = filter.autoreply || filter.forward ? sieveScript(filter) : null;
    const current = await this.sieve.current(domain, localPart);
    const folder = `${domain}/${localPart}`;
    if (wanted === null) {
      if (current.script === null && !current.active) return spam;
      if (!options.dryRun) await this.sieve.remove(domain, localPart);
      return { folder, problem: 'extra', repaired: !options.dryRun };
    }
    if (current.script === wanted && current.active) return spam;
    if (!options.dryRun) await this.sieve.activate(domain, localPart, wanted, options.now);
    return { folder, problem: current.script === null ? 'missing' : 'changed', repaired: !options.dryRun };
  }

  /** The mailbox's spam filter written as `spam` says, or removed; its drift, if any. */
  private async syncSpam(
    mailbox: MailboxAddress,
    spam: SpamFilter | null,
    options: SyncOptions,
  ): Promise<FilterDrift | null> {
    const { domain, localPart } = mailbox;
    const wanted = spam ? spamSieveScript(spam) : null;
    const current = await this.sieve.currentSpam(domain, localPart);
    if (current === wanted) return null;
    if (!options.dryRun) {
      if (wanted === null) await this.sieve.removeSpam(domain, localPart);
      else await this.sieve.writeSpam(domain, localPart, wanted);
    }
    const problem = wanted === null ? 'extra' : current === null ? 'missing' : 'changed';
    return { folder: `${domain}/${localPart}`, problem, repaired: !options.dryRun };
  }

  /** Without Dovecot nothing delivers here, so nothing was filtered. */
  async spamMarked(_mailboxes: MailboxAddress[], _sinceDays: number): Promise<SpamMarked[]> {
    return [];
  }

  async mailboxDeleted(mailbox: MailboxAddress, now: number): Promise<void> {
    await this.maildirs.dispose(mailbox.domain, mailbox.localPart, this.settings.deleteMode, now);
  }

  purgeDeleted(now: number): Promise<number> {
    return this.maildirs.purgeKept(this.settings.keepDays, now);
  }

  sync(mailboxes: MailboxAddress[], options: SyncOptions & { now: number }): Promise<MailFolderDrift[]> {
    return this.maildirs.sync(mailboxes, options);
  }

  usage(mailbox: MailboxAddress): Promise<number> {
    return this.maildirs.usage(mailbox.domain, mailbox.localPart);
  }

  /** Roundcube's login form fields, plus the token its panel247 plugin redeems (deploy/webmail). */
  webmailSignon(mailbox: MailboxAddress, token: string, action: string): WebmailLoginData {
    return {
      action,
      method: 'post',
      fields: {
        _task: 'login',
        _action: 'login',
        _user: `${mailbox.localPart}@${mailbox.domain}`,
        [WEBMAIL_TOKEN_FIELD]: token,
      },
    };
  }
}
