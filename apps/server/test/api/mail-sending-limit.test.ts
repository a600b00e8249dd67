import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ActivityListData } from '@panel247/contract/activity';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAVAILABLE_ACTION } from '../../src/modules/mail-sending/policy-server.ts';
import { type BuiltAccount, buildAccount, buildUser } from '../support/factories.ts';
import { connectPolicyClient, dataRequest } from '../support/policy-client.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';

const LIMIT = 3;

describe.each(DATABASE_KINDS)('mailbox sending limit through the policy service on %s', (kind) => {
  let t: TestApp;
  let account: BuiltAccount;
  let cookie: string;
  let port: number;
  const domain = `limit-${kind}.test`;
  const login = `ventas@${domain}`;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      captureLogs: true,
      config: {
        'mailSending.policyListen': '127.0.0.1:0',
        'mailSending.limitPerHour': LIMIT,
        'mail.root': mkdtempSync(path.join(tmpdir(), 'p247-sendlimit-')),
      },
    });
    account = await buildAccount(t.database.db, { domainName: domain });
    cookie = await t.login(domain, account.username, account.password);
    for (const name of ['ventas', 'info']) {
      const { body } = await t.call(
        'POST',
        `service/${account.resources[domain]}/correo/create/`,
        { name, password: 'a mailbox password 1' },
        { cookie },
      );
      expect(body.system.errors).toEqual([]);
    }
    await t.app.ready();
    const listening = t.logs.find((line) => line.event === 'mail.policy_listening');
    port = Number(listening?.port);
    expect(port).toBeGreaterThan(0);
  });
  afterAll(() => t?.close());

  /** The entries of the refusals in the account's log (a new session: the tests move the clock by hours). */
  const limitEntries = async () => {
    cookie = await t.login(domain, account.username, account.password);
    const { body } = await t.call<ActivityListData>('GET', 'activity/list/', { area: 'mail' }, { cookie });
    return body.data.entries.filter((entry) => entry.action === 'mail.send_limit_reached');
  };

  it('lets mail without a login, and requests outside DATA, through uncounted', async () => {
    const client = await connectPolicyClient(port);
    expect(await client.ask({ ...dataRequest(login), sasl_username: '' })).toBe('DUNNO');
    expect(await client.ask({ ...dataRequest(login), protocol_state: 'RCPT' })).toBe('DUNNO');
    await client.close();
    const row = await t.database.db.selectFrom('mail_send_counts').selectAll().executeTakeFirst();
    expect(row).toBeUndefined();
  });

  it('refuses the message after the limit with the limit and the time to retry, and alerts the account once', async () => {
    const client = await connectPolicyClient(port);
    for (let i = 0; i < LIMIT; i++) expect(await client.ask(dataRequest(login))).toBe('DUNNO');
    const refusal = await client.ask(dataRequest(login));
    expect(refusal).toMatch(
      new RegExp(
        `^450 4\\.7\\.1 Sending limit reached: ${login} may send to ${LIMIT} recipients per hour\\. Try again after \\d\\d:\\d\\d UTC\\.$`,
      ),
    );
    expect(await client.ask(dataRequest(login))).toBe(refusal);
    // another mailbox of the same domain has its own count
    expect(await client.ask(dataRequest(`info@${domain}`))).toBe('DUNNO');
    await client.close();

    const entries = await limitEntries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      user: login,
      ip: '192.0.2.7',
      via: 'smtp',
      area: 'mail',
      target: login,
      resource: { id: account.resources[domain], reference: domain },
      changes: [{ field: 'send_limit', before: null, after: String(LIMIT) }],
    });
    const logged = t.logs.filter((line) => line.event === 'mail.send_limit_reached');
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({ login, limit: LIMIT, firstInWindow: true, client: '192.0.2.7' });
    // who was written to, and any of the message, stays out of the log
    expect(JSON.stringify(t.logs)).not.toContain('someone@example.org');
  });

  it('counts recipients: a message that no longer fits is refused, one over the whole limit is refused for good', async () => {
    const other = `otro-${kind}@${domain}`;
    const client = await connectPolicyClient(port);
    expect(await client.ask(dataRequest(other, 2))).toBe('DUNNO');
    expect(await client.ask(dataRequest(other, 2))).toMatch(/^450 4\.7\.1 /);
    expect(await client.ask(dataRequest(other, 1))).toBe('DUNNO');
    expect(await client.ask(dataRequest(`nuevo@${domain}`, LIMIT + 1))).toMatch(
      new RegExp(`^554 5\\.7\\.1 This message has ${LIMIT + 1} recipients; .* at most ${LIMIT} recipients per hour`),
    );
    await client.close();
  });

  it('starts a new hour after the window, with a new alert when it fills again', async () => {
    t.clock.advance(3601);
    const client = await connectPolicyClient(port);
    for (let i = 0; i < LIMIT; i++) expect(await client.ask(dataRequest(login))).toBe('DUNNO');
    expect(await client.ask(dataRequest(login))).toMatch(/^450 /);
    await client.close();
    expect(await limitEntries()).toHaveLength(2);
  });

  it('lets exactly the limit through when messages arrive at once on several connections', async () => {
    t.clock.advance(3601);
    const clients = await Promise.all(Array.from({ length: 8 }, () => connectPolicyClient(port)));
    const answers = await Promise.all(clients.map((client) => client.ask(dataRequest(login))));
    expect(answers.filter((answer) => answer === 'DUNNO')).toHaveLength(LIMIT);
    expect(answers.filter((answer) => answer.startsWith('450 4.7.1 '))).toHaveLength(8 - LIMIT);
    await Promise.all(clients.map((client) => client.close()));
    expect(await limitEntries()).toHaveLength(3);
  });

  it('shows the alert only to users who may read the mailboxes', async () => {
    const reader = await buildUser(t.database.db, account, 'lector', { [domain]: { servicemail_accounts: 'read' } });
    const outsider = await buildUser(t.database.db, account, 'dns', { [domain]: { service_dnszone: 'write' } });
    const alertsOf = async (user: { username: string; password: string }) => {
      const session = await t.login(domain, user.username, user.password);
      const { body } = await t.call<ActivityListData>('GET', 'activity/list/', {}, { cookie: session });
      return body.data.entries.filter((entry) => entry.action === 'mail.send_limit_reached');
    };
    expect(await alertsOf(reader)).toHaveLength(3);
    expect(await alertsOf(outsider)).toEqual([]);
  });

  it('counts at END-OF-MESSAGE too, and defers a login that is no mailbox address', async () => {
    t.clock.advance(3601);
    const client = await connectPolicyClient(port);
    const atEnd = { ...dataRequest(`fin@${domain}`, LIMIT), protocol_state: 'END-OF-MESSAGE' };
    expect(await client.ask(atEnd)).toBe('DUNNO');
    expect(await client.ask(atEnd)).toMatch(/^450 4\.7\.1 /);
    for (const login of ['not an address', 'x@-bad-.test', `${'a'.repeat(70)}@${domain}`]) {
      expect(await client.ask(dataRequest(login))).toBe(UNAVAILABLE_ACTION);
    }
    await client.close();
  });

  it('defers the message, rather than letting it through, when the database does not answer', async () => {
    await sql`DROP TABLE mail_send_counts`.execute(t.database.db);
    const client = await connectPolicyClient(port);
    expect(await client.ask(dataRequest(login))).toBe(UNAVAILABLE_ACTION);
    expect(await client.ask({ ...dataRequest(login), sasl_username: '' })).toBe('DUNNO');
    await client.close();
    expect(t.logs.some((line) => line.event === 'mail.policy_failed')).toBe(true);
  });
});
