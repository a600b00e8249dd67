import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-26: automatic certificates for sites (ACME).
 *
 * - `acme_accounts`: the panel's account at each CA directory, its key sealed like other secrets.
 * - `site_certificates`: a site whose SSL is automatic. Its row is also the order's job: the step
 *   the customer sees, the CA's reason when it failed, the expiry of what is installed, and a
 *   lease (`lease_until`) that one instance takes with a conditional update before ordering, so
 *   that with several instances exactly one orders or renews a given certificate.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('acme_accounts'))
    .addColumn('directory_url', 'varchar(500)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull().defaultTo(''))
    .addColumn('key_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('acme_accounts_directory_email', ['directory_url', 'email'])
    .execute();

  await db.schema
    .createTable('site_certificates')
    .addColumn('site_id', 'integer', (c) => c.primaryKey().references('web_sites.id').onDelete('cascade'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    /** 'http-01' or 'dns-01' */
    .addColumn('challenge', 'varchar(8)', (c) => c.notNull())
    /** 1: the certificate also covers *.<site's host> (DNS-01 only) */
    .addColumn('wildcard', 'integer', (c) => c.notNull().defaultTo(0))
    /** queued, ordered, validating, issued, installed, failed */
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('error_key', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('error_detail', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    /** Epoch seconds: the installed certificate's end (0 before the first one). */
    .addColumn('expires_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('site_certificates_service_idx')
    .on('site_certificates')
    .columns(['service_id'])
    .execute();
  await db.schema.createIndex('site_certificates_expiry_idx').on('site_certificates').columns(['expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('site_certificates').ifExists().execute();
  await db.schema.dropTable('acme_accounts').ifExists().execute();
}
