import { mailLocalPartProblem } from '@panel247/contract/mail-rules';
import { servicePasswordProblem } from '@panel247/contract/password-rules';
import type { Db } from '../../db/database.ts';
import type { MailDriver } from '../../drivers/mail/mail.driver.ts';
import { hashPassword, verifyPassword } from '../auth/password-hasher.ts';
import { mailRepository } from './mail.repository.ts';

export const MIB = 1024 * 1024;

/**
 * Mailboxes written once their input is checked: by the create call (MailService, after its
 * authorization and field checks) and by the provider's own tooling (doctor's probe mailbox).
 * Dovecot verifies the argon2id hash ({ARGON2ID}); the driver is told of each new mailbox.
 */
export class MailboxProvisioning {
  constructor(
    private readonly db: Db,
    private readonly driver: MailDriver,
    private readonly now: () => number,
  ) {}

  /** Its row, then the driver's copy. */
  async create(serviceId: number, domain: string, localPart: string, password: string, quotaMb: number) {
    const row = await mailRepository.insertMailbox(this.db, {
      service_id: serviceId,
      local_part: localPart,
      password_hash: `{ARGON2ID}${await hashPassword(password)}`,
      quota_bytes: quotaMb * MIB,
      created_at: this.now(),
    });
    await this.driver.mailboxCreated({ domain, localPart });
    return row;
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
    if (!existing) {
      await this.create(serviceId, domain, localPart, password, mailbox.quotaMb);
      return 'made';
    }
    if (await verifyPassword(existing.password_hash.replace(/^\{ARGON2ID\}/, ''), password)) return 'kept';
    await mailRepository.setPassword(this.db, serviceId, existing.id, `{ARGON2ID}${await hashPassword(password)}`);
    await this.driver.passwordChanged({ domain, localPart });
    return 'repaired';
  }
}
