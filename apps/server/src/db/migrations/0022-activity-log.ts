import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-26: the customer-visible activity log. One row per change made through the
 * panel (the resource and the permission key that allowed it, so a reader sees only what that key
 * shows them) and per login, failed login or security change of a user (no resource).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('activity_log'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    // null once the user is deleted: the name stays in `username`
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    // 'web' (a browser session) or 'api' (a personal API token)
    .addColumn('via', 'varchar(8)', (c) => c.notNull())
    .addColumn('resource_id', 'integer', (c) => c.references('resources.id').onDelete('cascade'))
    .addColumn('permission_key', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('area', 'varchar(16)', (c) => c.notNull())
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('target', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    // JSON: [{"f": field, "b": before | null, "a": after | null}], short and without secrets
    .addColumn('changes', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.createIndex('activity_log_account_idx').on('activity_log').columns(['account_id', 'id']).execute();
  await db.schema.createIndex('activity_log_resource_idx').on('activity_log').columns(['resource_id', 'id']).execute();
  await db.schema.createIndex('activity_log_at_idx').on('activity_log').column('at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('activity_log').ifExists().execute();
}
