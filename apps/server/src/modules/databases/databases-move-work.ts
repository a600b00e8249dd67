import type { Readable } from 'node:stream';
import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import type { DatabasesDriver } from '../../drivers/databases/databases.driver.ts';
import type { PartMoveWork } from '../nodes/part-move.jobs.ts';
import type { PartRemovalWork } from '../nodes/part-removal.jobs.ts';
import { PlacementService } from '../nodes/placement.service.ts';
import { databasesRepository } from './databases.repository.ts';
import { wantedDatabase } from './databases-apply-worker.ts';

/** A databases server's side of a databases move, and the step before its copy. */
export interface DatabasesMoveWork extends PartMoveWork, PartRemovalWork {
  /**
   * The service's databases and their users made here, empty, as the panel has them (same names
   * and passwords), for the move's copy to load. One of that name made outside the panel stops
   * the move: it is never written over.
   */
  prepare(serviceId: number): Promise<void>;
  /** One of the service's databases here written from a dump of it (tables dropped and made again). */
  load(serviceId: number, name: string, sql: Readable): Promise<void>;
}

/**
 * A databases server's side of moving a service's databases: the server they leave locks their
 * users as the final copy begins (and ends their sessions), so nothing writes there while the last
 * dump is made; the server they reach has their users and grants as the panel says and unlocked,
 * and proves every database is there; the server they left drops them. Serving is also how a
 * move rolled back after the lock gives the old server its users back. Each first checks which
 * server holds the databases now, so a move rolled back never has its old copy dropped.
 */
export function databasesMoveWork(
  db: Db,
  driver: DatabasesDriver,
  secrets: SecretBox,
  here: string,
  now: () => number,
): DatabasesMoveWork {
  const placement = new PlacementService(db, now);
  const holds = async (serviceId: number) => (await placement.nodeOf(serviceId, 'databases')) === here;
  const databasesOf = async (serviceId: number) =>
    (await databasesRepository.list(db, serviceId)).map((row) => wantedDatabase(row, secrets));
  return {
    async prepare(serviceId) {
      for (const database of await databasesOf(serviceId)) {
        const found = await driver.ownership(database);
        if (found === 'foreign') throw new Error(`${database.name} exists here, made outside the panel`);
        if (found === 'absent') await driver.create(database);
      }
    },
    async load(serviceId, name, sql) {
      // only a database of that service: the channel never names another (nor the server's own)
      if (!(await databasesOf(serviceId)).some((database) => database.name === name))
        throw new Error(`${name} is not a database of service ${serviceId}`);
      await driver.load(name, sql);
    },
    async hold({ serviceId }) {
      for (const database of await databasesOf(serviceId)) await driver.setLocked(database.user, true);
    },
    async serve({ serviceId }) {
      if (!(await holds(serviceId))) return;
      const databases = await databasesOf(serviceId);
      // first: a server that serves again after a move rolled back gives every user it has back
      for (const database of databases) await driver.setLocked(database.user, false);
      const missing: string[] = [];
      for (const database of databases) if ((await driver.ownership(database)) !== 'ours') missing.push(database.name);
      // never made empty here by the sync: a database missing after a copy is the move's failure
      if (missing.length > 0) throw new Error(`databases missing here: ${missing.join(', ')}`);
      if (databases.length > 0) await driver.sync(databases, { dryRun: false });
    },
    async release({ serviceId }) {
      if (await holds(serviceId)) return;
      for (const database of await databasesOf(serviceId)) await driver.drop(database);
    },
    /** A terminated service's databases and their users dropped (named by the job: its rows are gone). */
    async remove({ databases }) {
      for (const database of databases) await driver.drop(database);
    },
  };
}
