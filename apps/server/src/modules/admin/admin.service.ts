import { domainToASCII } from 'node:url';
import {
  DEFAULT_CHANNEL,
  DEFAULT_COLOR,
  PERMISSION_KEYS,
  type PermissionKey,
  type PermissionLevel,
} from '@panel247/contract/constants';
import type { Db } from '../../db/database.ts';
import { hashPassword } from '../auth/password-hasher.ts';
import type { SessionService } from '../auth/session.service.ts';
import { PermissionService } from '../permission/permission.service.ts';
import type { EventBus } from '../realtime/event-bus.ts';

export interface BrandInput {
  slug: string;
  company: string;
  color?: string;
  logo?: string;
  logoMini?: string;
  allowColorChange?: boolean;
  defaultLanguage?: string;
  channel?: string;
  contactEmail?: string;
  webmailHost?: string;
  webftpHost?: string;
  phpmyadminHost?: string;
  builderHost?: string;
  sslHost?: string;
  isDefault?: boolean;
  hosts?: string[];
}

export interface ResourceInput {
  reference: string;
  hasDomain?: boolean;
  hasService?: boolean;
  hasMail?: boolean;
  isRedirAndParking?: boolean;
  domainExpireTs?: number | null;
  serviceExpireTs?: number | null;
  mailExpireTs?: number | null;
}

export interface AdminOptions {
  sessions?: SessionService;
  /**
   * Called by `ensureResource` for a resource with a hosting service (new or already there, so a
   * repeated `resource add` completes what a failed one left): its DNS zone comes with it.
   */
  serviceReady?: (resource: { id: number; reference: string; referencePunycode: string }) => Promise<unknown>;
}

const flag = (value: boolean | undefined) => (value ? 1 : 0);

/** The resources row for an input: the reference lower-cased, with its punycode form. */
function resourceRow(accountId: number, input: ResourceInput, now: number) {
  const reference = input.reference.toLowerCase();
  return {
    account_id: accountId,
    reference,
    reference_punycode: domainToASCII(reference) || reference,
    has_domain: flag(input.hasDomain),
    has_service: flag(input.hasService),
    has_mail: flag(input.hasMail),
    is_redir_and_parking: flag(input.isRedirAndParking),
    domain_expire_ts: input.domainExpireTs ?? null,
    service_expire_ts: input.serviceExpireTs ?? null,
    mail_expire_ts: input.mailExpireTs ?? null,
    created_at: now,
  };
}

/**
 * What the provider does from the CLI, and what the demo seed does: brands, accounts, users,
 * resources and permissions. Every "ensure" is idempotent: it creates what is missing and leaves
 * what exists (passwords included) alone.
 */
export class AdminService {
  private readonly permissions: PermissionService;

  private readonly sessions?: SessionService;

  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
    private readonly now: () => number,
    private readonly options: AdminOptions = {},
  ) {
    this.permissions = new PermissionService(db);
    this.sessions = options.sessions;
  }

  async ensureBrand(input: BrandInput): Promise<number> {
    const existing = await this.db.selectFrom('brands').select('id').where('slug', '=', input.slug).executeTakeFirst();
    const values = {
      company: input.company,
      color: input.color ?? DEFAULT_COLOR,
      logo: input.logo ?? '',
      logo_mini: input.logoMini ?? '',
      allow_color_change: input.allowColorChange === false ? 0 : 1,
      default_language: input.defaultLanguage ?? 'es',
      channel: input.channel ?? DEFAULT_CHANNEL,
      contact_email: input.contactEmail ?? '',
      webmail_host: input.webmailHost ?? '',
      webftp_host: input.webftpHost ?? '',
      phpmyadmin_host: input.phpmyadminHost ?? '',
      builder_host: input.builderHost ?? '',
      ssl_host: input.sslHost ?? '',
      is_default: flag(input.isDefault),
    };
    const id =
      existing?.id ??
      (
        await this.db
          .insertInto('brands')
          .values({ slug: input.slug, created_at: this.now(), ...values })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    for (const host of input.hosts ?? []) {
      await this.db
        .insertInto('brand_hosts')
        .values({ host: host.toLowerCase(), brand_id: id })
        .onConflict((oc) => oc.column('host').doUpdateSet({ brand_id: id }))
        .execute();
    }
    return id;
  }

  async updateBrand(slug: string, input: Partial<BrandInput>): Promise<void> {
    const set: Record<string, string | number> = {};
    if (input.company !== undefined) set.company = input.company;
    if (input.color !== undefined) set.color = input.color;
    if (input.logo !== undefined) set.logo = input.logo;
    if (input.logoMini !== undefined) set.logo_mini = input.logoMini;
    if (input.allowColorChange !== undefined) set.allow_color_change = flag(input.allowColorChange);
    if (input.defaultLanguage !== undefined) set.default_language = input.defaultLanguage;
    if (input.channel !== undefined) set.channel = input.channel;
    if (input.contactEmail !== undefined) set.contact_email = input.contactEmail;
    if (input.sslHost !== undefined) set.ssl_host = input.sslHost;
    if (input.webmailHost !== undefined) set.webmail_host = input.webmailHost;
    if (input.webftpHost !== undefined) set.webftp_host = input.webftpHost;
    if (input.phpmyadminHost !== undefined) set.phpmyadmin_host = input.phpmyadminHost;
    if (Object.keys(set).length === 0) return;
    const result = await this.db.updateTable('brands').set(set).where('slug', '=', slug).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new Error(`No brand '${slug}'`);
  }

  /** Makes one brand the default (the one answering unknown hosts) and every other not. */
  async setDefaultBrand(slug: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const result = await trx.updateTable('brands').set({ is_default: 1 }).where('slug', '=', slug).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new Error(`No brand '${slug}'`);
      await trx.updateTable('brands').set({ is_default: 0 }).where('slug', '!=', slug).execute();
    });
  }

  listBrands() {
    return this.db.selectFrom('brands').selectAll().orderBy('id').execute();
  }

  async ensureAccount(domainName: string, brandSlug: string, name = ''): Promise<number> {
    const brand = await this.db.selectFrom('brands').select('id').where('slug', '=', brandSlug).executeTakeFirst();
    if (!brand) throw new Error(`No brand '${brandSlug}'`);
    const existing = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('domain_name', '=', domainName.toLowerCase())
      .executeTakeFirst();
    if (existing) return existing.id;
    const row = await this.db
      .insertInto('accounts')
      .values({ brand_id: brand.id, domain_name: domainName.toLowerCase(), name, created_at: this.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  listAccounts() {
    return this.db
      .selectFrom('accounts as a')
      .innerJoin('brands as b', 'b.id', 'a.brand_id')
      .select(['a.id', 'a.domain_name', 'a.name', 'b.slug as brand'])
      .orderBy('a.domain_name')
      .execute();
  }

  async accountId(domainName: string): Promise<number> {
    const row = await this.db
      .selectFrom('accounts')
      .select('id')
      .where('domain_name', '=', domainName.toLowerCase())
      .executeTakeFirst();
    if (!row) throw new Error(`No account '${domainName}'`);
    return row.id;
  }

  async userId(domainName: string, username: string): Promise<number> {
    const row = await this.db
      .selectFrom('users as u')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .select('u.id')
      .where('a.domain_name', '=', domainName.toLowerCase())
      .where('u.username', '=', username)
      .executeTakeFirst();
    if (!row) throw new Error(`No user '${username}' on '${domainName}'`);
    return row.id;
  }

  /** Creates the user when missing; an existing user keeps its password. */
  async ensureUser(domainName: string, username: string, password: string): Promise<number> {
    const accountId = await this.accountId(domainName);
    const existing = await this.db
      .selectFrom('users')
      .select('id')
      .where('account_id', '=', accountId)
      .where('username', '=', username)
      .executeTakeFirst();
    if (existing) return existing.id;
    const row = await this.db
      .insertInto('users')
      .values({
        account_id: accountId,
        username,
        password_hash: await hashPassword(password),
        password_changed_at: this.now(),
        created_at: this.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  listUsers(domainName?: string) {
    let query = this.db
      .selectFrom('users as u')
      .innerJoin('accounts as a', 'a.id', 'u.account_id')
      .select(['u.id', 'a.domain_name', 'u.username', 'u.last_login_at'])
      .orderBy('a.domain_name')
      .orderBy('u.username');
    if (domainName) query = query.where('a.domain_name', '=', domainName.toLowerCase());
    return query.execute();
  }

  /** Sets a new password and ends the user's sessions. */
  async resetPassword(domainName: string, username: string, password: string): Promise<void> {
    const userId = await this.userId(domainName, username);
    await this.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(password), password_changed_at: this.now() })
      .where('id', '=', userId)
      .execute();
    await this.endSessions(domainName, username);
  }

  async endSessions(domainName: string, username: string): Promise<void> {
    const userId = await this.userId(domainName, username);
    if (this.sessions) {
      await this.sessions.endAllOfUser(userId);
      return;
    }
    const rows = await this.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
    if (rows.length > 0) await this.events.publish({ type: 'session.ended', sessionIds: rows.map((r) => r.id) });
  }

  async ensureResource(domainName: string, input: ResourceInput): Promise<number> {
    const accountId = await this.accountId(domainName);
    const reference = input.reference.toLowerCase();
    const existing = await this.db
      .selectFrom('resources')
      .select(['id', 'account_id', 'reference_punycode', 'has_service'])
      .where('reference', '=', reference)
      .executeTakeFirst();
    if (existing && existing.account_id !== accountId) throw new Error(`'${reference}' belongs to another account`);
    const row =
      existing ??
      (await this.db
        .insertInto('resources')
        .values(resourceRow(accountId, input, this.now()))
        .returning(['id', 'account_id', 'reference_punycode', 'has_service'])
        .executeTakeFirstOrThrow());
    if (row.has_service === 1 && this.options.serviceReady) {
      await this.options.serviceReady({ id: row.id, reference, referencePunycode: row.reference_punycode });
    }
    return row.id;
  }

  /**
   * Many resources at once, all granted to one user, in one transaction: pagination tests and
   * benchmarks need thousands, and one `ensureResource` + `grant` each would take minutes on
   * PostgreSQL. References that already exist are skipped; returns how many were created.
   */
  async ensureResourcesBulk(
    domainName: string,
    username: string,
    inputs: ResourceInput[],
    levels: Partial<Record<PermissionKey, PermissionLevel>>,
  ): Promise<number> {
    const accountId = await this.accountId(domainName);
    const userId = await this.userId(domainName, username);
    const grant = Object.fromEntries(PERMISSION_KEYS.map((key) => [key, levels[key] ?? 'disabled'])) as Record<
      PermissionKey,
      PermissionLevel
    >;
    // 500 rows x 24 columns stays far below SQLite's and PostgreSQL's bound-parameter limits.
    const chunkSize = 500;
    let created = 0;
    await this.db.transaction().execute(async (trx) => {
      for (let start = 0; start < inputs.length; start += chunkSize) {
        const rows = inputs.slice(start, start + chunkSize).map((input) => resourceRow(accountId, input, this.now()));
        const inserted = await trx
          .insertInto('resources')
          .values(rows)
          .onConflict((oc) => oc.column('reference').doNothing())
          .returning('id')
          .execute();
        if (inserted.length === 0) continue;
        await trx
          .insertInto('permission_grants')
          .values(inserted.map((row) => ({ user_id: userId, resource_id: row.id, ...grant })))
          .execute();
        created += inserted.length;
      }
    });
    if (created > 0) await this.events.publish({ type: 'permissions.changed', userIds: [userId], resourceId: null });
    return created;
  }

  listResources(domainName: string) {
    return this.db
      .selectFrom('resources as r')
      .innerJoin('accounts as a', 'a.id', 'r.account_id')
      .select(['r.id', 'r.reference', 'r.has_domain', 'r.has_service', 'r.has_mail', 'r.is_redir_and_parking'])
      .where('a.domain_name', '=', domainName.toLowerCase())
      .orderBy('r.reference')
      .execute();
  }

  async resourceId(reference: string): Promise<number> {
    const row = await this.db
      .selectFrom('resources')
      .select('id')
      .where('reference', '=', reference.toLowerCase())
      .executeTakeFirst();
    if (!row) throw new Error(`No resource '${reference}'`);
    return row.id;
  }

  /** Grants levels to a user on a resource of the same account, and tells their open panels. */
  async grant(
    domainName: string,
    username: string,
    reference: string,
    levels: Partial<Record<PermissionKey, PermissionLevel>>,
    options: { onlyIfMissing?: boolean } = {},
  ): Promise<void> {
    const userId = await this.userId(domainName, username);
    const resourceId = await this.resourceId(reference);
    if (options.onlyIfMissing) {
      const existing = await this.db
        .selectFrom('permission_grants')
        .select('user_id')
        .where('user_id', '=', userId)
        .where('resource_id', '=', resourceId)
        .executeTakeFirst();
      if (existing) return;
    }
    const resource = await this.db
      .selectFrom('resources')
      .select('account_id')
      .where('id', '=', resourceId)
      .executeTakeFirstOrThrow();
    if (resource.account_id !== (await this.accountId(domainName))) {
      throw new Error(`'${reference}' does not belong to '${domainName}'`);
    }
    await this.permissions.setGrant(userId, resourceId, levels);
    await this.events.publish({ type: 'permissions.changed', userIds: [userId], resourceId });
  }

  async revoke(domainName: string, username: string, reference: string): Promise<void> {
    const userId = await this.userId(domainName, username);
    const resourceId = await this.resourceId(reference);
    await this.permissions.removeGrant(userId, resourceId);
    await this.events.publish({ type: 'permissions.changed', userIds: [userId], resourceId });
  }

  async permissionsOf(domainName: string, username: string) {
    const userId = await this.userId(domainName, username);
    return this.db
      .selectFrom('permission_grants as g')
      .innerJoin('resources as r', 'r.id', 'g.resource_id')
      .selectAll('g')
      .select('r.reference')
      .where('g.user_id', '=', userId)
      .orderBy('r.reference')
      .execute();
  }

  listOutbox(unsentOnly: boolean, limit = 50) {
    let query = this.db.selectFrom('outbox').selectAll().orderBy('id', 'desc').limit(limit);
    if (unsentOnly) query = query.where('sent_at', 'is', null);
    return query.execute();
  }

  async setLegalText(brandSlug: string, language: string, title: string, body: string, redirectTo = '') {
    const brand = await this.db.selectFrom('brands').select('id').where('slug', '=', brandSlug).executeTakeFirst();
    if (!brand) throw new Error(`No brand '${brandSlug}'`);
    await this.db
      .insertInto('legal_texts')
      .values({ brand_id: brand.id, kind: 'privacy', language, title, body, redirect_to: redirectTo })
      .onConflict((oc) =>
        oc.columns(['brand_id', 'kind', 'language']).doUpdateSet({ title, body, redirect_to: redirectTo }),
      )
      .execute();
  }
}

/** Every key at one level: the common case of "full access" or "read only". */
export function allKeys(level: PermissionLevel): Record<PermissionKey, PermissionLevel> {
  return Object.fromEntries(PERMISSION_KEYS.map((key) => [key, level])) as Record<PermissionKey, PermissionLevel>;
}
