import type { DnsInitData, Domain } from '@panel247/contract/domain';
import { NAMESERVERS_FIXED, NAMESERVERS_MAX, NAMESERVERS_MIN } from '@panel247/contract/domain-rules';

/** The DNS edit dialog: the provider's servers (only with a service) or 2-7 custom rows. */
export type DnsChoice = 'default' | 'custom';

export interface DnsEditState {
  choice: DnsChoice;
  rows: string[];
}

export function emptyRows(): string[] {
  return Array.from({ length: NAMESERVERS_MIN }, () => '');
}

/** Current servers as rows: at least 2 (empty ones added), at most 7. */
export function rowsFrom(servers: readonly string[]): string[] {
  const rows = servers.slice(0, NAMESERVERS_MAX);
  while (rows.length < NAMESERVERS_MIN) rows.push('');
  return rows;
}

/**
 * Initial state: with a service and the domain in default mode the provider's servers are
 * preselected; otherwise the custom rows hold the domain's current servers.
 */
export function initialDnsState(
  init: Pick<DnsInitData, 'domainDNSs' | 'hasService' | 'defaultDNSs'>,
  mode: Domain['dns']['mode'],
): DnsEditState {
  if (init.hasService && mode === 'defaultDNS') return { choice: 'default', rows: emptyRows() };
  const current = mode === 'defaultDNS' ? [] : init.domainDNSs;
  return { choice: 'custom', rows: rowsFrom(current) };
}

export type DnsRowsAction =
  | { type: 'choose'; choice: DnsChoice }
  | { type: 'set'; index: number; value: string }
  | { type: 'add' }
  | { type: 'remove'; index: number };

export const canAddRow = (rows: readonly string[]) => rows.length < NAMESERVERS_MAX;
export const canRemoveRow = (rows: readonly string[], index: number) =>
  index >= NAMESERVERS_FIXED && index < rows.length && rows.length > NAMESERVERS_MIN;

export function dnsRowsReducer(state: DnsEditState, action: DnsRowsAction): DnsEditState {
  switch (action.type) {
    case 'choose':
      // switching the choice resets the custom rows (spec section 4)
      return action.choice === state.choice ? state : { choice: action.choice, rows: emptyRows() };
    case 'set':
      return { ...state, rows: state.rows.map((row, index) => (index === action.index ? action.value : row)) };
    case 'add':
      return canAddRow(state.rows) ? { ...state, rows: [...state.rows, ''] } : state;
    case 'remove':
      return canRemoveRow(state.rows, action.index)
        ? { ...state, rows: state.rows.filter((_, index) => index !== action.index) }
        : state;
  }
}

const HOST = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+\.?$/i;

/** Client-side checks of the rows (i18n keys by row); resolving is the server's part. */
export function validateDnsRows(rows: readonly string[]): Record<number, string> {
  const errors: Record<number, string> = {};
  const seen = new Set<string>();
  rows.forEach((raw, index) => {
    const value = raw.trim().toLowerCase();
    if (!value) errors[index] = 'validation.required';
    else if (!HOST.test(value)) errors[index] = 'domain.error.hostname';
    else if (seen.has(value)) errors[index] = 'domain.error.duplicate_server';
    seen.add(value);
  });
  return errors;
}

/** `dns[3]` → 3: the server names the row of a field error by its position in what was sent. */
export function rowOfField(field: string): number | null {
  const match = /^dns\[(\d+)\]$/.exec(field);
  return match ? Number(match[1]) : null;
}
