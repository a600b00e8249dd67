import { isHostName } from '@panel247/contract/dns-rules';
import type { AppConfig } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { MailDriver } from '../../drivers/mail/mail.driver.ts';
import { Maildirs } from '../../drivers/mail/maildirs.ts';
import type { PartMoveWork } from '../nodes/part-move.jobs.ts';
import type { PartRemovalWork } from '../nodes/part-removal.jobs.ts';
import { PlacementService } from '../nodes/placement.service.ts';
import type { DkimSigning } from './dkim-signing.ts';
import { mailRepository } from './mail.repository.ts';

/**
 * A mail server's side of a mail move: holding a service whose mail leaves (its mailboxes' open
 * sessions ended and cached logins dropped as the final copy begins), serving a service whose mail arrived (every mailbox's
 * folder here, copied by the move; the signer given the domain's DKIM keys), and releasing one
 * whose mail left (the signer stops signing for it, its folders go), and removing a terminated
 * one's the same way, its logins dropped first. Dovecot and Postfix need
 * nothing: they read the views, which name this server once the move switches the placement.
 * Each first checks which server holds the mail now, so a move rolled back never has its old
 * copy released or a stale copy served.
 */
export function mailMoveWork(
  db: Db,
  config: AppConfig,
  mail: { driver: MailDriver },
  dkim: DkimSigning,
  now: () => number,
): PartMoveWork & PartRemovalWork {
  const placement = new PlacementService(db, now);
  const here = config.agent.node;
  const holds = async (serviceId: number) => (await placement.nodeOf(serviceId, 'mail')) === here;
  const maildirs = (domain: string) => {
    if (!config.mail.root) throw new Error('this server has no mail root (PANEL_MAIL_ROOT)');
    if (!isHostName(domain)) throw new Error(`not a domain: ${domain}`);
    return new Maildirs(config.mail.root);
  };
  return {
    async hold({ serviceId, domain }) {
      for (const mailbox of await mailRepository.mailboxes(db, serviceId))
        await mail.driver.servedElsewhere({ domain, localPart: mailbox.local_part });
    },
    async serve({ serviceId, domain }) {
      if (!(await holds(serviceId))) return;
      const folders = maildirs(domain);
      const missing: string[] = [];
      for (const mailbox of await mailRepository.mailboxes(db, serviceId)) {
        if (!(await folders.hasHome(domain, mailbox.local_part))) missing.push(mailbox.local_part);
      }
      if (missing.length > 0) throw new Error(`mailbox folders missing here: ${missing.join(', ')}`);
      await dkim.give({ serviceId, domain });
    },
    async release({ serviceId, domain }) {
      if (await holds(serviceId)) return;
      await dkim.withdraw(domain);
      await maildirs(domain).removeDomain(domain);
    },
    /** A terminated service's mail: its sessions and cached logins dropped, its keys and folders gone. */
    async remove({ domain, mailboxes }) {
      for (const localPart of mailboxes) await mail.driver.servedElsewhere({ domain, localPart });
      await dkim.withdraw(domain);
      if (config.mail.root) await maildirs(domain).removeDomain(domain);
    },
  };
}
