import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { PermissionListData } from '@panel247/contract/permissions';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEncoding, etagMatches } from '../../src/http/answer-encoding.ts';
import { AdminService, allKeys } from '../../src/modules/admin/admin.service.ts';
import { LocalEventBus } from '../../src/modules/realtime/event-bus.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const RESOURCES = 300;

/**
 * The permission list, the largest answer the panel gives, goes compressed when the client takes
 * it, with an ETag: a reload whose If-None-Match still matches gets a 304 without a body, and a
 * change of the user's permissions gives a new ETag. Other large answers are compressed too.
 */
describe.each(DATABASE_KINDS)('permission list: compressed, with an ETag, 304 while unchanged (%s)', (kind) => {
  const events = new LocalEventBus();
  let t: TestApp;
  let admin: AdminService;
  let account: BuiltAccount;
  let cookie: string;

  beforeAll(async () => {
    t = await buildTestApp(kind, { events });
    admin = new AdminService(t.database.db, events, () => Math.floor(Date.now() / 1000));
    account = await buildAccount(t.database.db, { domainName: `lists-${kind}.test` });
    await admin.ensureResourcesBulk(
      account.domainName,
      account.username,
      Array.from({ length: RESOURCES }, (_, i) => ({ reference: `customer-${i}.lists.test`, hasDomain: true })),
      allKeys('write'),
    );
    cookie = await t.login(account.domainName, account.username, account.password);
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (headers: Record<string, string> = {}, session = cookie) =>
    t.app.inject({
      method: 'GET',
      url: `${t.config.basePath}permission/list/`,
      headers: { 'x-dd-request': '1', cookie: session, ...headers },
    });

  function decoded(response: LightMyRequestResponse): { data: PermissionListData; system: { valid: boolean } } {
    const encoding = response.headers['content-encoding'];
    const raw = response.rawPayload;
    const text =
      encoding === 'br'
        ? brotliDecompressSync(raw).toString()
        : encoding === 'gzip'
          ? gunzipSync(raw).toString()
          : raw.toString();
    return JSON.parse(text);
  }

  it('answers the same envelope in br, gzip or as it is, as the client accepts', async () => {
    const plain = await get();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['x-dd']).toBe('1');
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    const envelope = plain.json();
    expect(envelope.system).toMatchObject({ valid: true, errors: [], statusCode: 200 });
    expect(envelope.data.permissions).toHaveLength(RESOURCES + 1);

    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip;q=0.5', 'gzip'],
      ['deflate', undefined],
      ['identity', undefined],
    ] as const) {
      const response = await get({ 'accept-encoding': accept });
      expect(response.statusCode, accept).toBe(200);
      expect(response.headers['content-encoding'], accept).toBe(expected);
      expect(decoded(response), accept).toEqual(envelope);
      if (expected) expect(response.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    }
  });

  it('carries an ETag the browser keeps privately and revalidates; a matching If-None-Match is a 304 without a body', async () => {
    const first = await get({ 'accept-encoding': 'gzip, br' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(first.headers.vary).toBe('Accept-Encoding, Cookie');
    // The same ETag whatever the encoding: it names the data, not the bytes sent.
    expect((await get()).headers.etag).toBe(etag);

    for (const ifNoneMatch of [etag, etag.slice(2), `"other", ${etag}`, '*']) {
      const again = await get({ 'accept-encoding': 'gzip, br', 'if-none-match': ifNoneMatch });
      expect(again.statusCode, ifNoneMatch).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['content-encoding']).toBeUndefined();
    }
    const stale = await get({ 'if-none-match': 'W/"something-else"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.json().data.permissions).toHaveLength(RESOURCES + 1);
  });

  it('gives a new ETag, and the new list, once the user’s permissions change', async () => {
    const before = await get();
    const etag = before.headers.etag as string;
    await admin.ensureResource(account.domainName, { reference: 'new-one.lists.test', hasDomain: true });
    await admin.grant(account.domainName, account.username, 'new-one.lists.test', allKeys('read'));
    const after = await get({ 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    const list = decoded(after).data.permissions;
    expect(list).toHaveLength(RESOURCES + 2);
    expect(list.map((p) => p.reference)).toContain('new-one.lists.test');
    expect((await get({ 'if-none-match': after.headers.etag as string })).statusCode).toBe(304);
  });

  it('never answers 304 without a valid session, nor to another user’s list', async () => {
    const etag = (await get()).headers.etag as string;
    const lost = await get({ 'if-none-match': etag }, 'p247_sid=nothing');
    expect(lost.statusCode).toBe(401);
    expect(lost.headers.etag).toBeUndefined();
    expect(lost.json().system.statusCode).toBe(101);

    const other = await buildAccount(t.database.db, { domainName: `other-lists-${kind}.test` });
    const otherCookie = await t.login(other.domainName, other.username, other.password);
    const theirs = await get({ 'if-none-match': etag }, otherCookie);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().data.permissions.map((p: { reference: string }) => p.reference)).toEqual([
      `other-lists-${kind}.test`,
    ]);
  });

  it('compresses other large answers without keeping them; small ones go as they are', async () => {
    const serviceId = account.resources[account.domainName] as number;
    const dnsList = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'GET',
        url: `${t.config.basePath}service/${serviceId}/dns/list/`,
        headers: { 'x-dd-request': '1', cookie, ...headers },
      });
    // The zone comes on first use (the provider's default records); then it grows past the threshold.
    const first = await dnsList({ 'accept-encoding': 'gzip' });
    expect(first.headers['content-encoding']).toBeUndefined();
    const defaults = first.json().data.total as number;
    await t.database.db
      .insertInto('dns_records')
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          service_id: serviceId,
          zona: `host${i}`,
          type: 'A',
          ttl: 0,
          priority: 0,
          value: `192.0.2.${i}`,
          dynamic_value: '',
          eliminable: 1,
          created_at: 0,
        })),
      )
      .execute();
    const plain = await dnsList({});
    const zipped = await dnsList({ 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['cache-control']).toBe('no-store');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(zipped.headers.etag).toBeUndefined();
    expect(decoded(zipped)).toEqual(plain.json());
    expect(plain.json().data.total).toBe(defaults + 100);

    const info = await t.app.inject({
      method: 'POST',
      url: `${t.config.basePath}user/info/`,
      headers: { 'x-dd-request': '1', cookie, 'accept-encoding': 'gzip, br' },
    });
    expect(info.headers['content-encoding']).toBeUndefined();
    expect(info.headers['cache-control']).toBe('no-store');
  });
});

describe('answer encoding rules', () => {
  it('takes br, else gzip, as the client accepts them', () => {
    expect(chooseEncoding(undefined)).toBeUndefined();
    expect(chooseEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(chooseEncoding('GZIP')).toBe('gzip');
    expect(chooseEncoding('br;q=0, *;q=0.1')).toBe('gzip');
    expect(chooseEncoding('*')).toBe('br');
    expect(chooseEncoding('gzip;q=0, br;q=0')).toBeUndefined();
  });

  it('compares ETags weakly, in lists', () => {
    expect(etagMatches('W/"a"', 'W/"a"')).toBe(true);
    expect(etagMatches('"a"', 'W/"a"')).toBe(true);
    expect(etagMatches('"b" , W/"a"', 'W/"a"')).toBe(true);
    expect(etagMatches('"b"', 'W/"a"')).toBe(false);
    expect(etagMatches(undefined, 'W/"a"')).toBe(false);
  });
});
