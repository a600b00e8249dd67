import type { LookupAddress } from 'node:dns';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CleanRoot, requireCleanRootTools, startCleanRoot } from '../../../../scripts/daemons/clean-root.ts';
import { execFileAsync } from '../../../../scripts/daemons/daemon-harness.ts';
import { PACKAGES, preseeds } from '../../../../scripts/install/packages.ts';
import { START_ORDER } from '../../../../scripts/install/services.ts';
import { loginToPanel, type PanelApiClient } from '../support/panel-api-client.ts';
import { retrying } from '../support/retrying.ts';

/**
 * The production install's proof: deploy/install.sh run in a clean Debian 12 root (its own
 * systemd, network and address) with the host's Node and this checkout, then the panel and the
 * daemons reached from outside with real clients, after a reboot too, and a second run that
 * changes nothing. The packages come from a cached layer of the harness (the installer's own
 * package list and preseeds), so its packages step finds them installed.
 */

const CHECKOUT = path.resolve(import.meta.dirname, '../../../..');
const PANEL_HOST = 'panel.hosting-norte.es';
const MAIL_HOST = 'mail.hosting-norte.es';
const CUSTOMER = 'cliente-norte.es';
const CUSTOMER_IPV6 = 'fd00:247::7';

function flags(address: string): string[] {
  return [
    '--provider',
    'Hosting Norte',
    '--panel-host',
    PANEL_HOST,
    '--mail-host',
    MAIL_HOST,
    '--nameservers',
    'ns1.hosting-norte.es,ns2.hosting-norte.es',
    '--ipv4',
    address,
    // no route reaches it from the host: customers' zones get it, and nginx listens on IPv6 too
    '--ipv6',
    CUSTOMER_IPV6,
    '--acme-email',
    'hostmaster@hosting-norte.es',
  ];
}

/** Retries while a daemon that was just (re)started opens its port; never a fixed wait. */
const eventually = <T>(attempt: () => Promise<T>, timeoutMs = 120_000) => retrying(attempt, timeoutMs, 500);

describe('deploy/install.sh on a clean Debian 12 root', () => {
  let root: CleanRoot;
  /** The later proofs stand on a finished install: without one they fail at once, not after their waits. */
  let installed = false;
  /** The customer's resource (domain and mail), made through the CLI by the DNS proof. */
  let resourceId = 0;

  beforeAll(async () => {
    requireCleanRootTools();
    root = await startCleanRoot({
      layer: { packages: [...PACKAGES], preseed: preseeds(MAIL_HOST).trim().split('\n') },
      binds: [{ host: CHECKOUT, inside: '/opt/panel247', readOnly: true }],
    });
    // Debian 12's nodejs is 18: the host's Node, as an operator installs one
    copyFileSync(process.execPath, `${root.folder}/usr/bin/node`);
  }, 1_800_000);
  afterAll(async () => {
    await root?.stop();
  });

  it('installs with the provider’s values and says what it did', async () => {
    const result = await root.run('/opt/panel247/deploy/install.sh', flags(root.address), { timeoutMs: 1_200_000 });
    expect(`${result.stdout}${result.stderr}`).toContain('Installed: https://');
    expect(result.code).toBe(0);
    // the settings readable by the panel's group, the generated secrets by root only
    const modes = await root.runOk('stat', [
      '-c',
      '%a %U %G',
      '/etc/panel247/panel247.env',
      '/etc/panel247/install-secrets.env',
    ]);
    expect(modes.trim().split('\n')).toEqual(['640 root panel247', '600 root root']);
    installed = true;
  }, 1_300_000);

  /** The panel's page through its TLS proxy, as a browser at the host reaches it (self-signed for now). */
  const loginPage = () =>
    eventually(async () => {
      const { stdout } = await execFileAsync('curl', [
        '-sSfk',
        '--resolve',
        `${PANEL_HOST}:443:${root.address}`,
        `https://${PANEL_HOST}/`,
      ]);
      return stdout;
    });

  /** Every unit of the start order, as systemd reports it. */
  const unitStates = async () => {
    const { stdout } = await root.run('systemctl', ['is-active', ...START_ORDER]);
    return Object.fromEntries(START_ORDER.map((unit, index) => [unit, stdout.split('\n')[index]]));
  };
  const allActive = Object.fromEntries(START_ORDER.map((unit) => [unit, 'active']));

  it('serves the panel’s login page over HTTPS at the root’s address, every daemon running', async () => {
    expect(installed).toBe(true);
    expect(await loginPage()).toContain('<div id="root">');
    expect(await unitStates()).toEqual(allActive);
  }, 300_000);

  /** The installed command-line tool, as the guide runs it: root, from /opt/panel247, no settings given. */
  const panel = (args: string[], input?: string) =>
    root.runOk('env', ['-C', '/opt/panel247', 'node', '--import', 'tsx', 'apps/server/src/cli/panel.ts', ...args], {
      input,
    });

  /**
   * Runs `work` with fetch reaching the panel's name at the root's address and taking its
   * self-signed certificate, as a browser whose user accepted it.
   */
  async function atTheRoot<T>(work: () => Promise<T>): Promise<T> {
    const before = getGlobalDispatcher();
    const lookup: LookupFunction = (_host, options, callback) =>
      options.all
        ? (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, [
            { address: root.address, family: 4 },
          ])
        : callback(null, root.address, 4);
    setGlobalDispatcher(new Agent({ connect: { rejectUnauthorized: false, lookup } }));
    try {
      return await work();
    } finally {
      setGlobalDispatcher(before);
    }
  }

  /** Runs `work` with the customer's admin logged in through the panel's TLS proxy, as their browser does. */
  const asTheCustomer = <T>(work: (api: PanelApiClient) => Promise<T>) =>
    atTheRoot(async () =>
      work(
        await loginToPanel(`https://${PANEL_HOST}`, {
          domainName: CUSTOMER,
          username: 'admin',
          password: 'norte-admin-password-1',
        }),
      ),
    );

  const nameServers = async () =>
    (await execFileAsync('dig', ['+short', '+time=2', '+tries=1', `@${root.address}`, CUSTOMER, 'NS'])).stdout
      .trim()
      .split('\n')
      .sort();

  it('answers over DNS, with the provider’s name servers, a zone made for a customer made with the CLI', async () => {
    expect(installed).toBe(true);
    await panel(['brand', 'add', '--slug', 'norte', '--company', 'Hosting Norte', '--default', '--host', PANEL_HOST]);
    await panel(['account', 'add', '--domain', CUSTOMER, '--brand', 'norte']);
    await panel(
      ['user', 'add', '--domain', CUSTOMER, '--user', 'admin', '--password-stdin'],
      'norte-admin-password-1\n',
    );
    const made = JSON.parse(
      await panel([
        'resource',
        'add',
        '--domain',
        CUSTOMER,
        '--reference',
        CUSTOMER,
        '--domain-part',
        '--service',
        '--mail',
        '--grant-user',
        'admin',
        '--json',
      ]),
    ) as { id: number };
    resourceId = made.id;
    await asTheCustomer(async (api) => {
      // the zone is made with the provider's default records when its list is first opened
      const listed = await api('GET', `service/${made.id}/dns/list/`);
      expect(listed.system.errors).toEqual([]);
    });
    expect(await eventually(nameServers)).toEqual(['ns1.hosting-norte.es.', 'ns2.hosting-norte.es.']);
    const { stdout: aaaa } = await execFileAsync('dig', ['+short', `@${root.address}`, CUSTOMER, 'AAAA']);
    expect(aaaa.trim()).toBe(CUSTOMER_IPV6);
  }, 300_000);

  const MAILBOX = `info@${CUSTOMER}`;
  let mailboxId = 0;
  const MAILBOX_PASSWORD = 'norte-mailbox-password-1';

  /** A folder of the mailbox over IMAP on TLS (993), as a mail client at the host logs in. */
  const imapFolder = async (folder: string, path = '') =>
    (
      await execFileAsync('curl', [
        '-sSk',
        '--resolve',
        `${MAIL_HOST}:993:${root.address}`,
        '-u',
        `${MAILBOX}:${MAILBOX_PASSWORD}`,
        `imaps://${MAIL_HOST}/${folder}${path}`,
      ])
    ).stdout;
  const imapInbox = (path = '') => imapFolder('INBOX', path);

  it('logs a mailbox made through the panel in over IMAP on TLS, and takes its mail on submission with a login', async () => {
    expect(resourceId).toBeGreaterThan(0);
    await asTheCustomer(async (api) => {
      const made = await api<{ correo: { id: number } }>('POST', `service/${resourceId}/correo/create/`, {
        id: String(resourceId),
        name: 'info',
        password: MAILBOX_PASSWORD,
      });
      expect(made.system.errors).toEqual([]);
      mailboxId = made.data.correo.id;
    });
    await eventually(() => imapInbox());
    await execFileAsync('swaks', [
      '--server',
      root.address,
      '--port',
      '587',
      '--tls',
      '--auth',
      'LOGIN',
      '--auth-user',
      MAILBOX,
      '--auth-password',
      MAILBOX_PASSWORD,
      '--from',
      MAILBOX,
      '--to',
      MAILBOX,
      '--header',
      'Subject: installed and sending',
    ]);
    expect(await eventually(() => imapInbox(';UID=1'))).toContain('Subject: installed and sending');
    // and from another mail server, on port 25 without a login, as the mail from outside arrives
    await execFileAsync('swaks', [
      '--server',
      root.address,
      '--port',
      '25',
      '--from',
      'someone@example.org',
      '--to',
      MAILBOX,
      '--header',
      'Subject: from outside',
    ]);
    expect(await eventually(() => imapInbox(';UID=2'))).toContain('Subject: from outside');
  }, 300_000);

  it('moves spam from outside to Junk once the mailbox filters it: rspamd, installed with the rest, asked at delivery', async () => {
    expect(mailboxId).toBeGreaterThan(0);
    await asTheCustomer(async (api) => {
      const saved = await api('POST', `service/${resourceId}/correo/${mailboxId}/spam/save/`, {
        id: String(resourceId),
        accountId: String(mailboxId),
        mode: 'junk',
        threshold: '6',
      });
      expect(saved.system.errors).toEqual([]);
    });
    await execFileAsync('swaks', [
      '--server',
      root.address,
      '--port',
      '25',
      '--from',
      'offers@example.org',
      '--to',
      MAILBOX,
      '--header',
      'Subject: spam from outside',
      '--body',
      // GTUBE: the test string every filter scores as spam
      'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X',
    ]);
    const junk = await eventually(() => imapFolder('Junk', ';UID=1'));
    expect(junk).toContain('Subject: spam from outside');
    expect(junk).toMatch(/^X-Spam: Yes\r?$/m);
  }, 300_000);

  /** A GET through the panel's TLS proxy, with these cookies: its status and body. */
  const throughProxy = async (pathname: string, cookies = '') => {
    const { stdout } = await execFileAsync('curl', [
      '-sSk',
      '--resolve',
      `${PANEL_HOST}:443:${root.address}`,
      '-H',
      `Cookie: ${cookies}`,
      '-w',
      '\n%{http_code}',
      `https://${PANEL_HOST}${pathname}`,
    ]);
    const at = stdout.lastIndexOf('\n');
    return { status: Number(stdout.slice(at + 1)), body: stdout.slice(0, at) };
  };

  it('opens the mailbox in the WebMail with the panel’s one-time form, under /webmail/ of the panel’s host', async () => {
    expect(mailboxId).toBeGreaterThan(0);
    const form = await asTheCustomer(async (api) => {
      const login = await api<{ action: string; fields: Record<string, string> }>(
        'GET',
        `service/${resourceId}/correo/${mailboxId}/login/`,
      );
      expect(login.system.errors).toEqual([]);
      return login.data;
    });
    expect(form.action).toBe('/webmail/');
    // what the browser does with the form: post it to the WebMail, then follow to the mailbox
    const args = ['-sSk', '--resolve', `${PANEL_HOST}:443:${root.address}`, '-D', '-', '-o', '/dev/null'];
    for (const [name, value] of Object.entries(form.fields)) args.push('--data-urlencode', `${name}=${value}`);
    const { stdout: headers } = await execFileAsync('curl', [...args, `https://${PANEL_HOST}${form.action}`]);
    expect(headers).toMatch(/^HTTP\/[\d.]+ 302/);
    expect(headers).toMatch(/^location: .*_task=mail/im);
    const cookies = [...headers.matchAll(/^set-cookie: ([^=]+)=([^;]*)/gim)]
      .filter((match) => match[2] && match[2] !== 'deleted')
      .map((match) => `${match[1]}=${match[2]}`)
      .join('; ');
    const page = await throughProxy('/webmail/?_task=mail&_mbox=INBOX', cookies);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('rcmloginuser');
    expect(page.body).toContain(MAILBOX);
    // the skin's files come through the proxy; no PHP runs there but the entry point
    expect((await throughProxy('/webmail/skins/elastic/images/favicon.ico')).status).toBe(200);
    expect((await throughProxy('/webmail/plugins/panel247_signon/redeem.php')).status).toBe(404);
  }, 300_000);

  const FTP_PASSWORD = 'norte-ftp-password-1';
  /** The site's page, through nginx at the root's address as a browser asks for it. */
  const sitePage = () =>
    eventually(async () => {
      const { stdout } = await execFileAsync('curl', [
        '-sSf',
        '--resolve',
        `${CUSTOMER}:80:${root.address}`,
        `http://${CUSTOMER}/proof.php`,
      ]);
      return stdout;
    });

  it('takes a PHP page uploaded over FTP, which nginx serves with PHP running as the service’s own user', async () => {
    expect(resourceId).toBeGreaterThan(0);
    await asTheCustomer(async (api) => {
      const ftp = await api('POST', `service/${resourceId}/ftp/create/`, {
        ftpUser: 'web',
        password: FTP_PASSWORD,
        folder: '',
      });
      expect(ftp.system.errors).toEqual([]);
      // the customer's first change of the site: the web server gets it
      const php = await api('POST', `service/${resourceId}/php/`, { phpVersion: '8.2' });
      expect(php.system.errors).toEqual([]);
    });
    // curl uploads it from here, the host, as a customer's FTP client does
    const page = path.join(mkdtempSync(path.join(tmpdir(), 'p247-clean-root-ftp-')), 'proof.php');
    writeFileSync(page, '<?php echo "sum=", 20 + 22, " uid=", posix_geteuid();\n');
    await eventually(() =>
      execFileAsync('curl', ['-sSf', '-u', `web@${CUSTOMER}:${FTP_PASSWORD}`, '-T', page, `ftp://${root.address}/`]),
    );
    const owner = await root.runOk('stat', ['-c', '%u', `/var/www/panel247/${CUSTOMER}`]);
    expect(await sitePage()).toBe(`sum=42 uid=${owner.trim()}`);
    expect(['0', '33']).not.toContain(owner.trim());
    // on IPv6 too, as the zone's AAAA promises: asked inside the root, at its ::1 (Node is there)
    const overIpv6 = await root.runOk('node', [
      '-e',
      `require('node:http').get({ host: '::1', path: '/proof.php', headers: { host: '${CUSTOMER}' } }, (answer) => answer.pipe(process.stdout))`,
    ]);
    expect(overIpv6).toBe(`sum=42 uid=${owner.trim()}`);
  }, 300_000);

  it('backs the service up on demand: restic, installed with the rest, run by the panel under its unit', async () => {
    expect(resourceId).toBeGreaterThan(0);
    await asTheCustomer(async (api) => {
      type Job = { job: { id: string; status: string; error: string } };
      const started = await api<Job>('POST', `service/${resourceId}/backups/run/`);
      expect(started.system.errors).toEqual([]);
      const job = await eventually(async () => {
        const { data } = await api<Job>('GET', `service/${resourceId}/backups/job/${started.data.job.id}/`);
        if (data.job.status === 'queued' || data.job.status === 'running')
          throw new Error(`the backup is ${data.job.status}`);
        return data.job;
      });
      expect(job).toMatchObject({ status: 'done', error: '' });
      const listed = await api<{ snapshots: unknown[] }>('GET', `service/${resourceId}/backups/list/`);
      expect(listed.data.snapshots).toHaveLength(1);
    });
  }, 300_000);

  const DATABASE_PASSWORD = 'norte-database-password-1';
  /** The database made through the panel's API: its name and its user's. */
  let database = { bbdd: '', user: '' };

  /**
   * A login with Debian's `mariadb` client, from inside the root: MariaDB listens on loopback only
   * there (Debian's bind-address), and a user without external access exists only for the local
   * hosts (PANEL_DATABASES_LOCAL_HOSTS), so a customer's site on the machine is who logs in.
   */
  const databaseLogin = () =>
    root.runOk('mariadb', [
      '--protocol=tcp',
      '-h',
      '127.0.0.1',
      '-u',
      database.user,
      `--password=${DATABASE_PASSWORD}`,
      '-N',
      '-e',
      'CREATE TABLE IF NOT EXISTS proof (id INT); SELECT DATABASE();',
      database.bbdd,
    ]);

  /** phpMyAdmin's sign-on hand-off through the panel's TLS proxy, without a token (a plain GET). */
  const signonPage = () =>
    eventually(async () => {
      const { stdout } = await execFileAsync('curl', [
        '-sSk',
        '--resolve',
        `${PANEL_HOST}:443:${root.address}`,
        '-w',
        '\n%{http_code}',
        `https://${PANEL_HOST}/phpmyadmin/panel247-signon.php`,
      ]);
      return stdout;
    });

  it('logs in with the mariadb client to a database made through the panel, and signs on to it in phpMyAdmin through nginx', async () => {
    expect(resourceId).toBeGreaterThan(0);
    const form = await asTheCustomer(async (api) => {
      const made = await api('POST', `service/${resourceId}/ddbb/create/`, { password: DATABASE_PASSWORD });
      expect(made.system.errors).toEqual([]);
      const ddbb = (made.data as { ddbb: { id: number; bbdd: string; user: string } }).ddbb;
      database = { bbdd: ddbb.bbdd, user: ddbb.user };
      const login = await api('POST', `service/${resourceId}/ddbb/${ddbb.id}/login/`, {});
      return login.data as { action: string; fields: { token: string } };
    });
    expect((await databaseLogin()).trim()).toBe(database.bbdd);
    // the hand-off without a token refuses; with the panel's one-time token it opens phpMyAdmin on the database
    expect(await signonPage()).toMatch(/Open phpMyAdmin from the control panel\.[\s\S]*\n405$/);
    expect(form.action).toBe('/phpmyadmin/panel247-signon.php');
    const { stdout } = await execFileAsync('curl', [
      '-sSkL',
      '--resolve',
      `${PANEL_HOST}:443:${root.address}`,
      // the cookie engine on, with no file: the sign-on's session cookies follow the redirects
      '-b',
      '',
      '--data-urlencode',
      `token=${form.fields.token}`,
      `https://${PANEL_HOST}${form.action}`,
    ]);
    expect(stdout).toContain('phpMyAdmin');
    expect(stdout).toContain(database.bbdd);
    expect(stdout).toContain('proof');
  }, 300_000);

  it('doctor is green with a customer on the machine, and sync --dry-run finds no drift in any driver', async () => {
    expect(resourceId).toBeGreaterThan(0);
    const report = JSON.parse(await panel(['doctor', '--json'])) as {
      ok: boolean;
      checks: { name: string; skipped?: boolean }[];
    };
    expect(report).toMatchObject({ ok: true });
    // the probe service the install made gives every customer probe something to ask
    expect(report.checks.filter((check) => check.skipped).map((check) => check.name)).toEqual([]);
    const drift = await root.run('env', [
      '-C',
      '/opt/panel247',
      'node',
      '--import',
      'tsx',
      'apps/server/src/cli/panel.ts',
      'sync',
      '--dry-run',
    ]);
    expect(drift.code, `${drift.stdout}${drift.stderr}`).toBe(0);
    // clean: each of the six drivers (users, DNS, mail, FTP, databases, web) finds nothing to repair
    expect(drift.stdout.match(/^No drift\./gm), drift.stdout).toHaveLength(6);
  }, 300_000);

  it('starts everything again after a reboot that emptied /run', async () => {
    expect(installed).toBe(true);
    await root.reboot();
    expect(
      await eventually(async () => {
        const states = await unitStates();
        if (states['panel247.service'] !== 'active') throw new Error('the panel is not up yet');
        return states;
      }),
    ).toEqual(allActive);
    // a panel that does not answer says why: its journal of this boot
    const page = await loginPage().catch(async (error: Error) => {
      const journal = await root.run('journalctl', ['-u', 'panel247', '-b', '--no-pager', '-n', '80']);
      throw new Error(`${error.message}\n${journal.stdout}${journal.stderr}`);
    });
    expect(page).toContain('<div id="root">');
    expect(await eventually(nameServers)).toEqual(['ns1.hosting-norte.es.', 'ns2.hosting-norte.es.']);
    expect(await eventually(() => imapInbox(';UID=1'))).toContain('Subject: installed and sending');
    expect((await eventually(databaseLogin)).trim()).toBe(database.bbdd);
    expect(await signonPage()).toMatch(/\n405$/);
    expect(await sitePage()).toMatch(/^sum=42 uid=\d+$/);
  }, 600_000);

  it('changes nothing when run a second time', async () => {
    expect(installed).toBe(true);
    const result = await root.run('/opt/panel247/deploy/install.sh', flags(root.address), { timeoutMs: 1_200_000 });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/^ {2}(wrote|installed|made|repaired|restarted|started|enabled|generated) /m);
  }, 1_300_000);
});
