import type { HostedDatabase } from '@panel247/contract/databases';

/** Databases sorted by name, case-insensitive (spec: lists in general). */
export function sortDatabases(databases: readonly HostedDatabase[]): HostedDatabase[] {
  return [...databases].sort((a, b) => a.bbdd.localeCompare(b.bbdd, undefined, { sensitivity: 'base' }));
}

/** A case-insensitive "contains" on the name and the user. */
export function filterDatabases(databases: readonly HostedDatabase[], text: string): HostedDatabase[] {
  const needle = text.trim().toLowerCase();
  if (needle === '') return [...databases];
  return databases.filter(
    (database) => database.bbdd.toLowerCase().includes(needle) || database.user.toLowerCase().includes(needle),
  );
}

/** Creation is allowed only while the count is under the plan's limit (spec section 9). */
export function limitReached(count: number, limit: number | null): boolean {
  return limit !== null && count >= limit;
}
