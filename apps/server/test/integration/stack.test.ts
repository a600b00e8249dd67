import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import mysql from 'mysql2/promise';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileAsync, requireBinary } from '../../../../scripts/daemons/daemon-harness.ts';
import { alive, listening } from '../../../../scripts/stack/stack-state.ts';
import { FormBrowser } from '../support/form-browser.ts';
import { submit } from '../support/mail-clients.ts';
import { loginToPanel } from '../support/panel-api-client.ts';
import { whmcsModule, whmcsServer } from '../support/whmcs-module.ts';

const REPO = path.resolve(import.meta.dirname, '../../../..');

interface Status {
  services: Record<string, { ok: boolean; pid: number | null; address: string }>;
}

const portOf = (address: string) => Number(address.slice(address.lastIndexOf(':') + 1));

/** As root the stack gives each hosting service a system user of its own; otherwise none (embedded). */
const asRoot = process.getuid?.() === 0;

interface Account {
  name: string;
  uid: number;
  gid: number;
  home: string;
  shell: string;
}

/** Every passwd entry (`getent passwd`), or the one named (undefined: exit 2, no such user). */
async function passwdEntries(name?: string): Promise<Account[]> {
  const answer = await execFileAsync('getent', name ? ['passwd', name] : ['passwd'], {
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { code: number }) => {
    if (error.code === 2) return { stdout: '' };
    throw error;
  });
  return answer.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [user = '', , uid, gid, , home = '', shell = ''] = line.split(':');
      return { name: user, uid: Number(uid), gid: Number(gid), home, shell };
    });
}

async function groupExists(name: string): Promise<boolean> {
  return execFileAsync('getent', ['group', name]).then(
    () => true,
    () => false,
  );
}

/**
 * `npm run stack` as an operator (and CI) runs it: one command, then every daemon proved with a
 * real client — dig, an IMAP login, an SMTP delivery read back over IMAP, an FTP upload served by
 * nginx running PHP, a MariaDB login — then things broken by hand (a site's configuration, a mail
 * view and mailbox owner, a database user) found and repaired by the matching sync, `panel sync`
 * finding nothing left, and `down` leaving no process or port behind. As root (CI) the demo
 * service is a system user of its own: its home, PHP, FTP uploads and the file manager's files are
 * its; `down` removes the stack's users, and a restart of the kept stack makes the same ones again.
 */
describe('npm run stack', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'p247-stack-'));
  let child: ChildProcess | undefined;
  let output = '';
  let status: Status;
  const address = (service: string) => status.services[service]?.address ?? '';
  const stack = (...args: string[]) =>
    execFileAsync('npm', ['run', '-s', 'stack', '--', ...args, '--dir', dir], { cwd: REPO, timeout: 60_000 });
  const curl = requireBinary('curl', 'curl');
  const dig = requireBinary('dig', 'bind9-dnsutils');
  if (asRoot) for (const binary of ['useradd', 'userdel', 'groupadd', 'groupdel']) requireBinary(binary, 'passwd');
  requireBinary('getent', 'libc-bin');
  const home = path.join(dir, 'homes', 'demo.test');
  /** The system users the stack's panel made: the homes of the stack's services are theirs in passwd. */
  const stackAccounts = async () =>
    (await passwdEntries()).filter((account) => account.home.startsWith(`${path.join(dir, 'homes')}/`));

  /** Whether the demo mailbox's INBOX holds a message with this subject within about 10 s (over IMAP). */
  const inboxHas = async (subject: string) => {
    for (let i = 0; i < 100; i++) {
      const { stdout } = await execFileAsync(curl, [
        '-s',
        '-u',
        'info@demo.test:panel247-mail',
        '-X',
        `SEARCH SUBJECT "${subject}"`,
        `imap://${address('dovecot')}/INBOX`,
      ]);
      if (/\* SEARCH \d+/.test(stdout)) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  };

  /** `npm run stack` in the foreground, until it says it is up and `status` finds every daemon up. */
  const up = async () => {
    output = '';
    // the hourly safety net off: at the hour it would put back what a test broke by hand before
    // doctor or a sync looks (it did once, in CI)
    child = spawn('npm', ['run', 'stack', '--', '--dir', dir, '--no-node-sync'], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const started = child;
    started.stdout?.on('data', (chunk) => (output += chunk));
    started.stderr?.on('data', (chunk) => (output += chunk));
    const until = Date.now() + 170_000;
    while (!output.includes('stack is up')) {
      if (started.exitCode !== null) throw new Error(`npm run stack exited with ${started.exitCode}:\n${output}`);
      if (Date.now() > until) throw new Error(`npm run stack did not come up:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // status exits 1 while a daemon is down; right after start one may still be reloading (the
    // panel's first apply, a mail certificate reloading Postfix on a busy machine): asked again
    // for up to a minute, and on failure the test shows which one
    let last = '';
    for (let attempt = 0; attempt < 120; attempt++) {
      const answer = await stack('status', '--json').then(
        (ok) => ({ ok: true, stdout: ok.stdout }),
        (failed: { stdout?: string }) => ({ ok: false, stdout: failed.stdout ?? '' }),
      );
      last = answer.stdout;
      if (answer.ok) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    status = JSON.parse(last || '{}') as Status;
    const down = Object.entries(status.services ?? {}).filter(([, service]) => !service.ok);
    if (down.length > 0) throw new Error(`down after start: ${JSON.stringify(down)}\n${output}`);
  };

  beforeAll(up, 200_000);

  afterAll(async () => {
    await stack('down').catch(() => undefined);
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints one table with every daemon and how long it took, and status says each is up', () => {
    expect(output).toMatch(/Panel247's stack is up \(\d+\.\d s\)/);
    for (const name of ['panel', 'powerdns', 'postfix', 'dovecot', 'proftpd', 'nginx', 'php-fpm', 'mariadb']) {
      const service = status.services[name];
      expect(service, name).toBeDefined();
      expect(service?.ok, `${name}\n${output}`).toBe(true);
      expect(service?.pid).toBeGreaterThan(1);
      expect(service?.address).toMatch(/^127\.0\.0\.1:\d+$/);
    }
  });

  it('the panel answers, and PowerDNS serves the demo zone it published', async () => {
    const health = await fetch(`http://${address('panel')}/p247/health/`);
    expect(await health.json()).toEqual({ status: 'ok' });
    // The seed wrote the zone before the panel started; the panel's first job publishes it.
    const answer = async () =>
      (
        await execFileAsync(dig, ['@127.0.0.1', '-p', String(portOf(address('powerdns'))), '+short', 'demo.test', 'A'])
      ).stdout.trim();
    const deadline = Date.now() + 15_000;
    while ((await answer()) === '' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await answer()).toBe('127.0.0.1');
  });

  it('Postfix delivers to a demo mailbox, which logs in over IMAP and finds the message', async () => {
    const imap = `imap://${address('dovecot')}`;
    const refused = await execFileAsync(curl, ['-s', '-u', 'info@demo.test:wrong', `${imap}/`]).catch(
      (error: { code: number }) => error.code,
    );
    expect(refused).toBe(67);
    const subject = `Stack ${Date.now()}`;
    await nodemailer
      .createTransport({ host: '127.0.0.1', port: portOf(address('postfix')), secure: false, ignoreTLS: true })
      .sendMail({ from: 'sender@example.org', to: 'info@demo.test', subject, text: 'hello' });
    expect(await inboxHas(subject)).toBe(true);
  });

  it('a PHP file uploaded over FTP is run by PHP-FPM behind nginx for the demo site', async () => {
    const file = path.join(dir, 'upload.php');
    writeFileSync(file, '<?php echo "sum=" . (20 + 22);\n');
    await execFileAsync(curl, [
      '-s',
      '-u',
      'web@demo.test:panel247-ftp',
      '-T',
      file,
      `ftp://${address('proftpd')}/stack-check.php`,
    ]);
    const { stdout } = await execFileAsync(curl, [
      '-s',
      '-H',
      'Host: demo.test',
      `http://${address('nginx')}/stack-check.php`,
    ]);
    expect(stdout).toBe('sum=42');
  });

  /** What PHP runs as for the demo site: `uid:gid` of the pool's process, from a file uploaded over FTP. */
  const phpIdentity = async () => {
    const file = path.join(dir, 'whoami.php');
    writeFileSync(file, '<?php echo posix_geteuid(), ":", posix_getegid();\n');
    await execFileAsync(curl, [
      '-s',
      '-u',
      'web@demo.test:panel247-ftp',
      '-T',
      file,
      `ftp://${address('proftpd')}/whoami.php`,
    ]);
    const { stdout } = await execFileAsync(curl, [
      '-s',
      '-H',
      'Host: demo.test',
      `http://${address('nginx')}/whoami.php`,
    ]);
    return stdout;
  };

  it('the demo service is its own system user (as root): its home, its PHP and its FTP uploads', async () => {
    const made = await stackAccounts();
    if (!asRoot) {
      // the embedded driver: no account of its own, PHP and FTP as the user the stack runs as
      expect(made).toEqual([]);
      expect(output).not.toContain('runs as its own system user');
      expect(await phpIdentity()).toBe(`${process.getuid?.()}:${process.getgid?.()}`);
      return;
    }
    const [user] = await passwdEntries('p247s1');
    expect(user).toEqual({ name: 'p247s1', uid: user?.uid, gid: user?.uid, home, shell: '/usr/sbin/nologin' });
    const uid = user?.uid as number;
    expect(uid).not.toBe(33);
    expect(await groupExists('p247s1')).toBe(true);
    expect(made.map((account) => account.name)).toContain('p247s1');
    expect(output).toMatch(/Each hosting service runs as its own system user \(uids \d+\.\.\d+\): .*p247s1 \(\d+\)/);
    // the home: the service's user, the web server's group (www-data, 33), 0750
    const info = statSync(home);
    expect({ uid: info.uid, gid: info.gid, mode: info.mode & 0o7777 }).toEqual({ uid, gid: 33, mode: 0o750 });
    // PHP-FPM's pool runs as it, and what FTP uploads is its
    expect(await phpIdentity()).toBe(`${uid}:${uid}`);
    expect(statSync(path.join(home, 'whoami.php')).uid).toBe(uid);
    expect(statSync(path.join(home, 'stack-check.php')).uid).toBe(uid);
  });

  it('MariaDB takes the panel’s admin login', async () => {
    const config = JSON.parse(readFileSync(path.join(dir, 'panel', 'panel247.json'), 'utf8'));
    const connection = await mysql.createConnection(config.databases.url);
    try {
      const [rows] = await connection.query('SELECT 1 + 1 AS two');
      expect(rows).toEqual([{ two: 2 }]);
    } finally {
      await connection.end();
    }
  });

  const panel = (...args: string[]) =>
    execFileAsync(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/panel.ts', ...args], {
      cwd: REPO,
      // the stack's own configuration: doctor's probes log in as the demo mailbox and FTP account
      env: { ...process.env, PANEL_CONFIG_FILE: path.join(dir, 'panel', 'panel247.json') },
    });
  /** `panel doctor --json`: its exit code and each check by name. */
  const doctor = async () => {
    const { code, stdout } = await panel('doctor', '--json').then(
      (done) => ({ code: 0, stdout: done.stdout }),
      (failed: { code: number; stdout: string }) => failed,
    );
    const report = JSON.parse(stdout) as { ok: boolean; checks: { name: string; ok: boolean; detail: string }[] };
    return { code, ok: report.ok, failing: report.checks.filter((check) => !check.ok).map((check) => check.name) };
  };

  it('doctor checks every daemon with a real call and finds nothing wrong', async () => {
    const { stdout } = await panel('doctor', '--json');
    const names = (JSON.parse(stdout).checks as { name: string; ok: boolean }[]).map((check) => check.name);
    expect(names).toEqual([
      'panel database',
      'work log',
      'changes on their servers',
      'servers',
      'powerdns',
      'dovecot',
      'postfix',
      'opendkim',
      'rspamd',
      'proftpd',
      'nginx',
      'php-fpm 8.2',
      'mariadb',
      'phpmyadmin',
      'restic',
      'disk',
      'php sockets 8.2',
      'dns settings',
      'php page 8.2',
      'imap login',
      'submission login',
      'dns answer',
      'ftp login',
    ]);
    expect(await doctor()).toEqual({ code: 0, ok: true, failing: [] });
  });

  interface ProbeReport {
    ok: boolean;
    checks: { name: string; ok: boolean; skipped?: true; detail: string; fix?: string }[];
  }
  /** `panel doctor --json` as the stack configures it (the demo mailbox and FTP account as the probes' logins), or with another mail password. */
  const probe = async (mailPassword = 'panel247-mail') => {
    const stdout = await execFileAsync(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/panel.ts', 'doctor', '--json'],
      {
        cwd: REPO,
        env: {
          ...process.env,
          PANEL_CONFIG_FILE: path.join(dir, 'panel', 'panel247.json'),
          PANEL_DOCTOR_MAIL_PASSWORD: mailPassword,
        },
      },
    ).then(
      (done) => done.stdout,
      (failed: { stdout: string }) => failed.stdout,
    );
    const report = JSON.parse(stdout) as ProbeReport;
    return { report, byName: Object.fromEntries(report.checks.map((check) => [check.name, check])) };
  };

  it('doctor tries what a customer would hit; a socket folder nginx cannot search and a refused login fail with their fix', async () => {
    const customerProbes = ['php page 8.2', 'imap login', 'submission login', 'dns answer', 'ftp login'];
    const good = await probe();
    for (const name of customerProbes) expect(good.byName[name], name).toMatchObject({ ok: true });
    // only the documentation values the demo zone is made from, allowed for the stack
    expect(good.report.checks.filter((check) => check.skipped).map((check) => check.name)).toEqual(['dns settings']);
    expect(good.report.ok).toBe(true);
    expect(good.byName['dns answer']?.detail).toContain('SOA demo.test @');
    // the probe page is gone
    expect(readdirSync(home).filter((file) => file.startsWith('panel247-doctor-'))).toEqual([]);

    const config = JSON.parse(readFileSync(path.join(dir, 'panel', 'panel247.json'), 'utf8'));
    const sockets = config.web.phpSockets as string | Record<string, string>;
    const folder = typeof sockets === 'string' ? (/8\.2=([^,]+)/.exec(sockets)?.[1] ?? '') : (sockets['8.2'] ?? '');
    const mode = statSync(folder).mode & 0o7777;
    // what a umask of 027 made of the folder before: nginx's workers cannot reach the sockets
    chmodSync(folder, 0o700);
    try {
      const broken = await probe('not the password');
      expect(broken.report.ok).toBe(false);
      const failing = broken.report.checks.filter((check) => !check.ok).map((check) => check.name);
      expect(failing).toEqual(
        expect.arrayContaining(['php sockets 8.2', 'php page 8.2', 'imap login', 'submission login']),
      );
      expect(broken.byName['php sockets 8.2']?.detail).toContain(`${folder} (mode 700`);
      expect(failing).not.toContain('dns answer');
      expect(failing).not.toContain('ftp login');
      expect(broken.byName['php page 8.2']?.detail).toContain(
        `nginx answers 502 for demo.test: it cannot use the pool socket ${folder}/`,
      );
      expect(broken.byName['php page 8.2']?.fix).toContain(folder);
      expect(broken.byName['imap login']?.detail).toContain('refuses the login of info@demo.test');
      expect(broken.byName['imap login']?.fix).toContain('doveadm auth test info@demo.test');
      expect(broken.byName['submission login']?.detail).toContain('535');
      expect(JSON.stringify(broken.report)).not.toContain('not the password');
      expect(readdirSync(home).filter((file) => file.startsWith('panel247-doctor-'))).toEqual([]);
    } finally {
      chmodSync(folder, mode);
    }
    expect((await probe()).report.ok).toBe(true);
  });

  it('a site configuration broken by hand: doctor finds it, web sync repairs it, doctor is clean again', async () => {
    // started with --no-node-sync: no hourly safety net puts the file back before doctor looks
    const { agent } = JSON.parse(readFileSync(path.join(dir, 'panel', 'panel247.json'), 'utf8'));
    expect(agent).toEqual({ syncSeconds: 0 });
    const conf = path.join(dir, 'web', 'web', 'live', '1', 'nginx.conf');
    writeFileSync(conf, `${readFileSync(conf, 'utf8')}\nthis is not nginx;\n`);
    expect(await doctor()).toEqual({ code: 1, ok: false, failing: ['nginx'] });
    const found = JSON.parse((await panel('web', 'sync', '--dry-run', '--json')).stdout);
    expect(found.services).toEqual([{ serviceId: 1, domain: 'demo.test', drift: 'changed', repaired: false }]);
    const repaired = JSON.parse((await panel('web', 'sync', '--json')).stdout);
    expect(repaired.services).toEqual([{ serviceId: 1, domain: 'demo.test', drift: 'changed', repaired: true }]);
    expect(await doctor()).toEqual({ code: 0, ok: true, failing: [] });
  });

  /** The panel's API as the web app calls it, logged in as the demo admin (ALTCHA solved). */
  const panelApi = () =>
    loginToPanel(`http://${address('panel')}`, {
      domainName: 'demo.test',
      username: 'admin',
      password: 'panel247-demo',
    });

  it('phpMyAdmin and WebMail open logged in from the panel’s buttons', async () => {
    const api = await panelApi();
    // a database made through the panel, opened in phpMyAdmin through its sign-on form
    const created = await api<{ ddbb: { id: number; bbdd: string } }>('POST', 'service/1/ddbb/create/', {
      password: 'stack-db-password-1',
    });
    expect(created.system.errors).toEqual([]);
    const database = created.data.ddbb;
    const pmaForm = await api<{ action: string; fields: Record<string, string> }>(
      'GET',
      `service/1/ddbb/${database.id}/login/`,
    );
    const phpMyAdmin = await new FormBrowser().open(new URL(pmaForm.data.action), {
      method: 'POST',
      form: pmaForm.data.fields,
    });
    expect(phpMyAdmin.response.status, phpMyAdmin.visited.join(' → ')).toBe(200);
    expect(phpMyAdmin.text).toMatch(new RegExp(`<title>[^<]* / ${database.bbdd} \\| phpMyAdmin`));
    expect(phpMyAdmin.text).not.toContain('name="pma_username"');
    await api('POST', `service/1/ddbb/${database.id}/delete/`);

    // the demo mailbox opened in Roundcube through the WebMail form
    const boxes = await api<{ correo: { id: number; user: string }[] }>('GET', 'service/1/correo/list/');
    const info = boxes.data.correo.find((box) => box.user === 'info');
    const webmailForm = await api<{ action: string; fields: Record<string, string> }>(
      'GET',
      `service/1/correo/${info?.id}/login/`,
    );
    const webmail = new FormBrowser();
    const signedOn = await webmail.open(new URL(webmailForm.data.action), {
      method: 'POST',
      form: webmailForm.data.fields,
    });
    expect(signedOn.visited.join(' → ')).toContain('_task=mail');
    expect(signedOn.text).not.toContain('rcmloginuser');
    expect(signedOn.text).toContain('info@demo.test');
  });

  it('WebFTP opens the panel’s file manager on the account’s folder: FTP and it see the same files', async () => {
    const api = await panelApi();
    const accounts = await api<{ ftps: { id: number; user: string }[] }>('GET', 'service/1/ftp/list/');
    const web = accounts.data.ftps.find((ftp) => ftp.user === 'web@demo.test');
    const form = await api<{ action: string; method: string; fields: Record<string, string> }>(
      'POST',
      `service/1/ftp/${web?.id}/login/`,
    );
    expect(form.data).toEqual({
      action: '/admin/1/service/files/',
      method: 'get',
      fields: { ftp: String(web?.id), path: '' },
    });
    // the page it opens answers (the web app), and its list shows what FTP uploaded before
    expect((await fetch(`http://${address('panel')}${form.data.action}?ftp=${web?.id}`)).status).toBe(200);
    const listed = await api<{ entries: { name: string }[] }>('GET', 'service/1/files/list/', { ftp: String(web?.id) });
    expect(listed.data.entries.map((entry) => entry.name)).toContain('stack-check.php');

    // a file uploaded through the file manager is there over FTP, byte for byte
    const content = `uploaded through the file manager ${Date.now()}\n`;
    const base = `http://${address('panel')}/p247/`;
    const cookie = api.cookie();
    const upload = await fetch(
      `${base}service/1/files/upload/?${new URLSearchParams({ ftp: String(web?.id), path: '', name: 'from-panel.txt', offset: '0', size: String(Buffer.byteLength(content)) })}`,
      {
        method: 'PUT',
        headers: { 'x-dd-request': '1', cookie, 'content-type': 'application/octet-stream' },
        body: content,
      },
    );
    expect(((await upload.json()) as { data: unknown }).data).toEqual({
      received: Buffer.byteLength(content),
      done: true,
    });
    const { stdout } = await execFileAsync(curl, [
      '-s',
      '-u',
      'web@demo.test:panel247-ftp',
      `ftp://${address('proftpd')}/from-panel.txt`,
    ]);
    expect(stdout).toBe(content);
    // the same owner as what FTP uploaded: FTP, PHP and the file manager share their files (as
    // root the service's user: the file manager's worker runs as it)
    const owner = (file: string) => statSync(path.join(home, file)).uid;
    expect(owner('from-panel.txt')).toBe(owner('stack-check.php'));
    if (asRoot) expect(owner('from-panel.txt')).toBe((await passwdEntries('p247s1'))[0]?.uid);
  });

  it('web sync finds a site configuration removed by hand, and puts it back', async () => {
    const clean = JSON.parse((await panel('web', 'sync', '--dry-run', '--json')).stdout);
    expect(clean.services).toEqual([]);
    unlinkSync(path.join(dir, 'web', 'web', 'live', '1'));
    const found = JSON.parse((await panel('web', 'sync', '--dry-run', '--json')).stdout);
    expect(found.services).toEqual([{ serviceId: 1, domain: 'demo.test', drift: 'missing', repaired: false }]);
    const repaired = JSON.parse((await panel('web', 'sync', '--json')).stdout);
    expect(repaired.services).toEqual([{ serviceId: 1, domain: 'demo.test', drift: 'missing', repaired: true }]);
    expect(JSON.parse((await panel('web', 'sync', '--dry-run', '--json')).stdout).services).toEqual([]);
  });

  it('mail broken by hand (a view dropped, a mailbox chowned): IMAP fails, mail sync finds and repairs it', async () => {
    const imap = `imap://${address('dovecot')}`;
    const inbox = () =>
      execFileAsync(curl, ['-s', '-u', 'info@demo.test:panel247-mail', '-X', 'SEARCH ALL', `${imap}/INBOX`]).then(
        (done) => done.stdout,
        (failed: { code: number }) => `curl exit ${failed.code}`,
      );
    expect(await inbox()).toMatch(/\* SEARCH \d+/);
    const database = new SQLite(path.join(dir, 'panel', 'panel.sqlite'));
    database.exec('DROP VIEW mail_users_view');
    database.close();
    const mailbox = path.join(dir, 'mail', 'mail', 'demo.test', 'info');
    await execFileAsync('chown', ['-R', 'root:root', mailbox]);
    // Dovecot would keep answering from its auth cache for an hour: start it afresh.
    const doveadm = requireBinary('doveadm', 'dovecot-core');
    await execFileAsync(doveadm, ['-c', path.join(dir, 'mail', 'dovecot', 'dovecot.conf'), 'auth', 'cache', 'flush']);
    expect(await inbox()).not.toMatch(/\* SEARCH \d+/);

    const found = JSON.parse((await panel('mail', 'sync', '--dry-run', '--json')).stdout);
    expect(found).toMatchObject({
      views: [{ view: 'mail_users_view', repaired: false }],
      folders: [{ folder: 'demo.test/info', problem: 'owner', repaired: false }],
    });
    expect(await inbox()).not.toMatch(/\* SEARCH \d+/);
    const repaired = JSON.parse((await panel('mail', 'sync', '--json')).stdout);
    expect(repaired).toMatchObject({
      views: [{ view: 'mail_users_view', repaired: true }],
      folders: [{ folder: 'demo.test/info', problem: 'owner', repaired: true }],
    });
    expect(await inbox()).toMatch(/\* SEARCH \d+/);
  });

  it('a database user dropped by hand: its login fails, databases sync finds and repairs it', async () => {
    const api = await panelApi();
    const created = await api<{ ddbb: { id: number; bbdd: string; user: string } }>('POST', 'service/1/ddbb/create/', {
      password: 'stack-db-password-2',
    });
    expect(created.system.errors).toEqual([]);
    const { bbdd, user } = created.data.ddbb;
    const config = JSON.parse(readFileSync(path.join(dir, 'panel', 'panel247.json'), 'utf8'));
    const admin = await mysql.createConnection(config.databases.url);
    const login = () =>
      mysql
        .createConnection({ host: '127.0.0.1', port: config.databases.port, user, password: 'stack-db-password-2' })
        .then(
          (connection) => connection.end().then(() => true),
          () => false,
        );
    try {
      expect(await login()).toBe(true);
      await admin.query("DROP USER ?@'127.0.0.1'", [user]);
      expect(await login()).toBe(false);
      const mine = (report: { databases: { name: string }[] }) => report.databases.filter((d) => d.name === bbdd);
      const found = JSON.parse((await panel('databases', 'sync', '--dry-run', '--json')).stdout);
      expect(mine(found)).toEqual([{ name: bbdd, problem: 'user', repaired: false }]);
      const repaired = JSON.parse((await panel('databases', 'sync', '--json')).stdout);
      expect(mine(repaired)).toEqual([{ name: bbdd, problem: 'user', repaired: true }]);
      expect(await login()).toBe(true);
    } finally {
      await admin.end();
    }
  });

  it('panel sync runs every sync and finds nothing left to repair', async () => {
    const { stdout } = await panel('sync', '--json');
    const report = JSON.parse(stdout);
    expect(Object.keys(report)).toEqual(['dryRun', 'users', 'dns', 'mail', 'ftp', 'databases', 'web']);
    expect(report.users.users).toEqual([]);
    expect(report.dns.zones.length).toBeGreaterThan(0);
    for (const zone of report.dns.zones) expect(zone).toMatchObject({ missing: [], extra: [], changed: [] });
    expect(report.mail).toMatchObject({ views: [], folders: [] });
    expect(report.ftp).toMatchObject({ views: [], missing: [], extra: [], changed: [], homes: [] });
    expect(report.databases.databases.filter((d: { problem: string }) => d.problem !== 'extra')).toEqual([]);
    expect(report.web.services).toEqual([]);
  });

  it('a backup brings back what was deleted through each daemon: FTP file, table, IMAP message, DNS record', async () => {
    const api = await panelApi();
    const imap = `imap://${address('dovecot')}`;
    const ftp = `ftp://${address('proftpd')}`;
    const mailLogin = ['-s', '-u', 'info@demo.test:panel247-mail'];
    const ftpLogin = ['-s', '-u', 'web@demo.test:panel247-ftp'];
    const digTxt = async () =>
      (
        await execFileAsync(dig, [
          '@127.0.0.1',
          '-p',
          String(portOf(address('powerdns'))),
          '+short',
          'kept.demo.test',
          'TXT',
        ])
      ).stdout.trim();
    const inbox = async () =>
      (await execFileAsync(curl, [...mailLogin, '-X', 'SEARCH ALL', `${imap}/INBOX`])).stdout.trim();

    // what will be backed up: a file uploaded over FTP, a table, the mailbox's messages, a record
    const upload = path.join(dir, 'kept.txt');
    writeFileSync(upload, `kept ${Date.now()}\n`);
    await execFileAsync(curl, [...ftpLogin, '-T', upload, `${ftp}/kept.txt`]);
    const created = await api<{ ddbb: { id: number; bbdd: string; user: string } }>('POST', 'service/1/ddbb/create/', {
      password: 'stack-db-password-3',
    });
    const { bbdd, user } = created.data.ddbb;
    const config = JSON.parse(readFileSync(path.join(dir, 'panel', 'panel247.json'), 'utf8'));
    const asUser = () =>
      mysql.createConnection({
        host: '127.0.0.1',
        port: config.databases.port,
        user,
        password: 'stack-db-password-3',
        database: bbdd,
      });
    const writer = await asUser();
    await writer.query('CREATE TABLE kept (id INT PRIMARY KEY, body TEXT)');
    await writer.query("INSERT INTO kept VALUES (1, 'uno'), (2, 'dos')");
    await writer.end();
    const messages = await inbox();
    expect(messages).toMatch(/\* SEARCH \d+/);
    await api('POST', 'service/1/dns/create/', { type: 'TXT', zona: 'kept', value: 'backed up' });
    expect(await digTxt()).toBe('"backed up"');

    const run = JSON.parse((await panel('backup', 'run', 'demo.test', '--json')).stdout);
    const snapshot = run.snapshots[0].snapshot.id.slice(0, 8) as string;

    // each deleted through its own daemon's client
    await execFileAsync(curl, [...ftpLogin, '-Q', 'DELE kept.txt', `${ftp}/`]);
    const dropper = await asUser();
    await dropper.query('DROP TABLE kept');
    await dropper.end();
    await execFileAsync(curl, [...mailLogin, '-X', 'STORE 1:* +FLAGS \\Deleted', `${imap}/INBOX`]);
    await execFileAsync(curl, [...mailLogin, '-X', 'EXPUNGE', `${imap}/INBOX`]);
    expect(await inbox()).toBe('* SEARCH');
    const records = await api<{ dnss: { id: number; zona: string; type: string }[] }>('GET', 'service/1/dns/list/');
    const kept = records.data.dnss.find((record) => record.zona === 'kept' && record.type === 'TXT');
    await api('POST', `service/1/dns/${kept?.id}/delete/`);
    expect(await digTxt()).toBe('');

    for (const part of [['--files', 'kept.txt'], ['--database', bbdd], ['--mailbox', 'info'], ['--dns']]) {
      await panel('backup', 'restore', 'demo.test', snapshot, ...part);
    }
    const downloaded = await execFileAsync(curl, [...ftpLogin, `${ftp}/kept.txt`]);
    expect(downloaded.stdout).toBe(readFileSync(upload, 'utf8'));
    const reader = await asUser();
    const [rows] = await reader.query('SELECT id, body FROM kept ORDER BY id');
    await reader.end();
    expect(rows).toEqual([
      { id: 1, body: 'uno' },
      { id: 2, body: 'dos' },
    ]);
    expect(await inbox()).toBe(messages);
    expect(await digTxt()).toBe('"backed up"');
    expect(JSON.parse((await panel('backup', 'check', '--json')).stdout).ok).toBe(true);
    // Seven CLI starts and as many restic runs (each opening the repository's key): minutes on a
    // busy machine, where the tier's one minute per test ran out.
  }, 240_000);

  /** `down`, then nothing of the stack is left: no process, no port, no system user or group of its. */
  const downLeavesNothing = async () => {
    const pids = Object.values(status.services).flatMap((service) => (service.pid ? [service.pid] : []));
    const addresses = Object.values(status.services).map((service) => service.address);
    const made = await stackAccounts();
    if (asRoot) expect(made.map((account) => account.name)).toEqual(expect.arrayContaining(['p247s1', 'p247s3']));
    const { stdout } = await stack('down');
    expect(stdout).toContain('no process of the stack is left');
    expect(pids.filter(alive)).toEqual([]);
    for (const where of addresses) expect(await listening(where), where).toBe(false);
    const after = await stack('status', '--json').catch((error: { stdout: string }) => error);
    expect(JSON.parse(after.stdout)).toEqual({ services: {} });
    // the foreground removed them as it stopped (SIGTERM from down)
    expect(await stackAccounts()).toEqual([]);
    for (const account of made) {
      expect(await passwdEntries(account.name), account.name).toEqual([]);
      expect(await groupExists(account.name), account.name).toBe(false);
    }
    return made;
  };

  let removed: Account[] = [];
  /** Pebble's root (new at each start of the stack), from its management API, in a file for the clients. */
  const pebbleRoot = async () => {
    const file = path.join(dir, 'pebble-root.pem');
    const listener = path.join(dir, 'panel', 'pebble-listener.pem');
    const { stdout } = await execFileAsync(curl, [
      '-s',
      '--cacert',
      listener,
      `https://${address('pebble-management')}/roots/0`,
    ]);
    expect(stdout).toContain('BEGIN CERTIFICATE');
    writeFileSync(file, stdout);
    return file;
  };
  const openssl = requireBinary('openssl', 'openssl');

  it('the demo zone holds only addresses the stack serves: its A on loopback, no AAAA', async () => {
    const lookup = async (name: string, type: string) =>
      (
        await execFileAsync(dig, ['@127.0.0.1', '-p', String(portOf(address('powerdns'))), '+short', name, type])
      ).stdout.trim();
    expect(await lookup('demo.test', 'AAAA')).toBe('');
    // www is a CNAME to the apex: the alias, and no address of IPv6
    expect(await lookup('www.demo.test', 'AAAA')).not.toMatch(/:/);
    expect(await lookup('ssl.demohosting.test', 'A')).toBe('127.0.0.1');
  });

  it('automatic HTTPS works for the demo site: Pebble issues over HTTP-01 and nginx serves it', async () => {
    const api = await panelApi();
    const sites = await api<{ subdomains: { id: number; subdominio: string }[] }>('GET', 'service/1/subdomain/list/');
    const main = sites.data.subdomains.find((site) => site.subdominio === '');
    const started = await api<{ certificate: { state: string } }>(
      'POST',
      `service/1/subdomain/${main?.id}/certificate/auto/`,
    );
    expect(started.system.errors).toEqual([]);
    let state = started.data.certificate;
    let error = '';
    for (let i = 0; i < 600 && state.state !== 'installed' && state.state !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const answer = await api<{ certificate: { state: string; error: string } }>(
        'GET',
        `service/1/subdomain/${main?.id}/certificate/`,
      );
      state = answer.data.certificate;
      error = answer.data.certificate.error;
    }
    expect(state.state, error).toBe('installed');
    const https = portOf(address('nginx-https'));
    const { stdout } = await execFileAsync(curl, [
      '-s',
      '--cacert',
      await pebbleRoot(),
      '--resolve',
      `demo.test:${https}:127.0.0.1`,
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{ssl_verify_result}',
      `https://demo.test:${https}/`,
    ]);
    expect(stdout).toMatch(/^\d{3} 0$/);
  });

  it('IMAPS and STARTTLS on IMAP show a certificate Pebble issued for the mail host', async () => {
    const root = await pebbleRoot();
    const host = 'ssl.demohosting.test';
    const imaps = portOf(address('dovecot-imaps'));
    const curlAnswer = await execFileAsync(curl, [
      '-v',
      '-s',
      '--cacert',
      root,
      '--connect-to',
      `${host}:${imaps}:127.0.0.1:${imaps}`,
      '-u',
      'info@demo.test:panel247-mail',
      `imaps://${host}:${imaps}/INBOX`,
    ]);
    expect(curlAnswer.stderr).toMatch(/issuer:.*Pebble/i);
    expect(curlAnswer.stderr).toMatch(/SSL certificate verify ok|certificate verified/i);
    // s_client reads its input to the end: the command, then end of input
    const starttls = await new Promise<string>((resolve) => {
      const client = execFile(
        openssl,
        [
          's_client',
          '-starttls',
          'imap',
          '-connect',
          address('dovecot'),
          '-servername',
          host,
          '-CAfile',
          root,
          '-verify_hostname',
          host,
          '-verify_return_error',
        ],
        { timeout: 20_000 },
        (_error, stdout, stderr) => resolve(`${stdout}${stderr}`),
      );
      client.stdin?.end('a1 LOGOUT\r\n');
    });
    expect(starttls).toContain('Verify return code: 0 (ok)');
    expect(starttls).toMatch(/issuer=.*Pebble/i);
  });

  it('a phone’s mail client: autoconfig names the ports that answer, and submission with STARTTLS and a login delivers', async () => {
    const panel = status.services.panel?.address ?? '';
    const answer = await fetch(`http://${panel}/mail/config-v1.1.xml?emailaddress=info%40demo.test`, {
      headers: { host: 'autoconfig.demo.test' },
    });
    expect(answer.status).toBe(200);
    const document = await answer.text();
    const advertised = [...document.matchAll(/<port>(\d+)<\/port>\s*<socketType>(\w+)<\/socketType>/g)].map(
      ([, port, socket]) => `${port} ${socket}`,
    );
    expect(advertised.sort()).toEqual(
      [
        `${portOf(address('dovecot-imaps'))} SSL`,
        `${portOf(address('dovecot'))} STARTTLS`,
        `${portOf(address('postfix-submissions'))} SSL`,
        `${portOf(address('postfix-submission'))} STARTTLS`,
      ].sort(),
    );
    const subject = `Submitted ${Date.now()}`;
    const sent = await submit({
      server: address('postfix-submission'),
      login: 'info@demo.test',
      password: 'panel247-mail',
      to: 'info@demo.test',
      subject,
      extra: ['--tls-verify', '--tls-ca-path', await pebbleRoot(), '--tls-sni', 'ssl.demohosting.test'],
    });
    expect(sent.code, sent.output).toBe(0);
    expect(await inboxHas(subject)).toBe(true);
  });

  it('the WHMCS module drives a service through the real daemons: created, suspended, lifted, signed on to, terminated to nothing', async () => {
    const domain = 'whmcs-stack.test';
    const password = 'Whmcs-stack-pass-1';
    const panelUrl = `http://${address('panel')}`;
    const made = JSON.parse((await panel('provider-token', 'add', 'whmcs-stack', '--json')).stdout) as {
      token: string;
    };
    const run = whmcsModule(whmcsServer('127.0.0.1', portOf(address('panel')), made.token));
    const service = { serviceid: 7, pid: 1, domain, username: 'owner', password, configoption1: '', configoption2: '' };
    const config = JSON.parse(readFileSync(path.join(dir, 'panel', 'panel247.json'), 'utf8'));
    const file = path.join(dir, 'whmcs-index.php');
    writeFileSync(file, '<?php echo "whmcs=" . (40 + 2);\n');
    /** Whether each real client gets in (or gets the site's page), asked again for a while until it matches. */
    const site = () =>
      execFileAsync(curl, ['-s', '-w', ' %{http_code}', '-H', `Host: ${domain}`, `http://${address('nginx')}/`]).then(
        (answer) => answer.stdout,
        // nginx closes the connection of a host it does not serve (444)
        () => 'no answer',
      );
    const imapLogin = () =>
      execFileAsync(curl, ['-s', '-u', `info@${domain}:${password}`, `imap://${address('dovecot')}/`]).then(
        () => true,
        () => false,
      );
    let ftpUser = '';
    const ftpLogin = () =>
      execFileAsync(curl, ['-s', '-u', `${ftpUser}:${password}`, `ftp://${address('proftpd')}/`]).then(
        () => true,
        () => false,
      );
    let database = { bbdd: '', user: '' };
    const databaseLogin = () =>
      mysql.createConnection({ host: '127.0.0.1', port: config.databases.port, user: database.user, password }).then(
        (connection) => connection.end().then(() => true),
        () => false,
      );
    const eventually = async (what: string, probe: () => Promise<boolean>) => {
      for (let i = 0; i < 100 && !(await probe()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await probe(), what).toBe(true);
    };

    // CreateAccount: the customer logs in; a site, a mailbox, FTP and a database answer real clients
    expect((await run('CreateAccount', service)).answer).toBe('success');
    const api = await loginToPanel(panelUrl, { domainName: domain, username: 'owner', password });
    const [resource] = JSON.parse((await panel('resource', 'list', '--domain', domain, '--json')).stdout) as {
      id: number;
    }[];
    const id = resource?.id as number;
    const ftp = await api<{ ftp: { user: string } }>('POST', `service/${id}/ftp/create/`, {
      ftpUser: 'web',
      password,
      folder: '',
    });
    expect(ftp.system.errors).toEqual([]);
    ftpUser = ftp.data.ftp.user;
    expect((await api('POST', `service/${id}/correo/create/`, { name: 'info', password })).system.errors).toEqual([]);
    const created = await api<{ ddbb: { bbdd: string; user: string } }>('POST', `service/${id}/ddbb/create/`, {
      password,
    });
    expect(created.system.errors).toEqual([]);
    database = created.data.ddbb;
    await eventually('an FTP upload into the new home', async () =>
      execFileAsync(curl, [
        '-s',
        '-u',
        `${ftpUser}:${password}`,
        '-T',
        file,
        `ftp://${address('proftpd')}/index.php`,
      ]).then(
        () => true,
        () => false,
      ),
    );
    await eventually('the site served by nginx and PHP', async () => (await site()) === 'whmcs=42 200');
    await eventually('an IMAP login', imapLogin);
    expect(await databaseLogin()).toBe(true);

    // SuspendAccount: the suspended page, and the IMAP, FTP and panel logins refused; mail still arrives
    expect((await run('SuspendAccount', { ...service, suspendreason: 'Overdue on Payment' })).answer).toBe('success');
    await eventually('the suspended page', async () => (await site()).endsWith(' 503'));
    await eventually('IMAP refused', async () => !(await imapLogin()));
    await eventually('FTP refused', async () => !(await ftpLogin()));
    const refused = await fetch(`${panelUrl}/p247/user/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ domainName: domain, username: 'owner', password }).toString(),
    });
    expect(refused.status).toBe(403);

    // UnsuspendAccount: all of it back
    expect((await run('UnsuspendAccount', service)).answer).toBe('success');
    await eventually('the site again', async () => (await site()) === 'whmcs=42 200');
    await eventually('IMAP again', imapLogin);
    await eventually('FTP again', ftpLogin);

    // ServiceSingleSignOn: a link that logs in once
    const signOn = (await run('ServiceSingleSignOn', service)).answer as { success: boolean; redirectTo: string };
    expect(signOn.success).toBe(true);
    const link = new URL(signOn.redirectTo);
    const follow = () => fetch(`${panelUrl}${link.pathname}${link.search}`, { redirect: 'manual' });
    expect((await follow()).status).toBe(303);
    expect((await follow()).status).toBe(403);

    // TerminateAccount: nothing of it on any daemon, and sync finds nothing to remove
    expect((await run('TerminateAccount', service)).answer).toBe('success');
    await eventually('the termination finished', async () => {
      const answer = await fetch(`${panelUrl}/p247/provider/service/${domain}/terminate/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${made.token}` },
      });
      return (
        ((await answer.json()) as { data: { termination: { state: string } } }).data.termination.state === 'terminated'
      );
    });
    expect(await site()).not.toContain('whmcs=42');
    expect(await imapLogin()).toBe(false);
    expect(await ftpLogin()).toBe(false);
    expect(await databaseLogin()).toBe(false);
    const soa = await execFileAsync(dig, [
      '+norec',
      '-p',
      String(portOf(address('powerdns'))),
      '@127.0.0.1',
      domain,
      'SOA',
    ]);
    expect(soa.stdout).toMatch(/status: REFUSED/);
    expect(existsSync(path.join(dir, 'homes', domain))).toBe(false);
    expect(existsSync(path.join(dir, 'mail', 'mail', domain))).toBe(false);
    if (asRoot) expect(await passwdEntries(`p247s${id}`)).toEqual([]);
    const report = JSON.parse((await panel('sync', '--dry-run', '--json')).stdout);
    expect(report.users.users).toEqual([]);
    expect(report.web.services).toEqual([]);
    expect(report.mail).toMatchObject({ views: [], folders: [] });
    expect(report.ftp).toMatchObject({ views: [], missing: [], extra: [], changed: [], homes: [] });
    expect(report.databases.databases.filter((d: { name: string }) => d.name === database.bbdd)).toEqual([]);
    expect(report.dns.zones.map((zone: { zone: string }) => zone.zone)).not.toContain(domain);
  }, 240_000);

  it('down stops exactly what it started: no process, no port and no system user of the stack left', async () => {
    removed = await downLeavesNothing();
  });

  it('a restart of the kept stack makes the same users again, which run its PHP; down removes them again', async () => {
    await up();
    expect(await stackAccounts()).toEqual(removed);
    const uid = removed.find((account) => account.name === 'p247s1')?.uid ?? process.getuid?.();
    const gid = asRoot ? uid : process.getgid?.();
    expect(await phpIdentity()).toBe(`${uid}:${gid}`);
    const info = statSync(home);
    if (asRoot)
      expect({ uid: info.uid, gid: info.gid, mode: info.mode & 0o7777 }).toEqual({ uid, gid: 33, mode: 0o750 });
    expect(statSync(path.join(home, 'from-panel.txt')).uid).toBe(uid);
    // nothing left for users sync to repair, and nothing for it to remove
    const report = JSON.parse((await panel('users', 'sync', '--dry-run', '--json')).stdout);
    expect(report).toEqual({ driver: asRoot ? 'system' : 'embedded', dryRun: true, users: [] });
    await downLeavesNothing();
  }, 200_000);
});
