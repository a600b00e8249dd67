import type { Kysely } from 'kysely';

/**
 * Frozen on 2026-11-24: the site the builder edits per service, a brand's own site-builder host
 * (like its WebFTP host), and the application installer's jobs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('web_settings')
    // NULL until the builder is first opened; '' is the main domain, else a subdomain label.
    .addColumn('builder_site', 'varchar(190)')
    .execute();
  await db.schema
    .alterTable('brands')
    .addColumn('builder_host', 'varchar(253)', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema
    .createTable('install_jobs')
    // 128 random bits in hex: the id is what a client follows, so it must not be guessable.
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('app_id', 'integer', (c) => c.notNull())
    /** queued, running, done or failed. */
    .addColumn('status', 'varchar(8)', (c) => c.notNull())
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('result_url', 'varchar(2048)', (c) => c.notNull().defaultTo(''))
    .addColumn('result_folder', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    /** i18n key of the failure, translated when the job is read (each reader has its language). */
    .addColumn('error_key', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('install_jobs').ifExists().execute();
  await db.schema.alterTable('brands').dropColumn('builder_host').execute();
  await db.schema.alterTable('web_settings').dropColumn('builder_site').execute();
}
