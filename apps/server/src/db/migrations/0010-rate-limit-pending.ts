import type { Kysely } from 'kysely';

/**
 * Frozen on 2026-11-25: attempts in progress are counted apart from failed ones.
 *
 * A login takes its place before its password is checked (so parallel guesses cannot all pass),
 * but counting it as a failure meanwhile made six correct logins at once answer "too many failed
 * attempts". `pending` holds the attempts being checked; only a wrong password moves to `hits`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('rate_limits')
    .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('rate_limits').dropColumn('pending').execute();
}
