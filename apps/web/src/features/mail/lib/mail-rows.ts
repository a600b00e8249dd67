import type { Alias, Mailbox, MailListRow, MailListType } from '@panel247/contract/mail';

export type MailRowType = 'account' | 'alias';
/** The type filter: every row, or one type (the list call's `type`). */
export type MailTypeFilter = MailListType;

export type MailRow =
  | { type: 'account'; key: string; name: string; mailbox: Mailbox }
  | { type: 'alias'; key: string; name: string; alias: Alias };

/** 'user@domain' of an account (the domain is the item's punycode reference). */
/** A row of an account (a mailbox), the one the account's own dialogs open on. */
export type AccountRow = Extract<MailRow, { type: 'account' }>;

/** What every dialog of one account takes: the row (null: closed) and whether the user may act. */
export interface AccountDialogProps {
  row: AccountRow | null;
  onClose: () => void;
  serviceId: number;
  allowed: boolean;
}

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

/** The rows of a page of the list, as the server sorted them. */
export function mailRows(rows: readonly MailListRow[], domain: string): MailRow[] {
  return rows.map((row) =>
    row.type === 'account'
      ? { type: 'account', key: `account-${row.correo.id}`, name: mailboxName(row.correo, domain), mailbox: row.correo }
      : { type: 'alias', key: `alias-${row.alias.id}`, name: aliasName(row.alias), alias: row.alias },
  );
}
