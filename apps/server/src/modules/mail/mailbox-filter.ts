import type { MailboxFilter } from '../../drivers/mail/mail.driver.ts';

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

/** What the mail driver writes for a mailbox's stored rules: the save and `mail sync` agree on it. */
export function filterOf(rules: StoredRules | undefined): MailboxFilter {
  if (!rules) return { autoreply: null, forward: null };
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
  };
}
