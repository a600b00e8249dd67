import { type Kysely, sql } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-22: what the web server serves for a hosting service — its PHP version and
 * parking flag, its sites (subdomain → folder, optional certificate) and its redirections.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('web_settings')
    .addColumn('service_id', 'integer', (c) => c.primaryKey().references('resources.id').onDelete('cascade'))
    /** '' follows the provider's default version. */
    .addColumn('php_version', 'varchar(8)', (c) => c.notNull().defaultTo(''))
    .addColumn('parking', 'integer', (c) => c.notNull().defaultTo(0))
    /** Touched by every change: the row lock makes changes of one service take turns. */
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await withIdColumn(db, db.schema.createTable('web_sites'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    /** '' is the main domain; else a host label (or labels) in front of it. */
    .addColumn('subdomain', 'varchar(190)', (c) => c.notNull())
    /** Relative to the service home; '' is the home itself. */
    .addColumn('folder', 'varchar(1024)', (c) => c.notNull())
    .addColumn('ssl_active', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cert_pem', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cert_chain_pem', 'text', (c) => c.notNull().defaultTo(''))
    /** The private key, AES-256-GCM sealed; never sent back to a browser. */
    .addColumn('key_sealed', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('eliminable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('web_sites_service_subdomain', ['service_id', 'subdomain'])
    .execute();

  await withIdColumn(db, db.schema.createTable('web_redirections'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('subdomain', 'varchar(190)', (c) => c.notNull())
    /** '/' (the whole host) or a path such as /shop. */
    .addColumn('path', 'varchar(255)', (c) => c.notNull())
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    /** '301', '302' or 'frame'. */
    .addColumn('type', 'varchar(8)', (c) => c.notNull())
    .addColumn('iframe_title', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('iframe_description', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('iframe_keywords', 'varchar(500)', (c) => c.notNull().defaultTo(''))
    .addColumn('eliminable', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('web_redirections_service_location', ['service_id', 'subdomain', 'path'])
    .execute();
  await sql`CREATE INDEX web_redirections_service ON web_redirections (service_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('web_redirections').ifExists().execute();
  await db.schema.dropTable('web_sites').ifExists().execute();
  await db.schema.dropTable('web_settings').ifExists().execute();
}
