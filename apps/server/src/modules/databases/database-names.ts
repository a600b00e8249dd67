import type { Db } from '../../db/database.ts';
import { databasesRepository } from './databases.repository.ts';

/**
 * The number after the highest `{base}_N` the panel has: a new database's name. Names are never
 * typed; one the server already holds (made outside the panel) is skipped by the node, which
 * takes the next one (DatabasesApplyWorker).
 */
export async function nextDatabaseNumber(db: Db, base: string): Promise<number> {
  const pattern = new RegExp(`^${base}_(\\d+)$`);
  let highest = 0;
  for (const name of await databasesRepository.namesLike(db, `${base}_`)) {
    const match = pattern.exec(name);
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return highest + 1;
}

/** The base of a database's name (`demotest_3` → `demotest`). */
export function databaseNameBase(name: string): string {
  return name.replace(/_\d+$/, '');
}
