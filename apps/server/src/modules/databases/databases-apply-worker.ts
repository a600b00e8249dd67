import type { SecretBox } from '../../crypto/secret-box.ts';
import type { Db } from '../../db/database.ts';
import {
  DatabaseExistsError,
  type DatabasesDriver,
  type WantedDatabase,
} from '../../drivers/databases/databases.driver.ts';
import { DaemonError } from '../../errors.ts';
import { applyServiceJob } from '../../jobs/apply-service.jobs.ts';
import { serviceChangeLog } from '../../jobs/service-change-log.repository.ts';
import { ServiceChangeWorker, type ServiceRef } from '../../jobs/service-change-worker.ts';
import type { WorkLanded } from '../realtime/work-events.ts';
import { databaseNameBase, nextDatabaseNumber } from './database-names.ts';
import { databasesRepository } from './databases.repository.ts';

/** A hosting service's pending database changes to its database server (DatabasesApplyWorker). */
export const APPLY_DATABASES = applyServiceJob('databases');

/** How many names a new database tries when the server already holds one (made outside the panel). */
const NAME_ATTEMPTS = 5;

/**
 * What one database change needs on the server: `created`, the database and its user; `password`
 * and `access`, its user's password and host entries as its row says; `deleted`, both dropped.
 * `sync`: every database of the service as the database has it.
 */
export type DatabaseChange =
  | { step: 'created' | 'password' | 'access' | 'deleted'; id: number; name: string; user: string }
  | { step: 'sync' };

type Row = Awaited<ReturnType<typeof databasesRepository.list>>[number];

/** A database's row as the driver wants it: its password opened. */
export function wantedDatabase(row: Row, secrets: SecretBox): WantedDatabase {
  return {
    name: row.name,
    user: row.db_user,
    password: secrets.open(row.password_sealed),
    externalAccess: row.external_access === 1,
  };
}

/**
 * What a hosting service's `databases.apply-service` job does (see ServiceChangeWorker): each
 * step makes the server agree with the database's row as it is then (a row gone since is left to
 * its own `deleted` step), so a step retried after a crash changes nothing. A new database whose
 * name the server already holds outside the panel is never taken over: its row takes the next
 * free number (the call answers with the name it got). MariaDB refuses no field, so nothing is
 * kept to undo: a failure is retried.
 */
export class DatabasesApplyWorker extends ServiceChangeWorker<DatabaseChange, never> {
  protected readonly failureKey = 'ddbb.error.apply';

  constructor(
    db: Db,
    private readonly driver: DatabasesDriver,
    private readonly secrets: SecretBox,
    now: () => number,
    landed?: WorkLanded,
  ) {
    super(db, 'databases', now, landed);
  }

  protected async apply(service: ServiceRef, change: DatabaseChange): Promise<void> {
    if (change.step === 'sync') {
      const rows = await databasesRepository.list(this.db, service.id);
      if (rows.length > 0)
        await this.driver.sync(
          rows.map((row) => this.wanted(row)),
          { dryRun: false },
        );
      return;
    }
    if (change.step === 'deleted') return this.driver.drop({ name: change.name, user: change.user });
    const row = await databasesRepository.find(this.db, service.id, change.id);
    if (!row) return;
    const wanted = this.wanted(row);
    if (change.step === 'created') return this.create(service.id, row);
    if (change.step === 'password') return this.driver.changePassword(wanted.user, wanted.password, wanted.password);
    return this.driver.setExternalAccess(wanted, wanted.externalAccess);
  }

  private wanted(row: Row): WantedDatabase {
    return wantedDatabase(row, this.secrets);
  }

  /** The database and its user; ours already (a retried step): put right; someone else's: the next name. */
  private async create(serviceId: number, first: Row): Promise<void> {
    let row = first;
    for (let attempt = 1; ; attempt += 1) {
      const wanted = this.wanted(row);
      const found = await this.driver.ownership(wanted);
      if (found === 'ours') {
        await this.driver.sync([wanted], { dryRun: false });
        return;
      }
      // The create refuses a name the server holds (its user made outside the panel, or a
      // database made since the look): the driver has undone its own steps.
      const made =
        found === 'absent' &&
        (await this.driver.create(wanted).then(
          () => true,
          (error: unknown) => {
            if (error instanceof DatabaseExistsError) return false;
            throw error;
          },
        ));
      if (made) return;
      if (attempt >= NAME_ATTEMPTS)
        throw new DaemonError('ddbb.error.name_taken', `${row.name}: made outside the panel`);
      row = await this.renamed(serviceId, row);
    }
  }

  /** The row under the next free number of its base, in the service's turn. */
  private renamed(serviceId: number, row: Row): Promise<Row> {
    return this.db.transaction().execute(async (trx) => {
      await serviceChangeLog.takeTurn(trx, serviceId);
      const base = databaseNameBase(row.name);
      const name = `${base}_${Math.max(await nextDatabaseNumber(trx, base), Number(row.name.slice(base.length + 1)) + 1)}`;
      return databasesRepository.rename(trx, serviceId, row.id, name);
    });
  }

  protected async restore(): Promise<void> {}

  protected whole(): DatabaseChange {
    return { step: 'sync' };
  }
}
