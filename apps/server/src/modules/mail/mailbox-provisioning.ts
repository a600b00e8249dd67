import { mailLocalPartProblem } from '@panel247/contract/mail-rules';
import { servicePasswordProblem } from '@panel247/contract/password-rules';
import type { Db } from '../../db/database.ts';
import type { ChangedService, ServiceChanges } from '../../jobs/service-changes.ts';
import { hashPassword, verifyPassword } from '../auth/password-hasher.ts';
import { planLimits } from '../plans/plan-limits.ts';
import { mailRepository } from './mail.repository.ts';
import type { MailChange } from './mail-apply-worker.ts';

export const MIB = 1024 * 1024;

/**
 * One mailbox change: its rows (`work`) and its entry of the work log (area `mail`) in one
 * transaction, then the service's `mail.apply-service` job tells the mail server (see
 * ServiceChanges.make). Nothing is kept to undo it: the mail server refuses no field.
 */
export function changeMail<T>(
  changes: ServiceChanges,
  service: ChangedService,
  change: MailChange,
  work: (trx: Db) => Promise<T>,
): Promise<T> {
  return changes.make(service, change, async (trx) => ({ value: await work(trx), undo: null }));
}

/**
 * Mailboxes written once their input is checked: by the create call (MailService, after its
 * authorization and field checks) and by the provider's own tooling (doctor's probe mailbox).
 * Dovecot verifies the argon2id hash ({ARGON2ID}); the mail server is told of each new mailbox.
 */
export class MailboxProvisioning {
  constructor(
    private readonly db: Db,
    private readonly changes: ServiceChanges,
    private readonly now: () => number,
  ) {}

  async create(service: ChangedService, localPart: string, password: string, quotaMb: number) {
    const passwordHash = `{ARGON2ID}${await hashPassword(password)}`;
    return changeMail(this.changes, service, { step: 'created', localPart }, async (trx) => {
      await planLimits.admit(trx, service.id, 'mailboxes');
      return mailRepository.insertMailbox(trx, {
        service_id: service.id,
        local_part: localPart,
        password_hash: passwordHash,
        quota_bytes: quotaMb * MIB,
        created_at: this.now(),
      });
    });
  }

  /**
   * A mailbox the provider's own tooling keeps (`panel doctor probes`): made when missing, its
   * password set again when it no longer matches, left alone otherwise.
   */
  async ensure(
    serviceId: number,
    domain: string,
    mailbox: { localPart: string; password: string; quotaMb: number },
  ): Promise<'made' | 'repaired' | 'kept'> {
    const { localPart, password } = mailbox;
    const problem = mailLocalPartProblem(localPart, false) ?? servicePasswordProblem(password);
    if (problem) throw new Error(`${localPart}@${domain}: ${problem}`);
    const existing = (await mailRepository.mailboxes(this.db, serviceId)).find((row) => row.local_part === localPart);
    const service = { id: serviceId, domain };
    if (!existing) {
      await this.create(service, localPart, password, mailbox.quotaMb);
      return 'made';
    }
    if (await verifyPassword(existing.password_hash.replace(/^\{ARGON2ID\}/, ''), password)) return 'kept';
    const passwordHash = `{ARGON2ID}${await hashPassword(password)}`;
    await changeMail(this.changes, service, { step: 'password', localPart }, (trx) =>
      mailRepository.setPassword(trx, serviceId, existing.id, passwordHash),
    );
    return 'repaired';
  }
}
