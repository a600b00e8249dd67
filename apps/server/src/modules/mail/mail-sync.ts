import { MAIL_VIEWS, repairDaemonViews, type ViewDrift } from '../../db/daemon-views.ts';
import type { Db } from '../../db/database.ts';
import type { FilterDrift, MailDriver } from '../../drivers/mail/mail.driver.ts';
import type { MailFolderDrift } from '../../drivers/mail/maildirs.ts';
import type { SyncOptions } from '../../drivers/sync-options.ts';
import { PlacementService } from '../nodes/placement.service.ts';
import { mailRepository } from './mail.repository.ts';
import { mailSpamRepository } from './mail-spam.repository.ts';
import { filterOf, type StoredSenders } from './mailbox-filter.ts';

export interface MailDrift {
  /** The views Postfix and Dovecot read, put back when missing. */
  views: ViewDrift[];
  /** The mailbox folders against the panel's mailboxes. */
  folders: MailFolderDrift[];
  /** The mailboxes' Sieve scripts against their autoresponder and forwarding. */
  filters: FilterDrift[];
}

/**
 * `panel mail sync`: what Postfix and Dovecot need besides the rows — their SQL views, and the
 * mailbox folders under the mail root — checked against the panel and repaired unless `dryRun`.
 * Needs neither a brand nor the secret key, unlike the mailboxes' service. A server (`node`,
 * PANEL_NODE; '' the unnamed machine) looks at the mailboxes whose mail it holds, and those a move
 * is bringing to it: another server's mailboxes are none of its business, and a folder of a
 * domain that moved away is kept aside like a deleted mailbox's.
 */
export async function syncMail(
  db: Db,
  driver: MailDriver,
  options: SyncOptions & { now: number },
  node: string,
): Promise<MailDrift> {
  const views = await repairDaemonViews(db, MAIL_VIEWS, options);
  const placement = new PlacementService(db, () => options.now);
  const holds = await placement.holding('mail', node);
  const arriving = await placement.arriving('mail', node);
  const addresses = (await mailRepository.allAddresses(db)).filter(
    (mailbox) => holds(mailbox.serviceId) || arriving.has(mailbox.serviceId),
  );
  const folders = await driver.sync(addresses, options);
  // each mailbox's script as its rules say (none without rules), after the folders are put right
  const rules = new Map((await mailRepository.allRules(db)).map((row) => [`${row.domain}/${row.localPart}`, row]));
  const spam = new Map((await mailSpamRepository.all(db)).map((row) => [`${row.domain}/${row.localPart}`, row]));
  const senders = new Map<number, StoredSenders>();
  const sendersOf = async (serviceId: number) => {
    if (!senders.has(serviceId)) senders.set(serviceId, await mailSpamRepository.senders(db, serviceId));
    return senders.get(serviceId) as StoredSenders;
  };
  const filters: FilterDrift[] = [];
  for (const mailbox of addresses) {
    const key = `${mailbox.domain}/${mailbox.localPart}`;
    const drift = await driver.syncFilter(
      mailbox,
      filterOf(rules.get(key), spam.get(key), await sendersOf(mailbox.serviceId)),
      options,
    );
    if (drift) filters.push(drift);
  }
  return { views, folders, filters };
}
