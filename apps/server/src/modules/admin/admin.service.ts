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
import { LegalService } from '../legal/legal.service.ts';
import { type PlacementPins, PlacementService } from '../nodes/placement.service.ts';
import { PermissionService } from '../permission/permission.service.ts';
import { planLimits } from '../plans/plan-limits.ts';
import type { EventBus } from '../realtime/event-bus.ts';
import { adminAccountRepository } from './admin-account.repository.ts';
import { adminBrandRepository } from './admin-brand.repository.ts';
import { adminResourceRepository } from './admin-resource.repository.ts';

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
  /** Every user must set up a second factor before doing anything else. */
  require2fa?: boolean;
  /** The brand's contact at the ACME CA for its customers' certificates ('' : the provider's). */
  acmeEmail?: string;
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
  /** Servers the provider chose for parts of a new hosting service (the rest follow the policy). */
  placement?: PlacementPins;
  /** A new hosting service's plan (`default` when none is named). */
  plan?: string;
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

  private readonly legal: LegalService;

  private readonly sessions?: SessionService;

  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
    private readonly now: () => number,
    private readonly options: AdminOptions = {},
  ) {
    this.permissions = new PermissionService(db);
    this.legal = new LegalService(db);
    this.sessions = options.sessions;
  }

  async ensureBrand(input: BrandInput): Promise<number> {
    const existing = await adminBrandRepository.idBySlug(this.db, input.slug);
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
      acme_email: input.acmeEmail ?? '',
      is_default: flag(input.isDefault),
    };
    const id =
      existing ?? (await adminBrandRepository.insert(this.db, { slug: input.slug, created_at: this.now(), ...values }));
    for (const host of input.hosts ?? []) await adminBrandRepository.setHost(this.db, host.toLowerCase(), id);
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
    if (input.require2fa !== undefined) set.require_2fa = flag(input.require2fa);
    if (input.acmeEmail !== undefined) set.acme_email = input.acmeEmail;
    if (Object.keys(set).length === 0) return;
    if ((await adminBrandRepository.update(this.db, slug, set)) === 0) throw new Error(`No brand '${slug}'`);
  }

  /** Makes one brand the default (the one answering unknown hosts) and every other not. */
  async setDefaultBrand(slug: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if ((await adminBrandRepository.update(trx, slug, { is_default: 1 })) === 0)
        throw new Error(`No brand '${slug}'`);
      await adminBrandRepository.clearDefaultExcept(trx, slug);
    });
  }

  listBrands() {
    return adminBrandRepository.list(this.db);
  }

  async ensureAccount(domainName: string, brandSlug: string, name = ''): Promise<number> {
    const brandId = await adminBrandRepository.idBySlug(this.db, brandSlug);
    if (brandId === undefined) throw new Error(`No brand '${brandSlug}'`);
    const existing = await adminAccountRepository.idByDomain(this.db, domainName.toLowerCase());
    if (existing !== undefined) return existing;
    return adminAccountRepository.insert(this.db, {
      brand_id: brandId,
      domain_name: domainName.toLowerCase(),
      name,
      created_at: this.now(),
    });
  }

  listAccounts() {
    return adminAccountRepository.list(this.db);
  }

  async accountId(domainName: string): Promise<number> {
    const id = await adminAccountRepository.idByDomain(this.db, domainName.toLowerCase());
    if (id === undefined) throw new Error(`No account '${domainName}'`);
    return id;
  }

  async userId(domainName: string, username: string): Promise<number> {
    const id = await adminAccountRepository.userId(this.db, domainName.toLowerCase(), username);
    if (id === undefined) throw new Error(`No user '${username}' on '${domainName}'`);
    return id;
  }

  /** Creates the user when missing; an existing user keeps its password. */
  async ensureUser(domainName: string, username: string, password: string): Promise<number> {
    const accountId = await this.accountId(domainName);
    const existing = await adminAccountRepository.userIdInAccount(this.db, accountId, username);
    if (existing !== undefined) return existing;
    return adminAccountRepository.insertUser(this.db, {
      account_id: accountId,
      username,
      password_hash: await hashPassword(password),
      password_changed_at: this.now(),
      created_at: this.now(),
    });
  }

  listUsers(domainName?: string) {
    return adminAccountRepository.listUsers(this.db, domainName ? domainName.toLowerCase() : undefined);
  }

  /** Sets a new password and ends the user's sessions. */
  async resetPassword(domainName: string, username: string, password: string): Promise<void> {
    const userId = await this.userId(domainName, username);
    await adminAccountRepository.setPassword(this.db, userId, await hashPassword(password), this.now());
    await this.endSessions(domainName, username);
  }

  /**
   * Grants or takes a user's right to manage the account's users (the account keeps one user
   * who holds it); their open panels follow at once.
   */
  async setManageUsers(domainName: string, username: string, value: boolean): Promise<void> {
    const userId = await this.userId(domainName, username);
    await this.permissions.setManageUsers(await this.accountId(domainName), userId, value);
    await this.events.publish({ type: 'permissions.changed', userIds: [userId], resourceId: null });
  }

  /** Where security changes of the user's account are reported ('' forgets it). */
  async setUserEmail(domainName: string, username: string, email: string): Promise<void> {
    await adminAccountRepository.setEmail(this.db, await this.userId(domainName, username), email);
  }

  /** Turns a user's second factor off (a lost phone); their sessions end. */
  async removeSecondFactor(domainName: string, username: string): Promise<boolean> {
    const removed = await adminAccountRepository.removeSecondFactor(this.db, await this.userId(domainName, username));
    await this.endSessions(domainName, username);
    return removed;
  }

  async endSessions(domainName: string, username: string): Promise<void> {
    const userId = await this.userId(domainName, username);
    if (this.sessions) {
      await this.sessions.endAllOfUser(userId);
      return;
    }
    const ids = await adminAccountRepository.deleteSessionsOfUser(this.db, userId);
    if (ids.length > 0) await this.events.publish({ type: 'session.ended', sessionIds: ids });
  }

  /**
   * A hosting service by its reference (its domain) with its plan, suspension, account and owner,
   * as the plans' CLI and the provider's calls name it.
   */
  async providerView(reference: string) {
    const row = await adminResourceRepository.serviceView(this.db, reference.toLowerCase());
    if (!row) return undefined;
    const owner = await adminResourceRepository.owner(this.db, row.account);
    return {
      id: row.id,
      domain: row.domain,
      plan: row.plan ?? 'default',
      suspendedAt: row.suspended_at === null ? null : Number(row.suspended_at),
      suspendedReason: row.suspended_reason,
      account: row.account,
      accountId: row.account_id,
      /** The resource is a registered domain too (the registration is a product of its own). */
      registered: row.has_domain === 1,
      brandId: row.brand_id,
      owner: owner ? { id: owner.id, username: owner.username } : undefined,
    };
  }

  /** Every hosting service's reference. */
  async serviceReferences(): Promise<string[]> {
    return (await adminResourceRepository.services(this.db)).map((row) => row.reference);
  }

  /** Suspends a hosting service (the reason is shown to its users) or, with null, lifts it. */
  async setSuspended(serviceId: number, reason: string | null): Promise<void> {
    await adminResourceRepository.setSuspended(this.db, serviceId, reason === null ? null : { at: this.now(), reason });
  }

  /** Where a brand's customers reach the panel, if the brand has a host of its own. */
  brandHost(brandId: number): Promise<string | undefined> {
    return adminBrandRepository.firstHost(this.db, brandId);
  }

  /** The default brand's slug (new accounts' brand when none is named). */
  async defaultBrand(): Promise<string | undefined> {
    return (await adminBrandRepository.list(this.db)).find((brand) => brand.is_default === 1)?.slug;
  }

  async ensureResource(domainName: string, input: ResourceInput): Promise<number> {
    const accountId = await this.accountId(domainName);
    const reference = input.reference.toLowerCase();
    const existing = await adminResourceRepository.byReference(this.db, reference);
    if (existing && existing.account_id !== accountId) throw new Error(`'${reference}' belongs to another account`);
    const row =
      existing ??
      (await this.db.transaction().execute(async (trx) => {
        const plan = input.hasService ? { plan_id: await planLimits.idOf(trx, input.plan) } : {};
        const inserted = await adminResourceRepository.insert(trx, {
          ...resourceRow(accountId, input, this.now()),
          ...plan,
        });
        // A new service's parts get their servers with it (none free: nothing is made). One made
        // before keeps where it is: a part moves only with its files (`panel node move`).
        if (inserted.has_service === 1) await new PlacementService(trx, this.now).place(inserted.id, input.placement);
        return inserted;
      }));
    if (row.has_service !== 1) return row.id;
    await this.options.serviceReady?.({ id: row.id, reference, referencePunycode: row.reference_punycode });
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
    const ids = new Map<string, number>();
    const planIds = async (trx: Db, name = 'default') => {
      const id = ids.get(name) ?? (await planLimits.idOf(trx, name));
      ids.set(name, id);
      return id;
    };
    // 500 rows x 25 columns stays far below SQLite's and PostgreSQL's bound-parameter limits.
    const chunkSize = 500;
    let created = 0;
    await this.db.transaction().execute(async (trx) => {
      for (let start = 0; start < inputs.length; start += chunkSize) {
        const rows = [];
        for (const input of inputs.slice(start, start + chunkSize)) {
          const plan = input.hasService ? { plan_id: await planIds(trx, input.plan) } : {};
          rows.push({ ...resourceRow(accountId, input, this.now()), ...plan });
        }
        const inserted = await adminResourceRepository.insertSkippingTaken(trx, rows);
        if (inserted.length === 0) continue;
        await adminResourceRepository.insertGrants(
          trx,
          userId,
          inserted.map((row) => row.id),
          grant,
        );
        created += inserted.length;
      }
    });
    if (created > 0) await this.events.publish({ type: 'permissions.changed', userIds: [userId], resourceId: null });
    return created;
  }

  listResources(domainName: string) {
    return adminResourceRepository.listOfAccount(this.db, domainName.toLowerCase());
  }

  async resourceId(reference: string): Promise<number> {
    const row = await adminResourceRepository.byReference(this.db, reference.toLowerCase());
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
      if (await adminResourceRepository.hasGrant(this.db, userId, resourceId)) return;
    }
    const resource = await adminResourceRepository.accountIdOf(this.db, resourceId);
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
    return adminResourceRepository.grantsOfUser(this.db, userId);
  }

  listOutbox(unsentOnly: boolean, limit = 50) {
    return adminAccountRepository.listOutbox(this.db, unsentOnly, limit);
  }

  async setLegalText(brandSlug: string, language: string, title: string, body: string, redirectTo = '') {
    const brandId = await adminBrandRepository.idBySlug(this.db, brandSlug);
    if (brandId === undefined) throw new Error(`No brand '${brandSlug}'`);
    await this.legal.setPrivacyPolicy(brandId, language, title, body, redirectTo);
  }
}

/** Every key at one level: the common case of "full access" or "read only". */
export function allKeys(level: PermissionLevel): Record<PermissionKey, PermissionLevel> {
  return Object.fromEntries(PERMISSION_KEYS.map((key) => [key, level])) as Record<PermissionKey, PermissionLevel>;
}
