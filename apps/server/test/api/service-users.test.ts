import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../src/db/database.ts';
import { HomeOwners } from '../../src/drivers/homes/home-owner.ts';
import type { FoundUser, ServiceUserDriver, SystemUser, UserState } from '../../src/drivers/users/users.driver.ts';
import { DaemonError, NotFoundError } from '../../src/errors.ts';
import { serviceUsersRepository } from '../../src/modules/hosting/service-users.repository.ts';
import { ServiceUsers } from '../../src/modules/hosting/service-users.ts';
import { buildAccount } from '../support/factories.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/test-database.ts';

/** A system driver that keeps its accounts in memory and records what it was asked. */
class FakeSystemDriver implements ServiceUserDriver {
  readonly kind = 'system' as const;
  readonly accounts = new Map<string, FoundUser & { home?: string }>();
  readonly calls: string[] = [];
  async check(user: SystemUser): Promise<UserState> {
    const found = this.accounts.get(user.name);
    if (!found) return { state: 'missing' };
    return found.uid === user.uid ? { state: 'present' } : { state: 'clash', detail: `uid ${found.uid}` };
  }
  async ensure(user: SystemUser): Promise<'created' | 'present'> {
    this.calls.push(`ensure ${user.name} ${user.uid} ${user.home}`);
    if (this.accounts.has(user.name)) return 'present';
    this.accounts.set(user.name, { name: user.name, uid: user.uid, gid: user.gid, home: user.home });
    return 'created';
  }
  async remove(user: Pick<SystemUser, 'name' | 'uid' | 'gid'>): Promise<void> {
    this.calls.push(`remove ${user.name}`);
    this.accounts.delete(user.name);
  }
  async list(): Promise<FoundUser[]> {
    return [...this.accounts.values()].map(({ name, uid, gid }) => ({ name, uid, gid }));
  }
}

type Svc = { id: number; domain: string };
const RANGE = { min: 20_000, max: 29_999 };
const now = () => 1_700_000_000;

describe.each(DATABASE_KINDS)('service users (%s)', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let root: string;
  /** Hosting services made for a test: ids in creation order. */
  const services = async (count: number, prefix: string): Promise<Svc[]> => {
    const references = Array.from({ length: count }, (_, i) => `${prefix}${i}.test`);
    const account = await buildAccount(db, {
      resources: Object.fromEntries(references.map((reference) => [reference, { hasService: true }])),
    });
    return references.map((domain) => ({ id: account.resources[domain] as number, domain }));
  };
  const users = (driver: ServiceUserDriver, range = RANGE, node = '') =>
    new ServiceUsers(
      db,
      driver,
      new HomeOwners(root),
      { uidMin: range.min, uidMax: range.max, hostingRoot: root, webGid: 33, fallback: { uid: 33, gid: 33 }, node },
      now,
    );

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = database.db;
    root = await mkdtemp(path.join(tmpdir(), 'p247-susers-'));
  });
  afterAll(async () => {
    await database?.destroy();
    await rm(root, { recursive: true, force: true });
  });

  it('gives each service a name from its id and the next uid of the range, the group of the same number, once', async () => {
    const [a, b] = (await services(2, 'alloc')) as [Svc, Svc];
    const first = await serviceUsersRepository.allocate(db, a.id, `p247s${a.id}`, RANGE, now());
    const second = await serviceUsersRepository.allocate(db, b.id, `p247s${b.id}`, RANGE, now());
    expect(first).toEqual({ service_id: a.id, name: `p247s${a.id}`, uid: 20_000, gid: 20_000 });
    expect(second).toEqual({ service_id: b.id, name: `p247s${b.id}`, uid: 20_001, gid: 20_001 });
    // asked again: the same row, never a new number
    expect(await serviceUsersRepository.allocate(db, a.id, `p247s${a.id}`, RANGE, now())).toEqual(first);
  });

  it('two API instances allocating at once give different uids (and one row per service)', async () => {
    const made = await services(12, 'race');
    // a second connection pool, as a second instance has (SQLite: the same one; it has one writer anyway)
    const other = kind === 'postgres' ? openDatabase({ url: database.url as string }).db : db;
    try {
      const rows = await Promise.all(
        made.flatMap((service, index) => [
          serviceUsersRepository.allocate(index % 2 ? db : other, service.id, `p247s${service.id}`, RANGE, now()),
          // the same service from the other instance at the same moment
          serviceUsersRepository.allocate(index % 2 ? other : db, service.id, `p247s${service.id}`, RANGE, now()),
        ]),
      );
      const byService = new Map<number, number>();
      for (const row of rows) {
        if (row === 'full') throw new Error('full');
        const seen = byService.get(row.service_id);
        if (seen !== undefined) expect(row.uid).toBe(seen);
        byService.set(row.service_id, row.uid);
      }
      const uids = [...byService.values()];
      expect(uids).toHaveLength(12);
      expect(new Set(uids).size).toBe(12);
      const stored = await db
        .selectFrom('service_users')
        .select(['uid'])
        .where(
          'service_id',
          'in',
          made.map((service) => service.id),
        )
        .execute();
      expect(stored.map((row) => row.uid).sort()).toEqual([...uids].sort());
    } finally {
      if (other !== db) await other.destroy();
    }
  });

  it('refuses clearly when the range is full, and reuses a freed number only once the top is taken', async () => {
    const [a, b, c] = (await services(3, 'full')) as [Svc, Svc, Svc];
    const range = { min: 25_000, max: 25_001 };
    const fake = new FakeSystemDriver();
    await users(fake, range).ensure(a.id, a.domain);
    await users(fake, range).ensure(b.id, b.domain);
    const error = (await users(fake, range)
      .ensure(c.id, c.domain)
      .catch((thrown: unknown) => thrown)) as DaemonError;
    expect(error).toBeInstanceOf(DaemonError);
    expect(error.messageKey).toBe('hosting.error.service_user');
    expect(error.detail).toMatch(/PANEL_SERVICE_UID_MIN\.\.PANEL_SERVICE_UID_MAX \(25000\.\.25001\) is taken/);
    expect(await serviceUsersRepository.byService(db, c.id)).toBeUndefined();
    expect(fake.calls.filter((call) => call.includes(`p247s${c.id} `))).toEqual([]);
    // the lowest number freed: the gap is found once the top of the range is used
    await serviceUsersRepository.delete(db, a.id);
    expect(await serviceUsersRepository.nextFreeUid(db, range)).toBe(25_000);
    await users(fake, range).ensure(c.id, c.domain);
    expect((await serviceUsersRepository.byService(db, c.id))?.uid).toBe(25_000);
  });

  it('ensure makes the account and the home (0750; as root owned by the user, group the web server’s)', async () => {
    const [service] = (await services(1, 'home')) as [Svc];
    const fake = new FakeSystemDriver();
    const owner = await users(fake).ensure(service.id, service.domain);
    const row = await serviceUsersRepository.byService(db, service.id);
    expect(owner).toEqual({ uid: row?.uid, gid: row?.gid });
    expect(fake.calls).toEqual([`ensure p247s${service.id} ${row?.uid} ${path.join(root, service.domain)}`]);
    const home = await stat(path.join(root, service.domain));
    expect(home.mode & 0o7777).toBe(0o750);
    if (process.getuid?.() === 0) expect([home.uid, home.gid]).toEqual([row?.uid, 33]);
    // again: nothing new
    await users(fake).ensure(service.id, service.domain);
    expect(await serviceUsersRepository.byService(db, service.id)).toEqual(row);
  });

  it('ownerOf: undefined with the embedded driver; the web user before a system user exists; then the user', async () => {
    const [service] = (await services(1, 'owner')) as [Svc];
    const embedded = new ServiceUsers(
      db,
      { ...new FakeSystemDriver(), kind: 'embedded' } as unknown as ServiceUserDriver,
      new HomeOwners(root),
      { uidMin: RANGE.min, uidMax: RANGE.max, hostingRoot: root, webGid: 33, fallback: { uid: 33, gid: 33 } },
      now,
    );
    expect(await embedded.ownerOf(service.id)).toBeUndefined();
    expect(await embedded.ensure(service.id, service.domain)).toBeUndefined();
    expect(await serviceUsersRepository.byService(db, service.id)).toBeUndefined();
    const system = users(new FakeSystemDriver());
    expect(await system.ownerOf(service.id)).toEqual({ uid: 33, gid: 33 });
    await expect(system.ownerOf(999_999)).rejects.toBeInstanceOf(NotFoundError);
    const made = await system.ensure(service.id, service.domain);
    expect(await system.ownerOf(service.id)).toEqual(made);
    expect(await system.ownerOfDomain(service.domain)).toEqual(made);
    expect(await system.poolOf(db, service.id)).toEqual({
      user: `p247s${service.id}`,
      group: `p247s${service.id}`,
      uid: made?.uid,
      gid: made?.gid,
    });
  });

  it('ProFTPD’s view logs an account in as its service’s user, and as 33 while the service has none', async () => {
    const [withUser, without] = (await services(2, 'view')) as [Svc, Svc];
    await users(new FakeSystemDriver()).ensure(withUser.id, withUser.domain);
    const row = await serviceUsersRepository.byService(db, withUser.id);
    for (const service of [withUser, without]) {
      await db
        .insertInto('ftp_accounts')
        .values({
          service_id: service.id,
          login: `web@${service.domain}`,
          folder: '',
          password_hash: '$2y$10$x',
          password_sealed: 'x',
          home: path.join(root, service.domain),
          created_at: 1,
        })
        .execute();
    }
    const { rows } = await sql<{ userid: string; uid: number; gid: number }>`
      SELECT userid, uid, gid FROM ftp_users_view WHERE userid IN (${`web@${withUser.domain}`}, ${`web@${without.domain}`})
      ORDER BY userid`.execute(db);
    expect(rows.map((r) => ({ ...r, uid: Number(r.uid), gid: Number(r.gid) }))).toEqual([
      { userid: `web@${withUser.domain}`, uid: row?.uid, gid: row?.gid },
      { userid: `web@${without.domain}`, uid: 33, gid: 33 },
    ]);
  });

  it('sync gives services made before their users, repairs homes, removes accounts of gone services; dry run first', async () => {
    const [old] = (await services(1, 'sync')) as [Svc];
    const fake = new FakeSystemDriver();
    fake.accounts.set('p247s987654', { name: 'p247s987654', uid: 29_998, gid: 29_998 });
    // outside the range: never touched
    fake.accounts.set('p247s987655', { name: 'p247s987655', uid: 40_000, gid: 40_000 });
    const serviceUsers = users(fake);
    const dry = await serviceUsers.sync({ dryRun: true });
    expect(dry).toContainEqual({
      serviceId: old.id,
      domain: old.domain,
      user: `p247s${old.id}`,
      drift: 'user',
      problems: ['no_row', 'no_account'],
      repaired: false,
    });
    expect(dry).toContainEqual({
      serviceId: null,
      domain: null,
      user: 'p247s987654',
      drift: 'extra',
      problems: [],
      repaired: false,
    });
    expect(dry.some((entry) => entry.user === 'p247s987655')).toBe(false);
    expect(await serviceUsersRepository.byService(db, old.id)).toBeUndefined();
    expect(fake.calls).toEqual([]);

    const done = await serviceUsers.sync({ dryRun: false });
    expect(done).toContainEqual(expect.objectContaining({ serviceId: old.id, drift: 'user', repaired: true }));
    expect(done).toContainEqual(
      expect.objectContaining({ serviceId: old.id, drift: 'home', problems: ['missing'], repaired: true }),
    );
    expect(done).toContainEqual(expect.objectContaining({ user: 'p247s987654', drift: 'extra', repaired: true }));
    expect(fake.accounts.has('p247s987654')).toBe(false);
    expect(fake.accounts.has('p247s987655')).toBe(true);
    expect(await serviceUsers.sync({ dryRun: true })).toEqual([]);

    // a service's account gone from the system is made again under the same number
    const row = await serviceUsersRepository.byService(db, old.id);
    fake.accounts.delete(`p247s${old.id}`);
    expect(await serviceUsers.sync({ dryRun: false })).toEqual([
      expect.objectContaining({ serviceId: old.id, drift: 'user', problems: ['no_account'], repaired: true }),
    ]);
    expect(fake.accounts.get(`p247s${old.id}`)?.uid).toBe(row?.uid);
  });

  it('makes the account and home only on the server holding the home; elsewhere only its number', async () => {
    const [placed] = (await services(1, 'placed')) as [Svc];
    await db
      .insertInto('service_placements')
      .values({ service_id: placed.id, role: 'web', node: 'web-7', placed_at: now() })
      .execute();
    const control = new FakeSystemDriver();
    const onControl = users(control);
    const owner = await onControl.ensure(placed.id, placed.domain);
    expect(owner?.uid).toBeGreaterThanOrEqual(RANGE.min);
    expect(control.calls).toEqual([]);
    const web7 = new FakeSystemDriver();
    const onWeb7 = users(web7, RANGE, 'web-7');
    // before its first change there, once per process
    await onWeb7.ensureHere(placed.id, placed.domain);
    await onWeb7.ensureHere(placed.id, placed.domain);
    expect(web7.calls).toEqual([`ensure p247s${placed.id} ${owner?.uid} ${path.join(root, placed.domain)}`]);
    // each server's sync counts it as its holder's only
    expect((await onControl.sync({ dryRun: true })).map((entry) => entry.serviceId)).not.toContain(placed.id);
    expect((await onWeb7.sync({ dryRun: true })).map((entry) => entry.serviceId)).not.toContain(placed.id);
    web7.accounts.clear();
    expect((await onWeb7.sync({ dryRun: true })).map((entry) => entry.serviceId)).toEqual([placed.id]);
  });

  it('remove takes the account away with its row; the row also goes with its service', async () => {
    const [a, b] = (await services(2, 'remove')) as [Svc, Svc];
    const fake = new FakeSystemDriver();
    const serviceUsers = users(fake);
    await serviceUsers.ensure(a.id, a.domain);
    await serviceUsers.ensure(b.id, b.domain);
    await serviceUsers.remove(a.id);
    expect(fake.accounts.has(`p247s${a.id}`)).toBe(false);
    expect(await serviceUsersRepository.byService(db, a.id)).toBeUndefined();
    await serviceUsers.remove(a.id);
    await db.deleteFrom('resources').where('id', '=', b.id).execute();
    expect(await serviceUsersRepository.byService(db, b.id)).toBeUndefined();
  });
});
