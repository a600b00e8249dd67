import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Mailbox } from '@panel247/contract/mail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAccount } from '../support/factories.ts';
import { runPanel } from '../support/panel-cli.ts';
import { dropServerRoles, joinServer } from '../support/provider-servers.ts';
import { deliverAt, imapAt, uidAt } from '../support/server-clients.ts';
import { type MailServerNamespace, startMailServerNamespace, until } from '../support/server-namespace.ts';
import { buildTestApp, TEST_SECRET_KEY, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

const isRoot = process.getuid?.() === 0;
const PLACED = 'correo-uno.test';
/** Made before the mail server was added: its mail stays on the control plane's own machine. */
const LOCAL = 'correo-local.test';

/**
 * A mail server of the provider's in its own network namespace: Dovecot and Postfix at its own
 * address, reading the panel's views as server `mail1`, and its agent (its own database role)
 * applying the mail changes of the services placed on it. A mailbox made through the API logs in
 * over IMAP there and gets the mail sent to it there; a domain placed elsewhere is not its to take.
 */
describe.skipIf(!isRoot && process.env.CI !== 'true')('a mail server of its own', () => {
  let server: MailServerNamespace;
  /** The second mail server, which the mail moves to. */
  let other: MailServerNamespace;
  let cliEnv: Record<string, string>;
  let database: TestDatabase;
  let t: TestApp;
  const ids = new Map<string, number>();
  const cookies = new Map<string, string>();

  const imap = (user: string, password: string, urlPath = '/', extra: string[] = [], at = server) =>
    imapAt(at, user, password, urlPath, extra);
  const deliver = (to: string, subject: string, at = server) => deliverAt(at, to, subject);
  const createMailbox = async (domain: string, name: string, password: string) => {
    const { body } = await t.call<{ correo: Mailbox }>(
      'POST',
      `service/${ids.get(domain)}/correo/create/`,
      { name, password },
      { cookie: cookies.get(domain) as string },
    );
    expect(body.system.errors).toEqual([]);
    return body;
  };

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    t = await buildTestApp('postgres', { database, config: { databaseUrl: database.url } });
    const addAccount = async (domain: string) => {
      const account = await buildAccount(database.db, {
        domainName: domain,
        resources: { [domain]: { hasService: true, hasMail: true } },
      });
      ids.set(domain, account.resources[domain] as number);
      cookies.set(domain, await t.login(domain, account.username, account.password));
    };
    await addAccount(LOCAL);
    [server, other] = await Promise.all([
      startMailServerNamespace('p247mail1', 26, database.url as string, 'mail1'),
      startMailServerNamespace('p247mail2', 28, database.url as string, 'mail2'),
    ]);
    cliEnv = {
      PANEL_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'p247-mail-server-cli-')),
      PANEL_LOG_LEVEL: 'silent',
      PANEL_DATABASE_URL: database.url as string,
      // the servers' channels answer the panel's token, made from its key
      PANEL_SECRET_KEY: TEST_SECRET_KEY.toString('hex'),
    };
    await joinServer(cliEnv, database.url as string, 'mail1', server, 'mail');
    await addAccount(PLACED);
    // added after the service was placed: it holds nothing until the mail is moved to it
    await joinServer(cliEnv, database.url as string, 'mail2', other, 'mail');
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await server?.destroy();
    await other?.destroy();
    await dropServerRoles(['mail1', 'mail2']);
  });

  it('places the new service’s mail on the mail server and points its zone’s mail name there', async () => {
    const placed = await database.db.selectFrom('service_placements').select(['service_id', 'role', 'node']).execute();
    expect(placed).toEqual([{ service_id: ids.get(PLACED), role: 'mail', node: 'mail1' }]);
    const zone = await t.call<{ dnss: { zona: string; type: string; value: string }[] }>(
      'GET',
      `service/${ids.get(PLACED)}/dns/list/`,
      {},
      { cookie: cookies.get(PLACED) as string },
    );
    expect(zone.body.data.dnss.filter((r) => r.zona === 'mail' && r.type === 'A').map((r) => r.value)).toEqual([
      server.ns.address,
    ]);
  });

  it('makes a mailbox through the API on the mail server: IMAP logs in at its address, a wrong password is refused', async () => {
    await createMailbox(PLACED, 'info', 'first password 1');
    expect((await imap(`info@${PLACED}`, 'first password 1')).code).toBe(0);
    expect((await imap(`info@${PLACED}`, 'wrong password')).code).toBe(67);
  });

  it('takes mail for its own domains into the mailbox there, and defers a domain placed elsewhere', async () => {
    await deliver(`info@${PLACED}`, 'hola servidor');
    const found = await until(
      () => imap(`info@${PLACED}`, 'first password 1', '/INBOX', ['-X', 'SEARCH SUBJECT "hola servidor"']),
      (answer) => /\* SEARCH \d+/.test(answer.stdout),
      20_000,
    );
    expect(found.code).toBe(0);
    // the domain on the control plane's machine is not this server's to take: deferred, so a
    // sender that has an old MX tries again and finds the right one; a domain of nobody's is refused
    await expect(deliver(`info@${LOCAL}`, 'no es mio')).rejects.toThrow(
      /450 4\.2\.0 .*This domain is served by another server/,
    );
    await expect(deliver('info@nadie.example', 'de nadie')).rejects.toThrow(/554 5\.7\.1 .*Relay access denied/);
    // and its mailboxes do not log in here
    await createMailbox(LOCAL, 'info', 'local password 1').catch(() => undefined);
    expect((await imap(`info@${LOCAL}`, 'local password 1')).code).toBe(67);
  });

  it('shows the mailbox’s size read from the mail server', async () => {
    const listed = await t.call<{ correo: Mailbox[] }>(
      'GET',
      `service/${ids.get(PLACED)}/correo/list/`,
      {},
      { cookie: cookies.get(PLACED) as string },
    );
    expect(listed.body.data.correo.find((box) => box.user === 'info')?.usage).toBeGreaterThan(0);
  });

  /** The zone's own `mail` A record: where mail clients and other servers find the service's mail. */
  const mailAddress = async () => {
    const zone = await t.call<{ dnss: { zona: string; type: string; value: string }[] }>(
      'GET',
      `service/${ids.get(PLACED)}/dns/list/`,
      {},
      { cookie: cookies.get(PLACED) as string },
    );
    return zone.body.data.dnss.find((r) => r.zona === 'mail' && r.type === 'A')?.value;
  };
  const uidOf = (subject: string, at: MailServerNamespace) => uidAt(at, `info@${PLACED}`, 'first password 1', subject);

  it('moves the mail to another mail server: the messages and their ids there, the name switched, the old copy gone', async () => {
    const uid = await uidOf('hola servidor', server);
    expect(uid).toMatch(/^\d+$/);
    const moved = await runPanel(cliEnv, [
      'node',
      'move',
      PLACED,
      '--to',
      'mail2',
      '--part',
      'mail',
      '--keep-old',
      '1',
      '--wait',
      '30',
      '--json',
    ]);
    expect({ code: moved.code, stderr: moved.stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(moved.stdout) as { part: string; from: string; to: string; cutoverMs: number };
    expect(report).toMatchObject({ part: 'mail', from: 'mail1', to: 'mail2' });
    expect(report.cutoverMs).toBeGreaterThan(0);
    // the mailbox logs in at the new server with the same message under the same id (clients keep their copies)
    expect(await uidOf('hola servidor', other)).toBe(uid);
    expect(await mailAddress()).toBe(other.ns.address);
    // new mail lands there; the old server defers it, so a sender with the old MX tries again
    await deliver(`info@${PLACED}`, 'tras la mudanza', other);
    await until(
      () => uidOf('tras la mudanza', other),
      (found) => found !== undefined,
      20_000,
    );
    await expect(deliver(`info@${PLACED}`, 'al viejo', server)).rejects.toThrow(/450 4\.2\.0/);
    expect((await imap(`info@${PLACED}`, 'first password 1')).code).toBe(67);
    // the old copy goes once the records' time has passed (here 1 s)
    await until(
      async () => existsSync(path.join(server.mailRoot, PLACED)),
      (present) => !present,
      20_000,
    );
    expect(existsSync(path.join(other.mailRoot, PLACED, 'info'))).toBe(true);
    // each server's mail sync looks at the mail it holds: nothing to repair on either
    for (const [name, one] of [
      ['mail1', server],
      ['mail2', other],
    ] as const) {
      const synced = await one.panel(['mail', 'sync', '--dry-run', '--json']);
      expect({ name, stderr: synced.stderr }).toEqual({ name, stderr: '' });
      const report = JSON.parse(synced.stdout) as { folders: unknown[]; filters: unknown[] };
      expect({ name, code: synced.code, folders: report.folders, filters: report.filters }).toEqual({
        name,
        code: 0,
        folders: [],
        filters: [],
      });
    }
  });

  it('brings a lost mail server’s mailboxes up on the other from their backups: the messages there, under the same ids', async () => {
    const uid = await uidOf('tras la mudanza', other);
    expect(uid).toMatch(/^\d+$/);
    // the control plane backs the mail folder up through mail2's agent
    const backedUp = await runPanel(cliEnv, ['backup', 'run', PLACED, '--json']);
    expect({ code: backedUp.code, stderr: backedUp.stderr }).toEqual({ code: 0, stderr: '' });
    // mail2 is lost: its agent gone for good, its disk with it
    await other.stopAgent('SIGKILL');
    rmSync(path.join(other.mailRoot, PLACED), { recursive: true, force: true });
    const recovered = await runPanel(cliEnv, ['node', 'recover', 'mail2', '--to', 'mail1', '--wait', '30', '--json']);
    expect({ code: recovered.code, stderr: recovered.stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(recovered.stdout) as { recovered: { records: number }[]; failed: unknown[] };
    expect(report).toMatchObject({ recovered: [{ domain: PLACED, parts: ['mail'] }], failed: [] });
    expect(report.recovered[0]?.records).toBeGreaterThan(0);
    // the message logged into at mail1 under the id clients know it by; the name switched; new mail lands there
    expect(await uidOf('tras la mudanza', server)).toBe(uid);
    expect(await mailAddress()).toBe(server.ns.address);
    await deliver(`info@${PLACED}`, 'tras la perdida', server);
    await until(
      () => uidOf('tras la perdida', server),
      (found) => found !== undefined,
      20_000,
    );
  });
});
