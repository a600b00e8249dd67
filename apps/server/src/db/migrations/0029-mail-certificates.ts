import type { Kysely } from 'kysely';

/**
 * Frozen on 2026-11-29: the mail daemons' certificates (ACME), one row per certificate: the
 * brand's SSL mail host, or imap.<domain> and smtp.<domain> of a mail domain whose zone is hosted
 * here. Named by its first host. The row is also the order's job, like a site's: its state, the
 * CA's reason when the last order failed, the expiry of what is installed, and a lease
 * (`lease_until`) one instance takes with a conditional update before ordering. The certificate
 * and its sealed key stay here, so the mail TLS folder can always be written again whole (a
 * failed renewal never takes away the one that works).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mail_certificates')
    .addColumn('name', 'varchar(253)', (c) => c.primaryKey())
    /** Every name the certificate covers, comma-separated, the row's name first. */
    .addColumn('hosts', 'varchar(600)', (c) => c.notNull())
    /** queued, ordered, validating, issued, installed, failed */
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('error_key', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('error_detail', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('expires_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    /** The installed certificate ('' before the first): the leaf and the CA's intermediates, PEM. */
    .addColumn('cert_pem', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('chain_pem', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('key_sealed', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mail_certificates').ifExists().execute();
}
