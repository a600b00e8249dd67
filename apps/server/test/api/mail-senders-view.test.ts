import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repairDaemonViews } from '../../src/db/daemon-views.ts';
import { buildAccount } from '../support/factories.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

/**
 * mail_senders_view, Postfix's smtpd_sender_login_maps (migration 0030): which login may send as
 * which address. Built through the panel's own calls, read as Postfix reads it (one lookup by
 * sender; several rows are several owners).
 */
describe.each(DATABASE_KINDS)('who may send as which address (mail_senders_view on %s)', (kind) => {
  let t: TestApp;
  const domain = 'remite.test';
  const second = 'segundo-remite.test';
  const foreign = 'ajeno-remite.test';

  beforeAll(async () => {
    t = await buildTestApp(kind);
    const account = await buildAccount(t.database.db, {
      domainName: domain,
      resources: { [domain]: { hasMail: true }, [second]: { hasMail: true } },
    });
    const other = await buildAccount(t.database.db, {
      domainName: foreign,
      resources: { [foreign]: { hasMail: true } },
    });
    const cookie = await t.login(account.domainName, account.username, account.password);
    const otherCookie = await t.login(other.domainName, other.username, other.password);
    const call = async (path: string, body: Record<string, string | string[]>, as = cookie) =>
      expect((await t.call('POST', path, body, { cookie: as })).body.system.errors).toEqual([]);
    const [id, secondId, foreignId] = [
      account.resources[domain],
      account.resources[second],
      other.resources[foreign],
    ] as number[];
    for (const name of ['ventas', 'a_b', 'axb']) {
      await call(`service/${id}/correo/create/`, { name, password: 'a good password' });
    }
    await call(`service/${foreignId}/correo/create/`, { name: 'jefe', password: 'a good password' }, otherCookie);
    // an alias of two mailboxes and an outside address; one on the account's other domain
    await call(`service/${id}/alias/create/`, {
      name: 'equipo',
      target: [`ventas@${domain}`, `axb@${domain}`, 'fuera@example.org'],
    });
    await call(`service/${secondId}/alias/create/`, { name: 'info', target: [`ventas@${domain}`] });
    // a target that only ends like a mailbox's address, and the catch-all
    await call(`service/${id}/alias/create/`, { name: 'parecido', target: [`xventas@${domain}`] });
    await call(`service/${id}/alias/create/`, { name: '', target: [`ventas@${domain}`] });
    // another customer's alias pointing at this account's mailbox
    await call(`service/${foreignId}/alias/create/`, { name: 'reenvio', target: [`ventas@${domain}`] }, otherCookie);
  });
  afterAll(() => t.close());

  /** The logins Postfix finds for a sender: `SELECT login … WHERE sender = '%s'`. */
  const owners = async (sender: string) => {
    const { rows } = await sql<{ login: string }>`SELECT login FROM mail_senders_view WHERE sender = ${sender}`.execute(
      t.database.db,
    );
    return rows.map((row) => row.login).sort();
  };

  it('lets a mailbox send as itself, and as its own account’s aliases that deliver to it', async () => {
    expect(await owners(`ventas@${domain}`)).toEqual([`ventas@${domain}`]);
    expect(await owners(`equipo@${domain}`)).toEqual([`axb@${domain}`, `ventas@${domain}`]);
    expect(await owners(`info@${second}`)).toEqual([`ventas@${domain}`]);
    expect(await owners(`jefe@${foreign}`)).toEqual([`jefe@${foreign}`]);
  });

  it('gives nothing for a catch-all, another customer’s alias, a look-alike target, or `_` as a wildcard', async () => {
    expect(await owners(`@${domain}`)).toEqual([]);
    expect(await owners(`nadie@${domain}`)).toEqual([]);
    expect(await owners(`reenvio@${foreign}`)).toEqual([]);
    expect(await owners(`parecido@${domain}`)).toEqual([]);
    // a_b's address read as a LIKE pattern would match axb@: it must not own the alias for axb
    expect(await owners(`equipo@${domain}`)).not.toContain(`a_b@${domain}`);
    expect(await owners('fuera@example.org')).toEqual([]);
  });

  it('is put back by mail sync when it is dropped', async () => {
    await sql`DROP VIEW mail_senders_view`.execute(t.database.db);
    const drift = await repairDaemonViews(t.database.db, ['mail_senders_view'], { dryRun: false });
    expect(drift).toEqual([{ view: 'mail_senders_view', repaired: true }]);
    expect(await owners(`equipo@${domain}`)).toEqual([`axb@${domain}`, `ventas@${domain}`]);
  });
});
