import type { Language } from '@panel247/contract/constants';
import type { Db } from '../../db/database.ts';
import { translate } from '../../i18n/messages.ts';
import type { BrandService } from '../brand/brand.service.ts';
import type { ContactService } from '../contact/contact.service.ts';
import type { Actor } from './actor.ts';
import type { ClientCall } from './client-call.ts';
import { twoFactorRepository } from './two-factor.repository.ts';

/** One security change to tell the user about: its outbox kind and its message keys. */
export interface SecurityChangeMail {
  /** The outbox row's kind, e.g. `security_disabled`. */
  kind: string;
  /** Message keys of the subject and the body; the body gets {user} {domain} {ip} {when} {company}. */
  subjectKey: string;
  bodyKey: string;
  language: Language;
  /** More values for the body (never a secret: the mail is kept in the outbox as written). */
  vars?: Record<string, string>;
}

/**
 * E-mails a security change (a second factor, a passkey, an API token) to the user's own
 * address, when one is known, through the outbox: who, from which address, when (UTC).
 */
export class SecurityMail {
  constructor(
    private readonly db: Db,
    private readonly brands: BrandService,
    private readonly contact: ContactService,
    private readonly now: () => number,
  ) {}

  /** To `actor`, the user the change is about (themselves, or a user a manager changed). */
  async send(
    actor: Pick<Actor, 'userId' | 'username' | 'domainName' | 'brandId'>,
    call: ClientCall,
    mail: SecurityChangeMail,
  ): Promise<void> {
    const context = await twoFactorRepository.findContext(this.db, actor.userId);
    if (!context?.email) return;
    const brand = await this.brands.byId(actor.brandId);
    const vars = {
      ...mail.vars,
      user: actor.username,
      domain: actor.domainName,
      ip: call.ip,
      when: utcMinute(this.now()),
      company: brand.company,
    };
    const subject = `[${brand.company}] ${translate(mail.language, mail.subjectKey, vars)}`;
    const body = translate(mail.language, mail.bodyKey, vars);
    await this.contact.notifyUser(brand, mail.kind, context.email, subject, body, call.log);
  }
}

/** Unix seconds as `YYYY-MM-DD HH:MM` (UTC), the way the security mails give times. */
export function utcMinute(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('T', ' ').slice(0, 16);
}
