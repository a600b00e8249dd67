import type { ContactMailParams } from '@panel247/contract/contact';
import type { ForgotPasswordParams } from '@panel247/contract/user';
import type { Db } from '../../db/database.ts';
import { translate } from '../../i18n/messages.ts';
import type { Logger } from '../../logger.ts';
import type { Actor } from '../auth/actor.ts';
import type { Brand } from '../brand/brand.service.ts';
import type { LimitRule, RateLimiter } from '../rate-limit/rate-limiter.ts';
import type { Mailer } from './mailer.ts';
import { outboxRepository } from './outbox.repository.ts';

/**
 * Messages from customers to the provider. Every message is written to the outbox first, then
 * sent by SMTP when configured; a failed send stays in the outbox with its error for the CLI to
 * retry, so nothing a customer wrote is lost.
 */
export class ContactService {
  constructor(
    private readonly db: Db,
    private readonly mailer: Mailer | undefined,
    private readonly from: string,
    private readonly limiter: RateLimiter,
    private readonly formLimit: LimitRule,
    private readonly now: () => number,
  ) {}

  async contact(actor: Actor, brand: Brand, ip: string, params: ContactMailParams, log: Logger) {
    await this.throttle('contact', ip);
    const body = [
      `Account: ${actor.domainName}`,
      `User: ${actor.username}`,
      `E-mail: ${params.email}`,
      `IP: ${ip}`,
      '',
      params.contents,
    ].join('\n');
    await this.deliver(brand, 'contact', params.email, `[${brand.company}] ${params.subject}`, body, log);
  }

  async forgotPassword(brand: Brand, ip: string, params: ForgotPasswordParams, log: Logger) {
    await this.throttle('forgot', ip);
    const body = [
      `Domain: ${params.domain}`,
      `User: ${params.user}`,
      `Name: ${params.name}`,
      `E-mail: ${params.email}`,
      `IP: ${ip}`,
      '',
      params.contents,
    ].join('\n');
    const subject = `[${brand.company}] ${translate(brand.defaultLanguage, 'contact.subject_forgot')}: ${params.domain}`;
    await this.deliver(brand, 'forgot_password', params.email, subject, body, log);
  }

  private async throttle(kind: string, ip: string) {
    const rule = { ...this.formLimit, bucket: `form-${kind}` };
    // Counted and checked in one step: parallel submissions cannot all pass a check made before any is counted.
    await this.limiter.take(rule, ip, 'error.rate_limited');
  }

  /**
   * A notice to a user's own address (a security change on their account), through the same
   * outbox: replies go to the provider.
   */
  /**
   * A mail to a user. With `secret` (a one-time link), the outbox's copy loses it once the mail
   * is sent: the link is at rest only while the mail waits there (to be passed on by hand).
   */
  async notifyUser(
    brand: Brand,
    kind: string,
    to: string,
    subject: string,
    body: string,
    log: Logger,
    options: { secret?: string } = {},
  ) {
    const id = await outboxRepository.insert(this.db, {
      brandId: brand.id,
      kind,
      to,
      replyTo: brand.contactEmail,
      subject,
      body,
      now: this.now(),
    });
    const sent = await this.sendQueued(id, { to, replyTo: brand.contactEmail, subject, text: body }, log);
    if (sent && options.secret) await outboxRepository.setBody(this.db, id, body.replaceAll(options.secret, '[…]'));
    return sent;
  }

  /** Writes to the outbox, then tries SMTP; returns whether it was sent now. */
  async deliver(brand: Brand, kind: string, replyTo: string, subject: string, body: string, log: Logger) {
    const id = await outboxRepository.insert(this.db, {
      brandId: brand.id,
      kind,
      to: brand.contactEmail,
      replyTo,
      subject,
      body,
      now: this.now(),
    });
    return this.sendQueued(id, { to: brand.contactEmail, replyTo, subject, text: body }, log);
  }

  async sendQueued(
    id: number,
    mail: { to: string; replyTo: string; subject: string; text: string },
    log: Pick<Logger, 'warn'>,
  ): Promise<boolean> {
    if (!this.mailer || !mail.to) return false;
    try {
      await this.mailer.send({ from: this.from, ...mail });
      await outboxRepository.markSent(this.db, id, this.now());
      return true;
    } catch (error) {
      log.warn({ event: 'mail.failed', outboxId: id, err: (error as Error).message }, 'mail kept in outbox');
      await outboxRepository.markFailed(this.db, id, (error as Error).message);
      return false;
    }
  }
}
