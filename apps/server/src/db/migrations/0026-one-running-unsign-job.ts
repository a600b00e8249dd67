import { type Kysely, sql } from 'kysely';

/**
 * Frozen on 2026-11-27: at most one running unsigning job per service, kept by the database. Two
 * unsign calls at once used to insert a job each and keep the one that sorted first by
 * (created_at, id); a call that read before the other had inserted saw only its own job, and with
 * both in the same second the other's random id could sort first for the second reader too, so
 * both ran. A partial unique index (SQLite and PostgreSQL both have them) lets the second insert
 * do nothing instead. Jobs already running twice keep the oldest; the others are marked failed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    UPDATE dnssec_unsign_jobs SET status = 'failed', error_key = 'dnssec.error.busy'
    WHERE status = 'running' AND EXISTS (
      SELECT 1 FROM dnssec_unsign_jobs older
      WHERE older.service_id = dnssec_unsign_jobs.service_id AND older.status = 'running'
        AND (older.created_at < dnssec_unsign_jobs.created_at
          OR (older.created_at = dnssec_unsign_jobs.created_at AND older.id < dnssec_unsign_jobs.id))
    )
  `.execute(db);
  await db.schema
    .createIndex('dnssec_unsign_jobs_one_running')
    .on('dnssec_unsign_jobs')
    .column('service_id')
    .unique()
    .where(sql.ref('status'), '=', 'running')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('dnssec_unsign_jobs_one_running').ifExists().execute();
}
