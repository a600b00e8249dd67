import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { HostedDatabase } from '@panel247/contract/databases';
import type { SignonForm } from '@panel247/contract/signon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PhpMyAdmin, startPhpMyAdmin } from '../../../../scripts/daemons/phpmyadmin.ts';
import { type BuiltAccount, buildAccount } from '../support/factories.ts';
import { FormBrowser as Browser } from '../support/form-browser.ts';
import { buildTestApp, type TestApp } from '../support/test-app.ts';
import { DATABASE_KINDS } from '../support/test-database.ts';
import {
  adminOptions,
  dropEverythingWithPrefix,
  mariadbReachable,
  randomNamePrefix,
  TEST_MARIADB_URL,
} from '../support/test-mariadb.ts';

const reachable = await mariadbReachable();

describe.skipIf(!reachable).each(DATABASE_KINDS)('phpMyAdmin sign-on from the panel (panel on %s)', (kind) => {
  const prefix = randomNamePrefix();
  const key = randomBytes(24).toString('hex');
  let t: TestApp;
  let pma: PhpMyAdmin;
  let account: BuiltAccount;
  let cookie: string;
  let id: number;
  let database: HostedDatabase;
  let panelUrl: string;
  const domain = `pma-${kind}.test`;
  const password = `pma "secret" it's \\ ok`;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      config: {
        'databases.driver': 'mariadb',
        'databases.url': TEST_MARIADB_URL,
        'databases.namePrefix': prefix,
        'databases.host': '127.0.0.1',
        'databases.port': adminOptions().port,
        'databases.phpmyadminKey': key,
      },
    });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    panelUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    pma = await startPhpMyAdmin({
      redeemUrl: `${panelUrl}/p247/phpmyadmin/redeem/`,
      key,
      dbHost: '127.0.0.1',
      dbPort: adminOptions().port,
      signonUrl: `${panelUrl}/`,
    });
    account = await buildAccount(t.database.db, { domainName: domain, resources: { [domain]: { hasService: true } } });
    id = account.resources[domain] as number;
    cookie = await t.login(account.domainName, account.username, account.password);
    const created = await t.call<{ ddbb: HostedDatabase }>(
      'POST',
      `service/${id}/ddbb/create/`,
      { password },
      { cookie },
    );
    expect(created.body.system.errors).toEqual([]);
    database = created.body.data.ddbb;
  });
  afterAll(async () => {
    try {
      await pma?.stop();
      await t?.close();
    } finally {
      await dropEverythingWithPrefix(prefix);
    }
  });

  it('sends a visitor without a sign-on to the panel', async () => {
    const { response, visited } = await new Browser().open(new URL('/phpmyadmin/index.php', pma.baseUrl), {
      method: 'GET',
    });
    expect(response.status, pma.logs()).toBe(302);
    expect(visited.at(-1)).toBe(`${panelUrl}/`);
  });

  it('opens phpMyAdmin logged in as the database’s user, and refuses the same token again', async () => {
    const login = await t.call<SignonForm>('GET', `service/${id}/ddbb/${database.id}/login/`, {}, { cookie });
    const form = login.body.data;
    expect(form.action).toBe('/phpmyadmin/panel247-signon.php');
    expect(Object.keys(form.fields).sort()).toEqual(['token', 'user']);
    expect(JSON.stringify(form)).not.toContain('secret');
    // the panel's host would proxy /phpmyadmin/ to this nginx
    const handoff = new URL(form.action, pma.baseUrl);

    const browser = new Browser();
    const opened = await browser.open(handoff, { method: 'POST', form: form.fields });
    expect(opened.response.status, `${opened.visited.join(' → ')}\n${pma.logs()}`).toBe(200);
    expect(opened.visited[1]).toContain(`/phpmyadmin/index.php?route=%2Fdatabase%2Fstructure&db=${database.bbdd}`);
    expect(opened.text).toMatch(new RegExp(`<title>[^<]* / ${database.bbdd} \\| phpMyAdmin`));
    expect(opened.text).toContain('No tables found in database.');
    expect(opened.text).not.toContain('id="input_username"');
    expect(opened.text).not.toContain('name="pma_username"');
    expect(opened.text).not.toContain(password);

    // the home page names the MariaDB user phpMyAdmin is logged in as
    const home = await browser.open(new URL('/phpmyadmin/index.php?route=/', pma.baseUrl), { method: 'GET' });
    expect(home.response.status).toBe(200);
    expect(home.text).toContain(`${database.user}@127.0.0.1`);

    const replay = await new Browser().open(handoff, { method: 'POST', form: form.fields });
    expect(replay.response.status).toBe(403);
    expect(replay.text).toContain('This sign-on has expired or was already used');
    expect(replay.response.headers.get('set-cookie')).toBeNull();
  });

  it('refuses a made-up token and a GET', async () => {
    const handoff = new URL('/phpmyadmin/panel247-signon.php', pma.baseUrl);
    const fake = await new Browser().open(handoff, {
      method: 'POST',
      form: { token: randomBytes(32).toString('base64url') },
    });
    expect(fake.response.status).toBe(403);
    const get = await new Browser().open(handoff, { method: 'GET' });
    expect(get.response.status).toBe(405);
  });
});
