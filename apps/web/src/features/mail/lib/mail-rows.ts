import type { Alias, Mailbox } from '@panel247/contract/mail';

export type MailRowType = 'account' | 'alias';
/** The type filter: every row, or one type. */
export type MailTypeFilter = 'all' | MailRowType;

export type MailRow =
  | { type: 'account'; key: string; name: string; mailbox: Mailbox }
  | { type: 'alias'; key: string; name: string; alias: Alias };

/** 'user@domain' of an account (the domain is the item's punycode reference). */
export function mailboxName(mailbox: Pick<Mailbox, 'user'>, domain: string): string {
  return `${mailbox.user}@${domain}`;
}

/** 'alias@domain', or just the domain when the alias takes every address (empty local part). */
export function aliasName(alias: Pick<Alias, 'alias' | 'referencePunycode'>): string {
  return alias.alias === '' ? alias.referencePunycode : `${alias.alias}@${alias.referencePunycode}`;
}

/** The targets of an alias (comma-separated on the wire), trimmed, without empty ones. */
export function aliasTargets(alias: Pick<Alias, 'name'>): string[] {
  return alias.name
    .split(',')
    .map((target) => target.trim())
    .filter((target) => target !== '');
}

/** Accounts and aliases in one list, sorted by their display name (an account before an alias of the same name). */
export function combineRows(mailboxes: readonly Mailbox[], aliases: readonly Alias[], domain: string): MailRow[] {
  const rows: MailRow[] = [
    ...mailboxes.map((mailbox) => ({
      type: 'account' as const,
      key: `account-${mailbox.id}`,
      name: mailboxName(mailbox, domain),
      mailbox,
    })),
    ...aliases.map((alias) => ({ type: 'alias' as const, key: `alias-${alias.id}`, name: aliasName(alias), alias })),
  ];
  return rows.sort(
    (a, b) =>
      a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) ||
      (a.type === b.type ? 0 : a.type === 'account' ? -1 : 1),
  );
}

/** Rows of the chosen type whose display name contains the text (case-insensitive). */
export function filterRows(rows: readonly MailRow[], type: MailTypeFilter, text: string): MailRow[] {
  const needle = text.trim().toLocaleLowerCase();
  return rows.filter(
    (row) => (type === 'all' || row.type === type) && (!needle || row.name.toLocaleLowerCase().includes(needle)),
  );
}
