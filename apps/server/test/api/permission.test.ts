import { PERMISSION_KEYS, type PermissionKey, type PermissionLevel } from '@panel247/contract/constants';
import type { PermissionListData, PermissionSetData } from '@panel247/contract/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError } from '../../src/errors.ts';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import type { Actor } from '../../src/modules/auth/actor.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

describe.each(DATABASE_KINDS)('permissions and the guard on %s', (kind) => {
  let t: TestApp;
  let mine: BuiltAccount;
  let theirs: BuiltAccount;
  let cookie: string;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    mine = await buildAccount(t.database.db, {
      domainName: 'mine.test',
      resources: {
        'mine.test': { hasDomain: true, hasService: true, hasMail: true },
        'b-domain-only.test': { hasDomain: true },
        'Parking-Mine.test': { hasService: true, isRedirAndParking: true },
        'a-mail-only.test': { hasMail: true },
      },
    });
    theirs = await buildAccount(t.database.db, { domainName: 'theirs.test' });
    cookie = await t.login(mine.domainName, mine.username, mine.password);
  });
  afterAll(() => t.close());

  it('lists the visible resources alphabetically with their flags', async () => {
    const { body } = await t.call<PermissionListData>('GET', 'permission/list/', {}, { cookie });
    expect(body.data.permissions).toEqual([
      {
        id: mine.resources['a-mail-only.test'],
        reference: 'a-mail-only.test',
        hasDomain: false,
        hasService: false,
        hasMail: true,
      },
      {
        id: mine.resources['b-domain-only.test'],
        reference: 'b-domain-only.test',
        hasDomain: true,
        hasService: false,
        hasMail: false,
      },
      { id: mine.resources['mine.test'], reference: 'mine.test', hasDomain: true, hasService: true, hasMail: true },
      {
        id: mine.resources['Parking-Mine.test'],
        reference: 'parking-mine.test',
        hasDomain: false,
        hasService: true,
        hasMail: false,
      },
    ]);
  });

  it('gives the permission set and breadcrumb data of a resource', async () => {
    const { body } = await t.call<PermissionSetData>(
      'POST',
      `permission/${mine.resources['Parking-Mine.test']}/`,
      {},
      { cookie },
    );
    expect(body.data).toMatchObject({
      reference: 'parking-mine.test',
      service: { isRedirAndParking: true, expireTS: 2_000_000_000 },
      domain: null,
      mail: null,
      dnszone: { expireTS: 2_000_000_000 },
    });
    // Keys of parts the resource does not have are disabled, whatever the grant says.
    expect(body.data.permissions.domain).toBe('disabled');
    expect(body.data.permissions.service_ftp).toBe('write');
  });

  it('answers an id of another account exactly like a missing id', async () => {
    const foreign = await t.call('POST', `permission/${theirs.resources['theirs.test']}/`, {}, { cookie });
    const missing = await t.call('POST', 'permission/999999/', {}, { cookie });
    expect(foreign.response.statusCode).toBe(404);
    expect(foreign.body).toEqual(missing.body);
  });

  it('shows a read-only user only what it may read', async () => {
    const viewer = await buildUser(t.database.db, mine, 'viewer', { 'mine.test': allKeys('read') });
    const viewerCookie = await t.login(mine.domainName, viewer.username, viewer.password);
    const list = await t.call<PermissionListData>('GET', 'permission/list/', {}, { cookie: viewerCookie });
    expect(list.body.data.permissions.map((p) => p.reference)).toEqual(['mine.test']);
    const other = await t.call(
      'POST',
      `permission/${mine.resources['a-mail-only.test']}/`,
      {},
      { cookie: viewerCookie },
    );
    expect(other.response.statusCode).toBe(404);
  });

  it('hides a resource whose grant is all disabled', async () => {
    const ghost = await buildUser(t.database.db, mine, 'ghost', { 'mine.test': allKeys('disabled') });
    const ghostCookie = await t.login(mine.domainName, ghost.username, ghost.password);
    const list = await t.call<PermissionListData>('GET', 'permission/list/', {}, { cookie: ghostCookie });
    expect(list.body.data.permissions).toEqual([]);
    const login = await t.call('POST', 'user/login/', {
      domainName: mine.domainName,
      username: ghost.username,
      password: ghost.password,
    });
    expect(login.body.data).toEqual({});
  });

  describe('the guard: level × need, for every key', () => {
    const levels: PermissionLevel[] = ['disabled', 'read', 'write'];
    it.each(levels)('level %s', async (level) => {
      const user = await buildUser(t.database.db, mine, `guard-${level}`, {
        'mine.test': { ...allKeys('disabled'), domain: 'read' },
      });
      const resourceId = mine.resources['mine.test'] as number;
      for (const key of PERMISSION_KEYS) {
        await t.database.db
          .updateTable('permission_grants')
          .set({ ...allKeys('disabled'), domain: 'read', [key]: level } as Record<PermissionKey, PermissionLevel>)
          .where('user_id', '=', user.userId)
          .execute();
        const actor = { userId: user.userId, accountId: mine.accountId } as Actor;
        const read = () => t.services.permissions.authorize(actor, resourceId, key, 'visible');
        const change = () => t.services.permissions.authorize(actor, resourceId, key, 'action');
        if (level === 'disabled') {
          await expect(read()).rejects.toBeInstanceOf(NotFoundError);
          await expect(change()).rejects.toBeInstanceOf(NotFoundError);
        } else if (level === 'read') {
          await expect(read()).resolves.toMatchObject({ id: resourceId, reference: 'mine.test' });
          await expect(change()).rejects.toBeInstanceOf(ForbiddenError);
        } else {
          await expect(read()).resolves.toMatchObject({ id: resourceId });
          await expect(change()).resolves.toMatchObject({ id: resourceId });
        }
      }
    });

    it('treats another account’s resource as missing, whatever the level', async () => {
      const actor = { userId: mine.userId, accountId: mine.accountId } as Actor;
      const foreignId = theirs.resources['theirs.test'] as number;
      await expect(t.services.permissions.authorize(actor, foreignId, 'domain', 'visible')).rejects.toBeInstanceOf(
        NotFoundError,
      );
      // Even a grant row pointing at a foreign resource (a corrupted table) is not honoured.
      await t.database.db
        .insertInto('permission_grants')
        .values({ user_id: mine.userId, resource_id: foreignId, ...allKeys('write') })
        .execute();
      await expect(t.services.permissions.authorize(actor, foreignId, 'domain', 'action')).rejects.toBeInstanceOf(
        NotFoundError,
      );
    });
  });
});
