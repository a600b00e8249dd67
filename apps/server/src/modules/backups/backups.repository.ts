import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { BackupJobTable, BackupSnapshotTable } from '../../db/schema.ts';

export const backupsRepository = {
  /** Hosting services (all, or the one with this id or reference), the ones a backup covers. */
  services(db: Db, only?: { id?: number; reference?: string }) {
    let query = db
      .selectFrom('resources')
      .select(['id', 'reference', 'reference_punycode'])
      .where('has_service', '=', 1)
      .orderBy('id');
    if (only?.id !== undefined) query = query.where('id', '=', only.id);
    if (only?.reference !== undefined) {
      const reference = only.reference;
      query = query.where((eb) => eb.or([eb('reference', '=', reference), eb('reference_punycode', '=', reference)]));
    }
    return query.execute();
  },

  /**
   * The panel's own settings of a service, as a backup keeps them: what the customer set up, and
   * no secret in clear (passwords and private keys are not taken at all).
   */
  async settings(db: Db, serviceId: number) {
    const [web, sites, redirections, ftp, mailboxes, aliases, databases] = await Promise.all([
      db
        .selectFrom('web_settings')
        .select(['php_version', 'parking', 'builder_site'])
        .where('service_id', '=', serviceId)
        .executeTakeFirst(),
      db
        .selectFrom('web_sites')
        .select(['subdomain', 'folder', 'ssl_active', 'cert_pem', 'cert_chain_pem'])
        .where('service_id', '=', serviceId)
        .orderBy('subdomain')
        .execute(),
      db
        .selectFrom('web_redirections')
        .select(['subdomain', 'path', 'url', 'type', 'iframe_title', 'iframe_description', 'iframe_keywords'])
        .where('service_id', '=', serviceId)
        .orderBy('subdomain')
        .execute(),
      db
        .selectFrom('ftp_accounts')
        .select(['login', 'folder'])
        .where('service_id', '=', serviceId)
        .orderBy('login')
        .execute(),
      db
        .selectFrom('mailboxes')
        .select(['local_part', 'quota_bytes'])
        .where('service_id', '=', serviceId)
        .orderBy('local_part')
        .execute(),
      db
        .selectFrom('mail_aliases')
        .select(['local_part', 'targets'])
        .where('service_id', '=', serviceId)
        .orderBy('local_part')
        .execute(),
      db
        .selectFrom('hosted_databases')
        .select(['name', 'external_access'])
        .where('service_id', '=', serviceId)
        .orderBy('name')
        .execute(),
    ]);
    return { web: web ?? null, sites, redirections, ftp, mailboxes, aliases, databases };
  },

  insertSnapshot(db: Db, row: Insertable<BackupSnapshotTable>) {
    return db.insertInto('backup_snapshots').values(row).execute();
  },

  snapshots(db: Db, serviceId: number) {
    return db
      .selectFrom('backup_snapshots')
      .selectAll()
      .where('service_id', '=', serviceId)
      .orderBy('created_at', 'desc')
      .execute();
  },

  allSnapshotIds(db: Db) {
    return db.selectFrom('backup_snapshots').select(['id', 'snapshot_id']).execute();
  },

  deleteSnapshots(db: Db, ids: number[]) {
    return ids.length === 0 ? Promise.resolve() : db.deleteFrom('backup_snapshots').where('id', 'in', ids).execute();
  },

  /** The data a service's kept snapshots added to the repository: what counts against its quota. */
  async usage(db: Db, serviceId: number): Promise<number> {
    const row = await db
      .selectFrom('backup_snapshots')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('added_bytes'), eb.lit(0)).as('bytes'))
      .where('service_id', '=', serviceId)
      .executeTakeFirstOrThrow();
    return Number(row.bytes);
  },

  insertJob(db: Db, row: Insertable<BackupJobTable>) {
    return db.insertInto('backup_jobs').values(row).execute();
  },

  updateJob(db: Db, id: string, set: { status?: string; step?: string; error_key?: string; updated_at: number }) {
    return db.updateTable('backup_jobs').set(set).where('id', '=', id).execute();
  },

  job(db: Db, serviceId: number, id: string) {
    return db
      .selectFrom('backup_jobs')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  /**
   * A job whose work was lost ends as failed, unless it ended meanwhile (its worker may have
   * finished between the caller's read of the row and its look at the engine).
   */
  failUnfinished(db: Db, id: string, errorKey: string, now: number) {
    return db
      .updateTable('backup_jobs')
      .set({ status: 'failed', error_key: errorKey, updated_at: now })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'running'])
      .execute();
  },

  /** The service's newest job still queued or running, if any. */
  liveJob(db: Db, serviceId: number) {
    return db
      .selectFrom('backup_jobs')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('status', 'in', ['queued', 'running'])
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
  },

  /** Terminated services whose last backup's days are over and which still hold it. */
  expiredTerminations(db: Db, now: number) {
    return db
      .selectFrom('service_terminations')
      .select('service_id')
      .where('state', '=', 'done')
      .where('snapshot_id', '!=', '')
      .where('backup_released_at', 'is', null)
      .where('keep_until', '<=', now)
      .execute();
  },

  markTerminationBackupReleased(db: Db, serviceId: number, now: number) {
    return db
      .updateTable('service_terminations')
      .set({ backup_released_at: now, updated_at: now })
      .where('service_id', '=', serviceId)
      .execute();
  },

  /** Takes the day's scheduled run: true for exactly one caller per day, across instances. */
  async takeDay(db: Db, day: string, now: number): Promise<boolean> {
    const result = await db
      .insertInto('backup_days')
      .values({ day, taken_at: now })
      .onConflict((conflict) => conflict.column('day').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  },
};
