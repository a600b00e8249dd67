import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-26: personal API tokens. Only the token's sha256 is kept; its scope (the
 * resources and the level on each) is a small JSON list read with the token on every call.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('api_tokens'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    // [{"r": resourceId, "l": "read" | "write"}]
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('last_used_ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('api_tokens_user_idx').on('api_tokens').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_tokens').ifExists().execute();
}
