import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/**
 * Frozen on 2026-11-26: DKIM keys of the mail domains, and the DMARC and SPF choices of a domain
 * whose zone is not hosted here.
 *
 * - `mail_dkim_keys`: one row per selector of a service's domain. The private key is sealed
 *   (AES-256-GCM, see crypto/secret-box.ts); the public key is kept in the clear, as it is
 *   published. `state` walks a rotation: `pending` (published, not signing yet), `active`
 *   (signing), `retiring` (no longer signing, its record withdrawn at `retire_at`).
 * - `mail_auth_policies`: what the guided form last produced for a domain whose zone lives
 *   elsewhere (a hosted zone's records are their own record of it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('mail_dkim_keys'))
    .addColumn('service_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'))
    .addColumn('selector', 'varchar(63)', (c) => c.notNull())
    /** 'rsa' or 'ed25519' */
    .addColumn('algorithm', 'varchar(16)', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    /** The record's p= value (base64). */
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('activated_at', 'bigint')
    .addColumn('retire_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('mail_dkim_keys_selector_idx')
    .on('mail_dkim_keys')
    .columns(['service_id', 'selector'])
    .unique()
    .execute();

  await db.schema
    .createTable('mail_auth_policies')
    .addColumn('service_id', 'integer', (c) => c.primaryKey().references('resources.id').onDelete('cascade'))
    /** Comma-separated host names. */
    .addColumn('spf_includes', 'text', (c) => c.notNull())
    .addColumn('dmarc_policy', 'varchar(16)', (c) => c.notNull())
    .addColumn('dmarc_pct', 'integer', (c) => c.notNull())
    /** Comma-separated addresses. */
    .addColumn('dmarc_rua', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mail_auth_policies').ifExists().execute();
  await db.schema.dropTable('mail_dkim_keys').ifExists().execute();
}
