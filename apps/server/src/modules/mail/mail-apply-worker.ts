import type { Db } from '../../db/database.ts';
import type { MailboxAddress, MailDriver } from '../../drivers/mail/mail.driver.ts';
import { applyServiceJob } from '../../jobs/apply-service.jobs.ts';
import { ServiceChangeWorker, type ServiceRef } from '../../jobs/service-change-worker.ts';
import type { WorkLanded } from '../realtime/work-events.ts';
import { mailRepository } from './mail.repository.ts';
import { storedFilterOf } from './mailbox-filter.ts';

/** A hosting service's pending mailbox changes to its mail server (MailApplyWorker). */
export const APPLY_MAIL = applyServiceJob('mail');

/**
 * What one mailbox change needs on the mail server (Dovecot and Postfix read the rows
 * themselves): `created`, a new mailbox; `password`, its old password's cached logins end;
 * `quota`; `filter`, its Sieve scripts written as its stored rules and spam filtering say (replacing one activated
 * elsewhere only when the user agreed: `replaceForeign`; a change logged before that flag existed
 * was checked when it was made, and replaces); `deleted`, its mail removed or kept aside. `sync`:
 * every mailbox's scripts of the service as the database has them (after a change of the spam
 * lists, which every filtering mailbox's script holds), leaving one activated elsewhere.
 */
export type MailChange =
  | { step: 'created' | 'password' | 'quota' | 'deleted'; localPart: string }
  | { step: 'filter'; localPart: string; replaceForeign?: boolean }
  | { step: 'sync' }
  /** Whether its mailboxes may log in changed (the provider suspended the service or lifted it). */
  | { step: 'logins' };

/**
 * What a hosting service's `mail.apply-service` job does (see ServiceChangeWorker). Each step is
 * the database's state or harmless twice (a cache flushed again, a folder already disposed of),
 * so a retry after a crash changes nothing. The mail driver refuses no field, so a mail change
 * keeps nothing to undo: a failure (a folder that cannot be written) is retried.
 */
export class MailApplyWorker extends ServiceChangeWorker<MailChange, never> {
  protected readonly failureKey = 'mail.error.apply';

  constructor(
    db: Db,
    private readonly driver: MailDriver,
    now: () => number,
    landed?: WorkLanded,
  ) {
    super(db, 'mail', now, landed);
  }

  protected async apply(service: ServiceRef, change: MailChange): Promise<void> {
    if (change.step === 'sync') {
      // A script its owner activated elsewhere stays theirs (only a save the user agreed to replaces it).
      for (const row of await mailRepository.mailboxes(this.db, service.id)) {
        const filter = await storedFilterOf(this.db, service.id, row.id);
        const address = { domain: service.domain, localPart: row.local_part };
        await this.driver.syncFilter(address, filter, { dryRun: false, now: this.now() });
      }
      return;
    }
    if (change.step === 'logins') {
      // the mail server forgets what it knew of each login, and asks the view again
      for (const row of await mailRepository.mailboxes(this.db, service.id))
        await this.driver.passwordChanged({ domain: service.domain, localPart: row.local_part });
      return;
    }
    const address = { domain: service.domain, localPart: change.localPart };
    const live = (await mailRepository.mailboxes(this.db, service.id)).find(
      (row) => row.local_part === change.localPart,
    );
    switch (change.step) {
      case 'created':
        return this.driver.mailboxCreated(address);
      case 'password':
        return this.driver.passwordChanged(address);
      case 'quota':
        return this.driver.quotaChanged(address);
      case 'filter':
        // Gone since: its deletion, later in the log, takes its folder.
        return live ? this.writeFilter(service.id, live.id, address, change.replaceForeign ?? true) : undefined;
      case 'deleted':
        // Made again since (while the node was away): the folder is the new mailbox's now.
        return live ? this.driver.passwordChanged(address) : this.driver.mailboxDeleted(address, this.now());
    }
  }

  /** Without the user's word, a script activated elsewhere (since the save, or unseen by it) stays active. */
  private async writeFilter(
    serviceId: number,
    mailboxId: number,
    address: MailboxAddress,
    replaceForeign: boolean,
  ): Promise<void> {
    const filter = await storedFilterOf(this.db, serviceId, mailboxId);
    if (replaceForeign) await this.driver.filterChanged(address, filter, this.now());
    else await this.driver.syncFilter(address, filter, { dryRun: false, now: this.now() });
  }

  protected async restore(): Promise<void> {}

  protected whole(): MailChange {
    return { step: 'sync' };
  }
}
