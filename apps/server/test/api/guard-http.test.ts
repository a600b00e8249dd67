import type { PermissionKey, PermissionLevel } from '@panel247/contract/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

/**
 * The guard seen from outside, on a real route: the DNS zone of a service (read: the record
 * list, `service_dnszone` visible; change: creating a record, `service_dnszone` write).
 */
describe.each(DATABASE_KINDS)('the guard over HTTP on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let other: BuiltAccount;
  let serviceId: number;
  let user: { username: string; password: string; userId: number };
  let cookie: string;

  beforeAll(async () => {
    t = await buildTestApp(kind, { captureLogs: true });
    account = await buildAccount(t.database.db, {
      domainName: 'guard.test',
      resources: { 'guard.test': { hasDomain: true, hasService: true } },
    });
    other = await buildAccount(t.database.db, { domainName: 'other-guard.test' });
    serviceId = account.resources['guard.test'] as number;
    // The zone exists (made on first read by its owner with every right).
    const ownerCookie = await t.login(account.domainName, account.username, account.password);
    expect((await t.call('GET', `service/${serviceId}/dns/list/`, {}, { cookie: ownerCookie })).body.system.valid).toBe(
      true,
    );
    user = await buildUser(t.database.db, account, 'guarded', { 'guard.test': allKeys('disabled') });
    cookie = await t.login(account.domainName, user.username, user.password);
  });
  afterAll(() => t.close());

  const setLevel = (level: PermissionLevel) =>
    t.database.db
      .updateTable('permission_grants')
      .set({ ...allKeys('disabled'), domain: 'read', service_dnszone: level } as Record<PermissionKey, PermissionLevel>)
      .where('user_id', '=', user.userId)
      .execute();
  const read = (id = serviceId) => t.call('GET', `service/${id}/dns/list/`, {}, { cookie });
  const change = (id = serviceId, zona = 'probe') =>
    t.call(
      'POST',
      `service/${id}/dns/create/`,
      { type: 'A', zona, value: '203.0.113.9', ttl: '0', priority: '0' },
      { cookie },
    );
  const records = async () => (await t.database.db.selectFrom('dns_records').select('id').execute()).length;

  it('disabled: read and change both answer 404, exactly like a missing id, and nothing is written', async () => {
    await setLevel('disabled');
    const before = await records();
    const missing = await t.call('GET', 'service/999999/dns/list/', {}, { cookie });
    for (const answer of [await read(), await change()]) {
      expect(answer.response.statusCode).toBe(404);
      expect(answer.body).toEqual(missing.body);
    }
    expect(await records()).toBe(before);
  });

  it('read: the read works, the change answers 403 and writes nothing', async () => {
    await setLevel('read');
    const before = await records();
    const list = await read();
    expect(list.response.statusCode).toBe(200);
    expect(list.body.system.valid).toBe(true);
    const refused = await change();
    expect(refused.response.statusCode).toBe(403);
    expect(refused.body.system).toMatchObject({
      valid: false,
      statusCode: 403,
      errors: ['No tienes permiso para realizar esta acción'],
    });
    expect(await records()).toBe(before);
  });

  it('write: the read and the change both work', async () => {
    await setLevel('write');
    const before = await records();
    expect((await read()).response.statusCode).toBe(200);
    const created = await change(serviceId, 'written');
    expect(created.response.statusCode).toBe(200);
    expect(created.body.system.valid).toBe(true);
    expect(await records()).toBe(before + 1);
  });

  it('another account’s service stays a 404 even with write on every own resource', async () => {
    await setLevel('write');
    const foreign = other.resources['other-guard.test'] as number;
    const missing = await t.call('GET', 'service/999999/dns/list/', {}, { cookie });
    for (const answer of [await read(foreign), await change(foreign)]) {
      expect(answer.response.statusCode).toBe(404);
      expect(answer.body).toEqual(missing.body);
    }
  });

  it('logs the refused change with the user’s request and reason, free of control characters', async () => {
    await setLevel('read');
    // An encoded CR/LF stays encoded in the log: it cannot start a line of its own.
    const url = `/p247/service/${serviceId}/dns/create/?note=a%0d%0a{"event":"forged"}`;
    const response = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'x-dd-request': '1', cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'type=A&zona=x&value=203.0.113.9&ttl=0&priority=0',
    });
    expect(response.statusCode).toBe(403);
    const refused = t.logs.filter((line) => line.event === 'authorization.refused');
    expect(refused.at(-1)).toMatchObject({
      level: 40,
      reason: 'main.no_permission',
      url: `/p247/service/${serviceId}/dns/create/?note=a%0d%0a{%22event%22:%22forged%22}`,
    });
    expect(typeof refused.at(-1)?.reqId).toBe('string');
    for (const line of refused) expect(JSON.stringify(line)).not.toMatch(/\\[rn]|[\r\n]/);
  });
});
