import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ActivityListData } from '@panel247/contract/activity';
import type { FtpAccount, FtpMainData } from '@panel247/contract/ftp';
import type { SshKey, SshKeyListData } from '@panel247/contract/sftp-keys';
import { sql } from 'kysely';
import sshpk from 'sshpk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '../../src/i18n/messages.ts';
import { allKeys } from '../../src/modules/admin/admin.service.ts';
import { createPlansService } from '../../src/modules/plans/create-plans-service.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

/** A public key as a .pub file has it (OpenSSH's one line), made by Node's crypto. */
function publicKeyLine(type: 'ed25519' | 'rsa' | 'ec' | 'dsa', comment: string, size?: number): string {
  const pair =
    type === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: size ?? 2048 })
      : type === 'ec'
        ? generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
        : type === 'dsa'
          ? generateKeyPairSync('dsa', { modulusLength: 2048, divisorLength: 256 })
          : generateKeyPairSync('ed25519');
  const key = sshpk.parseKey(pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(), 'pem');
  key.comment = comment;
  return key.toString('ssh');
}

/** The fingerprint ssh-keygen prints: SHA-256 of the wire form, base64 without padding. */
const fingerprintOf = (line: string) =>
  `SHA256:${createHash('sha256')
    .update(Buffer.from(line.split(' ')[1] as string, 'base64'))
    .digest('base64')
    .replace(/=+$/, '')}`;

describe.each(DATABASE_KINDS)('SFTP keys on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let readerCookie: string;
  let noneCookie: string;
  let id: number;
  let otherId: number;
  let accountId: number;
  let otherAccountId: number;
  const domain = 'llaves.test';
  const ed25519 = publicKeyLine('ed25519', 'ana@portatil');

  beforeAll(async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'p247-sftp-keys-'));
    t = await buildTestApp(kind, { config: { 'hosting.root': root } });
    account = await buildAccount(t.database.db, {
      domainName: domain,
      resources: { [domain]: { hasService: true }, 'ajeno.test': { hasService: true } },
    });
    id = account.resources[domain] as number;
    otherId = account.resources['ajeno.test'] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    const reader = await buildUser(t.database.db, account, 'keys-reader', {
      [domain]: { ...allKeys('disabled'), service: 'read', service_ftp: 'read' },
    });
    readerCookie = await t.login(account.domainName, reader.username, reader.password);
    const none = await buildUser(t.database.db, account, 'keys-none', {
      [domain]: { ...allKeys('disabled'), service: 'write' },
    });
    noneCookie = await t.login(account.domainName, none.username, none.password);
    const made = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${id}/ftp/create/`,
      { ftpUser: 'web', password: 'ftp secret 1', folder: 'public' },
      { cookie },
    );
    accountId = made.body.data.ftp.id;
    const elsewhere = await t.call<{ ftp: FtpAccount }>(
      'POST',
      `service/${otherId}/ftp/create/`,
      { ftpUser: 'web', password: 'ftp secret 1', folder: '' },
      { cookie },
    );
    otherAccountId = elsewhere.body.data.ftp.id;
  });
  afterAll(() => t.close());

  const call = <T>(route: string, params: Record<string, string> = {}, as = cookie) =>
    t.call<T>('POST', `service/${id}/ftp/${route}`, params, { cookie: as });
  const keysInView = async () =>
    (
      await sql<{ userid: string; sshkey: string }>`SELECT userid, sshkey FROM sftp_keys_view ORDER BY userid`.execute(
        t.database.db,
      )
    ).rows;

  it('shows SFTP beside FTP, without the service’s own login while it has no system user', async () => {
    const main = await call<FtpMainData>('main/');
    expect(main.body.data.sftp).toEqual({ host: `ftp.${domain}`, port: 2222, login: null });
    const list = await call<SshKeyListData>('keys/');
    expect(list.body.data).toEqual({ keys: [], maxKeys: 10 });
  });

  it('adds a key to an FTP account: type, size and fingerprint read from the key, RFC 4716 for ProFTPD', async () => {
    const added = await call<{ key: SshKey }>('keys/add/', { key: `  ${ed25519}\n`, ftpId: String(accountId) });
    expect(added.body.system.valid, added.body.system.errors.join()).toBe(true);
    expect(added.body.system.info).toEqual([translate('es', 'ftp.key_added')]);
    expect(added.body.data.key).toMatchObject({
      name: 'ana@portatil',
      algorithm: 'ssh-ed25519',
      bits: 256,
      fingerprint: fingerprintOf(ed25519),
      login: `web@${domain}`,
      ftpId: accountId,
    });
    const rsa = publicKeyLine('rsa', '', 3072);
    const named = await call<{ key: SshKey }>('keys/add/', { key: rsa, name: 'Oficina', ftpId: String(accountId) });
    expect(named.body.data.key).toMatchObject({ name: 'Oficina', algorithm: 'ssh-rsa', bits: 3072 });
    const ecdsa = await call<{ key: SshKey }>('keys/add/', { key: publicKeyLine('ec', ''), ftpId: String(accountId) });
    expect(ecdsa.body.data.key).toMatchObject({ name: 'ecdsa-sha2-nistp256', bits: 256 });

    const view = await keysInView();
    expect(view.map((row) => row.userid)).toEqual([`web@${domain}`, `web@${domain}`, `web@${domain}`]);
    const wire = (ed25519.split(' ')[1] as string).slice(0, 40);
    const text = view.map((row) => row.sshkey).find((one) => one.replace(/\n/g, '').includes(wire));
    expect(text).toMatch(/^---- BEGIN SSH2 PUBLIC KEY ----\n[A-Za-z0-9+/=\n]+\n---- END SSH2 PUBLIC KEY ----\n$/);
    expect(Math.max(...(text as string).split('\n').map((line) => line.length))).toBeLessThanOrEqual(72);

    const list = await call<SshKeyListData>('keys/', {}, readerCookie);
    expect(list.body.data.keys.map((one) => one.name)).toEqual(['ana@portatil', 'Oficina', 'ecdsa-sha2-nistp256']);
    const log = await t.call<ActivityListData>('GET', 'activity/list/', { area: 'ftp' }, { cookie });
    expect(log.body.data.entries[0]?.target).toContain('SHA256:');
  });

  it('refuses what is not a public key it takes, each with its own message', async () => {
    const refused = async (params: Record<string, string>) => {
      const answer = await call('keys/add/', { ftpId: String(accountId), ...params });
      expect(answer.body.system.valid).toBe(false);
      return answer.body.system;
    };
    const privateKey = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const cases: [Record<string, string>, string, Record<string, string>?][] = [
      [{ key: '' }, 'validation.required'],
      [{ key: privateKey }, 'ftp.error.key_private'],
      [{ key: 'ssh-ed25519 not-base64!' }, 'ftp.error.key_format'],
      [{ key: `${ed25519}\n${publicKeyLine('ed25519', '')}` }, 'ftp.error.key_one'],
      [{ key: publicKeyLine('dsa', '') }, 'ftp.error.key_type'],
      [{ key: publicKeyLine('rsa', '', 1024) }, 'ftp.error.key_size', { min: '2048' }],
      // the type named before the key must be the key's own
      [{ key: `ssh-rsa ${ed25519.split(' ')[1]}` }, 'ftp.error.key_format'],
      [{ key: ed25519 }, 'ftp.error.key_taken', { login: `web@${domain}` }],
      [{ key: publicKeyLine('ed25519', ''), ftpId: String(otherAccountId) }, 'ftp.error.key_login'],
      [{ key: publicKeyLine('ed25519', ''), ftpId: '' }, 'ftp.error.key_no_service_login'],
    ];
    for (const [params, messageKey, values] of cases) {
      const system = await refused(params);
      expect(system.errors, messageKey).toEqual([translate('es', messageKey, values)]);
    }
    const control = await refused({ key: publicKeyLine('ed25519', ''), name: 'a\u0007b' });
    expect(control.inputs).toEqual(['name']);
  });

  it('gives the service its own login once it has a system user with a home, and takes keys for it', async () => {
    await t.database.db
      .insertInto('service_users')
      .values({
        service_id: id,
        name: `p247s${id}`,
        uid: 61000,
        gid: 61000,
        home: `/srv/homes/${domain}`,
        created_at: 1,
      })
      .execute();
    const main = await call<FtpMainData>('main/');
    expect(main.body.data.sftp.login).toBe(domain);
    const login = await sql<{ userid: string; passwd: string; uid: number; homedir: string }>`
      SELECT userid, passwd, uid, homedir FROM ftp_users_view WHERE userid = ${domain}`.execute(t.database.db);
    // no password opens it: '!' is no crypt(3) result
    expect(login.rows).toEqual([{ userid: domain, passwd: '!', uid: 61000, homedir: `/srv/homes/${domain}` }]);
    const added = await call<{ key: SshKey }>('keys/add/', { key: ed25519, ftpId: '' });
    expect(added.body.data.key).toMatchObject({ login: domain, ftpId: null });
    expect((await keysInView()).filter((row) => row.userid === domain)).toHaveLength(1);
  });

  it('lets those who see FTP read the keys, and only those who may change FTP change them', async () => {
    const reader = await call(
      'keys/add/',
      { key: publicKeyLine('ed25519', ''), ftpId: String(accountId) },
      readerCookie,
    );
    expect(reader.response.statusCode).toBe(403);
    // without the right to see FTP, or on another service, there are no keys to see (404, as for any item)
    const none = await call('keys/', {}, noneCookie);
    expect(none.response.statusCode).toBe(404);
    const someoneElse = await t.call('POST', `service/${otherId}/ftp/keys/`, {}, { cookie: readerCookie });
    expect(someoneElse.response.statusCode).toBe(404);
  });

  it('holds a service to its plan’s number of keys', async () => {
    const plans = createPlansService(
      t.database.db,
      t.config,
      () => Math.floor(t.clock.now() / 1000),
      t.services.hosting,
    );
    const count = (await call<SshKeyListData>('keys/')).body.data.keys.length;
    await plans.update('default', { sshKeys: count });
    try {
      const over = await call('keys/add/', { key: publicKeyLine('ed25519', ''), ftpId: String(accountId) });
      expect(over.response.statusCode).toBe(409);
      expect(over.body.system.errors).toEqual([translate('es', 'plan.error.sshKeys', { limit: count })]);
      expect((await call<SshKeyListData>('keys/')).body.data.maxKeys).toBe(count);
    } finally {
      await plans.update('default', { sshKeys: 10 });
    }
  });

  it('removes a key from the view at once, and an account’s keys with the account', async () => {
    const before = (await call<SshKeyListData>('keys/')).body.data.keys;
    const own = before.find((one) => one.ftpId === null) as SshKey;
    const removed = await call(`keys/${own.id}/delete/`);
    expect(removed.body.system.info).toEqual([translate('es', 'ftp.key_deleted')]);
    expect((await keysInView()).filter((row) => row.userid === domain)).toEqual([]);
    expect((await call(`keys/${own.id}/delete/`)).response.statusCode).toBe(404);

    await call(`${accountId}/delete/`);
    expect(await keysInView()).toEqual([]);
    expect((await call<SshKeyListData>('keys/')).body.data.keys).toEqual([]);
  });
});
