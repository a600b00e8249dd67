import type { PermissionKey, PermissionLevel } from '@panel247/contract/constants';
import type { Db } from '../../src/db/database.ts';
import { AdminService, allKeys } from '../../src/modules/admin/admin.service.ts';
import type { PlacementPins } from '../../src/modules/nodes/placement.service.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import type { TestApp } from './test-app.ts';

let counter = 0;

export interface BuiltAccount {
  brandSlug: string;
  domainName: string;
  username: string;
  password: string;
  userId: number;
  accountId: number;
  /** reference → resource id */
  resources: Record<string, number>;
}

export interface AccountOverrides {
  brandSlug?: string;
  domainName?: string;
  username?: string;
  password?: string;
  /** reference → resource parts; every resource gets `levels` for the user. */
  resources?: Record<
    string,
    {
      hasDomain?: boolean;
      hasService?: boolean;
      hasMail?: boolean;
      isRedirAndParking?: boolean;
      placement?: PlacementPins;
    }
  >;
  levels?: Partial<Record<PermissionKey, PermissionLevel>>;
}

/** A brand, an account with one user, and resources that user holds (all keys write by default). */
export async function buildAccount(db: Db, overrides: AccountOverrides = {}): Promise<BuiltAccount> {
  counter += 1;
  const admin = new AdminService(db, new LocalEventBus(), () => Math.floor(Date.now() / 1000));
  const brandSlug = overrides.brandSlug ?? 'test-brand';
  await admin.ensureBrand({
    slug: brandSlug,
    company: 'Test Hosting',
    isDefault: true,
    contactEmail: 'support@test.example',
  });
  const domainName = overrides.domainName ?? `account${counter}.test`;
  const username = overrides.username ?? 'admin';
  const password = overrides.password ?? 'correct horse battery';
  const accountId = await admin.ensureAccount(domainName, brandSlug);
  const userId = await admin.ensureUser(domainName, username, password);
  const resources: Record<string, number> = {};
  const wanted = overrides.resources ?? { [domainName]: { hasDomain: true, hasService: true, hasMail: true } };
  for (const [reference, parts] of Object.entries(wanted)) {
    resources[reference] = await admin.ensureResource(domainName, {
      reference,
      ...parts,
      domainExpireTs: 2_000_000_000,
      serviceExpireTs: 2_000_000_000,
      mailExpireTs: 2_000_000_000,
    });
    await admin.grant(domainName, username, reference, overrides.levels ?? allKeys('write'));
  }
  return { brandSlug, domainName, username, password, userId, accountId, resources };
}

/** Another user on an existing account, with its own grants. */
export async function buildUser(
  db: Db,
  account: BuiltAccount,
  username: string,
  grants: Record<string, Partial<Record<PermissionKey, PermissionLevel>>>,
  password = 'another fine password',
) {
  const admin = new AdminService(db, new LocalEventBus(), () => Math.floor(Date.now() / 1000));
  const userId = await admin.ensureUser(account.domainName, username, password);
  for (const [reference, levels] of Object.entries(grants))
    await admin.grant(account.domainName, username, reference, levels);
  return { username, password, userId };
}

/**
 * The next resources get ids after `lastId` (so system user names `p247s<id>` far from any other
 * run's): a row with that id made and removed, as SQLite's AUTOINCREMENT never goes back.
 */
export async function resourceIdsAfter(db: Db, accountId: number, lastId: number): Promise<void> {
  await db
    .insertInto('resources')
    .values({
      id: lastId,
      account_id: accountId,
      reference: `placeholder${lastId}.test`,
      reference_punycode: `placeholder${lastId}.test`,
      has_domain: 0,
      has_service: 0,
      has_mail: 0,
      is_redir_and_parking: 0,
      domain_expire_ts: null,
      service_expire_ts: null,
      mail_expire_ts: null,
      created_at: 1,
    })
    .execute();
  await db.deleteFrom('resources').where('id', '=', lastId).execute();
}

/** An account of its own, its user signed in: the account, its session cookie and its resource's id. */
export interface SignedInAccount extends BuiltAccount {
  cookie: string;
  id: number;
}

export async function signedInAccount(t: TestApp, domainName: string): Promise<SignedInAccount> {
  const account = await buildAccount(t.database.db, { domainName });
  const cookie = await t.login(domainName, account.username, account.password);
  return { ...account, cookie, id: account.resources[domainName] as number };
}
