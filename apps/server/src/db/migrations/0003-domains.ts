import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/** Frozen on 2026-11-22: registered domains, their name servers, glue, DS records and contacts. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('domains')
    .addColumn('resource_id', 'integer', (c) => c.primaryKey().references('resources.id').onDelete('cascade'))
    .addColumn('dns_mode', 'varchar(16)', (c) => c.notNull())
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('registered_at', 'bigint', (c) => c.notNull())
    .addColumn('blocked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('transfer_block', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('whois_privacy', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('auth_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('dnssec_type', 'varchar(16)', (c) => c.notNull())
    /** AES-256-GCM encrypted auth code or transfer key. */
    .addColumn('auth_secret', 'varchar(512)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('domain_nameservers')
    .addColumn('resource_id', 'integer', (c) => c.notNull().references('domains.resource_id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('host', 'varchar(253)', (c) => c.notNull())
    .addPrimaryKeyConstraint('domain_nameservers_pk', ['resource_id', 'position'])
    .execute();

  await withIdColumn(db, db.schema.createTable('domain_glue_records'))
    .addColumn('resource_id', 'integer', (c) => c.notNull().references('domains.resource_id').onDelete('cascade'))
    .addColumn('name', 'varchar(253)', (c) => c.notNull())
    .addColumn('ipv4', 'varchar(15)', (c) => c.notNull())
    .addColumn('ipv6', 'varchar(45)', (c) => c.notNull().defaultTo(''))
    .addUniqueConstraint('domain_glue_records_name_uq', ['resource_id', 'name'])
    .execute();

  await withIdColumn(db, db.schema.createTable('domain_ds_records'))
    .addColumn('resource_id', 'integer', (c) => c.notNull().references('domains.resource_id').onDelete('cascade'))
    .addColumn('keytag', 'integer', (c) => c.notNull())
    .addColumn('algorithm', 'integer', (c) => c.notNull())
    .addColumn('digest_type', 'integer', (c) => c.notNull())
    .addColumn('digest', 'varchar(128)', (c) => c.notNull())
    .execute();

  await withIdColumn(db, db.schema.createTable('contacts'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('is_org', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('org_name', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('first_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('ident_number', 'varchar(30)', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'varchar(254)', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'varchar(30)', (c) => c.notNull().defaultTo(''))
    .addColumn('address', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('postal_code', 'varchar(10)', (c) => c.notNull().defaultTo(''))
    .addColumn('city', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .addColumn('state', 'varchar(10)', (c) => c.notNull().defaultTo(''))
    .addColumn('country', 'varchar(2)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('domain_contacts')
    .addColumn('resource_id', 'integer', (c) => c.notNull().references('domains.resource_id').onDelete('cascade'))
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('contact_id', 'integer', (c) => c.notNull().references('contacts.id'))
    .addPrimaryKeyConstraint('domain_contacts_pk', ['resource_id', 'role'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'domain_contacts',
    'contacts',
    'domain_ds_records',
    'domain_glue_records',
    'domain_nameservers',
    'domains',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
