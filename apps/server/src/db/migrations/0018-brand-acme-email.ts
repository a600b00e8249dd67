import type { Kysely } from 'kysely';

/**
 * Frozen on 2026-11-26: a brand's own contact at the ACME CA (`acme_email`), for the certificates
 * of its customers' sites; '' uses the provider's (PANEL_ACME_EMAIL). Each contact is an account
 * of its own at the CA (acme_accounts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('brands')
    .addColumn('acme_email', 'varchar(254)', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('brands').dropColumn('acme_email').execute();
}
