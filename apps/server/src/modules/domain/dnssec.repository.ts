import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DnssecUnsignJobTable } from '../../db/schema.ts';

/** Unsigning jobs and the CDS scan's results. */
export const dnssecRepository = {
  /**
   * Inserts a running job; false when the service has one running already (the partial unique
   * index `dnssec_unsign_jobs_one_running`), so of two calls at once exactly one starts.
   */
  async insertJob(db: Db, row: Insertable<DnssecUnsignJobTable>): Promise<boolean> {
    const inserted = await db
      .insertInto('dnssec_unsign_jobs')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  },

  updateJob(
    db: Db,
    id: string,
    set: {
      status?: string;
      step?: string;
      wait_until?: number;
      error_key?: string;
      updated_at: number;
    },
  ) {
    return db.updateTable('dnssec_unsign_jobs').set(set).where('id', '=', id).execute();
  },

  job(db: Db, serviceId: number, id: string) {
    return db
      .selectFrom('dnssec_unsign_jobs')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('id', '=', id)
      .executeTakeFirst();
  },

  /** The service's newest job (running or not). */
  lastJob(db: Db, serviceId: number) {
    return db
      .selectFrom('dnssec_unsign_jobs')
      .selectAll()
      .where('service_id', '=', serviceId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .executeTakeFirst();
  },

  /** Domains the CDS scan looks at: own name servers (the zone is hosted elsewhere) and a DS at the registry. */
  scanCandidates(db: Db) {
    return db
      .selectFrom('domains as d')
      .innerJoin('resources as r', 'r.id', 'd.resource_id')
      .select(['d.resource_id', 'r.reference_punycode'])
      .where('d.dns_mode', '=', 'setDNS')
      .where((eb) =>
        eb.exists(
          eb.selectFrom('domain_ds_records as ds').select('ds.id').whereRef('ds.resource_id', '=', 'd.resource_id'),
        ),
      )
      .orderBy('d.resource_id')
      .execute();
  },

  scan(db: Db, resourceId: number) {
    return db.selectFrom('dnssec_scans').selectAll().where('resource_id', '=', resourceId).executeTakeFirst();
  },

  async saveScan(db: Db, row: { resource_id: number; outcome: string; detail: string; checked_at: number }) {
    await db
      .insertInto('dnssec_scans')
      .values(row)
      .onConflict((conflict) =>
        conflict
          .column('resource_id')
          .doUpdateSet({ outcome: row.outcome, detail: row.detail, checked_at: row.checked_at }),
      )
      .execute();
  },
};
