import { translate } from '../../i18n/messages.ts';
import type { Logger } from '../../logger.ts';
import { utcMinute } from '../auth/security-mail.ts';
import type { BrandService } from '../brand/brand.service.ts';
import type { ContactService } from '../contact/contact.service.ts';
import type { CronOutputMail } from './cron-scheduler.ts';

/** A run's output mailed through the outbox, in the brand's language, under the brand's name. */
export function cronOutputMail(
  brands: Pick<BrandService, 'byId'>,
  contact: Pick<ContactService, 'notifyUser'>,
  log: Logger,
): (mail: CronOutputMail) => Promise<void> {
  return async (mail) => {
    const brand = await brands.byId(mail.brandId);
    const vars = {
      domain: mail.domain,
      target: mail.target,
      schedule: mail.schedule,
      when: utcMinute(mail.startedAt),
      outcome: mail.outcome,
      exitCode: mail.exitCode ?? '-',
      output: mail.output || '-',
    };
    const language = brand.defaultLanguage;
    const subject = `[${brand.company}] ${translate(language, 'cron.mail.subject', vars)}`;
    await contact.notifyUser(brand, 'cron_output', mail.to, subject, translate(language, 'cron.mail.body', vars), log);
  };
}
