import type { Kysely } from 'kysely';

/**
 * Frozen on 2026-11-29: certificate orders, unsigning steps and scheduled rounds are jobs of the
 * work log (one waiting and one running per certificate, per unsigning job, per round, across
 * instances, and a job whose instance died runs again), so the leases the panel kept for them go:
 * `lease_until` of site_certificates (0015), mail_certificates (0029) and dnssec_unsign_jobs
 * (0023), and the scheduled rounds' `scheduled_leases` table (0023).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['site_certificates', 'mail_certificates', 'dnssec_unsign_jobs'])
    await db.schema.alterTable(table).dropColumn('lease_until').execute();
  await db.schema.dropTable('scheduled_leases').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['site_certificates', 'mail_certificates', 'dnssec_unsign_jobs'])
    await db.schema
      .alterTable(table)
      .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  await db.schema
    .createTable('scheduled_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
