import { isIP } from 'node:net';
import { isLocalPart } from '@panel247/contract/mail-rules';
import type { Db } from '../../db/database.ts';
import type { Logger } from '../../logger.ts';
import type { ActivityService } from '../activity/activity.service.ts';
import type { PolicyRequest } from './policy-protocol.ts';
import { UNAVAILABLE_ACTION } from './policy-server.ts';
import { sendingLimitRepository } from './sending-limit.repository.ts';

/** The window is a fixed hour that starts with a login's first message after the last one ended. */
export const WINDOW_SECONDS = 3600;

/** The action that lets a message on to the rest of Postfix's restrictions. */
const LET_THROUGH = 'DUNNO';

/** The activity log's name for a refusal (the web shows `activity.action.mail_send_limit_reached`). */
export const LIMIT_REACHED_ACTION = 'mail.send_limit_reached';

const DOMAIN = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/** A login as Dovecot authenticates them (a mailbox address: local part @ punycode domain), split. */
function mailboxOf(login: string): { localPart: string; domain: string } | undefined {
  const at = login.lastIndexOf('@');
  if (at <= 0 || login.length > 254) return undefined;
  const localPart = login.slice(0, at);
  const domain = login.slice(at + 1);
  return isLocalPart(localPart) && DOMAIN.test(domain) ? { localPart, domain } : undefined;
}

function recipients(count: number): string {
  return count === 1 ? '1 recipient' : `${count} recipients`;
}

function hourMinute(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(11, 16);
}

/**
 * The per-mailbox sending limit, asked by Postfix once per message (check_policy_service in
 * submission's smtpd_data_restrictions: at DATA, when the recipients are known and before the
 * message is sent, so a refused flood costs no bandwidth).
 *
 * What counts: recipients, per authenticated login (sasl_username, the mailbox address), in a
 * fixed hour that starts with the first message; a message to three people counts three, so a
 * stolen password cannot get round the limit with long recipient lists. Refused messages do not
 * count. Mail without a login (delivery from other servers on port 25) is not counted.
 *
 * Over the limit the sender is told, in English as SMTP replies are, the limit and when to try
 * again (450: mail clients keep the message and may retry); the first refusal of a window writes
 * one entry in the activity log of the account that holds the mailbox. When the database does not
 * answer the message is deferred, never let through uncounted.
 */
export class SendingLimitService {
  constructor(
    private readonly db: Db,
    private readonly activity: ActivityService,
    private readonly options: { limitPerHour: number; now: () => number; log: Logger },
  ) {}

  /** The action for one policy request. Never throws: a failure is logged and deferred. */
  async decide(request: PolicyRequest): Promise<string> {
    const login = request.get('sasl_username') ?? '';
    if (request.get('request') !== 'smtpd_access_policy' || login === '') return LET_THROUGH;
    const stage = request.get('protocol_state');
    if (stage !== 'DATA' && stage !== 'END-OF-MESSAGE') {
      // Asked at RCPT a message would be counted once per recipient check: the wrong place.
      this.options.log.warn(
        { event: 'mail.policy_wrong_stage', stage },
        'sending limit asked outside DATA: put check_policy_service in smtpd_data_restrictions',
      );
      return LET_THROUGH;
    }
    const mailbox = mailboxOf(login);
    if (!mailbox) {
      this.options.log.warn({ event: 'mail.policy_bad_login' }, 'sending limit: a login that is no mailbox address');
      return UNAVAILABLE_ACTION;
    }
    const client = request.get('client_address') ?? '';
    const context = { login, client: isIP(client) ? client : '' };
    const count = Number(request.get('recipient_count'));
    const weight = Number.isSafeInteger(count) && count > 0 ? count : 1;
    const limit = this.options.limitPerHour;
    if (weight > limit) {
      this.options.log.warn(
        { event: 'mail.send_limit_recipients', ...context, recipients: weight, limit },
        'message with more recipients than the hourly limit refused',
      );
      return `554 5.7.1 This message has ${weight} recipients; ${login} may send to at most ${recipients(limit)} per hour. Send it in smaller parts.`;
    }
    try {
      const now = this.options.now();
      if (await sendingLimitRepository.take(this.db, login, now, WINDOW_SECONDS, weight, limit)) return LET_THROUGH;
      return await this.refuse(mailbox, context, now);
    } catch (error) {
      this.options.log.error({ err: error, event: 'mail.policy_failed', login }, 'sending limit check failed');
      return UNAVAILABLE_ACTION;
    }
  }

  /** Forgets the windows that have ended (a DELETE by date: harmless when two instances run it). */
  purge(): Promise<number> {
    return sendingLimitRepository.purgeBefore(this.db, this.options.now() - WINDOW_SECONDS);
  }

  private async refuse(
    mailbox: { localPart: string; domain: string },
    context: { login: string; client: string },
    now: number,
  ): Promise<string> {
    const { login } = context;
    const limit = this.options.limitPerHour;
    const window = await sendingLimitRepository.window(this.db, login);
    const windowStart = window ? Number(window.window_start) : now;
    const first = await sendingLimitRepository.markAlerted(this.db, login, windowStart);
    this.options.log.warn(
      { event: 'mail.send_limit_reached', ...context, limit, firstInWindow: first },
      'message refused: mailbox sending limit reached',
    );
    if (first) await this.alert(mailbox, context);
    const retryAt = Math.max(windowStart + WINDOW_SECONDS, now + 60);
    return `450 4.7.1 Sending limit reached: ${login} may send to ${recipients(limit)} per hour. Try again after ${hourMinute(retryAt)} UTC.`;
  }

  /** The activity entry of a window's first refusal, in the account that holds the mailbox. */
  private async alert(mailbox: { localPart: string; domain: string }, context: { login: string; client: string }) {
    const owner = await sendingLimitRepository.mailboxOwner(this.db, mailbox.localPart, mailbox.domain);
    if (!owner) return;
    await this.activity.recordResourceEvent({
      accountId: owner.account_id,
      resourceId: owner.service_id,
      key: 'servicemail_accounts',
      who: context.login,
      ip: context.client,
      via: 'smtp',
      action: LIMIT_REACHED_ACTION,
      target: context.login,
      changes: [{ field: 'send_limit', before: null, after: String(this.options.limitPerHour) }],
    });
  }
}
