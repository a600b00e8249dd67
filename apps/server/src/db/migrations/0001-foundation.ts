import type { Kysely } from 'kysely';
import { withIdColumn } from './migration-helpers.ts';

/** Frozen on 2026-11-22: brands, accounts, users, resources, permissions, sessions, limits, outbox. */

// The permission keys as they were when this migration was written (never import them: frozen).
const PERMISSION_KEYS_0001 = [
  'domain',
  'domain_ownercontacts',
  'domain_contacts',
  'domain_dns',
  'domain_gluerecords',
  'domain_dnssec',
  'domain_transferblock',
  'domain_authcode',
  'domain_others',
  'service',
  'service_ftp',
  'service_subdomains',
  'service_redirects',
  'service_ddbb',
  'service_dnszone',
  'service_parking',
  'servicemail',
  'servicemail_accounts',
  'servicemail_alias',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await withIdColumn(db, db.schema.createTable('brands'))
    .addColumn('slug', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('company', 'varchar(200)', (c) => c.notNull())
    .addColumn('color', 'varchar(32)', (c) => c.notNull())
    .addColumn('logo', 'varchar(2048)', (c) => c.notNull().defaultTo(''))
    .addColumn('logo_mini', 'varchar(2048)', (c) => c.notNull().defaultTo(''))
    .addColumn('allow_color_change', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('default_language', 'varchar(8)', (c) => c.notNull())
    .addColumn('channel', 'varchar(64)', (c) => c.notNull())
    .addColumn('contact_email', 'varchar(254)', (c) => c.notNull().defaultTo(''))
    .addColumn('webmail_host', 'varchar(253)', (c) => c.notNull().defaultTo(''))
    .addColumn('webftp_host', 'varchar(253)', (c) => c.notNull().defaultTo(''))
    .addColumn('ssl_host', 'varchar(253)', (c) => c.notNull().defaultTo(''))
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('brand_hosts')
    .addColumn('host', 'varchar(253)', (c) => c.primaryKey())
    .addColumn('brand_id', 'integer', (c) => c.notNull().references('brands.id').onDelete('cascade'))
    .execute();

  await db.schema
    .createTable('legal_texts')
    .addColumn('brand_id', 'integer', (c) => c.notNull().references('brands.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('language', 'varchar(8)', (c) => c.notNull())
    .addColumn('title', 'varchar(200)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('redirect_to', 'varchar(2048)', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('legal_texts_pk', ['brand_id', 'kind', 'language'])
    .execute();

  await withIdColumn(db, db.schema.createTable('accounts'))
    .addColumn('brand_id', 'integer', (c) => c.notNull().references('brands.id'))
    .addColumn('domain_name', 'varchar(253)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await withIdColumn(db, db.schema.createTable('users'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('username', 'varchar(64)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('last_login_at', 'bigint')
    .addColumn('last_login_ip', 'varchar(64)')
    .addColumn('password_changed_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('users_account_username_uq', ['account_id', 'username'])
    .execute();

  await withIdColumn(db, db.schema.createTable('resources'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('reference', 'varchar(253)', (c) => c.notNull().unique())
    .addColumn('reference_punycode', 'varchar(253)', (c) => c.notNull())
    .addColumn('has_domain', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('has_service', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('has_mail', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_redir_and_parking', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('domain_expire_ts', 'bigint')
    .addColumn('service_expire_ts', 'bigint')
    .addColumn('mail_expire_ts', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('resources_account_idx').on('resources').columns(['account_id', 'reference']).execute();

  let grants = db.schema
    .createTable('permission_grants')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('resource_id', 'integer', (c) => c.notNull().references('resources.id').onDelete('cascade'));
  for (const key of PERMISSION_KEYS_0001) {
    grants = grants.addColumn(key, 'varchar(8)', (c) => c.notNull().defaultTo('disabled'));
  }
  await grants.addPrimaryKeyConstraint('permission_grants_pk', ['user_id', 'resource_id']).execute();
  await db.schema.createIndex('permission_grants_resource_idx').on('permission_grants').column('resource_id').execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_agent', 'varchar(512)', (c) => c.notNull().defaultTo(''))
    .addColumn('previous_login_at', 'bigint')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('rate_limits')
    .addColumn('bucket', 'varchar(32)', (c) => c.notNull())
    .addColumn('key', 'varchar(600)', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limits_pk', ['bucket', 'key'])
    .execute();

  await withIdColumn(db, db.schema.createTable('outbox'))
    .addColumn('brand_id', 'integer', (c) => c.notNull().references('brands.id'))
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('to_address', 'varchar(254)', (c) => c.notNull())
    .addColumn('reply_to', 'varchar(254)', (c) => c.notNull())
    .addColumn('subject', 'varchar(300)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .addColumn('error', 'varchar(1000)')
    .execute();

  await db.schema
    .createTable('captcha_spent')
    .addColumn('signature', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'captcha_spent',
    'outbox',
    'rate_limits',
    'sessions',
    'permission_grants',
    'resources',
    'users',
    'accounts',
    'legal_texts',
    'brand_hosts',
    'brands',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
