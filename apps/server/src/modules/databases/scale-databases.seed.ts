import type { Db } from '../../db/database.ts';
import { databasesRepository } from './databases.repository.ts';
import type { DatabasesService } from './databases.service.ts';

/**
 * The scale data set's databases: as many as `count` (the plan's limit at most), through the
 * same path as the create call. Returns how many went in.
 */
export async function seedScaleDatabases(
  db: Db,
  databases: DatabasesService,
  service: { id: number; domain: string },
  count: number,
  password: string,
): Promise<number> {
  const missing = count - (await databasesRepository.count(db, service.id));
  for (let i = 0; i < missing; i += 1) await databases.provision(service.id, service.domain, { password });
  return Math.max(0, missing);
}
