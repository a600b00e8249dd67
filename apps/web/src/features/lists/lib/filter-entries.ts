import type { PermissionEntry } from '@panel247/contract/permissions';

export type ListKind = 'domain' | 'service' | 'mail';

const FLAG: Record<ListKind, keyof Pick<PermissionEntry, 'hasDomain' | 'hasService' | 'hasMail'>> = {
  domain: 'hasDomain',
  service: 'hasService',
  mail: 'hasMail',
};

/** Entries with the list's flag, whose reference contains the query (case-insensitive), A→Z. */
export function filterEntries(entries: readonly PermissionEntry[], kind: ListKind, query: string): PermissionEntry[] {
  const needle = query.trim().toLocaleLowerCase();
  return entries
    .filter((entry) => entry[FLAG[kind]])
    .filter((entry) => !needle || entry.reference.toLocaleLowerCase().includes(needle))
    .sort((a, b) => a.reference.localeCompare(b.reference, undefined, { sensitivity: 'base' }));
}
