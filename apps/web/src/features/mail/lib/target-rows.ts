import { cleanTargets, isAliasTarget } from '@panel247/contract/mail-rules';

/** The alias form's target rows (spec section 5). Errors are i18n keys. */

export function addTargetRow(rows: readonly string[]): string[] {
  return [...rows, ''];
}

/** The first row cannot be removed. */
export function canRemoveTargetRow(index: number): boolean {
  return index > 0;
}

export function removeTargetRow(rows: readonly string[], index: number): string[] {
  if (!canRemoveTargetRow(index) || index >= rows.length) return [...rows];
  return rows.filter((_, i) => i !== index);
}

/** One row, as checked on blur: an empty row is no error (it is dropped), a filled one must be an address. */
export function targetRowError(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  return isAliasTarget(trimmed) ? null : 'mail.invalid_target';
}

/** Rows from an alias's comma-separated targets (at least one row). */
export function targetRowsFrom(name: string): string[] {
  const rows = cleanTargets(name.split(','));
  return rows.length > 0 ? rows : [''];
}

export interface TargetCheck {
  /** What to send: trimmed, empty ones dropped. */
  targets: string[];
  /** Row index → error key. */
  rowErrors: Record<number, string>;
  /** 'mail.target_required' when no row has a target. */
  error: string | null;
}

/** The whole list, as checked on submit. */
export function checkTargets(rows: readonly string[]): TargetCheck {
  const rowErrors: Record<number, string> = {};
  rows.forEach((value, index) => {
    const error = targetRowError(value);
    if (error) rowErrors[index] = error;
  });
  const targets = cleanTargets([...rows]);
  return { targets, rowErrors, error: targets.length === 0 ? 'mail.target_required' : null };
}

/** The row a server message about a target names (the server reports the first bad one), else the first row. */
export function rowOfServerError(rows: readonly string[], message: string): number {
  const index = rows.findIndex((value) => value.trim() !== '' && message.includes(value.trim()));
  return index >= 0 ? index : 0;
}
