import { type CreateTableBuilder, type Kysely, PostgresAdapter } from 'kysely';

/**
 * Helpers the migrations share. Like the migrations, this file is frozen: change behaviour in a
 * new helper, never here, or old migrations would change meaning.
 */

export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An auto-incrementing integer primary key on either dialect. */
export function withIdColumn<T extends string>(db: Kysely<unknown>, table: CreateTableBuilder<T, never>) {
  return isPostgres(db)
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
