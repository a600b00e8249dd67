import type { PermissionEntry } from '@panel247/contract/permissions';

export type ListKind = 'domain' | 'service' | 'mail';

const FLAG: Record<ListKind, keyof Pick<PermissionEntry, 'hasDomain' | 'hasService' | 'hasMail'>> = {
  domain: 'hasDomain',
  service: 'hasService',
  mail: 'hasMail',
};

/** A list's entries A→Z, each with the lower-cased text the filter searches. */
export interface SearchableEntries {
  entries: PermissionEntry[];
  texts: string[];
}

// One collator for every sort: localeCompare with options builds a new one per comparison.
const byReference = new Intl.Collator(undefined, { sensitivity: 'base' });

/**
 * The entries with the list's flag, sorted and lower-cased once per permission list: with 10,000
 * entries, sorting and lower-casing them at every keystroke took most of a keystroke's time.
 */
export function searchableEntries(entries: readonly PermissionEntry[], kind: ListKind): SearchableEntries {
  const sorted = entries
    .filter((entry) => entry[FLAG[kind]])
    .sort((a, b) => byReference.compare(a.reference, b.reference));
  return { entries: sorted, texts: sorted.map((entry) => entry.reference.toLocaleLowerCase()) };
}

/** The entries whose reference contains the query (case-insensitive), in the list's order. */
export function matchEntries(list: SearchableEntries, query: string): PermissionEntry[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return list.entries;
  return list.entries.filter((_, index) => list.texts[index]?.includes(needle));
}

/** Entries with the list's flag, whose reference contains the query (case-insensitive), A→Z. */
export function filterEntries(entries: readonly PermissionEntry[], kind: ListKind, query: string): PermissionEntry[] {
  return matchEntries(searchableEntries(entries, kind), query);
}
