import {
  type MailboxSpam,
  SPAM_FILTERED_DAYS,
  SPAM_FILTERED_MAX,
  SPAM_THRESHOLD_DEFAULT,
  type SpamData,
  type SpamFiltered,
  type SpamList,
  type SpamMode,
  type SpamSender,
  spamSenderProblem,
} from '@panel247/contract/mail-spam';
import type { Db } from '../../db/database.ts';
import type { MailDriver } from '../../drivers/mail/mail.driver.ts';
import { FieldErrors, fieldProblem, NotFoundError } from '../../errors.ts';
import type { ServiceChanges } from '../../jobs/service-changes.ts';
import { noteChangeDetail } from '../activity/activity-notes.ts';
import { changedFields } from '../activity/activity-summary.ts';
import type { Actor } from '../auth/actor.ts';
import type { AccessNeed, PermissionService } from '../permission/permission.service.ts';
import { planLimits } from '../plans/plan-limits.ts';
import { mailSpamRepository } from './mail-spam.repository.ts';
import { changeMail } from './mailbox-provisioning.ts';

type SpamRow = { id: number; local_part: string; mode: string | null; threshold: number | null };

function toMailbox(row: SpamRow): MailboxSpam {
  return {
    id: row.id,
    user: row.local_part,
    mode: (row.mode ?? 'off') as SpamMode,
    threshold: row.threshold ?? SPAM_THRESHOLD_DEFAULT,
  };
}

function toSender(row: { id: number; list: string; sender: string; created_at: number }): SpamSender {
  return { id: row.id, list: row.list as SpamList, sender: row.sender, createdAt: Number(row.created_at) };
}

/**
 * A mail service's spam filtering, behind `servicemail_spam` (read sees it and what was
 * filtered, write changes it). Each mailbox's mode and threshold and the service's lists are
 * rows; the mail server's job writes each filtering mailbox's Sieve filter from them, so a change
 * is a mailbox change of the work log like the autoresponder's: one mailbox's `filter` step, or
 * the whole service's `sync` when a list changed (every filtering mailbox's filter holds the lists).
 */
export class MailSpamService {
  constructor(
    private readonly db: Db,
    private readonly permissions: PermissionService,
    private readonly driver: MailDriver,
    private readonly changes: ServiceChanges,
    private readonly now: () => number,
  ) {}

  private async service(actor: Actor, id: number, need: AccessNeed) {
    const resource = await this.permissions.authorize(actor, id, 'servicemail_spam', need);
    return { id, domain: resource.referencePunycode };
  }

  async overview(actor: Actor, id: number): Promise<SpamData> {
    const service = await this.service(actor, id, 'visible');
    const rows = await mailSpamRepository.mailboxes(this.db, id);
    const filtering = rows.filter((row) => row.mode !== null && row.mode !== 'off');
    return {
      mailboxes: rows.map(toMailbox),
      senders: (await mailSpamRepository.senders(this.db, id)).map(toSender),
      maxSenders: (await planLimits.of(this.db, id)).spamSenders,
      filtered: await this.filtered(
        service.domain,
        filtering.map((row) => row.local_part),
      ),
    };
  }

  /**
   * What the filter marked lately in these mailboxes, as their server has it; null when it does
   * not answer (its agent away, Dovecot down): the settings are the database's and still shown.
   */
  private async filtered(domain: string, localParts: string[]): Promise<SpamFiltered[] | null> {
    if (localParts.length === 0) return [];
    const boxes = localParts.map((localPart) => ({ domain, localPart }));
    const marked = await this.driver.spamMarked(boxes, SPAM_FILTERED_DAYS).catch(() => null);
    if (!marked) return null;
    return marked.slice(0, SPAM_FILTERED_MAX).map(({ localPart, ...message }) => ({ user: localPart, ...message }));
  }

  async saveMailbox(
    actor: Actor,
    id: number,
    accountId: number,
    input: { mode: SpamMode; threshold: number },
  ): Promise<MailboxSpam> {
    const service = await this.service(actor, id, 'action');
    const row = await mailSpamRepository.mailbox(this.db, id, accountId);
    if (!row) throw new NotFoundError();
    const before = toMailbox(row);
    noteChangeDetail(actor.activity, {
      target: `${row.local_part}@${service.domain}`,
      changes: changedFields(
        { spam: before.mode, threshold: before.threshold },
        { spam: input.mode, threshold: input.threshold },
      ),
    });
    // its own script stays as it is, even one its owner activated elsewhere: only the spam filter changes
    const change = { step: 'filter', localPart: row.local_part, replaceForeign: false } as const;
    await changeMail(this.changes, { ...service, actor }, change, (trx) =>
      mailSpamRepository.save(trx, {
        mailbox_id: row.id,
        mode: input.mode,
        threshold: input.threshold,
        updated_at: this.now(),
      }),
    );
    return { ...before, mode: input.mode, threshold: input.threshold };
  }

  /** Puts a sender on a list; one already on the other list is refused, naming it. */
  async addSender(actor: Actor, id: number, input: { list: SpamList; sender: string }): Promise<SpamSender> {
    const service = await this.service(actor, id, 'action');
    const errors = fieldProblem('sender', spamSenderProblem(input.sender));
    if (errors.length > 0) throw new FieldErrors(errors);
    const sender = input.sender.trim().toLowerCase();
    noteChangeDetail(actor.activity, { target: `${input.list} ${sender}` });
    const row = await changeMail(this.changes, { ...service, actor }, { step: 'sync' }, async (trx) => {
      // checked with the service's turn taken: two adds of one sender cannot both pass
      const on = await mailSpamRepository.listOf(trx, id, sender);
      if (on)
        throw FieldErrors.one(
          'sender',
          on === input.list ? 'mail.error.spam_sender_taken' : `mail.error.spam_sender_on_${on}`,
        );
      await planLimits.admit(trx, id, 'spamSenders');
      return mailSpamRepository.insertSender(trx, {
        service_id: id,
        list: input.list,
        sender,
        created_at: this.now(),
      });
    });
    return toSender(row);
  }

  async removeSender(actor: Actor, id: number, senderId: number): Promise<void> {
    const service = await this.service(actor, id, 'action');
    const row = await mailSpamRepository.findSender(this.db, id, senderId);
    if (!row) throw new NotFoundError();
    noteChangeDetail(actor.activity, { target: `${row.list} ${row.sender}` });
    await changeMail(this.changes, { ...service, actor }, { step: 'sync' }, (trx) =>
      mailSpamRepository.deleteSender(trx, id, senderId),
    );
  }
}
