import type { SpamMode } from '@panel247/contract/mail-spam';
import type { Db } from '../../db/database.ts';
import type { MailboxFilter } from '../../drivers/mail/mail.driver.ts';
import type { SpamFilter } from '../../drivers/mail/spam-sieve-script.ts';
import { mailRepository } from './mail.repository.ts';
import { mailSpamRepository } from './mail-spam.repository.ts';

/** A mailbox's rules as stored (`mailbox_rules`), or none. */
export interface StoredRules {
  autoreply: number;
  subject: string;
  body: string;
  start_date: string;
  end_date: string;
  days: number;
  forward_targets: string;
  keep_copy: number;
}

/** A mailbox's spam filtering as stored (`mailbox_spam`), or none. */
export interface StoredSpam {
  mode: string | null;
  threshold: number | null;
}

/** A service's allow and block lists as stored (`mail_spam_senders`). */
export type StoredSenders = { list: string; sender: string }[];

/** The spam filter a mailbox's row and its service's lists make; null: off. */
export function spamFilterOf(spam: StoredSpam | undefined, senders: StoredSenders): SpamFilter | null {
  const mode = (spam?.mode ?? 'off') as SpamMode;
  if (mode === 'off' || spam?.threshold == null) return null;
  const on = (list: string) => senders.filter((row) => row.list === list).map((row) => row.sender);
  return { mode, threshold: spam.threshold, allow: on('allow'), block: on('block') };
}

/** What the mail driver writes for a mailbox's stored rules and spam filtering: the save and `mail sync` agree on it. */
export function filterOf(
  rules: StoredRules | undefined,
  spam: StoredSpam | undefined = undefined,
  senders: StoredSenders = [],
): MailboxFilter {
  const spamFilter = spamFilterOf(spam, senders);
  if (!rules) return { autoreply: null, forward: null, spam: spamFilter };
  const targets = rules.forward_targets === '' ? [] : rules.forward_targets.split(',');
  return {
    autoreply:
      rules.autoreply === 1
        ? {
            subject: rules.subject,
            body: rules.body,
            start: rules.start_date,
            end: rules.end_date,
            days: rules.days,
          }
        : null,
    forward: targets.length > 0 ? { targets, keepCopy: rules.keep_copy === 1 } : null,
    spam: spamFilter,
  };
}

/** A mailbox's whole filter as the database has it now (the mail server's job writes this). */
export async function storedFilterOf(db: Db, serviceId: number, mailboxId: number): Promise<MailboxFilter> {
  return filterOf(
    await mailRepository.rules(db, mailboxId),
    await mailSpamRepository.of(db, mailboxId),
    await mailSpamRepository.senders(db, serviceId),
  );
}
