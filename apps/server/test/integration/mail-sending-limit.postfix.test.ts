import { chmodSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ActivityListData } from '@panel247/contract/activity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryPlacement } from '../../../../scripts/daemons/daemon-harness.ts';
import { type MailDaemons, startMailDaemons } from '../../../../scripts/daemons/mail.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { submit } from '../support/mail-clients.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, DATABASE_KINDS, type TestDatabase } from '../support/test-database.ts';

/** Small, so the test sends few messages; the rule is the same at 200. */
const LIMIT = 3;
const PASSWORD = 'a sending password 1';

/**
 * The sending limit end to end: real Postfix asks the panel's policy service at DATA on the
 * submission port, a mail client (swaks, STARTTLS and a login) sends LIMIT messages that arrive,
 * and the next one is refused with the 450 naming the limit, and logged.
 */
describe.each(DATABASE_KINDS)('sending limit enforced by real Postfix (panel on %s)', (kind) => {
  let database: TestDatabase;
  let mail: MailDaemons;
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  const domain = `envio-${kind}.test`;
  const sender = `ventas@${domain}`;
  const recipient = `buzon@${domain}`;

  beforeAll(async () => {
    // The daemons read the panel's database: SQLite must be a file they can open (and its folder
    // writable for WAL's shared-memory file).
    const folder = mkdtempSync(path.join(tmpdir(), 'p247-sendlimit-'));
    chmodSync(folder, 0o777);
    database = await createTestDatabase(kind, { sqliteFile: path.join(folder, 'panel.sqlite') });
    account = await buildAccount(database.db, { domainName: domain, resources: { [domain]: { hasMail: true } } });
    if (kind === 'sqlite') for (const file of readdirSync(folder)) chmodSync(path.join(folder, file), 0o666);
    const policyPort = await temporaryPlacement.port('panel.policy');
    mail = await startMailDaemons(
      kind === 'sqlite' ? { kind, file: database.url as string } : { kind, url: database.url as string },
      temporaryPlacement,
      { policyService: `inet:127.0.0.1:${policyPort}` },
    );
    t = await buildTestApp(kind, {
      database,
      captureLogs: true,
      config: {
        'mail.root': mail.mailRoot,
        'mail.doveadmConfig': mail.doveadmConfig,
        'mailSending.policyListen': `127.0.0.1:${policyPort}`,
        'mailSending.limitPerHour': LIMIT,
      },
    });
    await t.app.ready();
    cookie = await t.login(domain, account.username, account.password);
    for (const name of ['ventas', 'buzon']) {
      const { body } = await t.call(
        'POST',
        `service/${account.resources[domain]}/correo/create/`,
        { name, password: PASSWORD },
        { cookie },
      );
      expect(body.system.errors).toEqual([]);
    }
  });
  afterAll(async () => {
    await t?.close();
    await mail?.stop();
    await database?.destroy();
  });

  /** One message from the sender's mail client: submission, STARTTLS, a login. */
  const send = (subject: string) =>
    submit({
      server: `127.0.0.1:${mail.submissionPort}`,
      login: sender,
      password: PASSWORD,
      to: recipient,
      subject,
      body: `${subject}: the body, which no log may hold`,
    });

  const delivered = async (subject: string) => {
    for (let i = 0; i < 100; i++) {
      const search = await mail.imap(recipient, PASSWORD, '/INBOX', ['-X', `SEARCH SUBJECT "${subject}"`]);
      if (/\* SEARCH \d+/.test(search.stdout)) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  };

  it(`delivers ${LIMIT} messages and refuses the next with the limit and when to retry`, async () => {
    for (let i = 1; i <= LIMIT; i++) {
      const sent = await send(`within limit ${i}`);
      expect(sent.output).toMatch(/<~ +250 2\.0\.0 Ok: queued/);
      expect(sent.code).toBe(0);
    }
    for (let i = 1; i <= LIMIT; i++) expect(await delivered(`within limit ${i}`)).toBe(true);

    const refused = await send('over the limit');
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(
      new RegExp(
        `<~\\* 450 4\\.7\\.1 .*Sending limit reached: ${sender} may send to ${LIMIT} recipients per hour\\. Try again after \\d\\d:\\d\\d UTC\\.`,
      ),
    );
    expect((await send('over the limit again')).output).toMatch(/<~\* 450 4\.7\.1 /);
    // refused at DATA, before its body was sent: the mailbox holds the first LIMIT only
    const inbox = await mail.imap(recipient, PASSWORD, '/INBOX', ['-X', 'SEARCH ALL']);
    expect(inbox.stdout.trim()).toBe(`* SEARCH ${Array.from({ length: LIMIT }, (_, i) => i + 1).join(' ')}`);
  });

  it('logs every refusal and alerts the account once, without the message', async () => {
    const logged = t.logs.filter((line) => line.event === 'mail.send_limit_reached');
    expect(logged).toHaveLength(2);
    expect(logged.map((line) => line.firstInWindow)).toEqual([true, false]);
    expect(logged[0]).toMatchObject({ login: sender, limit: LIMIT, client: '127.0.0.1' });
    expect(JSON.stringify(t.logs)).not.toContain('which no log may hold');

    cookie = await t.login(domain, account.username, account.password);
    const { body } = await t.call<ActivityListData>('GET', 'activity/list/', { area: 'mail' }, { cookie });
    const alerts = body.data.entries.filter((entry) => entry.action === 'mail.send_limit_reached');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ user: sender, target: sender, ip: '127.0.0.1', area: 'mail' });
  });
});

/**
 * The same limit over the Unix socket the install guide recommends: the panel listens in
 * Postfix's own private/ folder (which only root and Postfix reach) and Postfix names it
 * `unix:private/…`, relative to its queue folder.
 */
describe("sending limit over a Unix socket in Postfix's private folder (panel on sqlite)", () => {
  let database: TestDatabase;
  let mail: MailDaemons;
  let t: TestApp;
  const domain = 'socket-envio.test';
  const sender = `ventas@${domain}`;

  beforeAll(async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'p247-sendlimit-socket-'));
    chmodSync(folder, 0o777);
    database = await createTestDatabase('sqlite', { sqliteFile: path.join(folder, 'panel.sqlite') });
    const account = await buildAccount(database.db, {
      domainName: domain,
      resources: { [domain]: { hasMail: true } },
    });
    for (const file of readdirSync(folder)) chmodSync(path.join(folder, file), 0o666);
    // the harness names TCP services only; this later line of main.cf replaces its (empty) one
    mail = await startMailDaemons({ kind: 'sqlite', file: database.url as string }, temporaryPlacement, {
      postfixMainCf: 'panel247_policy_service = unix:private/panel247-policy',
    });
    // the harness's Postfix keeps its queue beside the mail root (deploy/postfix-mail: DIR/queue)
    const socketPath = path.join(path.dirname(mail.mailRoot), 'postfix', 'queue', 'private', 'panel247-policy');
    t = await buildTestApp('sqlite', {
      database,
      captureLogs: true,
      config: {
        'mail.root': mail.mailRoot,
        'mail.doveadmConfig': mail.doveadmConfig,
        'mailSending.policyListen': socketPath,
        'mailSending.limitPerHour': 1,
      },
    });
    await t.app.ready();
    expect(statSync(socketPath).isSocket()).toBe(true);
    const cookie = await t.login(domain, account.username, account.password);
    const { body } = await t.call(
      'POST',
      `service/${account.resources[domain]}/correo/create/`,
      { name: 'ventas', password: PASSWORD },
      { cookie },
    );
    expect(body.system.errors).toEqual([]);
  });
  afterAll(async () => {
    await t?.close();
    await mail?.stop();
    await database?.destroy();
  });

  it('lets the first message through and refuses the second', async () => {
    const send = (subject: string) =>
      submit({ server: `127.0.0.1:${mail.submissionPort}`, login: sender, password: PASSWORD, to: sender, subject });
    const first = await send('through the socket');
    expect(first.output).toMatch(/<~ +250 2\.0\.0 Ok: queued/);
    const second = await send('refused through the socket');
    expect(second.output).toMatch(
      /<~\* 450 4\.7\.1 .*Sending limit reached: ventas@socket-envio\.test may send to 1 recipient per hour/,
    );
    expect(t.logs.filter((line) => line.event === 'mail.send_limit_reached')).toHaveLength(1);
  });
});
